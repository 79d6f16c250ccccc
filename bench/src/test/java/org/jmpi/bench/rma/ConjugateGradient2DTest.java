package org.jmpi.bench.rma;

import org.jmpi.Ranks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * NPB CG's 2-D process grid with the transpose exchange must give what the 1-D CG computes on one rank (the same
 * matrix): a partial sum from the wrong process, a column block from the wrong transpose partner or place changes
 * zeta. 7^3 = 343 rows (uneven blocks on every grid but one rank) on 1 x 1, 1 x 2, 2 x 2 and 2 x 4 grids, ranks as threads,
 * every version.
 */
@Timeout(180)
class ConjugateGradient2DTest
{
    private static final int N = 7;
    private static final int SOLVES = 15;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 8})
    void shouldConvergeAlikeInEveryVersion(final int ranks)
    {
        final double expected = ConjugateGradientTest.reference(N, SOLVES);
        Ranks.run(ranks, (mpi, world) ->
        {
            for (final ConjugateGradient2D.Version version : ConjugateGradient2D.Version.values())
            {
                final ConjugateGradient2D cg = new ConjugateGradient2D(world, version, N);
                final double zeta = cg.run(SOLVES);
                cg.close();
                assertEquals(expected, zeta, 1e-10 * expected, version + " at " + ranks + " ranks");
            }
        });
    }

    @Test
    void shouldLayTheGridOutAsNpb()
    {
        assertArrayEquals(new int[] {1, 1}, ConjugateGradient2D.gridOf(1));
        assertArrayEquals(new int[] {1, 2}, ConjugateGradient2D.gridOf(2));
        assertArrayEquals(new int[] {2, 2}, ConjugateGradient2D.gridOf(4));
        assertArrayEquals(new int[] {2, 4}, ConjugateGradient2D.gridOf(8));
        assertArrayEquals(new int[] {4, 4}, ConjugateGradient2D.gridOf(16));
        assertThrows(IllegalArgumentException.class, () -> ConjugateGradient2D.gridOf(6));
    }
}
