package org.jmpi.transport.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.spi.Doorbell;

import java.lang.invoke.VarHandle;

/**
 * A rank's doorbell in the node's file ({@link DoorbellDescriptor}), as its owner sleeps on it and as peers ring
 * it: the owner arms it before it parks and sleeps on the sequence word with a futex; whoever writes it a frame,
 * in any process of the node, rings it when armed (bump the sequence, futex wake).
 *
 * <p>Threading: {@link #arm}, {@link #await}, {@link #disarm} on the owner's engine thread; {@link #ring} from any
 * thread of any process mapping the file.
 */
final class ShmDoorbell implements Doorbell
{
    private final UnsafeBuffer bell;
    private final long sequenceAddress;
    private final Futex.Timeout timeout;

    /** @param bell the doorbell's {@link DoorbellDescriptor#LENGTH} bytes, mapped. */
    ShmDoorbell(final UnsafeBuffer bell, final boolean owner)
    {
        this.bell = bell;
        this.sequenceAddress = bell.addressOffset() + DoorbellDescriptor.SEQUENCE_OFFSET;
        this.timeout = owner ? new Futex.Timeout() : null;
    }

    /**
     * Arms the bell; with {@link Futex#MEMBARRIER}, then makes every running thread of the node's ranks pass a full
     * barrier, so that a frame a sender committed before it read the bell disarmed is visible to the poll the
     * engine makes next ({@link #ring}).
     */
    @Override
    public int arm()
    {
        bell.putIntVolatile(DoorbellDescriptor.ARMED_OFFSET, 1);
        if (Futex.MEMBARRIER)
        {
            Futex.heavyBarrier();
        }
        return bell.getIntVolatile(DoorbellDescriptor.SEQUENCE_OFFSET);
    }

    @Override
    public void await(final int token, final long timeoutNs)
    {
        Futex.await(sequenceAddress, token, timeout, timeoutNs);
    }

    @Override
    public void disarm()
    {
        bell.putIntOrdered(DoorbellDescriptor.ARMED_OFFSET, 0);
    }

    /**
     * Wakes the owner if it is armed: every sender calls it after each frame it writes. The frame's commit (a
     * release store) must be ordered before the read of the armed word, as the owner's arming is ordered before its
     * last poll: either the owner's poll sees the frame or this read sees the owner armed, so no wake-up is lost.
     * <ul>
     * <li>With {@link Futex#MEMBARRIER} (Linux 4.16 and later) the order comes from the owner's side: it arms, then
     * makes every running thread of the node's ranks pass a full barrier (an asymmetric Dekker, as in Folly's
     * {@code asymmetricHeavyBarrier}), so a sender only reads the word. A full fence per frame stalled the sender
     * until the frame's cache line, which the spinning receiver held, came back to it: 0.2 µs a message in a window
     * of 64 sends when the two ranks' CPUs did not share a cache (issue 12, message rate). The compiler keeps the
     * volatile read after the release store: HotSpot orders unsafe accesses of either kind with CPU-order barriers.</li>
     * <li>Without it, a full fence here.</li>
     * </ul>
     * Only the ringer that disarms the bell (armed 1 to 0 by compare-and-set) bumps the sequence and makes the
     * futex call: one wake per park. Before, every frame written while the owner slept or was waking paid an atomic
     * add on the owner's line and a futex system call, 64 for a window of 64 isends to a receiver that had just
     * parked. A ringer that loses the race needs no wake of its own: its frame was visible before its read of the
     * armed word, and that read came before the winner's disarming, whose wake makes the owner poll after it; and an
     * owner that arms again polls once more before it sleeps.
     */
    @Override
    public void ring()
    {
        if (!Futex.MEMBARRIER)
        {
            VarHandle.fullFence();
        }
        if (bell.getIntVolatile(DoorbellDescriptor.ARMED_OFFSET) != 0 && bell.compareAndSetInt(DoorbellDescriptor.ARMED_OFFSET, 1, 0))
        {
            bell.getAndAddInt(DoorbellDescriptor.SEQUENCE_OFFSET, 1);
            Futex.wakeOne(sequenceAddress);
        }
    }
}
