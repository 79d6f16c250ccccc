package org.jmpi.transport.shm;

import java.nio.file.Path;
import java.util.Map;

/** The contract again with a 64 KiB ring and 2-slot pools, so rings wrap and pools fill all the time. */
class ShmTransportSmallRingContractTest extends ShmTransportContractTest
{
    @Override
    protected Map<String, String> params(final Path scratchDir)
    {
        return Map.of(
            ShmParams.DIR.name(), scratchDir.toString(),
            ShmParams.RING_SIZE.name(), "64k",
            ShmParams.POOL_SLOTS.name(), "2");
    }
}
