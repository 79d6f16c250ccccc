package org.jmpi.transport.shm;

import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.Params;
import org.jmpi.spi.TransportContext;

import java.nio.file.Path;
import java.util.Map;

/** A rank of a test job whose ranks all sit on one node, each in a JVM of its own. Immutable. */
record FixedTransportContext(int rank, int size, String jobId, Bootstrap bootstrap, Params params) implements TransportContext
{
    static FixedTransportContext of(final FileBootstrap bootstrap, final Path shmDir)
    {
        return new FixedTransportContext(bootstrap.rank(), bootstrap.size(), bootstrap.jobId(), bootstrap,
            new Params(Map.of(ShmParams.DIR.name(), shmDir.toString())));
    }

    @Override
    public String nodeId(final int rank)
    {
        return "node-0";
    }

    @Override
    public String jvmId(final int rank)
    {
        return "jvm-" + rank;
    }

    @Override
    public Runnable waker()
    {
        return () -> { };
    }

    @Override
    public java.util.concurrent.ConcurrentMap<String, Object> jvmShared()
    {
        return new java.util.concurrent.ConcurrentHashMap<>();
    }
}
