package org.jmpi.coll;

import java.util.Map;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Blocking collectives that move data (barrier, bcast, gather and scatter with their v-variants, allgather, alltoall(v, w))
 * against sequential references, at 1, 2, 3, 4, 5 and 8 ranks, with every algorithm forced in turn, and mismatched
 * calls failing instead of hanging. Data is integer-valued so that floating sums are exact in any order. The
 * reductions are {@link ReductionCollectivesTest}'s.
 */
@Timeout(120)
class CollectivesTest
{
    static final int[] COUNTS = {0, 1, 7, 1000, 33_333};

    static Map<String, String> params(final String key, final String algorithm)
    {
        return Map.of("jmpi.coll." + key + ".algorithm", algorithm);
    }

    static int value(final int rank, final int i)
    {
        return (rank + 1) * 31 + i % 1013;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldBarrier(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            for (int i = 0; i < 10; i++)
            {
                world.barrier();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldBcastWithEveryAlgorithm(final int size)
    {
        for (final String algorithm : new String[] {"binomial", "scatter_allgather", "auto"})
        {
            Ranks.run(size, ThreadLevel.SINGLE, params("bcast", algorithm), (mpi, world) ->
            {
                final int rank = world.rank();
                for (final int root : new int[] {0, size - 1, size / 2})
                {
                    for (final int count : COUNTS)
                    {
                        final int[] data = new int[count + 3];
                        if (rank == root)
                        {
                            for (int i = 0; i < count; i++)
                            {
                                data[i + 3] = value(root, i);
                            }
                        }
                        world.bcast(data, 3, count, Datatype.INT, root);
                        for (int i = 0; i < count; i++)
                        {
                            assertEquals(value(root, i), data[i + 3], "element " + i + " count " + count + " root " + root);
                        }
                        assertEquals(0, data[0]);
                    }
                    // A derived type: every other long.
                    final Datatype everyOther = Datatype.vector(50, 1, 2, Datatype.LONG).commit();
                    final long[] longs = new long[100];
                    if (rank == root)
                    {
                        for (int i = 0; i < 100; i++)
                        {
                            longs[i] = i % 2 == 0 ? i * 7L : -1;
                        }
                    }
                    world.bcast(longs, 0, 1, everyOther, root);
                    for (int i = 0; i < 100; i += 2)
                    {
                        assertEquals(i * 7L, longs[i]);
                        assertEquals(rank == root ? -1 : 0, longs[i + 1]);
                    }
                }
            });
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldGatherAndScatter(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            for (final int count : new int[] {0, 1, 7, 5000})
            {
                for (final int root : new int[] {0, size - 1})
                {
                    final short[] mine = new short[count];
                    for (int i = 0; i < count; i++)
                    {
                        mine[i] = (short)value(rank, i);
                    }
                    final short[] all = new short[count * size + 2];
                    world.gather(mine, 0, count, Datatype.SHORT, all, 2, count, Datatype.SHORT, root);
                    if (rank == root)
                    {
                        for (int r = 0; r < size; r++)
                        {
                            for (int i = 0; i < count; i++)
                            {
                                assertEquals((short)value(r, i), all[2 + r * count + i]);
                            }
                        }
                        // Scatter it back, with IN_PLACE at the root.
                        for (int i = 0; i < count; i++)
                        {
                            all[2 + rank * count + i] = (short)(all[2 + rank * count + i] + 1);
                        }
                        world.scatter(all, 2, count, Datatype.SHORT, Comm.IN_PLACE, 0, count, Datatype.SHORT, root);
                    }
                    else
                    {
                        final short[] back = new short[count];
                        world.scatter(null, 0, count, Datatype.SHORT, back, 0, count, Datatype.SHORT, root);
                        assertArrayEquals(mine, back);
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldGathervAndScattervWithUnevenDisplacements(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int root = size / 2;
            final int[] counts = new int[size];
            final int[] displs = new int[size];
            int at = 5;
            for (int r = size - 1; r >= 0; r--)
            {
                counts[r] = r % 3 == 1 ? 0 : r * 3 + 1;
                displs[r] = at;
                at += counts[r] + 2;
            }
            final double[] mine = new double[counts[rank]];
            for (int i = 0; i < mine.length; i++)
            {
                mine[i] = value(rank, i);
            }
            final double[] all = new double[at];
            world.gatherv(mine, 0, mine.length, Datatype.DOUBLE, all, 0, counts, displs, Datatype.DOUBLE, root);
            if (rank == root)
            {
                for (int r = 0; r < size; r++)
                {
                    for (int i = 0; i < counts[r]; i++)
                    {
                        assertEquals(value(r, i), all[displs[r] + i]);
                    }
                }
            }
            final double[] back = new double[counts[rank]];
            world.scatterv(all, 0, counts, displs, Datatype.DOUBLE, back, 0, counts[rank], Datatype.DOUBLE, root);
            assertArrayEquals(mine, back);
            // allgatherv into every rank, IN_PLACE.
            final double[] everywhere = new double[at];
            for (int i = 0; i < counts[rank]; i++)
            {
                everywhere[displs[rank] + i] = mine[i];
            }
            world.allgatherv(Comm.IN_PLACE, 0, 0, Datatype.DOUBLE, everywhere, 0, counts, displs, Datatype.DOUBLE);
            for (int r = 0; r < size; r++)
            {
                for (int i = 0; i < counts[r]; i++)
                {
                    assertEquals(value(r, i), everywhere[displs[r] + i]);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldAllgatherWithEveryAlgorithm(final int size)
    {
        for (final String algorithm : new String[] {"ring", "recursive_doubling"})
        {
            Ranks.run(size, ThreadLevel.SINGLE, params("allgather", algorithm), (mpi, world) ->
            {
                final int rank = world.rank();
                for (final int count : COUNTS)
                {
                    final int[] mine = new int[count];
                    for (int i = 0; i < count; i++)
                    {
                        mine[i] = value(rank, i);
                    }
                    final int[] all = new int[count * size];
                    world.allgather(mine, 0, count, Datatype.INT, all, 0, count, Datatype.INT);
                    final int[] inPlace = new int[count * size];
                    System.arraycopy(mine, 0, inPlace, rank * count, count);
                    world.allgather(Comm.IN_PLACE, 0, 0, null, inPlace, 0, count, Datatype.INT);
                    for (int r = 0; r < size; r++)
                    {
                        for (int i = 0; i < count; i++)
                        {
                            assertEquals(value(r, i), all[r * count + i]);
                            assertEquals(value(r, i), inPlace[r * count + i]);
                        }
                    }
                }
                // Different send and receive types with the same signature: 4 ints as one contiguous item.
                final Datatype four = Datatype.contiguous(4, Datatype.INT).commit();
                final int[] mine = {rank, rank + 1, rank + 2, rank + 3};
                final int[] all = new int[4 * size];
                world.allgather(mine, 0, 4, Datatype.INT, all, 0, 1, four);
                for (int r = 0; r < size; r++)
                {
                    assertEquals(r + 3, all[4 * r + 3]);
                }
            });
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldAlltoallWithEveryAlgorithm(final int size)
    {
        for (final String algorithm : new String[] {"bruck", "pairwise", "linear", "auto"})
        {
            Ranks.run(size, ThreadLevel.SINGLE, params("alltoall", algorithm), (mpi, world) ->
            {
                final int rank = world.rank();
                for (final int count : new int[] {0, 1, 3, 2000})
                {
                    final long[] out = new long[count * size];
                    for (int to = 0; to < size; to++)
                    {
                        for (int i = 0; i < count; i++)
                        {
                            out[to * count + i] = rank * 1_000_000L + to * 1000L + i;
                        }
                    }
                    final long[] in = new long[count * size];
                    world.alltoall(out, 0, count, Datatype.LONG, in, 0, count, Datatype.LONG);
                    final long[] inPlace = out.clone();
                    world.alltoall(Comm.IN_PLACE, 0, 0, null, inPlace, 0, count, Datatype.LONG);
                    for (int from = 0; from < size; from++)
                    {
                        for (int i = 0; i < count; i++)
                        {
                            assertEquals(from * 1_000_000L + rank * 1000L + i, in[from * count + i]);
                            assertEquals(from * 1_000_000L + rank * 1000L + i, inPlace[from * count + i]);
                        }
                    }
                }
            });
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldAlltoallvAndAlltoallw(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            // rank r sends (r + to) % 3 items to rank `to`, at uneven displacements.
            final int[] sc = new int[size];
            final int[] sd = new int[size];
            final int[] rc = new int[size];
            final int[] rd = new int[size];
            int sAt = 1;
            int rAt = 2;
            for (int p = 0; p < size; p++)
            {
                sc[p] = (rank + p) % 3;
                sd[p] = sAt;
                sAt += sc[p] + 1;
                rc[p] = (p + rank) % 3;
                rd[p] = rAt;
                rAt += rc[p] + 3;
            }
            final int[] out = new int[sAt];
            for (int p = 0; p < size; p++)
            {
                for (int i = 0; i < sc[p]; i++)
                {
                    out[sd[p] + i] = rank * 100 + p * 10 + i;
                }
            }
            final int[] in = new int[rAt];
            world.alltoallv(out, 0, sc, sd, Datatype.INT, in, 0, rc, rd, Datatype.INT);
            final int[] inW = new int[rAt];
            final long[] sdb = new long[size];
            final long[] rdb = new long[size];
            final Datatype[] types = new Datatype[size];
            for (int p = 0; p < size; p++)
            {
                sdb[p] = 4L * sd[p];
                rdb[p] = 4L * rd[p];
                types[p] = Datatype.INT;
            }
            world.alltoallw(out, 0, sc, sdb, types, inW, 0, rc, rdb, types);
            for (int p = 0; p < size; p++)
            {
                for (int i = 0; i < rc[p]; i++)
                {
                    assertEquals(p * 100 + rank * 10 + i, in[rd[p] + i]);
                    assertEquals(p * 100 + rank * 10 + i, inW[rd[p] + i]);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void shouldReportMismatchedCountsInsteadOfHanging(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int[] data = new int[10];
            // Rank 1 is a child of the root in every binomial tree: it must see the error. Ranks below it in the
            // tree get what it forwards (its 5 ints), so they may complete; nobody may hang.
            if (rank == 0)
            {
                world.bcast(data, 0, 10, Datatype.INT, 0);
            }
            else if (rank == 1)
            {
                final MpiException ex = assertThrows(MpiException.class, () -> world.bcast(data, 0, 5, Datatype.INT, 0));
                assertEquals(ErrorClass.ERR_TRUNCATE, ex.errorClass(), ex.getMessage());
                assertTrue(ex.getMessage().contains("bcast"), ex.getMessage());
            }
            else
            {
                try
                {
                    world.bcast(data, 0, 5, Datatype.INT, 0);
                }
                catch (final MpiException ex)
                {
                    assertEquals(ErrorClass.ERR_TRUNCATE, ex.errorClass(), ex.getMessage());
                }
            }
            final MpiException root = assertThrows(MpiException.class, () -> world.bcast(data, 0, 1, Datatype.INT, size));
            assertEquals(ErrorClass.ERR_ROOT, root.errorClass());
            final MpiException inPlace = assertThrows(MpiException.class,
                () -> world.bcast(Comm.IN_PLACE, 0, 1, Datatype.INT, 0));
            assertEquals(ErrorClass.ERR_BUFFER, inPlace.errorClass());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void shouldDetectMismatchedRootsWithTheCheckOn(final int size)
    {
        Ranks.run(size, ThreadLevel.SINGLE, Map.of("jmpi.coll.check", "true"), (mpi, world) ->
        {
            final int rank = world.rank();
            final int[] data = new int[4];
            world.bcast(data, 0, 4, Datatype.INT, 0);
            final MpiException ex = assertThrows(MpiException.class,
                () -> world.bcast(data, 0, 4, Datatype.INT, rank == 0 ? 1 : 0));
            assertEquals(ErrorClass.ERR_OTHER, ex.errorClass());
            assertTrue(ex.getMessage().contains("mismatch"), ex.getMessage());
            final MpiException counts = assertThrows(MpiException.class,
                () -> world.allreduce(data, 0, data, 0, rank == 0 ? 4 : 3, Datatype.INT, Op.SUM));
            assertEquals(ErrorClass.ERR_OTHER, counts.errorClass());
            world.barrier();
        });
    }
}
