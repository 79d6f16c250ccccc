package org.jmpi.bench.threads;

import org.jmpi.CartComm;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The mini-app's two exchanges must compute the grid a serial periodic Jacobi sweep computes: a halo
 * that went to the wrong neighbour, side or iteration changes the checksum. Ranks as threads, at sizes
 * that give 1 x 1, 2 x 1, 3 x 1 and 5 x 1 grids of ranks (self-exchanges included) and 2 x 2.
 */
class HaloAppTest
{
    private static final int N = 6;
    private static final int SWEEPS = 7;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void shouldMatchASerialSweepInBothVariants(final int ranks)
    {
        Ranks.run(ranks, ThreadLevel.MULTIPLE, Map.of(), (mpi, world) ->
        {
            final int[] dims = CartComm.dimsCreate(world.size(), new int[2]);
            final CartComm cart = world.cartCreate(dims, new boolean[] {true, true}, false);
            final double expected = serialChecksum(dims[0] * N, dims[1] * N);
            final HaloApp nonblocking = new HaloApp(cart, N);
            nonblocking.runNonblocking(2, SWEEPS - 2, new Histogram(3));
            final double a = nonblocking.checksum();
            final HaloApp virtual = new HaloApp(cart, N);
            virtual.runVirtual(3, SWEEPS - 3, new Histogram(3));
            final double b = virtual.checksum();
            assertEquals(a, b, "the two variants must do the same sweeps in the same order");
            assertEquals(expected, a, 1e-9 * Math.abs(expected), "against the serial sweep, dims " + dims[0] + " x " + dims[1]);
        });
    }

    /** The same initial values and sweeps on the whole periodic grid in one array. */
    private static double serialChecksum(final int rows, final int cols)
    {
        double[] cur = new double[rows * cols];
        double[] next = new double[rows * cols];
        for (int y = 0; y < rows; y++)
        {
            for (int x = 0; x < cols; x++)
            {
                cur[y * cols + x] = ((y * 31L + x * 17L) % 101) / 101.0;
            }
        }
        for (int s = 0; s < SWEEPS; s++)
        {
            for (int y = 0; y < rows; y++)
            {
                for (int x = 0; x < cols; x++)
                {
                    final int up = Math.floorMod(y - 1, rows) * cols + x;
                    final int down = Math.floorMod(y + 1, rows) * cols + x;
                    final int left = y * cols + Math.floorMod(x - 1, cols);
                    final int right = y * cols + Math.floorMod(x + 1, cols);
                    next[y * cols + x] = 0.25 * (cur[up] + cur[down] + cur[left] + cur[right]);
                }
            }
            final double[] t = cur;
            cur = next;
            next = t;
        }
        double sum = 0;
        for (final double v : cur)
        {
            sum += v;
        }
        return sum;
    }
}
