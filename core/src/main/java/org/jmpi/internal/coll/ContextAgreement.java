package org.jmpi.internal.coll;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jmpi.Datatype;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.pt2pt.CommState;

/**
 * One nonblocking allreduce of a few longs over a communicator under a tag chosen in advance, for agreements
 * whose rounds are decided as they go (the context-id agreement and its retries), so they must not take
 * collective sequence numbers on the engine thread. Recursive doubling: every rank ends with the same result,
 * combined in the same order.
 *
 * <p>Threading: created and polled on the engine thread.
 */
public final class ContextAgreement
{
    private final CollRequest request;
    private final ByteBuffer values;

    private ContextAgreement(final CollRequest request, final ByteBuffer values)
    {
        this.request = request;
        this.values = values;
    }

    /** Takes the next collective tag of {@code c} for a later series of agreements (call in collective order). */
    public static int reserveTag(final CommState c)
    {
        return CollContext.of(c).nextTag();
    }

    /**
     * Starts the allreduce of {@code mine} (copied at the call) with {@code op} (a predefined op on LONG, e.g.
     * BAND or MAX) over {@code c} under {@code tag}. Engine thread.
     */
    public static ContextAgreement reduce(final CommState c, final int tag, final Op op, final long[] mine)
    {
        final int bytes = mine.length * Long.BYTES;
        final byte[] acc = new byte[bytes];
        final ByteBuffer b = ByteBuffer.wrap(acc).order(ByteOrder.nativeOrder());
        for (int i = 0; i < mine.length; i++)
        {
            b.putLong(i * Long.BYTES, mine[i]);
        }
        final Schedule s = new Schedule();
        if (c.size() > 1)
        {
            Reductions.allreduceRecursiveDoubling(s, c.rank(), c.size(), new Reductions.Reduction(op, Datatype.LONG, Long.BYTES), acc, bytes);
        }
        final CollRequest r = new CollRequest(c, "context id agreement", s, tag).launch();
        return new ContextAgreement(r, b);
    }

    /** Whether the agreement has completed (throws its failure, if any). */
    public boolean done()
    {
        if (!request.isDone())
        {
            return false;
        }
        final MpiException failure = request.failure();
        if (failure != null)
        {
            throw failure;
        }
        return true;
    }

    /** Element {@code index} of the agreed result. */
    public long value(final int index)
    {
        return values.getLong(index * Long.BYTES);
    }
}
