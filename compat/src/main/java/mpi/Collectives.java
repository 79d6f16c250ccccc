package mpi;

import java.nio.Buffer;
import java.util.function.Consumer;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The collective operations of {@link Comm} (Open MPI Java API), kept in this package-private base so that
 * each class stays readable; users see them as {@code Comm}'s methods. Every blocking collective has an
 * in-place form where Open MPI has one (MPI_IN_PLACE: the fewer-argument overloads); every nonblocking one
 * takes {@code Buffer}s as in Open MPI and, as a jmpi extension, arrays ({@code Object}).
 */
abstract class Collectives
{
    private static final Object IN_PLACE = org.jmpi.Comm.IN_PLACE;

    /** The calling rank's jmpi communicator. */
    abstract org.jmpi.Comm core() throws MPIException;

    /** A body run on the jmpi communicator. */
    @FunctionalInterface
    interface Body<T>
    {
        T run(org.jmpi.Comm c);
    }

    /** Runs {@code body} on this rank's jmpi communicator; a jmpi error becomes an {@link MPIException}. */
    final <T> T call(final Body<T> body) throws MPIException
    {
        final org.jmpi.Comm c = core();
        try
        {
            return body.run(c);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** As {@link #call} for bodies without a result. */
    final void run(final Consumer<org.jmpi.Comm> body) throws MPIException
    {
        final org.jmpi.Comm c = core();
        try
        {
            body.accept(c);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** A request for a nonblocking collective. */
    final Request start(final Body<org.jmpi.Request> body) throws MPIException
    {
        return new Request(call(body));
    }

    private static org.jmpi.Intracomm intra(final org.jmpi.Comm c)
    {
        if (c instanceof org.jmpi.Intracomm i)
        {
            return i;
        }
        throw new MpiException(ErrorClass.ERR_TOPOLOGY, "neighbour collective on intercommunicator " + c.name() + ", which has no topology");
    }

    private static org.jmpi.Datatype t(final Datatype type) throws MPIException
    {
        return Datatype.core(type);
    }

    private static org.jmpi.Datatype[] ts(final Datatype[] types) throws MPIException
    {
        if (types == null)
        {
            throw MPIException.of(ErrorClass.ERR_TYPE, "datatype array is null");
        }
        final org.jmpi.Datatype[] out = new org.jmpi.Datatype[types.length];
        for (int i = 0; i < types.length; i++)
        {
            out[i] = types[i] == null ? null : types[i].core();
        }
        return out;
    }

    private static long[] bytes(final int[] displs)
    {
        if (displs == null)
        {
            return null;
        }
        final long[] out = new long[displs.length];
        for (int i = 0; i < displs.length; i++)
        {
            out[i] = displs[i];
        }
        return out;
    }

    static org.jmpi.Op op(final Op op, final Datatype type) throws MPIException
    {
        if (op == null)
        {
            throw MPIException.of(ErrorClass.ERR_OP, "op is null");
        }
        return op.core(type);
    }

    /** MPI_Barrier. */
    public final void barrier() throws MPIException
    {
        run(org.jmpi.Comm::barrier);
    }

    /** MPI_Ibarrier. */
    public final Request iBarrier() throws MPIException
    {
        return start(org.jmpi.Comm::ibarrier);
    }

    /** MPI_Bcast. */
    public final void bcast(final Object buf, final int count, final Datatype type, final int root) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        run(c -> c.bcast(buf, 0, count, t, root));
    }

    /** MPI_Ibcast. */
    public final Request iBcast(final Buffer buf, final int count, final Datatype type, final int root) throws MPIException
    {
        return iBcast((Object)buf, count, type, root);
    }

    /** MPI_Ibcast on an array (jmpi extension). */
    public final Request iBcast(final Object buf, final int count, final Datatype type, final int root) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        return start(c -> c.ibcast(buf, 0, count, t, root));
    }

    /** MPI_Gather. */
    public final void gather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.gather(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt, root));
    }

    /** MPI_Gather in place: the root receives into {@code buf} (its own block already there); the others send from it. */
    public final void gather(final Object buf, final int count, final Datatype type, final int root) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        run(c ->
        {
            if (c.rank() == root)
            {
                c.gather(IN_PLACE, 0, 0, t, buf, 0, count, t, root);
            }
            else
            {
                c.gather(buf, 0, count, t, null, 0, 0, t, root);
            }
        });
    }

