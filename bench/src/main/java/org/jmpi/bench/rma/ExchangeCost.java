package org.jmpi.bench.rma;

import java.util.Locale;
import java.util.stream.IntStream;

import org.HdrHistogram.Histogram;
import org.jmpi.Datatype;
import org.jmpi.Group;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Request;
import org.jmpi.Win;
import org.jmpi.bench.BenchArgs;
import org.jmpi.bench.Percentiles;
import org.jmpi.coarray.DoubleCoarray;
import org.jmpi.coarray.Section;
import org.jmpi.coarray.Team;

/**
 * What one step of a halo exchange costs in each version (docs/rma.md, "Puts, gets and fences between threads"): every
 * rank exchanges a plane of {@code --doubles} doubles with its ring neighbours, timed per call on rank 0, each
 * measurement in turn within a round so that load changes hit all alike:
 * <ul>
 * <li>{@code barrier}: {@code comm.barrier()} alone;</li>
 * <li>{@code fence}: {@code win.fence(0)} alone;</li>
 * <li>{@code syncAll}: {@code team.syncAll()} alone;</li>
 * <li>{@code syncImages}: {@code team.syncImages(left, right)} alone (the partners only: the 2-D CG's coarray
 * versions synchronise so);</li>
 * <li>{@code pscw}: post to and start with the two neighbours, complete, wait, alone (the 2-D CG's RMA version);</li>
 * <li>{@code two-sided}: irecv from the left, isend to the right, waitAll (the two-sided halo step);</li>
 * <li>{@code rma get}: fence, get the left neighbour's plane, fence (the get-based step);</li>
 * <li>{@code coarray put}: put the plane into the right neighbour (complete on return), syncAll;</li>
 * <li>{@code coarray putAsync}: the same with putAsync;</li>
 * <li>{@code coarray strided}: a strided section of the same size (every other double) with putAsync, syncAll.</li>
 * </ul>
 * Usage: {@code bin/jmpirun [--threads] -np 2 -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.rma.ExchangeCost
 * [--doubles 2048] [--iterations 20000] [--rounds 3]}. Prints the mean and percentiles (µs) per measurement and round.
 */
public final class ExchangeCost
{
    private static final String[] NAMES = {"barrier", "fence", "syncAll", "syncImages", "pscw", "two-sided", "rma get", "coarray put",
        "coarray putAsync", "coarray strided"};

    private ExchangeCost()
    {
    }

    public static void main(final String[] args)
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--doubles", "--iterations", "--rounds");
        final int doubles = parsed.intOption("--doubles", 2048);
        final int iterations = parsed.intOption("--iterations", 20_000);
        final int rounds = parsed.intOption("--rounds", 3);
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            final int me = world.rank();
            final int right = (me + 1) % world.size();
            final int left = (me - 1 + world.size()) % world.size();
            final double[] plane = new double[2 * doubles];
            final double[] halo = new double[2 * doubles];
            final Team team = Team.of(world);
            try (Win win = Win.create(plane, Double.BYTES, null, world); DoubleCoarray a = DoubleCoarray.allocate(team, 2 * doubles))
            {
                final Section every2 = Section.of(0, doubles, 2);
                final int[] neighbours = IntStream.of(left, right).filter(r -> r != me).distinct().toArray();
                final Group pair = world.group().incl(neighbours);
                if (me == 0)
                {
                    System.out.printf(Locale.ROOT, "# jmpi halo-step costs: %d ranks, planes of %d doubles, %d iterations x %d rounds%n",
                        world.size(), doubles, iterations, rounds);
                    System.out.printf(Locale.ROOT, "# %-20s %6s %10s %s%n", "measure", "round", "mean (us)", Percentiles.HEADER);
                }
                for (int round = 1; round <= rounds; round++)
                {
                    for (int m = 0; m < NAMES.length; m++)
                    {
                        final Histogram h = Percentiles.newHistogram();
                        world.barrier();
                        for (int i = 0; i < iterations; i++)
                        {
                            final long t0 = System.nanoTime();
                            step(m, world, win, team, a, plane, halo, doubles, left, right, every2, neighbours, pair);
                            h.recordValue(System.nanoTime() - t0);
                        }
                        world.barrier();
                        if (me == 0)
                        {
                            System.out.printf(Locale.ROOT, "%-22s %6d %10.2f %s%n", NAMES[m], round, h.getMean() / 1000,
                                Percentiles.columns(h, 1));
                        }
                    }
                }
            }
            team.free();
        }
    }

    private static void step(final int m, final Intracomm world, final Win win, final Team team, final DoubleCoarray a, final double[] plane,
        final double[] halo, final int doubles, final int left, final int right, final Section every2, final int[] neighbours,
        final Group pair)
    {
        switch (m)
        {
            case 0 -> world.barrier();
            case 1 -> win.fence(0);
            case 2 -> team.syncAll();
            case 3 -> team.syncImages(neighbours);
            case 4 ->
            {
                win.post(pair, 0);
                win.start(pair, 0);
                win.complete();
                win.await();
            }
            case 5 -> Request.waitAll(world.irecv(halo, 0, doubles, Datatype.DOUBLE, left, 3),
                world.isend(plane, 0, doubles, Datatype.DOUBLE, right, 3));
            case 6 ->
            {
                win.fence(0);
                win.get(halo, 0, doubles, Datatype.DOUBLE, left, doubles, doubles, Datatype.DOUBLE);
                win.fence(0);
            }
            case 7 ->
            {
                a.put(right, doubles, plane, 0, doubles);
                team.syncAll();
            }
            case 8 ->
            {
                a.putAsync(right, doubles, plane, 0, doubles);
                team.syncAll();
            }
            default ->
            {
                a.putAsync(right, every2, plane, every2);
                team.syncAll();
            }
        }
    }
}
