package mpi;

/**
 * An intercommunicator (Open MPI Java API) over a jmpi {@link org.jmpi.Intercomm}: two groups; made by
 * {@link Comm#createIntercomm}, {@link Intracomm#accept}, {@link Intracomm#connect}, {@link Intracomm#spawn} and
 * {@link #getParent()}. The collectives of {@link Comm} work across the groups (rooted ones take
 * {@link MPI#ROOT} and {@link MPI#PROC_NULL} as MPI says).
 */
public final class Intercomm extends Comm
{
    Intercomm(final org.jmpi.Comm comm)
    {
        super(comm);
    }

    private Intercomm(final org.jmpi.Comm[] ready, final Request request)
    {
        super(ready, request);
    }

    private org.jmpi.Intercomm inter() throws MPIException
    {
        return (org.jmpi.Intercomm)core();
    }

    /** As {@link #dup()}, with an unchecked exception. */
    @Override
    public Intercomm clone()
    {
        try
        {
            return dup();
        }
        catch (final MPIException ex)
        {
            throw new RuntimeException(ex.getMessage(), ex);
        }
    }

    /** MPI_Comm_dup. */
    @Override
    public Intercomm dup() throws MPIException
    {
        return new Intercomm(call(org.jmpi.Comm::dup));
    }

    /**
     * MPI_Comm_idup: jmpi has no nonblocking dup of an intercommunicator; this dups at once (collectively, so
     * every rank must call it) and {@link #getRequest()} is already complete.
     */
    @Override
    public Intercomm iDup() throws MPIException
    {
        return new Intercomm(new org.jmpi.Comm[] {call(org.jmpi.Comm::dup)}, new Request(null));
    }

    /** MPI_Comm_dup_with_info. */
    @Override
    public Intercomm dupWithInfo(final Info info) throws MPIException
    {
        final Intercomm copy = dup();
        copy.setInfo(info);
        return copy;
    }

    /** MPI_Comm_remote_size. */
    public int getRemoteSize() throws MPIException
    {
        final org.jmpi.Intercomm i = inter();
        return call(c -> i.remoteSize());
    }

    /** MPI_Comm_remote_group. */
    public Group getRemoteGroup() throws MPIException
    {
        final org.jmpi.Intercomm i = inter();
        return new Group(call(c -> i.remoteGroup()));
    }

    /** MPI_Intercomm_merge: the group passing {@code high} = false comes first. Collective. */
    public Intracomm merge(final boolean high) throws MPIException
    {
        final org.jmpi.Intercomm i = inter();
        return new Intracomm(call(c -> i.merge(high)));
    }

    /**
     * MPI_Comm_get_parent: the intercommunicator to the group that spawned this process's world
     * ({@link Intracomm#spawn}), or a null intercommunicator ({@link #isNull()}) for a process that was not spawned, or
     * once the parent intercommunicator is freed or disconnected.
     */
    public static Intercomm getParent() throws MPIException
    {
        MPI.check();
        final org.jmpi.Intercomm parent = MPI.mpi().parent();
        return new Intercomm(parent);
    }
}
