package org.jmpi.internal.pt2pt;

/** MPI's send modes (MPI 4.1 §3.4). */
public enum SendMode
{
    /** MPI_Send: eager or rendezvous, as the protocol chooses. */
    STANDARD,
    /** MPI_Ssend: completes only once the receive has matched. */
    SYNC,
    /** MPI_Rsend: the receive is known to be posted; sent as STANDARD. */
    READY,
    /** MPI_Bsend: copied into the attached buffer and sent from there. */
    BUFFERED
}
