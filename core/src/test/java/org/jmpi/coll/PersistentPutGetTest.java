package org.jmpi.coll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.coll.PersistentCollRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Persistent bcast and allreduce with the put-based, get-based and point-to-point schedules forced in turn
 * (and auto), at 1, 2, 3, 4, 5 and 8 ranks, each started 100 times with changing contents and other traffic
 * in between, against sequential references. Data is integer-valued so that floating sums are exact.
 */
@Timeout(120)
class PersistentPutGetTest
{
    private static final String SCHEDULE = "jmpi.coll.persistent.schedule";
    private static final int STARTS = 100;

    private static final Op AFFINE = AffineOp.AFFINE;

    static Stream<Arguments> cases()
    {
        final List<Arguments> all = new ArrayList<>();
        for (final String schedule : new String[] {"put", "get", "p2p", "auto"})
        {
            for (final int size : new int[] {1, 2, 3, 4, 5, 8})
            {
                all.add(Arguments.of(schedule, size));
            }
        }
        return all.stream();
    }

    /** A forced schedule is the one run; auto picks put or get (ranks as threads share the heap). */
    private static void assertSchedule(final String schedule, final Request request)
    {
        final String actual = ((PersistentCollRequest)request).schedule();
        if (schedule.equals("auto"))
        {
            assertTrue(actual.equals("put") || actual.equals("get"), actual);
        }
        else
        {
            assertEquals(schedule, actual);
        }
    }

    private static void run(final int size, final String schedule, final Ranks.Body body)
    {
        Ranks.run(size, ThreadLevel.SINGLE, Map.of(SCHEDULE, schedule), body);
    }

