package org.jmpi;

/**
 * The thread support a program asks for at init (MPI 4.1 §11.2.1). jmpi provides every level.
 * <ul>
 * <li>{@link #SINGLE}, {@link #FUNNELED}, {@link #SERIALIZED}: the calling thread drives the progress
 * engine itself; concurrent calls are detected and rejected with {@code ERR_OTHER}.</li>
 * <li>{@link #MULTIPLE}: calls from any thread, virtual threads included, are handed to the rank's
 * progress thread through a command queue, and the caller parks until its request completes.</li>
 * </ul>
 */
public enum ThreadLevel
{
    SINGLE,
    FUNNELED,
    SERIALIZED,
    MULTIPLE
}
