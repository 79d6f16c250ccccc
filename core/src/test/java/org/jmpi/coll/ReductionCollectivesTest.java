package org.jmpi.coll;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.IntStream;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import static org.jmpi.coll.CollectivesTest.COUNTS;
import static org.jmpi.coll.CollectivesTest.params;
import static org.jmpi.coll.CollectivesTest.value;

/**
 * Blocking reductions against sequential references (reduce to every root, allreduce, scan and exscan, reduce_scatter,
 * rank order kept for non-commutative ops, every predefined op on its types, NIO buffers of either byte order,
 * reduceLocal), at 1, 2, 3, 4, 5 and 8 ranks, with every algorithm forced in turn. Data is integer-valued so that
 * floating sums are exact in any order; the data-moving collectives are {@link CollectivesTest}'s.
 */
@Timeout(120)
class ReductionCollectivesTest
{
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldAllreduceWithEveryAlgorithm(final int size)
    {
        for (final String algorithm : new String[] {"recursive_doubling", "rabenseifner", "ring", "auto"})
        {
            Ranks.run(size, ThreadLevel.SINGLE, params("allreduce", algorithm), (mpi, world) ->
            {
                final int rank = world.rank();
                for (final int count : COUNTS)
                {
                    final int[] in = new int[count];
                    final double[] din = new double[count];
                    final long[] lin = new long[count];
                    for (int i = 0; i < count; i++)
                    {
                        in[i] = value(rank, i);
                        din[i] = value(rank, i);
                        lin[i] = value(rank, i) * (1L << 33);
                    }
                    final int[] out = new int[count];
                    world.allreduce(in, 0, out, 0, count, Datatype.INT, Op.SUM);
                    final double[] dout = new double[count];
                    world.allreduce(din, 0, dout, 0, count, Datatype.DOUBLE, Op.MAX);
                    final long[] lout = new long[count];
                    world.allreduce(lin, 0, lout, 0, count, Datatype.LONG, Op.MIN);
                    final int[] inPlace = in.clone();
                    world.allreduce(Comm.IN_PLACE, 0, inPlace, 0, count, Datatype.INT, Op.BXOR);
                    for (int i = 0; i < count; i++)
                    {
                        int sum = 0;
                        int xor = 0;
                        for (int r = 0; r < size; r++)
                        {
                            sum += value(r, i);
                            xor ^= value(r, i);
                        }
                        assertEquals(sum, out[i], "sum element " + i + " count " + count);
                        assertEquals(value(size - 1, i), dout[i], "max element " + i);
                        assertEquals(value(0, i) * (1L << 33), lout[i], "min element " + i);
                        assertEquals(xor, inPlace[i], "in-place bxor element " + i);
                    }
                }
            });
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldReduceToEveryRoot(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            for (int root = 0; root < size; root++)
            {
                for (final int count : COUNTS)
                {
                    final float[] in = new float[count];
                    for (int i = 0; i < count; i++)
                    {
                        in[i] = value(rank, i);
                    }
                    final float[] out = new float[count + 1];
                    out[count] = -5;
                    world.reduce(in, 0, out, 0, count, Datatype.FLOAT, Op.SUM, root);
                    if (rank == root)
                    {
                        for (int i = 0; i < count; i++)
                        {
                            float sum = 0;
                            for (int r = 0; r < size; r++)
                            {
                                sum += value(r, i);
                            }
                            assertEquals(sum, out[i], "element " + i);
                        }
                        assertEquals(-5, out[count]);
                        // IN_PLACE at the root.
                        final float[] mine = in.clone();
                        world.reduce(Comm.IN_PLACE, 0, mine, 0, count, Datatype.FLOAT, Op.MAX, root);
                        for (int i = 0; i < count; i++)
                        {
                            assertEquals(value(size - 1, i), mine[i]);
                        }
                    }
                    else
                    {
                        world.reduce(in, 0, null, 0, count, Datatype.FLOAT, Op.MAX, root);
                    }
                }
            }
        });
    }

    private static final Op AFFINE = AffineOp.AFFINE;

