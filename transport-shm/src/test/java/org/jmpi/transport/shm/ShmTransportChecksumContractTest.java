package org.jmpi.transport.shm;

import java.nio.file.Path;
import java.util.Map;

/** The contract again with checksums on and a small ring and pools, so every path carries a checksum header. */
class ShmTransportChecksumContractTest extends ShmTransportContractTest
{
    @Override
    protected Map<String, String> params(final Path scratchDir)
    {
        return Map.of(
            ShmParams.DIR.name(), scratchDir.toString(),
            ShmParams.RING_SIZE.name(), "64k",
            ShmParams.POOL_SLOTS.name(), "2",
            ShmParams.CHECKSUM.name(), "true");
    }
}
