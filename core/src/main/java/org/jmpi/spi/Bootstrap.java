package org.jmpi.spi;

/**
 * Key/value exchange among the ranks of a job, used at start-up (transport addresses) and on abort.
 * The launcher serves it on loopback for ranks in separate JVMs; ranks that are threads of one JVM
 * share a map; ranks started by a resource manager get their own implementation later.
 *
 * <p>Threading: one thread per rank at a time.
 */
public interface Bootstrap extends AutoCloseable
{
    int rank();

    int size();

    /** Unique per job, safe for file names ([A-Za-z0-9-]). */
    String jobId();

    /** Publishes a value. Keys are global to the job; by convention prefix them with the rank. */
    void put(String key, byte[] value);

    /**
     * Waits until {@code key} is published and returns its value.
     *
     * @throws org.jmpi.MpiException ERR_OTHER on timeout, naming the key.
     */
    byte[] get(String key, long timeoutNs);

    /** Barrier over all ranks of the job. @throws org.jmpi.MpiException on timeout. */
    void fence(long timeoutNs);

    /** Best effort: asks whoever owns the job to stop every rank, with this exit code and message. */
    void abort(int exitCode, String message);

    @Override
    void close();
}
