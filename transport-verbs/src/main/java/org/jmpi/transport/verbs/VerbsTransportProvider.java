package org.jmpi.transport.verbs;

import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.jmpi.transport.verbs.ibv.VerbsProbe;

import java.util.List;
import java.util.Locale;

/**
 * Entry point of the verbs transport: ranks on other nodes over an RDMA device. Priority 20: above tcp
 * (10), so a peer on another node uses verbs when the device is there, below shm (50) and jvm (100), so
 * ranks of one node keep using memory. Opens only when some rank is on another node, or when asked for
 * by name in {@code jmpi.transports} or with {@code jmpi.verbs.local} (testing on one node).
 *
 * <p>Threading: called by the rank's initialising thread; stateless.
 */
public final class VerbsTransportProvider implements TransportProvider
{
    public static final String NAME = "verbs";
    public static final int PRIORITY = 20;

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
        return VerbsParams.ALL;
    }

    @Override
    public String probe(final TransportContext context)
    {
        try
        {
            final Params params = context.params();
            if (!wanted(context))
            {
                return "verbs: every rank is on this node (name verbs in jmpi.transports or set " + VerbsParams.LOCAL.name() +
                    "=true to use it anyway)";
            }
            final VerbsProbe.Result result = VerbsProbe.probe(params.get(VerbsParams.LIBRARY), params.get(VerbsParams.DEVICE),
                params.getInt(VerbsParams.PORT), 0);
            return result.available() ? null : "verbs: " + result.reason();
        }
        catch (final RuntimeException ex)
        {
            return "verbs: " + ex.getMessage();
        }
    }

    /** What the device looks like from here, for {@code jmpirun --info}: device, port state, link layer, LID, MTU, GID. */
    @Override
    public String describe(final Params params)
    {
        try
        {
            final VerbsProbe.Result result = VerbsProbe.probe(params.get(VerbsParams.LIBRARY), params.get(VerbsParams.DEVICE),
                params.getInt(VerbsParams.PORT), 0);
            return result.available() ? result.description() : result.reason() + " (" + result.description() + ")";
        }
        catch (final RuntimeException ex)
        {
            return "verbs: " + ex.getMessage();
        }
    }

    static boolean wanted(final TransportContext context)
    {
        final Params params = context.params();
        if (params.getBoolean(VerbsParams.LOCAL) || namedInTransports(params.get(VerbsParams.TRANSPORTS)))
        {
            return true;
        }
        for (int r = 0; r < context.size(); r++)
        {
            if (!context.nodeId(r).equals(context.nodeId(context.rank())))
            {
                return true;
            }
        }
        return false;
    }

    /** Whether a {@code jmpi.transports} value selects verbs by name ({@code verbs,jvm}; not {@code all}, not {@code ^verbs}). */
    static boolean namedInTransports(final String spec)
    {
        final String text = spec == null ? "" : spec.trim().toLowerCase(Locale.ROOT);
        if (text.startsWith("^"))
        {
            return false;
        }
        for (final String part : text.split(","))
        {
            if (part.trim().equals(NAME))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public Transport open(final TransportContext context)
    {
        return new VerbsTransport(context);
    }
}
