package org.jmpi;

/**
 * A message taken out of matching by {@link Comm#mprobe} or {@link Comm#improbe} (MPI 4.1 §3.8.2):
 * no other receive can take it; receive it exactly once with {@link #recv} or {@link #irecv}.
 */
public interface Message
{
    /** Whether this is MPI_MESSAGE_NO_PROC (probed from PROC_NULL): receiving it receives nothing. */
    boolean isNoProc();

    /** MPI_Mrecv. */
    Status recv(Object buf, int offset, int count, Datatype type);

    /** MPI_Imrecv. */
    Request irecv(Object buf, int offset, int count, Datatype type);
}
