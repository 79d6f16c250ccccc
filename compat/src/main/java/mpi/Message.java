package mpi;

import java.nio.Buffer;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A matched message (Open MPI Java API) over a jmpi {@link org.jmpi.Message}: {@link #mProbe} or
 * {@link #imProbe} takes a message out of matching, {@link #mRecv} or {@link #imRecv} receives it once, after
 * which this object is null again.
 *
 * <p>jmpi's {@code Message} does not carry the probed status, so mProbe probes first (for the status, with
 * the wildcards resolved) and then takes that source's first message with that tag, which is the same
 * message (MPI's non-overtaking order). Another thread of the same rank probing the same source and tag at
 * the same moment could take it in between; docs/compat.md lists this.
 */
public final class Message
{
    private org.jmpi.Message message;

    /** A null message (MPI_MESSAGE_NULL). */
    public Message()
    {
    }

    /** Whether no message is held (MPI_MESSAGE_NULL). */
    public boolean isNull()
    {
        return message == null;
    }

    /** Whether the held message is MPI_MESSAGE_NO_PROC (probed from {@link MPI#PROC_NULL}). */
    public boolean isNoProc()
    {
        return message != null && message.isNoProc();
    }

    /** MPI_Mprobe: waits for a matching message on {@code comm} and holds it; its status. */
    public Status mProbe(final int source, final int tag, final Comm comm) throws MPIException
    {
        final org.jmpi.Comm c = comm.core();
        try
        {
            final org.jmpi.Status probed = c.probe(source, tag);
            message = c.mprobe(probed.source(), probed.tag());
            return new Status(probed, MPI.UNDEFINED);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Improbe: holds a matching message and returns its status, or {@code null} when none has arrived. */
    public Status imProbe(final int source, final int tag, final Comm comm) throws MPIException
    {
        final org.jmpi.Comm c = comm.core();
        try
        {
            final org.jmpi.Status probed = c.iprobe(source, tag);
            final org.jmpi.Message m = probed == null ? null : c.improbe(probed.source(), probed.tag());
            if (m == null)
            {
                return null;
            }
            message = m;
            return new Status(probed, MPI.UNDEFINED);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    private org.jmpi.Message take(final String call) throws MPIException
    {
        MPI.check();
        final org.jmpi.Message m = message;
        if (m == null)
        {
            throw MPIException.of(ErrorClass.ERR_REQUEST, call + ": no message is held (MPI_MESSAGE_NULL)");
        }
        message = null;
        return m;
    }

    /** MPI_Mrecv: receives the held message. */
    public Status mRecv(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Message m = take("mRecv");
        try
        {
            return Status.of(m.recv(buf, 0, count, t));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Imrecv. */
    public Request imRecv(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        return imRecv((Object)buf, count, type);
    }

    /** MPI_Imrecv into an array (jmpi extension). */
    public Request imRecv(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Message m = take("imRecv");
        try
        {
            return new Request(m.irecv(buf, 0, count, t));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }
}
