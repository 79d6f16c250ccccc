package org.jmpi.internal.bootstrap;

import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;
import org.jmpi.spi.TransportProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Every parameter jmpi reads: the core's and each transport's. What {@code jmpirun --info} prints. The core's
 * layers above this package name theirs through {@link ParamSource} services, so that the launcher reaches
 * them here without depending on the runtime.
 */
public final class ParamRegistry
{
    /** The parameter that selects and orders the transports (defined by the runtime). */
    public static final String TRANSPORTS = "jmpi.transports";

    private ParamRegistry()
    {
    }

    /** The core's parameters, the collectives', the bootstrap server's, then each transport provider's, in provider order. */
    public static List<ParamSpec> all()
    {
        final List<ParamSpec> all = new ArrayList<>();
        for (final ParamSource source : ServiceLoader.load(ParamSource.class, ParamRegistry.class.getClassLoader()))
        {
            all.addAll(source.params());
        }
        all.addAll(BootstrapParams.ALL);
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
        final ParamSpec transports = all().stream().filter(spec -> spec.name().equals(TRANSPORTS)).findFirst()
            .orElseThrow(() -> new IllegalStateException("no parameter " + TRANSPORTS + ": core's ParamSource is not on the class path"));
        return TransportSelection.select(providers(), params.get(transports));
    }

    public static List<TransportProvider> providers()
    {
        final List<TransportProvider> providers = new ArrayList<>();
        ServiceLoader.load(TransportProvider.class).forEach(providers::add);
        return providers;
    }
}
