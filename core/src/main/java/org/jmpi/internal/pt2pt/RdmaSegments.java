package org.jmpi.internal.pt2pt;

import org.agrona.collections.Long2ObjectHashMap;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.spi.RemoteMemory;

/**
 * The scatter-gather side of {@link RdmaPath} (issue 19): a rendezvous whose one side is a non-contiguous layout
 * and whose other side is one run moves with {@link RemoteMemory#putGather} (the sender's runs into the receiver's
 * run) or {@link RemoteMemory#getScatter} (the sender's run into the receiver's runs), so the strided side is never
 * packed.
 * <ol>
 * <li>{@link #eligible}: a native-order layout of more than one run whose mean run is at least
 * {@code jmpi.rdma.sge.min} bytes (shorter runs move faster packed into fragments).</li>
 * <li>A {@link Transfer} walks the layout's {@link Convertor} from stream position 0 to the accepted length and
 * hands the runs to the transport {@link #LIST_RUNS} at a time (the list is reused: a long layout never becomes one
 * long array); the transport starts as many as it has room for and the rest wait in the peer's ordered queue.</li>
 * <li>Every started run is reported by one completion with the transfer's token; the transfer is finished when every
 * run was started and reported, or, after a failed run, when those in flight are reported (no more start).</li>
 * </ol>
 *
 * <p>Threading: engine thread only.
 */
final class RdmaSegments
{
    /** Runs handed to the transport per call (a multiple of every device's max_sge up to 64). */
    static final int LIST_RUNS = 64;

    private final Long2ObjectHashMap<Transfer> transfers = new Long2ObjectHashMap<>();
    private long sgeMinBytes = 1024;
    private long gathered;
    private long scattered;

    /** {@code jmpi.rdma.sge.min}. Before traffic. */
    void configure(final long sgeMinBytes)
    {
        this.sgeMinBytes = sgeMinBytes;
    }

    /** Whether the layout {@code c} walks moves by a run list: its bytes are the stream's, several runs, the mean at least sge.min. */
    boolean eligible(final Convertor c)
    {
        final org.jmpi.internal.datatype.LayoutStats stats = c.stats();
        return streamIsMemory(c) && stats.blockCount() > 1 && stats.meanRunBytes() >= sgeMinBytes;
    }

    /** The buffer's bytes are the stream's: native order, or byte-sized elements (which never swap) in addressable memory. */
    static boolean streamIsMemory(final Convertor c)
    {
        final org.jmpi.Datatype basic = c.type().basicType();
        return c.isNativeOrder() || c.view().indirect() == null && basic != null && basic.size() == 1;
    }

    /** Messages sent by a gather list, and received by a scatter list. */
    long gathered()
    {
        return gathered;
    }

    long scattered()
    {
        return scattered;
    }

    /**
     * A transfer of the first {@code lengthBytes} of {@code c}'s stream to ({@code read}: from) the peer's run at
     * {@code remoteOffset} under {@code key}, reported as {@code token}; queue it on the peer's channel.
     */
    Transfer start(final boolean read, final Convertor c, final long lengthBytes, final long registration, final long[] key,
        final long remoteOffset, final long token)
    {
        final Transfer t = new Transfer(read, c, lengthBytes, registration, key, remoteOffset, token);
        transfers.put(token, t);
        if (read)
        {
            scattered++;
        }
        else
        {
            gathered++;
        }
        return t;
    }

    /**
     * A completion for {@code token}. Null when the token is not a transfer's (a one-run operation: the caller goes on
     * with {@code failure}); else the transfer, whose {@link Transfer#finished} says whether that was its last run.
     */
    Transfer onComplete(final long token, final MpiException failure)
    {
        final Transfer t = transfers.get(token);
        if (t == null)
        {
            return null;
        }
        t.inFlight--;
        if (failure != null && t.failure == null)
        {
            t.failure = failure;
        }
        if (t.finished())
        {
            transfers.remove(token);
        }
        return t;
    }

    /** One scatter or gather transfer; emits its runs on the peer's channel. */
    static final class Transfer implements Outbound
    {
        private final boolean read;
        private final Convertor cursor;
        private final long end;
        private final long registration;
        private final long[] key;
        private final long token;
        private final long viewAddress;
        private final long[] runs = new long[2 * LIST_RUNS];
        private int listed;
        private int next;
        private long remoteAt;
        private int inFlight;
        private boolean allStarted;
        private MpiException failure;

        private Transfer(final boolean read, final Convertor c, final long lengthBytes, final long registration, final long[] key,
            final long remoteOffset, final long token)
        {
            this.read = read;
            this.cursor = c;
            this.end = lengthBytes;
            this.registration = registration;
            this.key = key;
            this.remoteAt = remoteOffset;
            this.token = token;
            this.viewAddress = c.view().address();
            c.seek(0);
        }

        /** Every run was started (or a failure stopped them) and every started run was reported. */
        boolean finished()
        {
            return inFlight == 0 && (allStarted || failure != null);
        }

        /** The first run's failure, or null. */
        MpiException failure()
        {
            return failure;
        }

        @Override
        public boolean emit(final Protocol protocol, final PeerChannel channel)
        {
            while (failure == null)
            {
                if (next == listed && !list())
                {
                    allStarted = true;
                    return true;
                }
                final RemoteMemory memory = channel.remoteMemory;
                final int started = read ? memory.getScatter(channel.worldRank, key, 0, remoteAt, registration, runs, next, listed - next, token)
                    : memory.putGather(channel.worldRank, key, 0, remoteAt, registration, runs, next, listed - next, token);
                for (int i = next; i < next + started; i++)
                {
                    remoteAt += runs[2 * i + 1];
                }
                next += started;
                inFlight += started;
                if (started == 0)
                {
                    return false;
                }
            }
            // A run failed: nothing more starts; the transfer finishes when those in flight are reported.
            return true;
        }

        /** Refills the list from the cursor; false at the end of the transfer. */
        private boolean list()
        {
            listed = 0;
            next = 0;
            while (listed < LIST_RUNS && cursor.position() < end)
            {
                final long length = Math.min(cursor.runLength(), end - cursor.position());
                runs[2 * listed] = cursor.runAddress() - viewAddress;
                runs[2 * listed + 1] = length;
                cursor.skip(length);
                listed++;
            }
            return listed > 0;
        }
    }
}
