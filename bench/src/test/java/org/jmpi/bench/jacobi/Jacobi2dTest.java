package org.jmpi.bench.jacobi;

import org.jmpi.Ranks;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The solver spread over 1 to 5 ranks must compute what it computes alone: a halo column that went to the
 * wrong neighbour, side or sweep changes the position-weighted checksum, and a wrong reduction the residual.
 * An interior of 13 columns, so the blocks differ in size; ranks as threads.
 */
@Timeout(120)
class Jacobi2dTest
{
    private static final int N = 13;
    private static final int SWEEPS = 37;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void shouldMatchTheSolverAloneOnOneRank(final int ranks)
    {
        final Jacobi2d alone = new Jacobi2d(null, N);
        final double residual = alone.solve(SWEEPS);
        final double checksum = alone.checksum();
        Ranks.run(ranks, (mpi, world) ->
        {
            final Jacobi2d solver = new Jacobi2d(world, N);
            assertEquals(residual, solver.solve(SWEEPS), 1e-12 * residual, "residual at " + ranks + " ranks");
            assertEquals(checksum, solver.checksum(), 1e-12 * checksum, "checksum at " + ranks + " ranks");
        });
    }
}
