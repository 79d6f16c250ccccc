package org.jmpi.bench.ddt;

import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The fft2d mini-app computes what a serial 2-D DFT computes (transposed), at 1, 2, 4 and 8 ranks, in every mode. */
@Timeout(120)
class Fft2dTest
{
    private static final int N = 32;

    @ParameterizedTest(name = "{0} ranks, {1}")
    @CsvSource({"1, auto", "2, auto", "2, direct", "2, staged", "4, auto", "8, staged"})
    void shouldEqualTheSerialTransform(final int ranks, final String mode)
    {
        final double[] expected = serialTransposed();
        Ranks.run(ranks, ThreadLevel.SINGLE, Map.of("jmpi.pvas.mode", mode, "jmpi.eager.limit", "0"), (mpi, world) ->
        {
            final Fft2d fft = new Fft2d(world, N);
            fft.forward();
            fft.forward();
            final double[] mine = fft.result();
            final int rows = N / world.size();
            for (int k = 0; k < mine.length; k++)
            {
                assertEquals(expected[2 * world.rank() * rows * N + k], mine[k], 1e-9, "rank " + world.rank() + ", double " + k);
            }
        });
    }

    @Test
    void shouldTransformLikeADirectDft()
    {
        final double[] a = new double[2 * 8];
        for (int i = 0; i < 8; i++)
        {
            a[2 * i] = Fft2d.re(1, i);
            a[2 * i + 1] = Fft2d.im(1, i);
        }
        final double[] dft = new double[16];
        for (int k = 0; k < 8; k++)
        {
            for (int t = 0; t < 8; t++)
            {
                final double angle = -2 * Math.PI * k * t / 8;
                dft[2 * k] += a[2 * t] * Math.cos(angle) - a[2 * t + 1] * Math.sin(angle);
                dft[2 * k + 1] += a[2 * t] * Math.sin(angle) + a[2 * t + 1] * Math.cos(angle);
            }
        }
        Fft2d.fft(a, 0, 8);
        for (int i = 0; i < 16; i++)
        {
            assertEquals(dft[i], a[i], 1e-12, "double " + i);
        }
    }

    @Test
    void shouldRefuseASizeTheRanksDoNotDivide()
    {
        Ranks.run(3, ThreadLevel.SINGLE, Map.of(), (mpi, world) -> assertThrows(IllegalArgumentException.class, () -> new Fft2d(world, 16)));
    }

    /** The whole N x N input transformed by rows, transposed, transformed by rows again. */
    private static double[] serialTransposed()
    {
        final double[] m = new double[2 * N * N];
        for (int r = 0; r < N; r++)
        {
            for (int c = 0; c < N; c++)
            {
                m[2 * (r * N + c)] = Fft2d.re(r, c);
                m[2 * (r * N + c) + 1] = Fft2d.im(r, c);
            }
            Fft2d.fft(m, 2 * r * N, N);
        }
        final double[] t = new double[2 * N * N];
        for (int r = 0; r < N; r++)
        {
            for (int c = 0; c < N; c++)
            {
                t[2 * (c * N + r)] = m[2 * (r * N + c)];
                t[2 * (c * N + r) + 1] = m[2 * (r * N + c) + 1];
            }
        }
        for (int r = 0; r < N; r++)
        {
            Fft2d.fft(t, 2 * r * N, N);
        }
        return t;
    }
}
