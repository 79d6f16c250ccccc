package org.example.heat;

import org.jmpi.Comm;
import org.jmpi.Mpi;

/**
 * Diffuses a spike of heat round a ring of cells spread over all ranks and prints the total heat before
 * and after, which must agree. Runs as {@code java} (one rank) or under {@code jmpirun -np N}.
 */
public final class Main
{
    private Main()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final Rod rod = new Rod(world, 100, i -> i == 0 ? 1000.0 : 0.0);
            final double before = rod.totalHeat();
            for (int s = 0; s < 500; s++)
            {
                rod.step(0.25);
            }
            final double after = rod.totalHeat();
            if (world.rank() == 0)
            {
                System.out.printf("heat: %d ranks, total heat %.6f before, %.6f after%n", world.size(), before, after);
            }
            if (Math.abs(before - after) > 1e-6 * before)
            {
                System.err.println("heat: rank " + world.rank() + ": total heat not conserved: " + before + " -> " + after);
                System.exit(1);
            }
        }
    }
}
