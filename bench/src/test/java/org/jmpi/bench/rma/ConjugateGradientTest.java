package org.jmpi.bench.rma;

import java.util.concurrent.atomic.AtomicReference;

import org.jmpi.Ranks;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The three CG gathers must give what one rank computes alone (to the rounding of the reductions): a block of p from
 * the wrong rank, place or iteration changes zeta. 6^3 = 216 rows over 1 to 4 ranks (uneven blocks at 4),
 * ranks as threads; the mini-app's run at a small size in CI.
 */
@Timeout(120)
class ConjugateGradientTest
{
    private static final int N = 6;
    private static final int SOLVES = 15;

    /** Zeta of the two-sided CG on one rank: what every version at every rank count must give. */
    static double reference(final int n, final int solves)
    {
        final AtomicReference<Double> reference = new AtomicReference<>();
        Ranks.run(1, (mpi, world) ->
        {
            final ConjugateGradient cg = new ConjugateGradient(world, ConjugateGradient.Version.TWO_SIDED, n);
            reference.set(cg.run(solves));
            cg.close();
        });
        return reference.get();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldConvergeAlikeInEveryVersion(final int ranks)
    {
        final double expected = reference(N, SOLVES);
        // The smallest eigenvalue of the shifted 7-point Laplacian: 0.1 + 6 - 6 cos(pi / (N + 1)).
        assertEquals(6.1 - 6 * Math.cos(Math.PI / (N + 1)), expected, 1e-3, "zeta converges to the smallest eigenvalue");
        Ranks.run(ranks, (mpi, world) ->
        {
            for (final ConjugateGradient.Version version : ConjugateGradient.Version.values())
            {
                final ConjugateGradient cg = new ConjugateGradient(world, version, N);
                final double zeta = cg.run(SOLVES);
                cg.close();
                assertEquals(expected, zeta, 1e-10 * expected, version + " at " + ranks + " ranks");
            }
        });
    }
}
