package org.jmpi.internal.rma;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.coarray.DoubleCoarray;
import org.jmpi.coarray.IntCoarray;
import org.jmpi.coarray.LongCoarray;
import org.jmpi.coarray.Section;
import org.jmpi.coarray.Team;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The coarray API (org.jmpi.coarray) between images: its fixed entry points, a halo exchange against a sequential
 * reference, sync images, nonblocking puts, strided sections, atomics, errors. In this package so that the shm and
 * tcp axes (which run org/jmpi/internal/rma/*Test) run it over active messages too.
 */
@Timeout(120)
class CoarrayTest
{
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldPutAndGetThroughTheEntryPoints(final int images)
    {
        Ranks.run(images, (mpi, world) ->
        {
            final Team team = Team.of(world);
            final int me = team.thisImage();
            assertEquals(world.rank(), me);
            assertEquals(images, team.numImages());
            try (DoubleCoarray a = DoubleCoarray.allocate(team, 10))
            {
                assertEquals(10, a.length());
                for (int i = 0; i < a.length(); i++)
                {
                    a.set(i, me * 100 + i);
                }
                team.syncAll();
                final int next = (me + 1) % images;
                final double[] got = new double[4];
                a.get(next, 3, got, 1, 3);
                assertArrayEquals(new double[] {0, next * 100 + 3, next * 100 + 4, next * 100 + 5}, got);
                assertEquals(next * 100 + 9, a.get(next, 9));
                team.syncAll();
                a.put(next, 0, new double[] {-1, -2, me}, 1, 2);
                team.syncAll();
                final int prev = (me + images - 1) % images;
                assertEquals(-2, a.get(0));
                assertEquals(prev, a.get(1));
                assertEquals(me * 100 + 2, a.localBuffer().get(2));
                if (a.hasArray())
                {
                    assertEquals(me * 100 + 2, a.local()[2]);
                }
                else
                {
                    assertThrows(UnsupportedOperationException.class, a::local, "a coarray in the arena has no array");
                }
            }
            team.free();
        });
    }

    /** 1-D Jacobi with one halo cell each side, coarrays against a sequential run of the same sweeps. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldMatchASequentialStencil(final int images)
    {
        final int cells = 12;
        final int sweeps = 20;
        final double[] reference = new double[images * cells + 2];
        for (int i = 1; i <= images * cells; i++)
        {
            reference[i] = Math.sin(i);
        }
        for (int s = 0; s < sweeps; s++)
        {
            final double[] next = reference.clone();
            for (int i = 1; i <= images * cells; i++)
            {
                next[i] = (reference[i - 1] + reference[i] + reference[i + 1]) / 3;
            }
            System.arraycopy(next, 0, reference, 0, next.length);
        }
        Ranks.run(images, (mpi, world) ->
        {
            final Team team = Team.of(world);
            final int me = team.thisImage();
            try (DoubleCoarray u = DoubleCoarray.allocate(team, cells + 2))
            {
                // the local view as a buffer: over the array, or over the arena memory where the team has it
                final java.nio.DoubleBuffer local = u.localBuffer();
                for (int i = 1; i <= cells; i++)
                {
                    local.put(i, Math.sin(me * cells + i));
                }
                final double[] next = new double[cells + 2];
                final double[] edges = new double[2];
                team.syncAll();
                for (int s = 0; s < sweeps; s++)
                {
                    // Halos: my first cell into the left image's right halo, my last into the right image's left halo.
                    edges[0] = local.get(1);
                    edges[1] = local.get(cells);
                    if (me > 0)
                    {
                        u.putAsync(me - 1, cells + 1, edges, 0, 1);
                    }
                    if (me < images - 1)
                    {
                        u.putAsync(me + 1, 0, edges, 1, 1);
                    }
                    team.syncAll();
                    for (int i = 1; i <= cells; i++)
                    {
                        next[i] = (local.get(i - 1) + local.get(i) + local.get(i + 1)) / 3;
                    }
                    team.syncAll();
                    local.put(1, next, 1, cells);
                }
                for (int i = 1; i <= cells; i++)
                {
                    assertEquals(reference[me * cells + i], local.get(i), 1e-12, "cell " + i + " of image " + me);
                }
            }
            team.free();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void shouldSynchroniseImagesPairwise(final int images)
    {
        Ranks.run(images, (mpi, world) ->
        {
            final Team team = Team.of(world);
            final int me = team.thisImage();
            final int right = (me + 1) % images;
            final int left = (me + images - 1) % images;
            final int[] neighbours = left == right ? new int[] {right, me} : new int[] {left, me, right};
            try (IntCoarray box = IntCoarray.allocate(team, 1))
            {
                for (int round = 1; round <= 5; round++)
                {
                    box.putAsync(right, 0, new int[] {me * 10 + round}, 0, 1);
                    team.syncImages(neighbours);
                    assertEquals(left * 10 + round, box.get(0), "round " + round);
                    team.syncImages(neighbours);
                }
                team.syncMemory();
            }
            team.free();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldMoveStridedSections(final int images)
    {
        Ranks.run(images, (mpi, world) ->
        {
            final Team team = Team.of(world);
            final int me = team.thisImage();
            final int right = (me + 1) % images;
            final int left = (me + images - 1) % images;
            // A 4 x 6 grid per image; put a 2 x 3 block of my local 2 x 3 array at rows 1,3 and columns 0,2,4.
            try (LongCoarray grid = LongCoarray.allocate(team, 24))
            {
                final Section block = Section.of(new int[] {4, 6}, new int[] {1, 0}, new int[] {2, 3}, new int[] {2, 2});
                assertEquals(6, block.count());
                final long[] src = new long[6];
                for (int i = 0; i < 6; i++)
                {
                    src[i] = me * 1000 + i;
                }
                grid.put(right, block, src, Section.range(0, 6));
                team.syncAll();
                final long[] expected = new long[24];
                for (int r = 0, k = 0; r < 2; r++)
                {
                    for (int c = 0; c < 3; c++)
                    {
                        expected[(1 + 2 * r) * 6 + 2 * c] = left * 1000 + k++;
                    }
                }
                final long[] mine = new long[24];
                grid.localBuffer().get(0, mine);
                assertArrayEquals(expected, mine);
                // Get the right image's column 2 (every 6th element from 2) into every other slot of a local array.
                team.syncAll();
                final long[] column = new long[8];
                grid.get(right, Section.of(2, 4, 6), column, Section.of(0, 4, 2));
                assertArrayEquals(new long[] {0, 0, me * 1000 + 1, 0, 0, 0, me * 1000 + 4, 0}, column);
                team.syncAll();
            }
            team.free();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldAddAtomicallyFromEveryImage(final int images)
    {
        Ranks.run(images, (mpi, world) ->
        {
            final Team team = Team.of(world);
            try (LongCoarray counter = LongCoarray.allocate(team, 1); IntCoarray small = IntCoarray.allocate(team, 1))
            {
                for (int i = 0; i < 500; i++)
                {
                    counter.fetchAndAdd(0, 0, 2);
                    small.fetchAndAdd(images - 1, 0, 1);
                }
                team.syncAll();
                if (team.thisImage() == 0)
                {
                    assertEquals(1000L * images, counter.get(0));
                }
                if (team.thisImage() == images - 1)
                {
                    assertEquals(500 * images, small.get(0));
                }
                team.syncAll();
            }
            team.free();
        });
    }

    @Test
    void shouldRaiseErrorsWithTheirClasses()
    {
        Ranks.run(2, (mpi, world) ->
        {
            final Team team = Team.of(world);
            final DoubleCoarray a = DoubleCoarray.allocate(team, 4);
            assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> a.put(2, 0, new double[1], 0, 1)).errorClass());
            assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class, () -> a.put(1, 3, new double[2], 0, 2)).errorClass());
            assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> team.syncImages(5)).errorClass());
            assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> team.syncImages(1, 1)).errorClass());
            assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> Section.of(0, 3, 0)).errorClass());
            assertEquals(ErrorClass.ERR_OTHER, assertThrows(MpiException.class, team::free).errorClass());
            team.syncAll();
            a.close();
            a.close();
            assertEquals(ErrorClass.ERR_WIN, assertThrows(MpiException.class, () -> a.get(0, 0)).errorClass());
            team.free();
        });
    }
}