    /** Point-to-point and blocking collective traffic between two starts. */
    private static void otherTraffic(final Comm world, final int iteration)
    {
        final int size = world.size();
        final int rank = world.rank();
        final int[] out = {rank * 100 + iteration};
        final int[] in = new int[1];
        world.sendrecv(out, 0, 1, Datatype.INT, (rank + 1) % size, 3, in, 0, 1, Datatype.INT, (rank - 1 + size) % size, 3);
        assertEquals(((rank - 1 + size) % size) * 100 + iteration, in[0]);
        final int[] sum = new int[1];
        world.allreduce(out, 0, sum, 0, 1, Datatype.INT, Op.SUM);
        assertEquals(100 * size * (size - 1) / 2 + size * iteration, sum[0]);
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldBcastRepeatedlyWithChangingContents(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int root = size / 2;
            final int count = 1_001;
            final int[] buf = new int[count];
            final Request bcast = world.bcastInit(buf, 0, count, Datatype.INT, root);
            assertTrue(bcast.isPersistent());
            assertSchedule(schedule, bcast);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                if (rank == root)
                {
                    for (int i = 0; i < count; i++)
                    {
                        buf[i] = iteration * 7919 + i;
                    }
                }
                else
                {
                    Arrays.fill(buf, -1);
                }
                bcast.start();
                bcast.await();
                for (int i = 0; i < count; i += 97)
                {
                    assertEquals(iteration * 7919 + i, buf[i], "iteration " + iteration + ", item " + i);
                }
                assertEquals(iteration * 7919 + count - 1, buf[count - 1]);
                otherTraffic(world, iteration);
            }
            bcast.free();
        });
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldBcastDerivedTypeIntoContiguous(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int items = 64;
            // The root sends every other int of a strided buffer; the others receive them contiguously.
            final Datatype strided = Datatype.vector(items, 1, 2, Datatype.INT).commit();
            final int[] buf = new int[rank == 0 ? 2 * items + 3 : items + 5];
            final Request bcast = rank == 0 ? world.bcastInit(buf, 3, 1, strided, 0) : world.bcastInit(buf, 5, items, Datatype.INT, 0);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                if (rank == 0)
                {
                    for (int i = 0; i < items; i++)
                    {
                        buf[3 + 2 * i] = iteration * 1000 + i;
                        buf[3 + 2 * i + 1] = -7;
                    }
                }
                else
                {
                    Arrays.fill(buf, -1);
                }
                bcast.start();
                bcast.await();
                if (rank != 0)
                {
                    for (int i = 0; i < items; i++)
                    {
                        assertEquals(iteration * 1000 + i, buf[5 + i]);
                    }
                    for (int i = 0; i < 5; i++)
                    {
                        assertEquals(-1, buf[i], "nothing outside the region is written");
                    }
                }
                if (iteration % 10 == 0)
                {
                    otherTraffic(world, iteration);
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldAllreduceRepeatedlyWithChangingContents(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int count = 777;
            final double[] in = new double[count];
            final double[] out = new double[count];
            final Request allreduce = world.allreduceInit(in, 0, out, 0, count, Datatype.DOUBLE, Op.SUM);
            final long[] max = new long[3];
            final long[] maxOut = new long[3];
            final Request allmax = world.allreduceInit(Comm.IN_PLACE, 0, maxOut, 0, 3, Datatype.LONG, Op.MAX);
            assertSchedule(schedule, allreduce);
            assertSchedule(schedule, allmax);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                for (int i = 0; i < count; i++)
                {
                    in[i] = rank * 3 + i + iteration;
                }
                Arrays.fill(out, -1);
                max[0] = rank;
                max[1] = -rank * iteration;
                max[2] = iteration;
                System.arraycopy(max, 0, maxOut, 0, 3);
                allreduce.start();
                allmax.start();
                otherTrafficWhileActive(world, iteration);
                allmax.await();
                allreduce.await();
                for (int i = 0; i < count; i++)
                {
                    final double expected = 3.0 * size * (size - 1) / 2 + (double)size * (i + iteration);
                    assertEquals(expected, out[i], "iteration " + iteration + ", item " + i);
                }
                assertArrayEquals(new long[] {size - 1, 0, iteration}, maxOut);
                otherTraffic(world, iteration);
            }
        });
    }

    /** Point-to-point traffic (on the user context) while persistent collectives are in flight. */
    private static void otherTrafficWhileActive(final Comm world, final int iteration)
    {
        final int size = world.size();
        final int rank = world.rank();
        final long[] out = {rank + iteration};
        final long[] in = new long[1];
        world.sendrecv(out, 0, 1, Datatype.LONG, (rank + 1) % size, 9, in, 0, 1, Datatype.LONG, (rank - 1 + size) % size, 9);
        assertEquals((rank - 1 + size) % size + iteration, in[0]);
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldAllreduceNonCommutativeInRankOrderWithDerivedType(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int maps = 5;
            final Datatype pair = Datatype.contiguous(2, Datatype.LONG).commit();
            // Each rank's pairs sit every third long (a resized contiguous type), in and out.
            final Datatype spread = Datatype.resized(pair, 0, 3 * Long.BYTES).commit();
            final long[] in = new long[3 * maps];
            final long[] out = new long[3 * maps];
            final Request allreduce = world.allreduceInit(in, 0, out, 0, maps, spread, AFFINE);
            final Request check = world.allreduceInit(Comm.IN_PLACE, 0, new long[1], 0, 1, Datatype.LONG, Op.SUM);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                for (int k = 0; k < maps; k++)
                {
                    in[3 * k] = 1 + (rank + k + iteration) % 3;
                    in[3 * k + 1] = rank * 10 + k - iteration;
                    in[3 * k + 2] = 99;
                }
                Arrays.fill(out, -5);
                allreduce.start();
                allreduce.await();
                for (int k = 0; k < maps; k++)
                {
                    long m = 1;
                    long c = 0;
                    for (int r = 0; r < size; r++)
                    {
                        // acc = acc op x_r with acc from the lower ranks: (m, c) -> (m * xm, xm * c + xc)
                        final long xm = 1 + (r + k + iteration) % 3;
                        final long xc = r * 10L + k - iteration;
                        c = xm * c + xc;
                        m = m * xm;
                    }
                    assertEquals(m, out[3 * k], "map " + k + " slope, iteration " + iteration);
                    assertEquals(c, out[3 * k + 1], "map " + k + " intercept, iteration " + iteration);
                    assertEquals(-5, out[3 * k + 2], "the gaps of the receive type are not written");
                }
                check.start();
                check.await();
            }
        });
    }

    @Test
    void shouldMoveLargeMessagesAndKeepOperationsApart()
    {
        for (final String schedule : new String[] {"put", "get"})
        {
            run(4, schedule, (mpi, world) ->
            {
                final int rank = world.rank();
                final int count = 300_000;
                final int[] a = new int[count];
                final int[] b = new int[count];
                final int[] sum = new int[count];
                final Request bcastA = world.bcastInit(a, 0, count, Datatype.INT, 1);
                final Request bcastB = world.bcastInit(b, 0, count, Datatype.INT, 3);
                final Request allreduce = world.allreduceInit(a, 0, sum, 0, count, Datatype.INT, Op.SUM);
                for (int iteration = 0; iteration < 5; iteration++)
                {
                    Arrays.fill(a, rank == 1 ? iteration : -1);
                    Arrays.fill(b, rank == 3 ? iteration * 2 : -1);
                    bcastA.start();
                    bcastB.start();
                    bcastB.await();
                    bcastA.await();
                    assertEquals(iteration, a[count - 1]);
                    assertEquals(iteration * 2, b[count / 2]);
                    a[count - 1] = rank;
                    allreduce.start();
                    allreduce.await();
                    assertEquals(4 * iteration, sum[0]);
                    assertEquals(6, sum[count - 1]);
                }
            });
        }
    }
    @Test
    void shouldCompleteOnTheProgressThreadAndOnSplitCommunicators()
    {
        for (final String schedule : new String[] {"put", "get"})
        {
            final int size = 5;
            Ranks.run(size, ThreadLevel.MULTIPLE, Map.of(SCHEDULE, schedule), (mpi, world) ->
            {
                final int rank = world.rank();
                // Both halves of one split share a context id: their registrations must not meet.
                final Comm half = world.split(rank % 2, -rank);
                final int[] buf = new int[33];
                final long[] in = new long[4];
                final long[] out = new long[4];
                final Request bcast = half.bcastInit(buf, 0, buf.length, Datatype.INT, 0);
                final Request allreduce = half.allreduceInit(in, 0, out, 0, in.length, Datatype.LONG, Op.SUM);
                assertSchedule(schedule, bcast);
                final int halfRoot = rank % 2 == 0 ? 4 : 3;
                long expectedSum = 0;
                for (int r = rank % 2; r < size; r += 2)
                {
                    expectedSum += r;
                }
                for (int iteration = 0; iteration < STARTS; iteration++)
                {
                    Arrays.fill(buf, rank == halfRoot ? iteration + rank : -1);
                    Arrays.fill(in, rank + iteration);
                    bcast.start();
                    allreduce.start();
                    allreduce.await();
                    bcast.await();
                    assertEquals(iteration + halfRoot, buf[32]);
                    assertEquals(expectedSum + (long)half.size() * iteration, out[3]);
                }
                half.free();
            });
        }
    }
    @Test
    void shouldFailOnEveryRankWhenCountsDisagree()
    {
        for (final String schedule : new String[] {"put", "get"})
        {
            run(3, schedule, (mpi, world) ->
            {
                final int[] buf = new int[8];
                final Request bcast = world.bcastInit(buf, 0, world.rank() == 0 ? 8 : 4, Datatype.INT, 0);
                bcast.start();
                final MpiException ex = assertThrows(MpiException.class, bcast::await);
                assertEquals(ErrorClass.ERR_TRUNCATE, ex.errorClass());
                assertTrue(ex.getMessage().contains("disagree on the message size"), ex.getMessage());
                world.barrier();
            });
        }
    }
    @Test
    void shouldSaveTheCalibrationAndChooseByTheLoadedOne(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("calibration.properties");
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.coll.persistent.calibration", file.toString()), (mpi, world) ->
            world.bcastInit(new int[1], 0, 1, Datatype.INT, 0).free());
        final String saved = Files.readString(file);
        assertTrue(saved.contains("sync_ns.2=") && saved.contains("put_per_byte_ns="), "measured and saved: " + saved);
        // Puts dear per call, gets dear per byte: the model must choose get for a tiny bcast and put for a large
        // one. With equal copies, a commutative allreduce goes to get (its reduce combines in place, no copy),
        // as does a barrier (a tie).
        Files.writeString(file, "sync_ns.4=1000\nput_fixed_ns=1000\nput_per_byte_ns=0.01\nget_fixed_ns=10\nget_per_byte_ns=1\n");
        Ranks.run(4, ThreadLevel.SINGLE, Map.of("jmpi.coll.persistent.calibration", file.toString()), (mpi, world) ->
        {
            final int[] large = new int[10_000];
            assertSchedule("put", world.bcastInit(large, 0, large.length, Datatype.INT, 0));
            assertSchedule("get", world.bcastInit(new int[1], 0, 1, Datatype.INT, 0));
            assertSchedule("get", world.barrierInit());
        });
        // The file lacks t_sync at 3 ranks: measured and added, the rest kept.
        Ranks.run(3, ThreadLevel.SINGLE, Map.of("jmpi.coll.persistent.calibration", file.toString()), (mpi, world) ->
            world.barrierInit().free());
        final String extended = Files.readString(file);
        assertTrue(extended.contains("sync_ns.3=") && extended.contains("sync_ns.4=1000") && extended.contains("get_per_byte_ns=1"), extended);
        Files.writeString(file, "sync_ns.4=1000\nput_fixed_ns=100\nput_per_byte_ns=0.1\nget_fixed_ns=100\nget_per_byte_ns=0.1\n");
        Ranks.run(4, ThreadLevel.SINGLE, Map.of("jmpi.coll.persistent.calibration", file.toString()), (mpi, world) ->
        {
            final double[] v = new double[1000];
            assertSchedule("get", world.allreduceInit(v, 0, new double[1000], 0, 1000, Datatype.DOUBLE, Op.SUM));
            assertSchedule("get", world.reduceInit(v, 0, new double[1000], 0, 1000, Datatype.DOUBLE, Op.SUM, 0));
        });
    }
}
