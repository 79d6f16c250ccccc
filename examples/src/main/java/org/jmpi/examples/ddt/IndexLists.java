package org.jmpi.examples.ddt;

import java.util.SplittableRandom;

/**
 * The index lists of the indexed patterns. DDTBench reads the lists that SPECFEM3D and LAMMPS produced
 * from files; we draw a sorted random subset of the same size from the same range instead (seeded, so
 * every rank and run sees the same list): boundary points and ghost atoms are visited in index order.
 */
final class IndexLists
{
    private IndexLists()
    {
    }

    /** {@code count} distinct indices in {@code [0, range)}, ascending (selection sampling). */
    static int[] sortedSample(final int count, final int range, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final int[] out = new int[count];
        int chosen = 0;
        for (int i = 0; i < range && chosen < count; i++)
        {
            if (random.nextInt(range - i) < count - chosen)
            {
                out[chosen++] = i;
            }
        }
        return out;
    }
}
