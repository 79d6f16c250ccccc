package org.jmpi.internal.transport.jvm;

import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;

/**
 * The transport between ranks that are threads of one JVM, and from a rank to itself. Always
 * available (every rank reaches itself).
 */
public final class InJvmTransportProvider implements TransportProvider
{
    public static final ParamSpec INBOX_SIZE = new ParamSpec("jmpi.jvm.inbox.size", "4m", "bytes",
        "In-JVM transport: bytes of frames too long for a pair's ring that a rank's inbox holds before senders see " +
        "back-pressure.");

    public static final ParamSpec RING_SIZE = new ParamSpec("jmpi.jvm.ring.size", "64k", "bytes",
        "In-JVM transport: each ordered pair of ranks' frame ring (a power of two, direct memory, made on the pair's first " +
        "frame: n(n-1) rings when every pair talks); frames up to an eighth of it go in the ring, longer ones through " +
        "the receiver's inbox.");

    public static final ParamSpec MEMORY = new ParamSpec("jmpi.jvm.memory", "peer", "name",
        "In-JVM transport: the memory feature it offers, peer (direct copies between ranks' heap objects) or remote " +
        "(put and get with completions, as an RDMA transport; for testing the one-sided layer's remote-memory path).");

    @Override
    public java.util.List<ParamSpec> params()
    {
        return java.util.List.of(INBOX_SIZE, RING_SIZE, MEMORY);
    }

    @Override
    public String name()
    {
        return "jvm";
    }

    @Override
    public int priority()
    {
        return 100;
    }

    @Override
    public String probe(final TransportContext context)
    {
        return null;
    }

    @Override
    public Transport open(final TransportContext context)
    {
        return new InJvmTransport(context);
    }
}
