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

    @Override
    public int arm()
    {
        bell.putIntVolatile(DoorbellDescriptor.ARMED_OFFSET, 1);
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
     * Wakes the owner if it is armed (a fence and a shared read otherwise): every sender calls it after each frame
     * it writes. The fence orders the frame's commit (a release store) before the read of the armed word, as the
     * owner's volatile arming is ordered before its last poll: either the owner's poll sees the frame or this read
     * sees the owner armed, so no wake-up is lost. (With one many-to-one ring per receiver, the claim's CAS came
     * before the commit, not after it, so it never gave this order.)
     *
     * <p>Only the ringer that disarms the bell (armed 1 to 0 by compare-and-set) bumps the sequence and makes the
     * futex call: one wake per park. Before, every frame written while the owner slept or was waking paid an atomic
     * add on the owner's line and a futex system call; a window of 64 isends to a receiver that had just parked paid
     * 64, which held the sender at 0.2 µs a message, long enough for the receiver to park again at the next window
     * (issue 12, message rate). A ringer that loses the race needs no wake of its own: its frame was committed before
     * its read of the armed word, and that read came before the winner's disarming, whose wake makes the owner
     * poll after it; and an owner that arms again polls once more before it sleeps (the first paragraph).
     */
    @Override
    public void ring()
    {
        VarHandle.fullFence();
        if (bell.getIntVolatile(DoorbellDescriptor.ARMED_OFFSET) != 0 && bell.compareAndSetInt(DoorbellDescriptor.ARMED_OFFSET, 1, 0))
        {
            bell.getAndAddInt(DoorbellDescriptor.SEQUENCE_OFFSET, 1);
            Futex.wakeOne(sequenceAddress);
        }
    }
}
