package org.jmpi;

import org.jmpi.internal.coll.CollectiveOps;
import org.jmpi.internal.pt2pt.CommState;

/**
 * {@link Comm}'s collectives of MPI 4.1 §6.2.2, each in its blocking, nonblocking ({@code i...}) and persistent
 * ({@code ...Init}) form. Package-private: a program calls them on {@link Comm}.
 *
 * <p>The blocking forms of the collectives with a node path (barrier, bcast, reduce, allreduce, gather, scatter,
 * allgather, alltoall) check and handle errors inline, as send does: no lambda and no plan per call (NodeCallCostTest
 * holds them at 0 bytes per small call). The others build a plan ({@link #run}, {@link #begin}, {@link #persistent}).
 *
 * <p><b>Threading</b>: as {@link Comm}'s.
 */
abstract sealed class CommCollectives extends CommPointToPoint permits Comm
{
    CommCollectives(final CommState state, final CommState local, final CollectiveOps coll)
    {
        super(state, local, coll);
    }


    /** MPI_Barrier: returns once every rank of the communicator has called it (dissemination algorithm). */
    public void barrier()
    {
        // The blocking collectives check and handle errors inline, as send does: no lambda per call, and on the node
        // path no plan either (issue 16: the generic entry allocated about 400 bytes per small call).
        final CommState s = live("barrier");
        try
        {
            coll.barrierNow();
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Ibarrier: completes once every rank has called it. */
    public Request ibarrier()
    {
        return begin("ibarrier", () -> coll.barrier());
    }

    /** MPI_Barrier_init: a persistent barrier; each start() is one barrier. */
    public Request barrierInit()
    {
        return persistent("barrierInit", () -> coll.barrier());
    }

    /** MPI_Bcast: the root's {@code count} items of {@code type} reach every rank's buffer. Binomial tree for small messages, scatter + ring allgather for large ones. */
    public void bcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        final CommState s = live("bcast");
        try
        {
            coll.bcastNow(buf, offset, count, type, root);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Ibcast: nonblocking bcast; the buffers must not be touched until the request completes. */
    public Request ibcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return begin("ibcast", () -> coll.bcast(buf, offset, count, type, root));
    }

    /** MPI_Bcast_init (MPI-4): a persistent bcast; arguments are checked and the schedule built once, each start() runs it. */
    public Request bcastInit(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return persistent("bcastInit", () -> coll.bcast(buf, offset, count, type, root));
    }

    /** MPI_Reduce: combines every rank's {@code count} items with {@code op} (in rank order) into the root's receive buffer (ignored elsewhere). IN_PLACE as send buffer at the root: its input is taken from the receive buffer. Binomial tree. */
    public void reduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        final CommState s = live("reduce");
        try
        {
            coll.reduceNow(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Ireduce: nonblocking reduce; the buffers must not be touched until the request completes. */
    public Request ireduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        return begin("ireduce", () -> coll.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Reduce_init (MPI-4): a persistent reduce; arguments are checked and the schedule built once, each start() runs it. */
    public Request reduceInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        return persistent("reduceInit", () -> coll.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Allreduce: as reduce, with the result on every rank. IN_PLACE as send buffer: input from the receive buffer. Recursive doubling for small messages, Rabenseifner for large. */
    public void allreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        final CommState s = live("allreduce");
        try
        {
            coll.allreduceNow(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Iallreduce: nonblocking allreduce; the buffers must not be touched until the request completes. */
    public Request iallreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return begin("iallreduce", () -> coll.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Allreduce_init (MPI-4): a persistent allreduce; arguments are checked and the schedule built once, each start() runs it. */
    public Request allreduceInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return persistent("allreduceInit", () -> coll.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Gather: the root receives rank i's block at {@code i * recvCount} items of {@code recvType}. IN_PLACE as send buffer at the root: its block is already in place. */
    public void gather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        final CommState s = live("gather");
        try
        {
            coll.gatherNow(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Igather: nonblocking gather; the buffers must not be touched until the request completes. */
    public Request igather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin("igather", () -> coll.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Gather_init (MPI-4): a persistent gather; arguments are checked and the schedule built once, each start() runs it. */
    public Request gatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent("gatherInit", () -> coll.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Gatherv: as gather with per-rank counts and displacements (in extents of {@code recvType}), significant at the root only. */
    public void gatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        run("gatherv", () -> coll.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Igatherv: nonblocking gatherv; the buffers must not be touched until the request completes. */
    public Request igatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return begin("igatherv", () -> coll.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Gatherv_init (MPI-4): a persistent gatherv; arguments are checked and the schedule built once, each start() runs it. */
    public Request gathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return persistent("gathervInit", () -> coll.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Scatter: rank i receives the root's block at {@code i * sendCount} items of {@code sendType}. IN_PLACE as receive buffer at the root: its block stays where it is. */
    public void scatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        final CommState s = live("scatter");
        try
        {
            coll.scatterNow(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Iscatter: nonblocking scatter; the buffers must not be touched until the request completes. */
    public Request iscatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin("iscatter", () -> coll.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatter_init (MPI-4): a persistent scatter; arguments are checked and the schedule built once, each start() runs it. */
    public Request scatterInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent("scatterInit", () -> coll.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatterv: as scatter with per-rank counts and displacements (in extents of {@code sendType}), significant at the root only. */
    public void scatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        run("scatterv", () -> coll.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Iscatterv: nonblocking scatterv; the buffers must not be touched until the request completes. */
    public Request iscatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin("iscatterv", () -> coll.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatterv_init (MPI-4): a persistent scatterv; arguments are checked and the schedule built once, each start() runs it. */
    public Request scattervInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent("scattervInit", () -> coll.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Allgather: every rank receives rank i's block at {@code i * recvCount} items of {@code recvType}. IN_PLACE as send buffer: the own block is already in place. Ring, or recursive doubling on power-of-two sizes. */
    public void allgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final CommState s = live("allgather");
        try
        {
            coll.allgatherNow(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Iallgather: nonblocking allgather; the buffers must not be touched until the request completes. */
    public Request iallgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return begin("iallgather", () -> coll.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Allgather_init (MPI-4): a persistent allgather; arguments are checked and the schedule built once, each start() runs it. */
    public Request allgatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return persistent("allgatherInit", () -> coll.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Allgatherv: as allgather with per-rank counts and displacements (in extents of {@code recvType}). Ring. */
    public void allgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        run("allgatherv", () -> coll.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Iallgatherv: nonblocking allgatherv; the buffers must not be touched until the request completes. */
    public Request iallgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return begin("iallgatherv", () -> coll.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Allgatherv_init (MPI-4): a persistent allgatherv; arguments are checked and the schedule built once, each start() runs it. */
    public Request allgathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return persistent("allgathervInit", () -> coll.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Alltoall: rank j's block i goes to rank i's block j. IN_PLACE as send buffer: the data is taken from the receive buffer. Bruck for small blocks, linear or pairwise for larger. */
    public void alltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final CommState s = live("alltoall");
        try
        {
            coll.alltoallNow(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Ialltoall: nonblocking alltoall; the buffers must not be touched until the request completes. */
    public Request ialltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return begin("ialltoall", () -> coll.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Alltoall_init (MPI-4): a persistent alltoall; arguments are checked and the schedule built once, each start() runs it. */
    public Request alltoallInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return persistent("alltoallInit", () -> coll.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Alltoallv: as alltoall with per-rank counts and displacements (in extents of the types). */
    public void alltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        run("alltoallv", () -> coll.alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Ialltoallv: nonblocking alltoallv; the buffers must not be touched until the request completes. */
    public Request ialltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        return begin("ialltoallv", () -> coll.alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Alltoallv_init (MPI-4): a persistent alltoallv; arguments are checked and the schedule built once, each start() runs it. */
    public Request alltoallvInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        return persistent("alltoallvInit", () -> coll.alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Alltoallw: as alltoallv with a type per rank and displacements in bytes. */
    public void alltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        run("alltoallw", () -> coll.alltoallw(sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Ialltoallw: nonblocking alltoallw; the buffers must not be touched until the request completes. */
    public Request ialltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        return begin("ialltoallw", () -> coll.alltoallw(sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Alltoallw_init (MPI-4): a persistent alltoallw; arguments are checked and the schedule built once, each start() runs it. */
    public Request alltoallwInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        return persistent("alltoallwInit", () -> coll.alltoallw(sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Reduce_scatter_block: reduces {@code size * recvCount} items and leaves block i on rank i. IN_PLACE as send buffer: the input is the receive buffer's first {@code size * recvCount} items. */
    public void reduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        run("reduceScatterBlock", () -> coll.reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Ireduce_scatter_block: nonblocking reduceScatterBlock; the buffers must not be touched until the request completes. */
    public Request ireduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return begin("ireduceScatterBlock", () -> coll.reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Reduce_scatter_block_init (MPI-4): a persistent reduceScatterBlock; arguments are checked and the schedule built once, each start() runs it. */
    public Request reduceScatterBlockInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return persistent("reduceScatterBlockInit", () -> coll.reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Reduce_scatter: as reduceScatterBlock with per-rank counts. */
    public void reduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        run("reduceScatter", () -> coll.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Ireduce_scatter: nonblocking reduceScatter; the buffers must not be touched until the request completes. */
    public Request ireduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return begin("ireduceScatter", () -> coll.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Reduce_scatter_init (MPI-4): a persistent reduceScatter; arguments are checked and the schedule built once, each start() runs it. */
    public Request reduceScatterInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return persistent("reduceScatterInit", () -> coll.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }
}
