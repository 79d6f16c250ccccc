package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.internal.bootstrap.ParamRegistry;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code jmpirun --info}, after ompi_info: the version, the JDK, each transport on the class path with
 * its probe result, and every parameter (name, default, current value, unit, environment variable,
 * description).
 *
 * <p>Stateless; run on one thread.
 */
final class InfoReport
{
    private InfoReport()
    {
    }

    /** The jmpi version the launcher was built as, or "unknown". */
    static String version()
    {
        try (InputStream in = InfoReport.class.getResourceAsStream("version.properties"))
        {
            if (in != null)
            {
                final Properties properties = new Properties();
                properties.load(in);
                return properties.getProperty("version", "unknown");
            }
        }
        catch (final IOException ex)
        {
            // Reported as unknown.
        }
        return "unknown";
    }

    static void print(final PrintStream out, final Map<String, String> explicitParams)
    {
        print(out, explicitParams, null);
    }

    /** The report; with {@code layout} (from -np, --host, --threads...) also the transport each peer would use. */
    static void print(final PrintStream out, final Map<String, String> explicitParams, final LaunchOptions layout)
    {
        final Params params = new Params(explicitParams);
        out.println("jmpi " + version());
        out.println("  JDK:       " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + " " +
            System.getProperty("java.vm.version") + ", " + System.getProperty("java.vendor") + ")");
        out.println("  java.home: " + System.getProperty("java.home"));
        out.println("  OS:        " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " +
            System.getProperty("os.arch") + ", " + Runtime.getRuntime().availableProcessors() + " processors");
        out.println();
        out.println("transports:");
        final List<TransportProvider> providers;
        try
        {
            providers = ParamRegistry.providers();
        }
        catch (final Throwable ex)
        {
            out.println("  (cannot load transport providers: " + ex + ")");
            return;
        }
        if (providers.isEmpty())
        {
            out.println("  (none found on the class path)");
        }
        final LocalJob probeJob = LocalJob.create(2, explicitParams);
        for (final TransportProvider provider : providers)
        {
            out.printf("  %-10s priority %-5d (%s)%n", provider.name(), provider.priority(), provider.getClass().getName());
            out.println("      ranks in separate JVMs: " + probe(provider, probeContext(probeJob, false)));
            out.println("      ranks as threads:       " + probe(provider, probeContext(probeJob, true)));
            final String detail = describe(provider, params);
            if (detail != null)
            {
                out.println("      here:                   " + detail);
            }
        }
        if (layout != null)
        {
            PeerReport.print(out, layout, providers);
        }
        out.println();
        out.println("parameters (-Djmpi.NAME=VALUE, environment JMPI_NAME, or jmpirun --param NAME=VALUE):");
        final List<ParamSpec> specs = ParamRegistry.all();
        int nameWidth = 4;
        int defaultWidth = 7;
        for (final ParamSpec spec : specs)
        {
            nameWidth = Math.max(nameWidth, spec.name().length());
            defaultWidth = Math.max(defaultWidth, spec.defaultValue().length());
        }
        final String row = "  %-" + nameWidth + "s  %-" + defaultWidth + "s  %-" + defaultWidth + "s  %-10s  %s%n";
        out.printf(row, "NAME", "DEFAULT", "VALUE", "UNIT", "ENV");
        for (final ParamSpec spec : specs)
        {
            String value;
            try
            {
                value = params.get(spec);
            }
            catch (final RuntimeException ex)
            {
                value = "?";
            }
            out.printf(row, spec.name(), spec.defaultValue(), value, spec.unit(), spec.envName());
            out.println("      " + spec.description());
        }
    }

    static String probe(final TransportProvider provider, final TransportContext context)
    {
        try
        {
            final String reason = provider.probe(context);
            return reason == null ? "available" : "unavailable: " + reason;
        }
        catch (final Throwable ex)
        {
            return "probe failed: " + ex;
        }
    }

    /** The provider's own line about this machine (the verbs device), or null; a throwing provider is reported, not fatal. */
    static String describe(final TransportProvider provider, final Params params)
    {
        try
        {
            return provider.describe(params);
        }
        catch (final Throwable ex)
        {
            return "describe failed: " + ex;
        }
    }

    /** Rank 0 of a two-rank job on this node, its ranks in one JVM ({@code sameJvm}) or in two. */
    private static TransportContext probeContext(final LocalJob job, final boolean sameJvm)
    {
        final String host = hostName();
        final long pid = ProcessHandle.current().pid();
        return probeContext(job, 0, r -> host, r -> pid + "@" + host + (sameJvm ? "" : "#" + r));
    }

    /** Rank {@code rank} of {@code job}, each rank on the node and in the JVM the functions give. */
    static TransportContext probeContext(final LocalJob job, final int rank, final java.util.function.IntFunction<String> nodes,
        final java.util.function.IntFunction<String> jvms)
    {
        return new TransportContext()
        {
            @Override
            public int rank()
            {
                return rank;
            }

            @Override
            public int size()
            {
                return job.size();
            }

            @Override
            public String jobId()
            {
                return job.jobId();
            }

            @Override
            public Bootstrap bootstrap()
            {
                return job.bootstrap(rank);
            }

            @Override
            public Params params()
            {
                return job.params();
            }

            @Override
            public String nodeId(final int r)
            {
                return nodes.apply(r);
            }

            @Override
            public String jvmId(final int r)
            {
                return jvms.apply(r);
            }

            @Override
            public Runnable waker()
            {
                return () -> { };
            }

            @Override
            public java.util.concurrent.ConcurrentMap<String, Object> jvmShared()
            {
                return job.shared();
            }
        };
    }

    static String hostName()
    {
        try
        {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException ex)
        {
            return "localhost";
        }
    }
}
