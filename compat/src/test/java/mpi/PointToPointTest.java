package mpi;

import static mpi.Job.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Comm's point-to-point calls, Request, Prequest and Status, at 2 and 4 ranks. */
class PointToPointTest
{
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldSendAndReceiveArraysAndBuffers(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int next = (rank + 1) % n;
            final int prev = (rank + n - 1) % n;
            // arrays, ring order: even ranks send first
            final int[] got = new int[3];
            if (rank % 2 == 0)
            {
                world.send(new int[] {rank, 1, 2}, 3, MPI.INT, next, 1);
                world.recv(got, 3, MPI.INT, prev, 1);
            }
            else
            {
                world.recv(got, 3, MPI.INT, prev, 1);
                world.send(new int[] {rank, 1, 2}, 3, MPI.INT, next, 1);
            }
            assertArrayEquals(new int[] {prev, 1, 2}, got);
            // a direct buffer and a heap buffer; positions neither used nor moved
            final DoubleBuffer direct = MPI.newDoubleBuffer(2);
            direct.put(0, rank + 0.5).put(1, -rank);
            direct.position(1);
            final DoubleBuffer heap = DoubleBuffer.allocate(2);
            final Status st = world.sendRecv(direct, 2, MPI.DOUBLE, next, 2, heap, 2, MPI.DOUBLE, prev, 2);
            assertEquals(prev + 0.5, heap.get(0));
            assertEquals(-prev, heap.get(1));
            assertEquals(1, direct.position());
            assertEquals(0, heap.position());
            assertEquals(prev, st.getSource());
            assertEquals(2, st.getTag());
            assertEquals(2, st.getCount(MPI.DOUBLE));
            assertEquals(2, st.getElements(MPI.DOUBLE));
            assertEquals(MPI.SUCCESS, st.getError());
            assertFalse(st.isCancelled());
            // a slice gives an offset
            final int[] big = new int[6];
            world.sendRecv(new int[] {rank}, 1, MPI.INT, next, 3, MPI.slice(big, 4), 1, MPI.INT, prev, 3);
            assertEquals(prev, big[4]);
            // sendRecvReplace
            final int[] replace = {rank * 7};
            final Status sr = world.sendRecvReplace(replace, 1, MPI.INT, next, 4, prev, 4);
            assertEquals(prev * 7, replace[0]);
            assertEquals(prev, sr.getSource());
            // synchronous and ready sends
            if (rank == 0)
            {
                world.sSend(new long[] {42L}, 1, MPI.LONG, 1, 5);
                world.rSend(new char[] {'x'}, 1, MPI.CHAR, 1, 6);
            }
            else if (rank == 1)
            {
                final long[] l = new long[1];
                world.recv(l, 1, MPI.LONG, 0, 5);
                assertEquals(42L, l[0]);
                final char[] c = new char[1];
                world.recv(c, 1, MPI.CHAR, MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertEquals('x', c[0]);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldCompleteNonblockingCallsOnDirectBuffersAndArrays(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int next = (rank + 1) % n;
            final int prev = (rank + n - 1) % n;
            final IntBuffer out = MPI.newIntBuffer(4);
            final IntBuffer in = MPI.newIntBuffer(4);
            for (int i = 0; i < 4; i++)
            {
                out.put(i, rank * 100 + i);
            }
            final Request r = world.iRecv(in, 4, MPI.INT, prev, 9);
            final Request s = world.iSend(out, 4, MPI.INT, next, 9);
            final Status st = r.waitStatus();
            s.waitFor();
            assertTrue(r.isNull());
            assertTrue(s.isNull());
            assertEquals(prev, st.getSource());
            for (int i = 0; i < 4; i++)
            {
                assertEquals(prev * 100 + i, in.get(i));
            }
            // arrays (jmpi extension), all four send modes, waitAll
            final int[][] got = new int[4][1];
            final Request[] reqs = new Request[8];
            for (int k = 0; k < 4; k++)
            {
                reqs[k] = world.iRecv(got[k], 1, MPI.INT, prev, 20 + k);
            }
            reqs[4] = world.iSend(new int[] {rank}, 1, MPI.INT, next, 20);
            reqs[5] = world.isSend(new int[] {rank + 1}, 1, MPI.INT, next, 21);
            reqs[6] = world.irSend(new int[] {rank + 2}, 1, MPI.INT, next, 22);
            MPI.attachBuffer(new byte[64 + MPI.BSEND_OVERHEAD]);
            reqs[7] = world.ibSend(new int[] {rank + 3}, 1, MPI.INT, next, 23);
            final Status[] all = Request.waitAllStatus(reqs);
            assertEquals(8, all.length);
            for (int k = 0; k < 4; k++)
            {
                assertEquals(prev + k, got[k][0]);
                assertEquals(20 + k, all[k].getTag());
                assertTrue(reqs[k].isNull());
            }
            MPI.detachBuffer();
            // waitAll without statuses: nonpersistent requests become null, null entries are skipped
            final int[] plainIn = new int[1];
            final Request[] plain = {world.iRecv(plainIn, 1, MPI.INT, prev, 30), null,
                world.iSend(new int[] {rank + 30}, 1, MPI.INT, next, 30)};
            Request.waitAll(plain);
            assertEquals(prev + 30, plainIn[0]);
            assertTrue(plain[0].isNull() && plain[2].isNull());
            // waitAny / testAny / waitSome / testSome; null entries are skipped
            final int[] a = new int[1];
            final int[] b = new int[1];
            final Request[] two = {null, world.iRecv(a, 1, MPI.INT, prev, 30), world.iRecv(b, 1, MPI.INT, prev, 31)};
            world.send(new int[] {5}, 1, MPI.INT, next, 31);
            final Status any = Request.waitAnyStatus(two);
            assertEquals(2, any.getIndex());
            assertEquals(31, any.getTag());
            assertEquals(5, b[0]);
            assertTrue(two[2].isNull());
            assertEquals(MPI.UNDEFINED, Request.testAny(new Request[] {null, two[2]}));
            world.barrier();
            world.send(new int[] {6}, 1, MPI.INT, next, 30);
            final int[] some = Request.waitSome(two);
            assertArrayEquals(new int[] {1}, some);
            assertEquals(6, a[0]);
            assertNull(Request.waitSome(two));
            assertNull(Request.testSome(new Request[] {MPI.REQUEST_NULL}));
            assertEquals(MPI.UNDEFINED, Request.waitAny(new Request[0]));
            // testAll / testStatus
            final int[] c = new int[1];
            final Request pending = world.iRecv(c, 1, MPI.INT, prev, 40);
            assertNull(pending.testStatus());
            assertFalse(Request.testAll(new Request[] {pending}));
            assertNull(pending.getStatus());
            world.barrier();
            world.send(new int[] {8}, 1, MPI.INT, next, 40);
            Status[] done;
            do
            {
                done = Request.testAllStatus(new Request[] {pending});
            }
            while (done == null);
            assertEquals(40, done[0].getTag());
            assertTrue(pending.isNull());
            assertEquals(8, c[0]);
            world.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldRestartPersistentRequests(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int next = (rank + 1) % n;
            final int prev = (rank + n - 1) % n;
            final IntBuffer out = MPI.newIntBuffer(1);
            final int[] in = new int[1];
            final Prequest recv = world.recvInit(in, 1, MPI.INT, prev, 50);
            final Prequest send = world.sendInit(out, 1, MPI.INT, next, 50);
            final Prequest ssend = world.sSendInit(MPI.newIntBuffer(1), 1, MPI.INT, next, 51);
            final Prequest srecv = world.recvInit(MPI.newIntBuffer(1), 1, MPI.INT, prev, 51);
            for (int round = 0; round < 3; round++)
            {
                out.put(0, rank * 10 + round);
                Prequest.startAll(new Prequest[] {recv, send});
                Request.waitAll(new Request[] {recv, send});
                assertEquals(prev * 10 + round, in[0]);
                assertFalse(recv.isNull());
                srecv.start();
                ssend.start();
                srecv.waitFor();
                ssend.waitFor();
            }
            for (final Prequest p : new Prequest[] {recv, send, ssend, srecv})
            {
                p.free();
                assertTrue(p.isNull());
            }
            final Prequest r = world.rSendInit(new int[] {1}, 1, MPI.INT, MPI.PROC_NULL, 0);
            final Prequest b = world.bSendInit(new int[] {1}, 1, MPI.INT, MPI.PROC_NULL, 0);
            r.start();
            r.waitFor();
            b.free();
            r.free();
            assertMpiError(MPI.ERR_REQUEST, r::start);
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldProbeAndCancel(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int next = (rank + 1) % n;
            final int prev = (rank + n - 1) % n;
            assertNull(world.iProbe(prev, 60));
            world.barrier();
            world.send(new short[] {1, 2, 3}, 3, MPI.SHORT, next, 60);
            final Status st = world.probe(MPI.ANY_SOURCE, 60);
            assertEquals(prev, st.getSource());
            assertEquals(3, st.getCount(MPI.SHORT));
            Status again;
            do
            {
                again = world.iProbe(prev, MPI.ANY_TAG);
            }
            while (again == null);
            assertEquals(60, again.getTag());
            final short[] got = new short[3];
            world.recv(got, 3, MPI.SHORT, prev, 60);
            assertArrayEquals(new short[] {1, 2, 3}, got);
            final Request never = world.iRecv(new int[1], 1, MPI.INT, prev, 61);
            never.cancel();
            final Status cancelled = never.waitStatus();
            assertTrue(cancelled.isCancelled());
            final Status fromNull = world.recv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            assertEquals(MPI.PROC_NULL, fromNull.getSource());
            assertEquals(0, fromNull.getCount(MPI.INT));
            world.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldRaiseErrorClassesUnderErrorsReturn(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int[] buf = new int[4];
            assertMpiError(MPI.ERR_RANK, () -> world.send(buf, 1, MPI.INT, n, 0));
            assertMpiError(MPI.ERR_TAG, () -> world.send(buf, 1, MPI.INT, 0, -5));
            assertMpiError(MPI.ERR_COUNT, () -> world.send(buf, -1, MPI.INT, 0, 0));
            assertMpiError(MPI.ERR_TYPE, () -> world.send(buf, 1, null, 0, 0));
            assertMpiError(MPI.ERR_BUFFER, () -> world.send(buf, 5, MPI.INT, 0, 0));
            assertMpiError(MPI.ERR_RANK, () -> world.iSend(MPI.newIntBuffer(1), 1, MPI.INT, -7, 0));
            assertMpiError(MPI.ERR_TYPE, () -> world.send(buf, 1, MPI.DATATYPE_NULL, 0, 0));
            assertMpiError(MPI.ERR_REQUEST, () -> new Request(null).cancel());
            final int next = (rank + 1) % n;
            final int prev = (rank + n - 1) % n;
            world.send(new int[] {1, 2, 3, 4}, 4, MPI.INT, next, 70);
            final MPIException truncated = assertMpiError(MPI.ERR_TRUNCATE, () -> world.recv(new int[2], 2, MPI.INT, prev, 70));
            assertEquals(MPI.ERR_TRUNCATE, truncated.getErrorCode());
            assertTrue(truncated.getErrorString().contains("trunc"), truncated.getMessage());
            world.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldPackAndUnpack(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final byte[] packed = new byte[world.packSize(3, MPI.INT) + world.packSize(2, MPI.DOUBLE)];
            int pos = world.pack(new int[] {rank, 2, 3}, 3, MPI.INT, packed, 0);
            pos = world.pack(new double[] {0.5, 1.5}, 2, MPI.DOUBLE, packed, pos);
            assertEquals(packed.length, pos);
            final byte[] got = new byte[packed.length];
            final int next = (rank + 1) % n;
            final int prev = (rank + n - 1) % n;
            world.sendRecv(packed, pos, MPI.PACKED, next, 80, got, got.length, MPI.PACKED, prev, 80);
            final int[] ints = new int[3];
            final double[] doubles = new double[2];
            int at = world.unpack(got, 0, ints, 3, MPI.INT);
            at = world.unpack(got, at, doubles, 2, MPI.DOUBLE);
            assertEquals(got.length, at);
            assertArrayEquals(new int[] {prev, 2, 3}, ints);
            assertArrayEquals(new double[] {0.5, 1.5}, doubles);
            // a raw ByteBuffer holds anything: struct-like bytes round the ring
            final ByteBuffer bytes = MPI.newByteBuffer(12);
            bytes.putInt(0, rank).putDouble(4, rank * 2.0);
            final ByteBuffer in = MPI.newByteBuffer(12);
            world.sendRecv(bytes, 12, MPI.BYTE, next, 81, in, 12, MPI.BYTE, prev, 81);
            assertEquals(prev, in.getInt(0));
            assertEquals(prev * 2.0, in.getDouble(4));
            assertTrue(Arrays.equals(new byte[0], new byte[0]));
            assertNotNull(world.toString());
        });
    }
}
