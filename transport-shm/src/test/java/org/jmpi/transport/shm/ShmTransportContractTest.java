package org.jmpi.transport.shm;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.jmpi.testkit.transport.JobTransportContext;
import org.jmpi.testkit.transport.TransportContractTest;

import java.nio.file.Path;
import java.util.Map;

class ShmTransportContractTest extends TransportContractTest
{
    @Override
    protected TransportProvider provider()
    {
        return new ShmTransportProvider();
    }

    @Override
    protected TransportContext context(final LocalJob job, final int rank)
    {
        return JobTransportContext.separateJvms(job, rank);
    }

    @Override
    protected Map<String, String> params(final Path scratchDir)
    {
        return Map.of(ShmParams.DIR.name(), scratchDir.toString());
    }
}
