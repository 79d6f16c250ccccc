package org.jmpi.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The processes (units) of a {@link ProcessJob} and the ranks each carries: one rank per process, or with
 * {@code --threads} across hosts the ranks of one host in one {@link HostJob} JVM; and which ranks run on
 * another host (started through the launch agent).
 *
 * <p>Immutable after construction; any thread. The arrays it returns are its own: callers do not modify them.
 */
final class JobUnits
{
    /** The ranks of each unit, in rank order. */
    private final int[][] units;
    /** Per rank: started through the launch agent (on another host). */
    private final boolean[] remote;

    JobUnits(final LaunchOptions options)
    {
        this.units = units(options);
        this.remote = new boolean[options.rankCount()];
        final LaunchOptions.Placement placement = options.placement();
        if (placement != null)
        {
            final boolean[] localHost = new boolean[placement.hosts().names().size()];
            for (int h = 0; h < localHost.length; h++)
            {
                localHost[h] = Hosts.isLocal(placement.hosts().names().get(h));
            }
            for (int rank = 0; rank < remote.length; rank++)
            {
                remote[rank] = !localHost[placement.hostOfRank()[rank]];
            }
        }
    }

    /** How many processes the job has. */
    int count()
    {
        return units.length;
    }

    /** The ranks of {@code unit}. */
    int[] ranks(final int unit)
    {
        return units[unit];
    }

    /** The job's ranks. */
    int rankCount()
    {
        return remote.length;
    }

    /** Whether {@code rank} runs on another host. */
    boolean remote(final int rank)
    {
        return remote[rank];
    }

    /** Whether any rank runs on another host. */
    boolean anyRemote()
    {
        for (final boolean r : remote)
        {
            if (r)
            {
                return true;
            }
        }
        return false;
    }

    /** How many units this launcher starts on this node (the others go through the launch agent). */
    int localCount()
    {
        int local = 0;
        for (final int[] unit : units)
        {
            local += remote[unit[0]] ? 0 : 1;
        }
        return local;
    }

    /** The unit that carries {@code rank}. */
    int unitOf(final int rank)
    {
        for (int unit = 0; unit < units.length; unit++)
        {
            for (final int r : units[unit])
            {
                if (r == rank)
                {
                    return unit;
                }
            }
        }
        throw new IllegalArgumentException("no such rank: " + rank);
    }

    /** "rank 3" or "ranks 2,3 (one JVM)". */
    String name(final int unit)
    {
        return units[unit].length == 1 ? "rank " + units[unit][0] : "ranks " + rankList(unit) + " (one JVM)";
    }

    /** "2,3": the ranks of {@code unit}. */
    String rankList(final int unit)
    {
        final StringBuilder sb = new StringBuilder();
        for (final int rank : units[unit])
        {
            sb.append(sb.isEmpty() ? "" : ",").append(rank);
        }
        return sb.toString();
    }

    /** The processes' ranks: one each, or with --threads across hosts the ranks of each host in order. */
    private static int[][] units(final LaunchOptions options)
    {
        final LaunchOptions.Placement placement = options.placement();
        if (placement == null || !options.threads())
        {
            final int[][] units = new int[options.rankCount()][];
            for (int rank = 0; rank < units.length; rank++)
            {
                units[rank] = new int[] {rank};
            }
            return units;
        }
        final List<int[]> units = new ArrayList<>();
        for (int h = 0; h < placement.hosts().names().size(); h++)
        {
            final int host = h;
            final int[] ranks = IntStream.range(0, options.rankCount()).filter(r -> placement.hostOfRank()[r] == host).toArray();
            if (ranks.length > 0)
            {
                units.add(ranks);
            }
        }
        return units.toArray(int[][]::new);
    }
}
