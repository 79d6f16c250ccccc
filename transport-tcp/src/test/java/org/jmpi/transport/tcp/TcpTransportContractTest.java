package org.jmpi.transport.tcp;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.jmpi.testkit.transport.JobTransportContext;
import org.jmpi.testkit.transport.TransportContractTest;

/** The tcp transport over loopback, every rank posing as a node of its own, under the transport contract. */
class TcpTransportContractTest extends TransportContractTest
{
    @Override
    protected TransportProvider provider()
    {
        return new TcpTransportProvider();
    }

    @Override
    protected TransportContext context(final LocalJob job, final int rank)
    {
        return JobTransportContext.of(job, rank, r -> "node-" + r, r -> "jvm-" + r);
    }

    /** Loopback only: the ranks pose as separate nodes, but tests never leave this machine. */
    @Override
    protected java.util.Map<String, String> params(final java.nio.file.Path scratchDir)
    {
        return java.util.Map.of("jmpi.tcp.if", "127.0.0.1/32");
    }
}
