package org.jmpi.bench.rma;

import java.util.concurrent.atomic.AtomicReference;

import org.jmpi.CartComm;
import org.jmpi.Ranks;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The four Himeno exchanges must compute what one rank computes alone: a halo (or corner) that went to the wrong
 * neighbour, side or iteration changes gosa. A small uneven grid (10 x 9 interior points over 1 to 4 ranks, so
 * blocks differ in size), ranks as threads; the mini-app's run at a small size in CI.
 */
@Timeout(120)
class HimenoTest
{
    private static final int IMAX = 12;
    private static final int JMAX = 11;
    private static final int KMAX = 9;
    private static final int ITERATIONS = 6;

    private static double reference()
    {
        final AtomicReference<Double> gosa = new AtomicReference<>();
        Ranks.run(1, (mpi, world) ->
        {
            final CartComm cart = world.cartCreate(new int[] {1, 1}, new boolean[2], false);
            final Himeno h = new Himeno(cart, Himeno.Version.TWO_SIDED, IMAX, JMAX, KMAX);
            gosa.set(h.run(ITERATIONS));
            h.close();
        });
        return gosa.get();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldComputeTheSameGosaInEveryVersion(final int ranks)
    {
        final double expected = reference();
        Ranks.run(ranks, (mpi, world) ->
        {
            final int[] dims = CartComm.dimsCreate(world.size(), new int[2]);
            final CartComm cart = world.cartCreate(dims, new boolean[2], false);
            for (final Himeno.Version version : Himeno.Version.values())
            {
                final Himeno h = new Himeno(cart, version, IMAX, JMAX, KMAX);
                final double gosa = h.run(ITERATIONS);
                h.close();
                assertEquals(expected, gosa, 1e-10 * expected, version + " at " + dims[0] + " x " + dims[1] + " ranks");
            }
        });
    }
}
