package org.jmpi.testkit.transport;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.internal.transport.jvm.InJvmTransportProvider;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;

import java.nio.file.Path;
import java.util.Map;

/** The in-JVM transport (ranks as threads, and every rank to itself) under the transport contract. */
class InJvmTransportContractTest extends TransportContractTest
{
    @Override
    protected TransportProvider provider()
    {
        return new InJvmTransportProvider();
    }

    @Override
    protected TransportContext context(final LocalJob job, final int rank)
    {
        return JobTransportContext.sameJvm(job, rank);
    }

    @Override
    protected Map<String, String> params(final Path scratchDir)
    {
        return Map.of("jmpi.jvm.inbox.size", "512k");
    }

    @Override
    protected boolean reachesSelf()
    {
        return true;
    }
}
