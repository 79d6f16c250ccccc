package org.jmpi.transport.pvas;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.jmpi.testkit.transport.JobTransportContext;
import org.jmpi.testkit.transport.TransportContractTest;

import java.nio.file.Path;
import java.util.Map;

/** The arena transport carries frames (through the shm transport it wraps): the same contract as every transport. */
class PvasTransportContractTest extends TransportContractTest
{
    @Override
    protected TransportProvider provider()
    {
        return new PvasTransportProvider();
    }

    @Override
    protected TransportContext context(final LocalJob job, final int rank)
    {
        return JobTransportContext.separateJvms(job, rank);
    }

    @Override
    protected Map<String, String> params(final Path scratchDir)
    {
        return Map.of("jmpi.shm.dir", scratchDir.toString(), PvasParams.PARTITION_SIZE.name(), "1m");
    }
}
