package org.jmpi.transport.verbs;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.jmpi.testkit.transport.JobTransportContext;
import org.jmpi.testkit.transport.TransportContractTest;
import org.junit.jupiter.api.Tag;

/** The verbs transport on a real device (the soft-RoCE VM), every rank posing as a node of its own, under the transport contract. */
@Tag("rdma")
class VerbsTransportContractTest extends TransportContractTest
{
    @Override
    protected TransportProvider provider()
    {
        return new VerbsTransportProvider();
    }

    @Override
    protected TransportContext context(final LocalJob job, final int rank)
    {
        return JobTransportContext.of(job, rank, r -> "node-" + r, r -> "jvm-" + r);
    }
}
