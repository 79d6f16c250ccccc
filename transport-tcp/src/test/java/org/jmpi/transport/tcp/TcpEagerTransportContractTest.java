package org.jmpi.transport.tcp;

import java.nio.file.Path;
import java.util.Map;

/** The transport contract with every connection opened at open ({@code jmpi.tcp.connect=eager}: the lower rank connects). */
class TcpEagerTransportContractTest extends TcpTransportContractTest
{
    @Override
    protected Map<String, String> params(final Path scratchDir)
    {
        return Map.of("jmpi.tcp.if", "127.0.0.1/32", "jmpi.tcp.connect", "eager");
    }
}
