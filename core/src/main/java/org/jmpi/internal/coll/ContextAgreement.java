package org.jmpi.internal.coll;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jmpi.Datatype;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.pt2pt.CommState;

/**
 * One nonblocking allreduce(MAX) of an int over a communicator under a tag chosen in advance, for agreements
 * whose rounds are decided as they go (idup's retries), so they must not take collective sequence numbers
 * on the engine thread.
 *
 * <p>Threading: created and polled on the engine thread.
 */
public final class ContextAgreement
{
    private final CollRequest request;
    private final ByteBuffer value;

    private ContextAgreement(final CollRequest request, final ByteBuffer value)
    {
        this.request = request;
        this.value = value;
    }

    /** Takes the next collective tag of {@code c} for a later series of agreements (call in collective order). */
    public static int reserveTag(final CommState c)
    {
        return CollContext.of(c).nextTag();
    }

    /** Starts the MAX agreement of {@code mine} over {@code c} under {@code tag}. Engine thread. */
    public static ContextAgreement max(final CommState c, final int tag, final int mine)
    {
        final byte[] acc = new byte[4];
        final ByteBuffer b = ByteBuffer.wrap(acc).order(ByteOrder.nativeOrder());
        final Schedule s = new Schedule();
        s.local(() -> b.putInt(0, mine));
        if (c.size() > 1)
        {
            Reductions.allreduceRecursiveDoubling(s, c.rank(), c.size(), new Reductions.Reduction(Op.MAX, Datatype.INT, 4), acc, 4);
        }
        final CollRequest r = new CollRequest(c, "agreement", s, tag).launch();
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

    /** The agreed maximum. */
    public int value()
    {
        return value.getInt(0);
    }
}
