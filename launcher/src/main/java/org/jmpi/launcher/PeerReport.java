package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapParams;
import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.internal.bootstrap.ParamRegistry;
import org.jmpi.spi.Params;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;

import java.io.PrintStream;
import java.util.List;

/**
 * The per-peer part of {@code jmpirun --info -np N [--host ...] [--threads]}: for the job the options
 * describe, which transport each rank would use to each peer, predicted the way init chooses.
 *
 * 1. Place the ranks: their node (the host given, or this one) and JVM (one per rank; per host with
 *    --threads across hosts; one for --threads on one node).
 * 2. For rank r, take the providers {@code jmpi.transports} selects, in priority order, and keep those
 *    whose probe, for rank r in that layout, finds them available.
 * 3. For each peer the first kept provider that reaches it carries its traffic. What reaches what is
 *    the transports' documented scope (a transport says so only once opened): jvm the same JVM (and
 *    the rank itself), shm and pvas the same node in another JVM, tcp another node (any other rank
 *    with {@code jmpi.tcp.local}), any other transport every other rank.
 *
 * Predicted, not observed: {@code --param transports.show=true} prints the choice each rank makes at
 * init. At most {@link #MAX_RANKS} ranks are listed.
 *
 * <p>Stateless; one thread.
 */
final class PeerReport
{
    static final int MAX_RANKS = 64;

    private PeerReport()
    {
    }

    static void print(final PrintStream out, final LaunchOptions layout, final List<TransportProvider> all)
    {
        final int size = layout.rankCount();
        final LaunchOptions.Placement placement = layout.placement();
        final String here = InfoReport.hostName();
        final String[] nodes = new String[size];
        final String[] jvms = new String[size];
        for (int r = 0; r < size; r++)
        {
            nodes[r] = placement != null ? placement.host(r) : here;
            jvms[r] = layout.threads() ? nodes[r] : nodes[r] + "#" + r;
        }
        final Params params = new Params(layout.params());
        final List<TransportProvider> selected;
        try
        {
            selected = ParamRegistry.selected(params);
        }
        catch (final RuntimeException ex)
        {
            out.println("  (cannot select transports: " + ex.getMessage() + ")");
            return;
        }
        out.println();
        out.println("per-peer transports for -np " + size + (placement != null ? " on " + placement.hosts().describe() : " on this node") +
            (layout.threads() ? ", ranks as threads" : "") + " (predicted; --param transports.show=true prints each rank's choice at init):");
        final LocalJob probeJob = LocalJob.create(size, layout.params());
        final boolean tcpLocal = Boolean.parseBoolean(layout.params().getOrDefault("jmpi.tcp.local", "false"));
        for (int r = 0; r < Math.min(size, MAX_RANKS); r++)
        {
            final TransportContext context = InfoReport.probeContext(probeJob, r, k -> nodes[k], k -> jvms[k]);
            final List<TransportProvider> open = selected.stream().filter(p -> InfoReport.probe(p, context).equals("available")).toList();
            final StringBuilder line = new StringBuilder("  rank " + r + " (" + nodes[r] + "):");
            for (int k = 0; k < size; k++)
            {
                String carrier = "none";
                for (final TransportProvider provider : open)
                {
                    if (reaches(provider.name(), r, k, nodes, jvms, tcpLocal))
                    {
                        carrier = provider.name();
                        break;
                    }
                }
                line.append(' ').append(k).append('=').append(carrier);
            }
            out.println(line);
        }
        if (size > MAX_RANKS)
        {
            out.println("  ... (" + (size - MAX_RANKS) + " more ranks)");
        }
        if (placement != null && placement.anyRemote())
        {
            out.println("  bootstrap: listens on " + (params.get(BootstrapParams.BIND_IF).isBlank() ? "every address" :
                params.get(BootstrapParams.BIND_IF)) + "; remote ranks start through: " + placement.launchAgent().describe());
        }
    }

    private static boolean reaches(final String transport, final int rank, final int peer, final String[] nodes, final String[] jvms,
        final boolean tcpLocal)
    {
        if (peer == rank && !transport.equals("jvm"))
        {
            return false;
        }
        final boolean sameJvm = jvms[rank].equals(jvms[peer]);
        final boolean sameNode = nodes[rank].equals(nodes[peer]);
        return switch (transport)
        {
            case "jvm" -> sameJvm;
            case "shm", "pvas" -> sameNode && !sameJvm;
            case "tcp" -> !sameNode || tcpLocal;
            default -> true;
        };
    }
}
