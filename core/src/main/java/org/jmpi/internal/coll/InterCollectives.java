package org.jmpi.internal.coll;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.RequestImpl;
import org.jmpi.internal.pt2pt.SendMode;

/**
 * Blocking collectives over an intercommunicator, composed of the local group's intracommunicator
 * collectives and one exchange between the two groups' leaders (local rank 0) over the intercommunicator's
 * private context ({@code bridge}). Every member of both groups takes the bridge's next collective tag, so
 * the two groups agree on it as long as they call the intercommunicator's collectives in the same order.
 *
 * <p>Threading: any thread, as the rank's thread level allows.
 */
public final class InterCollectives
{
    /** MPI_ROOT: passed as root by the root process of the sending group. */
    public static final int ROOT = -3;

    private static final byte[] NO_BYTES = new byte[0];

    private InterCollectives()
    {
    }

    /**
     * MPI_Barrier on an intercommunicator:
     * <ol>
     * <li>Barrier in each group.</li>
     * <li>The leaders exchange a zero-byte message.</li>
     * <li>Barrier in each group again, so that no one leaves before the other group has arrived.</li>
     * </ol>
     */
    public static void barrier(final CommState local, final CommState bridge)
    {
        final int tag = CollContext.of(bridge).nextTag();
        Collectives.barrier(local).start().await();
        if (local.rank() == 0)
        {
            exchange(bridge, tag, NO_BYTES, NO_BYTES, 0);
        }
        Collectives.barrier(local).start().await();
    }

    /**
     * MPI_Bcast on an intercommunicator: in the sending group the root passes {@link #ROOT} and the others
     * {@link Comm#PROC_NULL}; in the receiving group everyone passes the root's rank in the sending group.
     * <ol>
     * <li>The root sends the message to the receiving group's leader.</li>
     * <li>The receiving group broadcasts it from its leader.</li>
     * </ol>
     */
    public static void bcast(final CommState local, final CommState bridge, final Object buf, final int offset, final int count,
        final Datatype type, final int root)
    {
        final int tag = CollContext.of(bridge).nextTag();
        if (root == ROOT)
        {
            Buffers.checkSend("bcast", buf, offset, count, type);
            PointToPoint.isend(bridge, bridge.collContextId(), buf, offset, count, type, 0, tag, SendMode.STANDARD).await();
            return;
        }
        if (root == Comm.PROC_NULL)
        {
            return;
        }
        if (root < 0 || root >= bridge.size())
        {
            throw new MpiException(ErrorClass.ERR_ROOT, "bcast: invalid root " + root + " (remote group of " + bridge.size() +
                "; ROOT or PROC_NULL in the sending group)");
        }
        if (local.rank() == 0)
        {
            final RequestImpl r = PointToPoint.irecv(bridge, bridge.collContextId(), buf, offset, count, type, root, tag);
            r.await();
            final long expected = count * type.size();
            if (r.status().countBytes() != expected)
            {
                throw new MpiException(ErrorClass.ERR_TRUNCATE, "bcast: received " + r.status().countBytes() + " bytes from the root, expected " +
                    expected);
            }
        }
        Collectives.bcast(local, buf, offset, count, type, 0).start().await();
    }

    /**
     * MPI_Allreduce on an intercommunicator: each group receives the reduction of the <em>other</em> group.
     * <ol>
     * <li>Reduce in each group to its leader.</li>
     * <li>The leaders exchange their groups' results (packed).</li>
     * <li>Each group broadcasts the other group's result from its leader.</li>
     * </ol>
     */
    public static void allreduce(final CommState local, final CommState bridge, final Object sendBuf, final int sendOffset,
        final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        if (sendBuf == Collectives.IN_PLACE)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "allreduce: IN_PLACE is not allowed on an intercommunicator");
        }
        final int tag = CollContext.of(bridge).nextTag();
        Reductions.reduce(local, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, 0).start().await();
        if (local.rank() == 0)
        {
            final int bytes = Buffers.packedBytes("allreduce", count, type);
            final byte[] ours = new byte[bytes];
            final byte[] theirs = new byte[bytes];
            final Buffers.Slot result = new Buffers.Slot(recvBuf, recvOffset, count, type);
            Buffers.pack(result, ours, 0);
            exchange(bridge, tag, ours, theirs, bytes);
            Buffers.unpack(theirs, 0, result);
        }
        Collectives.bcast(local, recvBuf, recvOffset, count, type, 0).start().await();
    }

    private static void exchange(final CommState bridge, final int tag, final byte[] out, final byte[] in, final int bytes)
    {
        final RequestImpl r = PointToPoint.irecv(bridge, bridge.collContextId(), in, 0, bytes, Datatype.BYTE, 0, tag);
        PointToPoint.isend(bridge, bridge.collContextId(), out, 0, bytes, Datatype.BYTE, 0, tag, SendMode.STANDARD).await();
        r.await();
        if (r.status().countBytes() != bytes)
        {
            throw new MpiException(ErrorClass.ERR_TRUNCATE, "intercommunicator collective: the other group's leader sent " +
                r.status().countBytes() + " bytes, expected " + bytes);
        }
    }
}
