package org.jmpi.internal.pt2pt;

import org.jmpi.Datatype;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.CopyCostModel;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Pack at send, for the direct offer of {@link PeerCopyPath} under {@code jmpi.pvas.mode=auto} (issue 11, docs/pvas.md
 * "Pack at send"): a sender whose layout is finely scattered ({@link CopyCostModel#packAtSend}) packs the message into a
 * contiguous staging buffer of its own and offers that (as {@code count} bytes of {@link Datatype#BYTE}) instead of
 * its buffer, so the receiver unpacks from one contiguous run.
 * <ol>
 * <li>Why: a receiver that walks the sender's scattered runs reads a cache line the other core holds for almost every
 * run; the sender packing from its own cache and the receiver reading a contiguous stream (which the prefetcher
 * follows) is what DDTBench's hand-packed exchange does, and it was 1.5-3.5x faster between two threads
 * (SPECFEM3D_oc/_cm, WRF_x_vec; docs/pvas.md).</li>
 * <li>The staging buffer: a {@code byte[]} where the peer memory exposes heap objects (threads of one JVM), else a
 * record of the peer memory (the arena across JVMs); one per peer channel, reused by the next message once the
 * receiver's FIN or CTS came back, grown to the largest message packed. A second message in flight to the same
 * peer, or a staging buffer the peer memory cannot give, is offered unpacked as before.</li>
 * <li>The receiver's cost model still decides: on a CTS the sender streams fragments from its own buffer.</li>
 * </ol>
 *
 * <p>Threading: engine thread only.
 */
final class SendPacking
{
    /** Largest message packed at send: beyond it the staging buffer's memory is not worth it. */
    static final long MAX_BYTES = 1 << 20;

    /** Per channel: a free staging buffer (absent while one is in use). */
    private final Map<PeerChannel, Object> free = new IdentityHashMap<>();
    private long packed;

    /**
     * Packs {@code s} into a staging buffer exposed to the peer when the model says so; true when it did
     * ({@code s.staging} and {@code s.exposedHandle} are then set).
     */
    boolean pack(final SendRequestImpl s, final PeerChannel ch, final CopyCostModel model, final int maxFragment)
    {
        final Convertor c = s.convertor;
        if (model == null || c == null || !c.isNativeOrder() || s.totalBytes > MAX_BYTES ||
            !model.packAtSend(c.stats(), s.totalBytes, maxFragment))
        {
            return false;
        }
        Object staging = free.remove(ch);
        long handle = 0;
        if (staging != null && BufferView.of(staging, "staging").capacityBytes() >= s.totalBytes)
        {
            handle = ch.peerMemory.expose(staging);
        }
        else
        {
            release(ch, staging);
            staging = new byte[(int)s.totalBytes];
            handle = ch.peerMemory.expose(staging);
            if (handle == 0)
            {
                // The peer memory exposes only its own memory (the arena): a record of it.
                staging = ch.peerMemory.record((int)((s.totalBytes + 7) / 8));
                handle = staging == null ? 0 : ch.peerMemory.expose(staging);
            }
        }
        if (handle == 0)
        {
            release(ch, staging);
            return false;
        }
        final BufferView view = BufferView.of(staging, "staging");
        c.seek(0);
        c.pack(view.base(), view.address(), s.totalBytes);
        c.seek(0);
        s.staging = staging;
        s.exposedHandle = handle;
        packed++;
        return true;
    }

    /** The send no longer needs its staging buffer (FIN or CTS): keep it for the next message to the same peer. */
    void done(final SendRequestImpl s, final PeerChannel ch)
    {
        final Object staging = s.staging;
        if (staging == null)
        {
            return;
        }
        s.staging = null;
        final Object previous = free.put(ch, staging);
        if (previous != null)
        {
            release(ch, previous);
        }
    }

    private static void release(final PeerChannel ch, final Object staging)
    {
        if (staging != null && !(staging instanceof byte[]))
        {
            ch.peerMemory.releaseRecord(staging);
        }
    }

    /** Messages packed at send. */
    long packed()
    {
        return packed;
    }
}
