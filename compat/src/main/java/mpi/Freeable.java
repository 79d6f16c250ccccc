package mpi;

/** An MPI object that can be freed (Open MPI Java API). */
public interface Freeable
{
    /** Releases the object. */
    void free() throws MPIException;
}
