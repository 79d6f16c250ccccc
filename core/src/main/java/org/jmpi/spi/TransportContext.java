package org.jmpi.spi;

/**
 * What a transport is told when it opens: who this rank is, how to reach the others' published
 * addresses, the job's parameters, and how to wake this rank's progress engine.
 */
public interface TransportContext
{
    /** This rank in the world communicator. */
    int rank();

    /** Size of the world communicator. */
    int size();

    /** The job's id: unique per job, safe to use in file names. */
    String jobId();

    /** Key/value exchange with the other ranks of the job. */
    Bootstrap bootstrap();

    /** The job's parameters. */
    Params params();

    /** An opaque node identity per rank: equal strings mean the same host. */
    String nodeId(int rank);

    /** An opaque JVM identity per rank: equal strings mean the same JVM (ranks run as threads). */
    String jvmId(int rank);

    /**
     * Wakes this rank's progress engine if it is parked; cheap when it is not. A transport whose frames
     * are written by another thread (a peer rank of the same JVM, a receiving thread of its own) calls it
     * after publishing a frame for this rank. Any thread; valid for the transport's whole life.
     */
    Runnable waker();

    /**
     * How long opening may wait for the other ranks at the bootstrap (the job's init timeout).
     * Defaults to 60 seconds for contexts that have no job behind them.
     */
    default long initTimeoutNs()
    {
        return 60_000_000_000L;
    }

    /**
     * Values shared by the ranks of this JVM that belong to one job, such as an in-JVM transport's hub;
     * a map of this rank's own when the rank is alone in its JVM.
     */
    java.util.concurrent.ConcurrentMap<String, Object> jvmShared();
}