    /** MPI_Igather. */
    public final Request iGather(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        return iGather((Object)sendbuf, sendcount, sendtype, (Object)recvbuf, recvcount, recvtype, root);
    }

    /** MPI_Igather on arrays (jmpi extension). */
    public final Request iGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.igather(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt, root));
    }

    /** MPI_Igather in place (see {@link #gather(Object, int, Datatype, int)}). */
    public final Request iGather(final Buffer buf, final int count, final Datatype type, final int root) throws MPIException
    {
        return iGather((Object)buf, count, type, root);
    }

    /** MPI_Igather in place on an array (jmpi extension). */
    public final Request iGather(final Object buf, final int count, final Datatype type, final int root) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        return start(c -> c.rank() == root ? c.igather(IN_PLACE, 0, 0, t, buf, 0, count, t, root)
            : c.igather(buf, 0, count, t, null, 0, 0, t, root));
    }

    /** MPI_Gatherv: {@code displs} count extents of {@code recvtype}. */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.gatherv(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, displs, rt, root));
    }

    /** MPI_Gatherv in place, at the root: its own block is already in {@code recvbuf}. */
    public final void gatherv(final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype, final int root)
        throws MPIException
    {
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.gatherv(IN_PLACE, 0, 0, rt, recvbuf, 0, recvcount, displs, rt, root));
    }

    /** MPI_Gatherv at a non-root rank, when the root gathers in place. */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        run(c -> c.gatherv(sendbuf, 0, sendcount, st, null, 0, null, null, st, root));
    }

    /** MPI_Igatherv. */
    public final Request iGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype, final Buffer recvbuf,
        final int[] recvcount, final int[] displs, final Datatype recvtype, final int root) throws MPIException
    {
        return iGatherv((Object)sendbuf, sendcount, sendtype, (Object)recvbuf, recvcount, displs, recvtype, root);
    }

    /** MPI_Igatherv on arrays (jmpi extension). */
    public final Request iGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype, final Object recvbuf,
        final int[] recvcount, final int[] displs, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.igatherv(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, displs, rt, root));
    }

    /** MPI_Igatherv in place, at the root. */
    public final Request iGatherv(final Buffer recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype, final int root)
        throws MPIException
    {
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.igatherv(IN_PLACE, 0, 0, rt, recvbuf, 0, recvcount, displs, rt, root));
    }

    /** MPI_Igatherv at a non-root rank, when the root gathers in place. */
    public final Request iGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        return start(c -> c.igatherv(sendbuf, 0, sendcount, st, null, 0, null, null, st, root));
    }

    /** MPI_Scatter. */
    public final void scatter(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.scatter(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt, root));
    }

    /** MPI_Scatter in place: the root sends from {@code buf} (its own block stays); the others receive into it. */
    public final void scatter(final Object buf, final int count, final Datatype type, final int root) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        run(c ->
        {
            if (c.rank() == root)
            {
                c.scatter(buf, 0, count, t, IN_PLACE, 0, 0, t, root);
            }
            else
            {
                c.scatter(null, 0, 0, t, buf, 0, count, t, root);
            }
        });
    }

    /** MPI_Iscatter. */
    public final Request iScatter(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        return iScatter((Object)sendbuf, sendcount, sendtype, (Object)recvbuf, recvcount, recvtype, root);
    }

    /** MPI_Iscatter on arrays (jmpi extension). */
    public final Request iScatter(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.iscatter(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt, root));
    }

    /** MPI_Iscatter in place (see {@link #scatter(Object, int, Datatype, int)}). */
    public final Request iScatter(final Buffer buf, final int count, final Datatype type, final int root) throws MPIException
    {
        return iScatter((Object)buf, count, type, root);
    }

    /** MPI_Iscatter in place on an array (jmpi extension). */
    public final Request iScatter(final Object buf, final int count, final Datatype type, final int root) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        return start(c -> c.rank() == root ? c.iscatter(buf, 0, count, t, IN_PLACE, 0, 0, t, root)
            : c.iscatter(null, 0, 0, t, buf, 0, count, t, root));
    }

    /** MPI_Scatterv: {@code displs} count extents of {@code sendtype}. */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.scatterv(sendbuf, 0, sendcount, displs, st, recvbuf, 0, recvcount, rt, root));
    }

    /** MPI_Scatterv in place, at the root: its own block stays in {@code sendbuf}. */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs, final Datatype sendtype, final int root)
        throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        run(c -> c.scatterv(sendbuf, 0, sendcount, displs, st, IN_PLACE, 0, 0, st, root));
    }

    /** MPI_Scatterv at a non-root rank, when the root scatters in place. */
    public final void scatterv(final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.scatterv(null, 0, null, null, rt, recvbuf, 0, recvcount, rt, root));
    }

    /** MPI_Iscatterv. */
    public final Request iScatterv(final Buffer sendbuf, final int[] sendcount, final int[] displs, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        return iScatterv((Object)sendbuf, sendcount, displs, sendtype, (Object)recvbuf, recvcount, recvtype, root);
    }

    /** MPI_Iscatterv on arrays (jmpi extension). */
    public final Request iScatterv(final Object sendbuf, final int[] sendcount, final int[] displs, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.iscatterv(sendbuf, 0, sendcount, displs, st, recvbuf, 0, recvcount, rt, root));
    }

    /** MPI_Iscatterv in place, at the root. */
    public final Request iScatterv(final Buffer sendbuf, final int[] sendcount, final int[] displs, final Datatype sendtype, final int root)
        throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        return start(c -> c.iscatterv(sendbuf, 0, sendcount, displs, st, IN_PLACE, 0, 0, st, root));
    }

    /** MPI_Iscatterv at a non-root rank, when the root scatters in place. */
    public final Request iScatterv(final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.iscatterv(null, 0, null, null, rt, recvbuf, 0, recvcount, rt, root));
    }

    /** MPI_Allgather. */
    public final void allGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.allgather(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt));
    }

    /** MPI_Allgather in place: each rank's block is already in {@code buf}. */
    public final void allGather(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        run(c -> c.allgather(IN_PLACE, 0, 0, t, buf, 0, count, t));
    }

    /** MPI_Iallgather. */
    public final Request iAllGather(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        return iAllGather((Object)sendbuf, sendcount, sendtype, (Object)recvbuf, recvcount, recvtype);
    }

    /** MPI_Iallgather on arrays (jmpi extension). */
    public final Request iAllGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.iallgather(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt));
    }

    /** MPI_Iallgather in place. */
    public final Request iAllGather(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        return iAllGather((Object)buf, count, type);
    }

    /** MPI_Iallgather in place on an array (jmpi extension). */
    public final Request iAllGather(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        return start(c -> c.iallgather(IN_PLACE, 0, 0, t, buf, 0, count, t));
    }

    /** MPI_Allgatherv. */
    public final void allGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.allgatherv(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, displs, rt));
    }

    /** MPI_Allgatherv in place. */
    public final void allGatherv(final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.allgatherv(IN_PLACE, 0, 0, rt, recvbuf, 0, recvcount, displs, rt));
    }

    /** MPI_Iallgatherv. */
    public final Request iAllGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        return iAllGatherv((Object)sendbuf, sendcount, sendtype, (Object)recvbuf, recvcount, displs, recvtype);
    }

    /** MPI_Iallgatherv on arrays (jmpi extension). */
    public final Request iAllGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.iallgatherv(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, displs, rt));
    }

    /** MPI_Iallgatherv in place. */
    public final Request iAllGatherv(final Buffer buf, final int[] count, final int[] displs, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        return start(c -> c.iallgatherv(IN_PLACE, 0, 0, t, buf, 0, count, displs, t));
    }

    /** MPI_Alltoall. */
    public final void allToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.alltoall(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt));
    }

    /** MPI_Ialltoall. */
    public final Request iAllToAll(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        return iAllToAll((Object)sendbuf, sendcount, sendtype, (Object)recvbuf, recvcount, recvtype);
    }

    /** MPI_Ialltoall on arrays (jmpi extension). */
    public final Request iAllToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.ialltoall(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt));
    }

    /** MPI_Alltoallv: displacements count extents of the types. */
    public final void allToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] rdispls, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> c.alltoallv(sendbuf, 0, sendcount, sdispls, st, recvbuf, 0, recvcount, rdispls, rt));
    }

    /** MPI_Ialltoallv. */
    public final Request iAllToAllv(final Buffer sendbuf, final int[] sendcount, final int[] sdispls, final Datatype sendtype,
        final Buffer recvbuf, final int[] recvcount, final int[] rdispls, final Datatype recvtype) throws MPIException
    {
        return iAllToAllv((Object)sendbuf, sendcount, sdispls, sendtype, (Object)recvbuf, recvcount, rdispls, recvtype);
    }

    /** MPI_Ialltoallv on arrays (jmpi extension). */
    public final Request iAllToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] rdispls, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> c.ialltoallv(sendbuf, 0, sendcount, sdispls, st, recvbuf, 0, recvcount, rdispls, rt));
    }

    /** MPI_Alltoallw: a type per rank, displacements in bytes. */
    public final void allToAllw(final Buffer sendBuf, final int[] sendCount, final int[] sDispls, final Datatype[] sendTypes,
        final Buffer recvBuf, final int[] recvCount, final int[] rDispls, final Datatype[] recvTypes) throws MPIException
    {
        final org.jmpi.Datatype[] st = ts(sendTypes);
        final org.jmpi.Datatype[] rt = ts(recvTypes);
        run(c -> c.alltoallw(sendBuf, 0, sendCount, bytes(sDispls), st, recvBuf, 0, recvCount, bytes(rDispls), rt));
    }

    /** MPI_Ialltoallw. */
    public final Request iAllToAllw(final Buffer sendBuf, final int[] sendCount, final int[] sDispls, final Datatype[] sendTypes,
        final Buffer recvBuf, final int[] recvCount, final int[] rDispls, final Datatype[] recvTypes) throws MPIException
    {
        final org.jmpi.Datatype[] st = ts(sendTypes);
        final org.jmpi.Datatype[] rt = ts(recvTypes);
        return start(c -> c.ialltoallw(sendBuf, 0, sendCount, bytes(sDispls), st, recvBuf, 0, recvCount, bytes(rDispls), rt));
    }

    /** MPI_Neighbor_allgather: ERR_TOPOLOGY without a topology. */
    public final void neighborAllGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> intra(c).neighborAllgather(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt));
    }

    /** MPI_Ineighbor_allgather. */
    public final Request iNeighborAllGather(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> intra(c).ineighborAllgather(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt));
    }

    /** MPI_Neighbor_allgatherv. */
    public final void neighborAllGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> intra(c).neighborAllgatherv(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, displs, rt));
    }

    /** MPI_Ineighbor_allgatherv. */
    public final Request iNeighborAllGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> intra(c).ineighborAllgatherv(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, displs, rt));
    }

    /** MPI_Neighbor_alltoall. */
    public final void neighborAllToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> intra(c).neighborAlltoall(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt));
    }

    /** MPI_Ineighbor_alltoall. */
    public final Request iNeighborAllToAll(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> intra(c).ineighborAlltoall(sendbuf, 0, sendcount, st, recvbuf, 0, recvcount, rt));
    }

    /** MPI_Neighbor_alltoallv. */
    public final void neighborAllToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] rdispls, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        run(c -> intra(c).neighborAlltoallv(sendbuf, 0, sendcount, sdispls, st, recvbuf, 0, recvcount, rdispls, rt));
    }

    /** MPI_Ineighbor_alltoallv. */
    public final Request iNeighborAllToAllv(final Buffer sendbuf, final int[] sendcount, final int[] sdispls, final Datatype sendtype,
        final Buffer recvbuf, final int[] recvcount, final int[] rdispls, final Datatype recvtype) throws MPIException
    {
        final org.jmpi.Datatype st = t(sendtype);
        final org.jmpi.Datatype rt = t(recvtype);
        return start(c -> intra(c).ineighborAlltoallv(sendbuf, 0, sendcount, sdispls, st, recvbuf, 0, recvcount, rdispls, rt));
    }

    /** MPI_Reduce. */
    public final void reduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type, final Op op, final int root)
        throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        run(c -> c.reduce(sendbuf, 0, recvbuf, 0, count, t, o, root));
    }

    /** MPI_Reduce in place: the root's input and result are in {@code buf}; the others send from it. */
    public final void reduce(final Object buf, final int count, final Datatype type, final Op op, final int root) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        run(c ->
        {
            if (c.rank() == root)
            {
                c.reduce(IN_PLACE, 0, buf, 0, count, t, o, root);
            }
            else
            {
                c.reduce(buf, 0, null, 0, count, t, o, root);
            }
        });
    }

    /** MPI_Ireduce. */
    public final Request iReduce(final Buffer sendbuf, final Buffer recvbuf, final int count, final Datatype type, final Op op, final int root)
        throws MPIException
    {
        return iReduce((Object)sendbuf, (Object)recvbuf, count, type, op, root);
    }

    /** MPI_Ireduce on arrays (jmpi extension). */
    public final Request iReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type, final Op op, final int root)
        throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> c.ireduce(sendbuf, 0, recvbuf, 0, count, t, o, root));
    }

    /** MPI_Ireduce in place (see {@link #reduce(Object, int, Datatype, Op, int)}). */
    public final Request iReduce(final Buffer buf, final int count, final Datatype type, final Op op, final int root) throws MPIException
    {
        return iReduce((Object)buf, count, type, op, root);
    }

    /** MPI_Ireduce in place on an array (jmpi extension). */
    public final Request iReduce(final Object buf, final int count, final Datatype type, final Op op, final int root) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> c.rank() == root ? c.ireduce(IN_PLACE, 0, buf, 0, count, t, o, root) : c.ireduce(buf, 0, null, 0, count, t, o, root));
    }

    /** MPI_Allreduce. */
    public final void allReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        // Straight, not through run(): a capturing lambda there cost 32 B per call once the JIT saw other bodies.
        final org.jmpi.Comm c = core();
        try
        {
            c.allreduce(sendbuf, 0, recvbuf, 0, count, t, o);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Allreduce in place. */
    public final void allReduce(final Object buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        // Straight, not through run(): a capturing lambda there cost 32 B per call once the JIT saw other bodies.
        final org.jmpi.Comm c = core();
        try
        {
            c.allreduce(IN_PLACE, 0, buf, 0, count, t, o);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Iallreduce. */
    public final Request iAllReduce(final Buffer sendbuf, final Buffer recvbuf, final int count, final Datatype type, final Op op)
        throws MPIException
    {
        return iAllReduce((Object)sendbuf, (Object)recvbuf, count, type, op);
    }

    /** MPI_Iallreduce on arrays (jmpi extension). */
    public final Request iAllReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type, final Op op)
        throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> c.iallreduce(sendbuf, 0, recvbuf, 0, count, t, o));
    }

    /** MPI_Iallreduce in place. */
    public final Request iAllReduce(final Buffer buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        return iAllReduce((Object)buf, count, type, op);
    }

    /** MPI_Iallreduce in place on an array (jmpi extension). */
    public final Request iAllReduce(final Object buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> c.iallreduce(IN_PLACE, 0, buf, 0, count, t, o));
    }

    /** MPI_Reduce_scatter. */
    public final void reduceScatter(final Object sendbuf, final Object recvbuf, final int[] recvcounts, final Datatype type, final Op op)
        throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        run(c -> c.reduceScatter(sendbuf, 0, recvbuf, 0, recvcounts, t, o));
    }

    /** MPI_Reduce_scatter in place: the input is {@code buf}, this rank's block of the result lands at its start. */
    public final void reduceScatter(final Object buf, final int[] counts, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        run(c -> c.reduceScatter(IN_PLACE, 0, buf, 0, counts, t, o));
    }

    /** MPI_Ireduce_scatter. */
    public final Request iReduceScatter(final Buffer sendbuf, final Buffer recvbuf, final int[] recvcounts, final Datatype type, final Op op)
        throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> c.ireduceScatter(sendbuf, 0, recvbuf, 0, recvcounts, t, o));
    }

    /** MPI_Ireduce_scatter in place. */
    public final Request iReduceScatter(final Buffer buf, final int[] counts, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> c.ireduceScatter(IN_PLACE, 0, buf, 0, counts, t, o));
    }

    /** MPI_Reduce_scatter_block. */
    public final void reduceScatterBlock(final Object sendbuf, final Object recvbuf, final int recvcount, final Datatype type, final Op op)
        throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        run(c -> c.reduceScatterBlock(sendbuf, 0, recvbuf, 0, recvcount, t, o));
    }

    /** MPI_Reduce_scatter_block in place. */
    public final void reduceScatterBlock(final Object buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        run(c -> c.reduceScatterBlock(IN_PLACE, 0, buf, 0, count, t, o));
    }

    /** MPI_Ireduce_scatter_block. */
    public final Request iReduceScatterBlock(final Buffer sendbuf, final Buffer recvbuf, final int recvcount, final Datatype type, final Op op)
        throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> c.ireduceScatterBlock(sendbuf, 0, recvbuf, 0, recvcount, t, o));
    }

    /** MPI_Ireduce_scatter_block in place. */
    public final Request iReduceScatterBlock(final Buffer buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = t(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> c.ireduceScatterBlock(IN_PLACE, 0, buf, 0, count, t, o));
    }
}
