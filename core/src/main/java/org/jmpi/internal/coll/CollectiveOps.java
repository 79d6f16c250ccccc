package org.jmpi.internal.coll;

import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.internal.coll.Collectives.Plan;
import org.jmpi.internal.pt2pt.CommState;

/**
 * The collectives MPI defines on both kinds of communicator (MPI 4.1 §6.2.2), as plans: {@code Comm} runs
 * whichever plan its kind builds ({@link Intra} over one group, {@link Inter} between two). Arguments are
 * checked by the plan builders.
 *
 * <p>Threading: as the collectives; implementations hold only immutable references.
 */
public sealed interface CollectiveOps permits CollectiveOps.Intra, CollectiveOps.Inter
{
    Plan barrier();

    Plan bcast(final Object buf, final int offset, final int count, final Datatype type, final int root);

    Plan gather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root);

    Plan gatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root);

    Plan scatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root);

    Plan scatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root);

    Plan allgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType);

    Plan allgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType);

    Plan alltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType);

    Plan alltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType);

    Plan alltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes);

    Plan reduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root);

    Plan allreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op);

    Plan reduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op);

    Plan reduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op);

    /** The blocking barrier: runs to completion (its plan, or straight on the node path: no plan, no lambda). */
    default void barrierNow()
    {
        Collectives.run(barrier());
    }

    /** The blocking bcast: runs to completion (its plan, or straight on the node path: no plan, no lambda). */
    default void bcastNow(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        Collectives.run(bcast(buf, offset, count, type, root));
    }

    /** The blocking gather: runs to completion (its plan, or straight on the node path: no plan, no lambda). */
    default void gatherNow(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        Collectives.run(gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** The blocking scatter: runs to completion (its plan, or straight on the node path: no plan, no lambda). */
    default void scatterNow(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        Collectives.run(scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** The blocking allgather: runs to completion (its plan, or straight on the node path: no plan, no lambda). */
    default void allgatherNow(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        Collectives.run(allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** The blocking alltoall: runs to completion (its plan, or straight on the node path: no plan, no lambda). */
    default void alltoallNow(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        Collectives.run(alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** The blocking reduce: runs to completion (its plan, or straight on the node path: no plan, no lambda). */
    default void reduceNow(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        Collectives.run(reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** The blocking allreduce: runs to completion (its plan, or straight on the node path: no plan, no lambda). */
    default void allreduceNow(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        Collectives.run(allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** Over the group of an intracommunicator: {@link Collectives} and {@link Reductions}. */
    record Intra(CommState comm) implements CollectiveOps
    {
        @Override
        public void barrierNow()
        {
            Collectives.run(Collectives.barrier(comm, true));
        }

        @Override
        public void bcastNow(final Object buf, final int offset, final int count, final Datatype type, final int root)
        {
            Collectives.run(Collectives.bcast(comm, buf, offset, count, type, root, true));
        }

        @Override
        public void gatherNow(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
        {
            Collectives.run(Collectives.gather(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root, true));
        }

        @Override
        public void scatterNow(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
        {
            Collectives.run(Collectives.scatter(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root, true));
        }

        @Override
        public void allgatherNow(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
        {
            Collectives.run(Collectives.allgather(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, true));
        }

        @Override
        public void alltoallNow(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
        {
            Collectives.run(Alltoalls.alltoall(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, true));
        }

        @Override
        public void reduceNow(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
        {
            Collectives.run(Reductions.reduce(comm, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root, true));
        }

        @Override
        public void allreduceNow(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
        {
            Collectives.run(Reductions.allreduce(comm, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true));
        }

        @Override
        public Plan barrier()
        {
            return Collectives.barrier(comm);
        }

        @Override
        public Plan bcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
        {
            return Collectives.bcast(comm, buf, offset, count, type, root);
        }

        @Override
        public Plan gather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
        {
            return Collectives.gather(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }

        @Override
        public Plan gatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
        {
            return Collectives.gatherv(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root);
        }

        @Override
        public Plan scatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
        {
            return Collectives.scatter(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }

        @Override
        public Plan scatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
        {
            return Collectives.scatterv(comm, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }

        @Override
        public Plan allgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
        {
            return Collectives.allgather(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        }

        @Override
        public Plan allgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
        {
            return Collectives.allgatherv(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType);
        }

        @Override
        public Plan alltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
        {
            return Alltoalls.alltoall(comm, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        }

        @Override
        public Plan alltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
        {
            return Alltoalls.alltoallv(comm, sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType);
        }

        @Override
        public Plan alltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
        {
            return Alltoalls.alltoallw(comm, sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes);
        }

        @Override
        public Plan reduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
        {
            return Reductions.reduce(comm, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
        }

        @Override
        public Plan allreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
        {
            return Reductions.allreduce(comm, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
        }

        @Override
        public Plan reduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
        {
            return Reductions.reduceScatterBlock(comm, sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op);
        }

        @Override
        public Plan reduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
        {
            return Reductions.reduceScatter(comm, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op);
        }
    }

    /** Between the two groups of an intercommunicator: {@link InterCollectives}. */
    record Inter(InterCollectives.Groups groups) implements CollectiveOps
    {
        @Override
        public Plan barrier()
        {
            return InterCollectives.barrier(groups);
        }

        @Override
        public Plan bcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
        {
            return InterCollectives.bcast(groups, buf, offset, count, type, root);
        }

        @Override
        public Plan gather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
        {
            return InterCollectives.gather(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }

        @Override
        public Plan gatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
        {
            return InterCollectives.gatherv(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root);
        }

        @Override
        public Plan scatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
        {
            return InterCollectives.scatter(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }

        @Override
        public Plan scatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
        {
            return InterCollectives.scatterv(groups, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }

        @Override
        public Plan allgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
        {
            return InterCollectives.allgather(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        }

        @Override
        public Plan allgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
        {
            return InterCollectives.allgatherv(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType);
        }

        @Override
        public Plan alltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
        {
            return InterCollectives.alltoall(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        }

        @Override
        public Plan alltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
        {
            return InterCollectives.alltoallv(groups, sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType);
        }

        @Override
        public Plan alltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
        {
            return InterCollectives.alltoallw(groups, sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes);
        }

        @Override
        public Plan reduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
        {
            return InterCollectives.reduce(groups, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
        }

        @Override
        public Plan allreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
        {
            return InterCollectives.allreduce(groups, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
        }

        @Override
        public Plan reduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
        {
            return InterCollectives.reduceScatterBlock(groups, sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op);
        }

        @Override
        public Plan reduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
        {
            return InterCollectives.reduceScatter(groups, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op);
        }
    }
}
