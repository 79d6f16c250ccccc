package org.jmpi;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(60)
class PointToPointTest
{
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void shouldPassTokenAroundRing(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int[] token = new int[1];
            if (rank == 0)
            {
                token[0] = 1;
                world.send(token, 0, 1, Datatype.INT, (rank + 1) % size, 7);
                final Status st = world.recv(token, 0, 1, Datatype.INT, (rank - 1 + size) % size, 7);
                assertEquals(size, token[0]);
                assertEquals((rank - 1 + size) % size, st.source());
                assertEquals(7, st.tag());
                assertEquals(1, st.count(Datatype.INT));
            }
            else
            {
                world.recv(token, 0, 1, Datatype.INT, rank - 1, 7);
                token[0]++;
                world.send(token, 0, 1, Datatype.INT, (rank + 1) % size, 7);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 7, 4096, 4097, 32768, 100_000, 1 << 20})
    void shouldDeliverEveryByteAtEverySize(final int bytes)
    {
        Ranks.run(2, (mpi, world) ->
        {
            final double[] data = new double[bytes / 8 + 1];
            if (world.rank() == 0)
            {
                for (int i = 0; i < data.length; i++)
                {
                    data[i] = i * 1.5;
                }
                world.send(data, 0, data.length, Datatype.DOUBLE, 1, 3);
                world.ssend(data, 0, data.length, Datatype.DOUBLE, 1, 4);
            }
            else
            {
                for (int tag = 3; tag <= 4; tag++)
                {
                    Arrays.fill(data, -1);
                    final Status st = world.recv(data, 0, data.length, Datatype.DOUBLE, 0, tag);
                    assertEquals(data.length * 8L, st.countBytes());
                    for (int i = 0; i < data.length; i++)
                    {
                        assertEquals(i * 1.5, data[i], "element " + i);
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void shouldKeepOrderPerSourceAndTagWithWildcards(final int size)
    {
        final int messages = 200;
        Ranks.run(size, (mpi, world) ->
        {
            if (world.rank() != 0)
            {
                final long[] v = new long[1];
                for (int i = 0; i < messages; i++)
                {
                    v[0] = world.rank() * 1_000_000L + i;
                    // alternate sizes so eager and rendezvous interleave
                    if (i % 10 == 0)
                    {
                        final long[] big = new long[2000];
                        big[0] = v[0];
                        world.send(big, 0, big.length, Datatype.LONG, 0, i % 3);
                    }
                    else
                    {
                        world.send(v, 0, 1, Datatype.LONG, 0, i % 3);
                    }
                }
            }
            else
            {
                final int[][] nextPerTag = new int[size][3];
                for (int s = 1; s < size; s++)
                {
                    for (int t = 0; t < 3; t++)
                    {
                        nextPerTag[s][t] = t;
                    }
                }
                final long[] buf = new long[2000];
                for (int n = 0; n < messages * (size - 1); n++)
                {
                    final Status st = world.recv(buf, 0, buf.length, Datatype.LONG, Comm.ANY_SOURCE, Comm.ANY_TAG);
                    final int src = st.source();
                    final int i = (int)(buf[0] - src * 1_000_000L);
                    assertEquals(nextPerTag[src][st.tag()], i, "order from " + src + " tag " + st.tag());
                    nextPerTag[src][st.tag()] += 3;
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 10_000})
    void shouldFailTruncatedReceiveAndReportSize(final int ints)
    {
        Ranks.run(2, (mpi, world) ->
        {
            if (world.rank() == 0)
            {
                world.send(new int[ints], 0, ints, Datatype.INT, 1, 1);
                world.send(new int[] {42}, 0, 1, Datatype.INT, 1, 2);
            }
            else
            {
                final int[] small = new int[ints / 2];
                final MpiException ex = assertThrows(MpiException.class, () -> world.recv(small, 0, small.length, Datatype.INT, 0, 1));
                assertEquals(ErrorClass.ERR_TRUNCATE, ex.errorClass());
                assertTrue(ex.getMessage().contains("received=" + ints * 4), ex.getMessage());
                final int[] next = new int[1];
                world.recv(next, 0, 1, Datatype.INT, 0, 2);
                assertEquals(42, next[0], "the next message is not lost");
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void shouldBarrier(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            for (int i = 0; i < 20; i++)
            {
                world.barrier();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5})
    void shouldHandleNonblockingAndWaitAll(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final Request[] reqs = new Request[2 * size];
            final int[][] in = new int[size][3000];
            final int[] out = new int[3000];
            Arrays.fill(out, rank);
            for (int p = 0; p < size; p++)
            {
                reqs[p] = world.irecv(in[p], 0, 3000, Datatype.INT, p, 5);
                reqs[size + p] = world.isend(out, 0, 3000, Datatype.INT, p, 5);
            }
            Request.waitAll(reqs);
            for (int p = 0; p < size; p++)
            {
                assertEquals(p, in[p][2999]);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldMoveDataThroughByteBuffersOfEitherOrder(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            if (world.rank() == 0)
            {
                final ByteBuffer b = ByteBuffer.allocateDirect(4 * 10_000).order(ByteOrder.BIG_ENDIAN);
                for (int i = 0; i < 10_000; i++)
                {
                    b.putInt(4 * i, i);
                }
                for (int p = 1; p < size; p++)
                {
                    world.send(b, 0, 10_000, Datatype.INT, p, 0);
                }
            }
            else
            {
                final int[] got = new int[10_000];
                world.recv(got, 0, 10_000, Datatype.INT, 0, 0);
                for (int i = 0; i < 10_000; i++)
                {
                    assertEquals(i, got[i]);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"SINGLE", "MULTIPLE"})
    void shouldProbeThenReceive(final String level)
    {
        Ranks.run(2, ThreadLevel.valueOf(level), Map.of(), (mpi, world) ->
        {
            if (world.rank() == 0)
            {
                world.send(new short[] {1, 2, 3}, 0, 3, Datatype.SHORT, 1, 9);
                world.send(new short[50_000], 0, 50_000, Datatype.SHORT, 1, 10);
            }
            else
            {
                final Status st = world.probe(Comm.ANY_SOURCE, 9);
                assertEquals(3, st.count(Datatype.SHORT));
                final short[] got = new short[3];
                world.recv(got, 0, 3, Datatype.SHORT, st.source(), st.tag());
                assertArrayEquals(new short[] {1, 2, 3}, got);
                final Message m = world.mprobe(0, 10);
                final short[] big = new short[50_000];
                assertEquals(100_000, m.recv(big, 0, 50_000, Datatype.SHORT).countBytes());
                assertNull(world.iprobe(0, Comm.ANY_TAG));
            }
        });
    }
}
