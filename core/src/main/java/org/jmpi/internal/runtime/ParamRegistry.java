package org.jmpi.internal.runtime;

import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;
import org.jmpi.spi.TransportProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Every parameter jmpi reads: the core's and each transport's. What {@code jmpirun --info} prints. */
public final class ParamRegistry
{
    private ParamRegistry()
    {
    }

    /** The core's parameters, the collectives', the bootstrap server's, then each transport provider's, in provider order. */
    public static List<ParamSpec> all()
    {
        final List<ParamSpec> all = new ArrayList<>(CoreParams.ALL);
        all.addAll(org.jmpi.internal.coll.CollParams.ALL);
        all.addAll(org.jmpi.internal.bootstrap.BootstrapParams.ALL);
        for (final TransportProvider provider : ServiceLoader.load(TransportProvider.class))
        {
            all.addAll(provider.params());
        }
        return all;
    }

    /** The transport providers on the class path, for {@code jmpirun --info}. */
    /** The transport providers {@code params}' {@code jmpi.transports} opens, in the order they are tried for a peer. */
    public static List<TransportProvider> selected(final Params params)
    {
        return TransportSelection.select(providers(), params.get(CoreParams.TRANSPORTS));
    }

    public static List<TransportProvider> providers()
    {
        final List<TransportProvider> providers = new ArrayList<>();
        ServiceLoader.load(TransportProvider.class).forEach(providers::add);
        return providers;
    }
}
