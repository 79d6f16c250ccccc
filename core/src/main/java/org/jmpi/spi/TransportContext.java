package org.jmpi.spi;

/**
 * What a transport is told when it opens: who this rank is, how to reach the others' published
 * addresses, and the job's parameters.
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
}