    private static final Datatype PAIR = AffineOp.PAIR;

    private static long[] affine(final int rank, final int count)
    {
        return AffineOp.operand(rank, count);
    }

    /** Ranks {@code from} to {@code to}'s operands composed in rank order. */
    private static long[] affineFold(final int from, final int to, final int count)
    {
        return AffineOp.fold(IntStream.rangeClosed(from, to).toArray(), count);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldKeepRankOrderForNonCommutativeOps(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            for (final int count : new int[] {0, 1, 5, 300})
            {
                final long[] in = affine(rank, count);
                final long[] expected = affineFold(0, size - 1, count);
                for (int root = 0; root < size; root++)
                {
                    final long[] out = new long[2 * count];
                    world.reduce(in, 0, out, 0, count, PAIR, AFFINE, root);
                    if (rank == root)
                    {
                        assertArrayEquals(expected, out, "reduce root " + root);
                    }
                }
                final long[] all = new long[2 * count];
                world.allreduce(in, 0, all, 0, count, PAIR, AFFINE);
                assertArrayEquals(expected, all, "allreduce");
                final long[] scanned = new long[2 * count];
                world.scan(in, 0, scanned, 0, count, PAIR, AFFINE);
                assertArrayEquals(affineFold(0, rank, count), scanned, "scan");
                final long[] ex = new long[2 * count];
                world.exscan(in, 0, ex, 0, count, PAIR, AFFINE);
                if (rank > 0)
                {
                    assertArrayEquals(affineFold(0, rank - 1, count), ex, "exscan");
                }
                final long[] blocks = new long[2 * count * size];
                for (int r = 0; r < size; r++)
                {
                    System.arraycopy(affine(rank * 7 + r, count), 0, blocks, 2 * count * r, 2 * count);
                }
                final long[] mine = new long[2 * count];
                world.reduceScatterBlock(blocks, 0, mine, 0, count, PAIR, AFFINE);
                final long[] expectedMine = new long[2 * count];
                for (int i = 0; i < count; i++)
                {
                    long m = 1;
                    long c = 0;
                    for (int r = 0; r < size; r++)
                    {
                        final long[] b = affine(r * 7 + rank, count);
                        c = b[2 * i] * c + b[2 * i + 1];
                        m = m * b[2 * i];
                    }
                    expectedMine[2 * i] = m;
                    expectedMine[2 * i + 1] = c;
                }
                assertArrayEquals(expectedMine, mine, "reduceScatterBlock");
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldScanAndExscan(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            for (final int count : COUNTS)
            {
                final long[] in = new long[count];
                for (int i = 0; i < count; i++)
                {
                    in[i] = value(rank, i);
                }
                final long[] out = new long[count];
                world.scan(in, 0, out, 0, count, Datatype.LONG, Op.SUM);
                final long[] ex = new long[count];
                Arrays.fill(ex, 42);
                world.exscan(in, 0, ex, 0, count, Datatype.LONG, Op.SUM);
                final long[] inPlace = in.clone();
                world.scan(Comm.IN_PLACE, 0, inPlace, 0, count, Datatype.LONG, Op.MAX);
                for (int i = 0; i < count; i++)
                {
                    long sum = 0;
                    for (int r = 0; r < rank; r++)
                    {
                        sum += value(r, i);
                    }
                    assertEquals(sum + value(rank, i), out[i]);
                    assertEquals(rank == 0 ? 42 : sum, ex[i]);
                    assertEquals(value(rank, i), inPlace[i]);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldReduceScatter(final int size)
    {
        for (final String algorithm : new String[] {"ring", "reduce_scatterv"})
        {
            Ranks.run(size, ThreadLevel.SINGLE, Map.of("jmpi.coll.reduce_scatter.algorithm", algorithm), (mpi, world) ->
            {
                final int rank = world.rank();
                final int[] counts = new int[size];
                int total = 0;
                for (int r = 0; r < size; r++)
                {
                    counts[r] = r == 1 ? 0 : r * 11 + 3;
                    total += counts[r];
                }
                final int[] in = new int[total];
                for (int i = 0; i < total; i++)
                {
                    in[i] = value(rank, i);
                }
                int start = 0;
                for (int r = 0; r < rank; r++)
                {
                    start += counts[r];
                }
                final int[] out = new int[counts[rank]];
                world.reduceScatter(in, 0, out, 0, counts, Datatype.INT, Op.SUM);
                final int[] inPlace = in.clone();
                world.reduceScatter(Comm.IN_PLACE, 0, inPlace, 0, counts, Datatype.INT, Op.SUM);
                for (int i = 0; i < counts[rank]; i++)
                {
                    int sum = 0;
                    for (int r = 0; r < size; r++)
                    {
                        sum += value(r, start + i);
                    }
                    assertEquals(sum, out[i]);
                    assertEquals(sum, inPlace[i]);
                }
                for (final int count : new int[] {0, 1, 777})
                {
                    final double[] blocks = new double[count * size];
                    for (int i = 0; i < blocks.length; i++)
                    {
                        blocks[i] = value(rank, i);
                    }
                    final double[] mine = new double[count];
                    world.reduceScatterBlock(blocks, 0, mine, 0, count, Datatype.DOUBLE, Op.MAX);
                    for (int i = 0; i < count; i++)
                    {
                        assertEquals(value(size - 1, rank * count + i), mine[i]);
                    }
                }
            });
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 8})
    void shouldApplyEveryPredefinedOpToItsTypes(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final byte[] b = {(byte)(rank + 1), (byte)(1 << rank % 8)};
            final byte[] bo = new byte[2];
            world.allreduce(b, 0, bo, 0, 2, Datatype.BYTE, Op.BOR);
            byte bor0 = 0;
            byte bor1 = 0;
            for (int r = 0; r < size; r++)
            {
                bor0 |= (byte)(r + 1);
                bor1 |= (byte)(1 << r % 8);
            }
            assertEquals(bor0, bo[0]);
            assertEquals(bor1, bo[1]);
            final boolean[] flags = {true, rank == 0, rank % 2 == 0};
            final boolean[] land = new boolean[3];
            final boolean[] lor = new boolean[3];
            final boolean[] lxor = new boolean[3];
            world.allreduce(flags, 0, land, 0, 3, Datatype.BOOLEAN, Op.LAND);
            world.allreduce(flags, 0, lor, 0, 3, Datatype.BOOLEAN, Op.LOR);
            world.allreduce(flags, 0, lxor, 0, 3, Datatype.BOOLEAN, Op.LXOR);
            assertArrayEquals(new boolean[] {true, size == 1, size == 1}, land);
            assertArrayEquals(new boolean[] {true, true, true}, lor);
            assertArrayEquals(new boolean[] {size % 2 == 1, true, (size + 1) / 2 % 2 == 1}, lxor);
            final long[] prod = {rank + 1};
            final long[] prodOut = new long[1];
            world.allreduce(prod, 0, prodOut, 0, 1, Datatype.LONG, Op.PROD);
            long fact = 1;
            for (int r = 1; r <= size; r++)
            {
                fact *= r;
            }
            assertEquals(fact, prodOut[0]);
            final char[] chars = {(char)(60000 + rank)};
            final char[] charMax = new char[1];
            world.allreduce(chars, 0, charMax, 0, 1, Datatype.CHAR, Op.MAX);
            assertEquals((char)(60000 + size - 1), charMax[0]);
            // MAXLOC / MINLOC on DOUBLE_INT (byte-addressed) and INT2 (int[]).
            final ByteBuffer pair = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
            pair.putDouble(0, rank % 3).putInt(8, rank);
            final ByteBuffer best = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
            world.allreduce(pair, 0, best, 0, 1, Datatype.DOUBLE_INT, Op.MAXLOC);
            final int maxValue = Math.min(2, size - 1);
            assertEquals(maxValue, best.getDouble(0));
            assertEquals(maxValue, best.getInt(8), "the lowest rank holding the max");
            final int[] i2 = {10 - rank % 2, rank};
            final int[] i2min = new int[2];
            world.allreduce(i2, 0, i2min, 0, 1, Datatype.INT2, Op.MINLOC);
            assertArrayEquals(new int[] {size > 1 ? 9 : 10, size > 1 ? 1 : 0}, i2min);
            // REPLACE (a op b = a) keeps rank 0's value, NO_OP (a op b = b) the highest rank's.
            final int[] me = {rank};
            final int[] rep = new int[1];
            world.allreduce(me, 0, rep, 0, 1, Datatype.INT, Op.REPLACE);
            assertEquals(0, rep[0]);
            world.allreduce(me, 0, rep, 0, 1, Datatype.INT, Op.NO_OP);
            assertEquals(size - 1, rep[0]);
            // An op on a type it does not apply to.
            final MpiException bad = assertThrows(MpiException.class,
                () -> world.allreduce(flags, 0, land, 0, 3, Datatype.BOOLEAN, Op.SUM));
            assertEquals(ErrorClass.ERR_OP, bad.errorClass());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void shouldReduceAndMoveNioBuffersOfEitherByteOrder(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int count = 513;
            // Direct, big-endian doubles in; heap, little-endian doubles out.
            final java.nio.DoubleBuffer in = ByteBuffer.allocateDirect(8 * count).order(ByteOrder.BIG_ENDIAN).asDoubleBuffer();
            for (int i = 0; i < count; i++)
            {
                in.put(i, value(rank, i));
            }
            final java.nio.DoubleBuffer out = ByteBuffer.allocate(8 * count).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer();
            world.allreduce(in, 0, out, 0, count, Datatype.DOUBLE, Op.SUM);
            for (int i = 0; i < count; i++)
            {
                double sum = 0;
                for (int r = 0; r < size; r++)
                {
                    sum += value(r, i);
                }
                assertEquals(sum, out.get(i), "element " + i);
            }
            // A struct {int, double} on a big-endian ByteBuffer, gathered with a strided receive type.
            final Datatype pair = Datatype.struct(new int[] {1, 1}, new long[] {0, 8}, new Datatype[] {Datatype.INT, Datatype.DOUBLE}).commit();
            final ByteBuffer mine = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN);
            mine.putInt(0, rank).putDouble(8, rank * 0.5);
            final ByteBuffer all = ByteBuffer.allocateDirect(32 * size).order(ByteOrder.BIG_ENDIAN);
            final Datatype spaced = Datatype.resized(pair, 0, 32).commit();
            world.allgather(mine, 0, 1, pair, all, 0, 1, spaced);
            for (int r = 0; r < size; r++)
            {
                assertEquals(r, all.getInt(32 * r));
                assertEquals(r * 0.5, all.getDouble(32 * r + 8));
            }
            // The same struct reduced by a user op that adds both fields.
            final Op addBoth = Op.create((a, b, n, type) ->
            {
                for (int i = 0; i < n; i++)
                {
                    b.putInt(12 * i, a.getInt(12 * i) + b.getInt(12 * i));
                    b.putDouble(12 * i + 4, a.getDouble(12 * i + 4) + b.getDouble(12 * i + 4));
                }
            }, true);
            final ByteBuffer total = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN);
            world.allreduce(mine, 0, total, 0, 1, pair, addBoth);
            assertEquals(size * (size - 1) / 2, total.getInt(0));
            assertEquals(size * (size - 1) / 4.0, total.getDouble(8));
        });
    }

    @Test
    void shouldReduceLocally()
    {
        final int[] in = {1, 2, 3};
        final int[] inout = {10, 20, 30};
        Comm.reduceLocal(in, 0, inout, 0, 3, Datatype.INT, Op.SUM);
        assertArrayEquals(new int[] {11, 22, 33}, inout);
        final Datatype strided = Datatype.vector(2, 1, 2, Datatype.DOUBLE).commit();
        final double[] a = {1, -1, 5, -1};
        final double[] b = {3, 0, 2, 0};
        Comm.reduceLocal(a, 0, b, 0, 1, strided, Op.MAX);
        assertArrayEquals(new double[] {3, 0, 5, 0}, b);
    }
}
