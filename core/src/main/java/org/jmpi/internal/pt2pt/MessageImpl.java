package org.jmpi.internal.pt2pt;

import org.jmpi.Datatype;
import org.jmpi.Message;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Status;

/**
 * A message taken out of matching by mprobe/improbe; received exactly once with {@link #recv} or
 * {@link #irecv}. A message from PROC_NULL ({@code MPI_MESSAGE_NO_PROC}) receives nothing.
 */
final class MessageImpl implements Message
{
    private final CommState comm;
    private Unexpected message;
    private final boolean noProc;
    private boolean received;

    MessageImpl(final CommState comm, final Unexpected message)
    {
        this.comm = comm;
        this.message = message;
        this.noProc = message == null;
    }

    @Override
    public boolean isNoProc()
    {
        return noProc;
    }

    @Override
    public Status recv(final Object buf, final int offset, final int count, final Datatype type)
    {
        return irecv(buf, offset, count, type).await();
    }

    @Override
    public Request irecv(final Object buf, final int offset, final int count, final Datatype type)
    {
        try
        {
            if (received)
            {
                throw new MpiException(org.jmpi.ErrorClass.ERR_REQUEST, "mrecv: message already received");
            }
            final RequestImpl r = PointToPoint.imrecv(comm, message, buf, offset, count, type);
            received = true;
            message = null;
            return r;
        }
        catch (final MpiException ex)
        {
            throw comm.handle(ex);
        }
    }
}
