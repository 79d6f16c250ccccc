package org.jmpi.transport.tcp;

import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;

import java.util.List;

/**
 * Entry point of the tcp transport: ranks on other nodes. Lowest priority of the node-aware transports
 * (jvm 100, shm 50), so ranks of one node keep using memory; opens only when some rank is on another node
 * (or {@code jmpi.tcp.local}), so a one-node job listens on no socket.
 *
 * <p>Threading: called by the rank's initialising thread; stateless.
 */
public final class TcpTransportProvider implements TransportProvider
{
    public static final String NAME = "tcp";
    public static final int PRIORITY = 10;

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public int priority()
    {
        return PRIORITY;
    }

    @Override
    public List<ParamSpec> params()
    {
        return TcpParams.ALL;
    }

    @Override
    public String probe(final TransportContext context)
    {
        try
        {
            if (context.params().getBoolean(TcpParams.LOCAL))
            {
                return null;
            }
            for (int r = 0; r < context.size(); r++)
            {
                if (!context.nodeId(r).equals(context.nodeId(context.rank())))
                {
                    return null;
                }
            }
            return "tcp: every rank is on this node (set " + TcpParams.LOCAL.name() + "=true to use tcp anyway)";
        }
        catch (final RuntimeException ex)
        {
            return "tcp: " + ex.getMessage();
        }
    }

    @Override
    public Transport open(final TransportContext context)
    {
        return new TcpTransport(context);
    }
}
