package org.jmpi.internal.rma;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.Protocol;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one-sided layer between ranks: puts with counter notifications, gets, contended fetch-and-add and
 * range errors. Over the jvm transport these go through peer memory; on the shm axis (transport-shm runs
 * this class with jmpi.transports=shm,jvm) and the pvas axis (whose arena exposes none of these regions) through
 * active messages; on the remote-memory axis (core, jmpi.jvm.memory=remote) registered regions through remote memory.
 */
@Timeout(60)
class OneSidedTest
{
    private static final int DATA_BYTES = 100_003;
    private static final int ADDS = 1000;

    /** Runs {@code call} on the rank's engine and returns its result. */
    private static <T> T onEngine(final ProgressEngine engine, final Supplier<T> call)
    {
        return engine.call(call);
    }

    private static byte pattern(final int rank, final int i)
    {
        return (byte)(rank * 31 + i * 7);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void shouldPutGetAndAddBetweenRanksOnEveryPath(final int size)
    {
        Ranks.run(size, ThreadLevel.SINGLE, Map.of(), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final ProgressEngine engine = protocol.engine();
            final int rank = world.rank();
            // The runtime made the rank's one-sided layer at init; a second would clash on the frame types.
            final OneSided os = CommInternals.state(world).services().component(OneSided.class);
            assertThrows(MpiException.class, () -> onEngine(engine, () -> new OneSided(protocol, rank)));
            final long[] counters = new long[4];
            final byte[] inbox = new byte[DATA_BYTES];
            final ByteBuffer published = ByteBuffer.allocateDirect(DATA_BYTES);
            for (int i = 0; i < DATA_BYTES; i++)
            {
                published.put(i, pattern(rank + 100, i));
            }
            final Region[] regions = onEngine(engine, () -> new Region[] {os.register(counters), os.register(inbox), os.register(published)});
            final long[] mine = new long[3 * RegionKey.LONGS];
            for (int k = 0; k < 3; k++)
            {
                regions[k].key().toLongs(mine, k * RegionKey.LONGS);
            }
            final long[] all = new long[mine.length * world.size()];
            world.allgather(mine, 0, mine.length, Datatype.LONG, all, 0, mine.length, Datatype.LONG);
            final int right = (rank + 1) % world.size();
            final int left = (rank + world.size() - 1) % world.size();
            final RegionKey rightCounters = RegionKey.fromLongs(all, right * mine.length);
            final RegionKey rightInbox = RegionKey.fromLongs(all, right * mine.length + RegionKey.LONGS);
            final RegionKey rightPublished = RegionKey.fromLongs(all, right * mine.length + 2 * RegionKey.LONGS);
            final RegionKey rootCounters = RegionKey.fromLongs(all, 0);
            // Reached directly: itself, or a region the target exposed through its peer memory. The in-JVM transport's
            // exposes any object; the arena's (the pvas axis) only its own allocations, so there these regions (heap
            // arrays, a direct buffer of the JVM's) go by frames, as across shm.
            if (right != rank && protocol.hasPeerMemory(right) && "jvm".equals(protocol.transportName(right)))
            {
                assertTrue(rightInbox.handle() != 0 && rightCounters.handle() != 0 && rightPublished.handle() != 0,
                    "the in-JVM transport exposes every region");
            }
            final boolean direct = right == rank || protocol.hasPeerMemory(right) && rightInbox.handle() != 0;

            // 1. Put into the right neighbour's inbox, then notify it through its counter 0.
            final byte[] out = new byte[DATA_BYTES];
            for (int i = 0; i < DATA_BYTES; i++)
            {
                out[i] = pattern(rank, i);
            }
            final Completion put = onEngine(engine, () -> os.put(right, rightInbox, 0, out, 0, DATA_BYTES));
            assertEquals(direct, put.isDone(), "complete on return exactly when the target is reached directly (itself or peer memory)");
            engine.await(put::isDone);
            final Completion notify = onEngine(engine, () -> os.fetchAndAdd(right, rightCounters, 0, 1));
            engine.await(notify::isDone);
            engine.await(() -> regions[0].loadLong(0) == 1);
            for (int i = 0; i < DATA_BYTES; i++)
            {
                assertEquals(pattern(left, i), inbox[i], "byte " + i + " put by rank " + left);
            }

            // 2. Get the right neighbour's published bytes, a range in the middle.
            final byte[] got = new byte[DATA_BYTES];
            final Completion get = onEngine(engine, () -> os.get(right, rightPublished, 17, got, 5, DATA_BYTES - 40));
            engine.await(get::isDone);
            assertTrue(get.failure() == null);
            for (int i = 0; i < DATA_BYTES - 40; i++)
            {
                assertEquals(pattern(right + 100, 17 + i), got[5 + i], "byte " + (17 + i) + " got from rank " + right);
            }

            // 3. Every rank adds to rank 0's counter 1; the fetched values are distinct and the sum exact.
            long fetchedSum = 0;
            for (int i = 0; i < ADDS; i++)
            {
                final Completion add = onEngine(engine, () -> os.fetchAndAdd(0, rootCounters, 8, 1));
                engine.await(add::isDone);
                fetchedSum += add.value();
            }
            world.barrier();
            final long total = (long)ADDS * world.size();
            final long[] sums = new long[1];
            world.allreduce(new long[] {fetchedSum}, 0, sums, 0, 1, Datatype.LONG, org.jmpi.Op.SUM);
            assertEquals(total * (total - 1) / 2, sums[0], "every fetched value 0..n-1 exactly once");
            if (rank == 0)
            {
                assertEquals(total, regions[0].loadLong(8));
            }

            // 4. From and into registered regions, on the path the transport gives (remote memory where it offers it
            // and no peer memory: the jmpi.jvm.memory=remote axis); an add after a put still publishes it.
            final RemoteRegion toInbox = onEngine(engine, () -> os.resolve(right, rightInbox));
            final boolean viaRemote = right != rank && !protocol.hasPeerMemory(right) && protocol.remoteMemory(right) != null;
            assertEquals(viaRemote, toInbox.remote(), "remote-memory path exactly where the transport offers only that");
            assertEquals(direct, toInbox.direct() != null);
            world.barrier();
            final Completion regionPut = onEngine(engine, () -> os.put(toInbox, 0, regions[2], 0, DATA_BYTES));
            final Completion regionNotify = onEngine(engine, () -> os.fetchAndAdd(os.resolve(right, rightCounters), 16, 1));
            engine.await(() -> regionPut.isDone() && regionNotify.isDone());
            engine.await(() -> regions[0].loadLong(16) == 1);
            for (int i = 0; i < DATA_BYTES; i++)
            {
                assertEquals(pattern(left + 100, i), inbox[i], "byte " + i + " put from rank " + left + "'s registered region");
            }
            final Completion regionGet = onEngine(engine, () -> os.get(os.resolve(right, rightPublished), 3, regions[1], 0, 64));
            engine.await(regionGet::isDone);
            assertTrue(regionGet.failure() == null);
            for (int i = 0; i < 64; i++)
            {
                assertEquals(pattern(right + 100, 3 + i), inbox[i], "byte " + (3 + i) + " got from rank " + right + " into a region");
            }
            world.barrier();

            // 5. Ranges are checked at the origin, before anything moves.
            final MpiException range = assertThrows(MpiException.class,
                () -> onEngine(engine, () -> os.put(right, rightInbox, DATA_BYTES - 3, out, 0, 4)));
            assertEquals(ErrorClass.ERR_RMA_RANGE, range.errorClass());
            assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class,
                () -> onEngine(engine, () -> os.fetchAndAdd(right, rightCounters, 4, 1))).errorClass());
            assertEquals(ErrorClass.ERR_BUFFER, assertThrows(MpiException.class,
                () -> onEngine(engine, () -> os.get(right, rightPublished, 0, new byte[8], 4, 8))).errorClass());
            world.barrier();
            onEngine(engine, () ->
            {
                for (final Region r : regions)
                {
                    os.deregister(r);
                }
                return null;
            });
        });
    }
}
