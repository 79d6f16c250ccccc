package org.jmpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** Every point-to-point call of the API, at least once, between ranks that are threads. */
@Timeout(60)
class PointToPointCallsTest
{
    @Test
    void shouldSendEveryPrimitiveArrayType()
    {
        Ranks.run(2, (mpi, world) ->
        {
            if (world.rank() == 0)
            {
                world.send(new byte[] {1, -2}, 0, 2, Datatype.BYTE, 1, 0);
                world.send(new short[] {3, -4}, 0, 2, Datatype.SHORT, 1, 0);
                world.send(new char[] {'a', 'z'}, 0, 2, Datatype.CHAR, 1, 0);
                world.send(new int[] {5, -6}, 0, 2, Datatype.INT, 1, 0);
                world.send(new long[] {7L << 40, -8}, 0, 2, Datatype.LONG, 1, 0);
                world.send(new float[] {9.5f, -10f}, 0, 2, Datatype.FLOAT, 1, 0);
                world.send(new double[] {11.25, -12}, 0, 2, Datatype.DOUBLE, 1, 0);
                world.send(new boolean[] {true, false, true}, 1, 2, Datatype.BOOLEAN, 1, 0);
            }
            else
            {
                final byte[] b = new byte[2];
                world.recv(b, 0, 2, Datatype.BYTE, 0, 0);
                assertArrayEquals(new byte[] {1, -2}, b);
                final short[] s = new short[2];
                world.recv(s, 0, 2, Datatype.SHORT, 0, 0);
                assertArrayEquals(new short[] {3, -4}, s);
                final char[] c = new char[2];
                world.recv(c, 0, 2, Datatype.CHAR, 0, 0);
                assertArrayEquals(new char[] {'a', 'z'}, c);
                final int[] i = new int[2];
                world.recv(i, 0, 2, Datatype.INT, 0, 0);
                assertArrayEquals(new int[] {5, -6}, i);
                final long[] l = new long[2];
                world.recv(l, 0, 2, Datatype.LONG, 0, 0);
                assertArrayEquals(new long[] {7L << 40, -8}, l);
                final float[] f = new float[2];
                world.recv(f, 0, 2, Datatype.FLOAT, 0, 0);
                assertArrayEquals(new float[] {9.5f, -10f}, f);
                final double[] d = new double[2];
                world.recv(d, 0, 2, Datatype.DOUBLE, 0, 0);
                assertArrayEquals(new double[] {11.25, -12}, d);
                final boolean[] z = new boolean[3];
                world.recv(z, 1, 2, Datatype.BOOLEAN, 0, 0);
                assertArrayEquals(new boolean[] {false, false, true}, z);
            }
        });
    }

    @Test
    void shouldUseNioBuffersWithoutTouchingPositionOrLimit()
    {
        Ranks.run(2, (mpi, world) ->
        {
            if (world.rank() == 0)
            {
                final IntBuffer heap = IntBuffer.wrap(new int[] {0, 1, 2, 3, 4});
                heap.position(3).limit(4);
                world.send(heap, 1, 3, Datatype.INT, 1, 0);
                assertEquals(3, heap.position());
                assertEquals(4, heap.limit());
                final DoubleBuffer direct = ByteBuffer.allocateDirect(80).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer();
                for (int k = 0; k < 10; k++)
                {
                    direct.put(k, k + 0.5);
                }
                world.send(direct, 0, 10, Datatype.DOUBLE, 1, 1);
            }
            else
            {
                final ByteBuffer in = ByteBuffer.allocate(12).order(ByteOrder.BIG_ENDIAN);
                world.recv(in, 0, 3, Datatype.INT, 0, 0);
                assertEquals(0, in.position());
                assertEquals(1, in.getInt(0));
                assertEquals(3, in.getInt(8));
                final DoubleBuffer d = ByteBuffer.allocateDirect(80).order(ByteOrder.BIG_ENDIAN).asDoubleBuffer();
                world.recv(d, 0, 10, Datatype.DOUBLE, 0, 1);
                assertEquals(9.5, d.get(9));
            }
        });
    }

    @Test
    void shouldSendInEveryModeBlockingAndNot()
    {
        Ranks.run(2, (mpi, world) ->
        {
            final int[] v = new int[1];
            if (world.rank() == 0)
            {
                final byte[] attached = new byte[4 * (40_000 + Mpi.BSEND_OVERHEAD)];
                mpi.bufferAttach(attached);
                world.barrier(); // receiver has posted its rsend receive
                world.rsend(new int[] {1}, 0, 1, Datatype.INT, 1, 1);
                world.bsend(new int[] {2}, 0, 1, Datatype.INT, 1, 2);
                world.bsend(new int[10_000], 0, 10_000, Datatype.INT, 1, 3);
                world.ibsend(new int[] {4}, 0, 1, Datatype.INT, 1, 4).await();
                world.issend(new int[] {5}, 0, 1, Datatype.INT, 1, 5).await();
                world.irsend(new int[] {6}, 0, 1, Datatype.INT, 1, 6).await();
                assertSame(attached, mpi.bufferDetach());
            }
            else
            {
                final Request r = world.irecv(v, 0, 1, Datatype.INT, 0, 1);
                world.barrier();
                r.await();
                assertEquals(1, v[0]);
                world.recv(v, 0, 1, Datatype.INT, 0, 2);
                assertEquals(2, v[0]);
                final int[] big = new int[10_000];
                assertEquals(40_000, world.recv(big, 0, 10_000, Datatype.INT, 0, 3).countBytes());
                for (int tag = 4; tag <= 6; tag++)
                {
                    world.recv(v, 0, 1, Datatype.INT, 0, tag);
                    assertEquals(tag, v[0]);
                }
            }
        });
    }

    @Test
    void shouldFailBsendWithoutRoom()
    {
        Ranks.run(1, (mpi, world) ->
        {
            final MpiException none = assertThrows(MpiException.class, () -> world.bsend(new int[1], 0, 1, Datatype.INT, 0, 0));
            assertEquals(ErrorClass.ERR_BUFFER, none.errorClass());
            mpi.bufferAttach(new byte[Mpi.BSEND_OVERHEAD + 40_000]);
            // a rendezvous-sized message stays in the buffer until its receive is posted
            world.bsend(new int[10_000], 0, 10_000, Datatype.INT, 0, 0);
            final MpiException full = assertThrows(MpiException.class, () -> world.bsend(new int[1], 0, 1, Datatype.INT, 0, 1));
            assertEquals(ErrorClass.ERR_BUFFER, full.errorClass());
            assertTrue(full.getMessage().contains("full"), full.getMessage());
            world.recv(new int[10_000], 0, 10_000, Datatype.INT, 0, 0);
            mpi.bufferDetach();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void shouldSendrecvAndReplaceAroundRing(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int right = (rank + 1) % size;
            final int left = (rank - 1 + size) % size;
            final long[] out = {rank, rank * 10L};
            final long[] in = new long[2];
            final Status st = world.sendrecv(out, 0, 2, Datatype.LONG, right, 3, in, 0, 2, Datatype.LONG, left, 3);
            assertEquals(left, st.source());
            assertArrayEquals(new long[] {left, left * 10L}, in);
            final double[] both = new double[5000];
            Arrays.fill(both, rank);
            world.sendrecvReplace(both, 0, 5000, Datatype.DOUBLE, right, 4, left, 4);
            assertEquals(left, both[4999]);
        });
    }

    @Test
    void shouldCompleteProcNullOperationsAtOnce()
    {
        Ranks.run(2, (mpi, world) ->
        {
            world.send(new int[1], 0, 1, Datatype.INT, Comm.PROC_NULL, 0);
            final Status st = world.recv(new int[1], 0, 1, Datatype.INT, Comm.PROC_NULL, Comm.ANY_TAG);
            assertEquals(Comm.PROC_NULL, st.source());
            assertEquals(Comm.ANY_TAG, st.tag());
            assertEquals(0, st.count(Datatype.INT));
            assertTrue(world.mprobe(Comm.PROC_NULL, 0).isNoProc());
        });
    }

    @Test
    void shouldCancelUnmatchedReceiveOnly()
    {
        Ranks.run(2, (mpi, world) ->
        {
            if (world.rank() == 1)
            {
                final Request r = world.irecv(new int[1], 0, 1, Datatype.INT, 0, 99);
                r.cancel();
                final Status st = r.await();
                assertTrue(st.isCancelled());
                final int[] v = new int[1];
                final Request matched = world.irecv(v, 0, 1, Datatype.INT, 0, 1);
                world.barrier();
                matched.await();
                matched.cancel();
                assertFalse(matched.status().isCancelled());
                assertEquals(7, v[0]);
            }
            else
            {
                world.send(new int[] {7}, 0, 1, Datatype.INT, 1, 1);
                world.barrier();
            }
        });
    }

    @Test
    void shouldRestartPersistentRequestsWithChangingContents()
    {
        Ranks.run(2, (mpi, world) ->
        {
            final int[] buf = new int[2000];
            final Request p = world.rank() == 0 ?
                world.sendInit(buf, 0, buf.length, Datatype.INT, 1, 0) :
                world.recvInit(buf, 0, buf.length, Datatype.INT, 0, 0);
            final Request s = world.rank() == 0 ? world.ssendInit(new int[] {1}, 0, 1, Datatype.INT, 1, 1) :
                world.recvInit(new int[1], 0, 1, Datatype.INT, 0, 1);
            assertTrue(p.isPersistent());
            for (int iteration = 0; iteration < 100; iteration++)
            {
                if (world.rank() == 0)
                {
                    Arrays.fill(buf, iteration);
                }
                Request.startAll(p, s);
                Request.waitAll(p, s);
                if (world.rank() == 1)
                {
                    assertEquals(iteration, buf[0]);
                    assertEquals(iteration, buf[1999]);
                }
            }
            p.free();
            s.free();
        });
    }

    @Test
    void shouldStartPersistentRequestOnlyWhenInactive()
    {
        Ranks.run(1, (mpi, world) ->
        {
            final Request r = world.recvInit(new int[1], 0, 1, Datatype.INT, 0, 0);
            r.start();
            final MpiException twice = assertThrows(MpiException.class, r::start);
            assertEquals(ErrorClass.ERR_REQUEST, twice.errorClass());
            world.send(new int[] {1}, 0, 1, Datatype.INT, 0, 0);
            r.await();
            final MpiException notPersistent = assertThrows(MpiException.class,
                () -> world.isend(new int[1], 0, 1, Datatype.INT, 0, 1).start());
            assertEquals(ErrorClass.ERR_REQUEST, notPersistent.errorClass());
            world.recv(new int[1], 0, 1, Datatype.INT, 0, 1);
        });
    }

    @Test
    void shouldWaitAndTestAnySomeAll()
    {
        Ranks.run(3, (mpi, world) ->
        {
            if (world.rank() == 0)
            {
                final int[][] in = new int[4][1];
                final Request[] reqs = new Request[4];
                for (int i = 0; i < 4; i++)
                {
                    reqs[i] = world.irecv(in[i], 0, 1, Datatype.INT, Comm.ANY_SOURCE, i);
                }
                assertEquals(-1, Request.testAny(reqs));
                assertEquals(0, Request.testSome(reqs).length);
                assertFalse(Request.testAll(reqs));
                world.barrier();
                final Set<Integer> seen = new HashSet<>();
                int index;
                while ((index = Request.waitAny(reqs)) != Datatype.UNDEFINED)
                {
                    assertTrue(seen.add(index), "index reported once: " + index);
                    if (seen.size() == 2)
                    {
                        for (final int j : Request.waitSome(reqs))
                        {
                            assertTrue(seen.add(j));
                        }
                    }
                }
                assertEquals(4, seen.size());
                assertTrue(Request.testAll(reqs));
                for (int i = 0; i < 4; i++)
                {
                    assertEquals(i * 10, in[i][0]);
                }
            }
            else
            {
                world.barrier();
                for (int i = world.rank() - 1; i < 4; i += 2)
                {
                    world.send(new int[] {i * 10}, 0, 1, Datatype.INT, 0, i);
                }
            }
        });
    }

    @Test
    void shouldRejectBadArgumentsWithClearErrors()
    {
        Ranks.run(2, (mpi, world) ->
        {
            final int[] buf = new int[4];
            assertError(ErrorClass.ERR_RANK, "destination rank 2", () -> world.send(buf, 0, 1, Datatype.INT, 2, 0));
            assertError(ErrorClass.ERR_RANK, "source rank -5", () -> world.recv(buf, 0, 1, Datatype.INT, -5, 0));
            assertError(ErrorClass.ERR_COUNT, "negative count -1", () -> world.send(buf, 0, -1, Datatype.INT, 1, 0));
            assertError(ErrorClass.ERR_TAG, "invalid tag " + (Comm.TAG_UB + 1), () -> world.send(buf, 0, 1, Datatype.INT, 1, Comm.TAG_UB + 1));
            assertError(ErrorClass.ERR_TAG, "invalid tag -1", () -> world.send(buf, 0, 1, Datatype.INT, 1, Comm.ANY_TAG));
            assertError(ErrorClass.ERR_BUFFER, "null", () -> world.send(null, 0, 1, Datatype.INT, 1, 0));
            assertError(ErrorClass.ERR_BUFFER, "java.lang.String", () -> world.send("text", 0, 1, Datatype.INT, 1, 0));
            assertError(ErrorClass.ERR_TYPE, null, () -> world.send(new double[4], 0, 1, Datatype.INT, 1, 0));
            assertError(ErrorClass.ERR_BUFFER, null, () -> world.send(buf, 2, 3, Datatype.INT, 1, 0));
            assertError(ErrorClass.ERR_TYPE, "null", () -> world.send(buf, 0, 1, null, 1, 0));
            assertError(ErrorClass.ERR_TYPE, "not committed", () -> world.send(buf, 0, 1, Datatype.contiguous(2, Datatype.INT), 1, 0));
            assertError(ErrorClass.ERR_BUFFER, "read-only", () -> world.recv(ByteBuffer.allocate(4).asReadOnlyBuffer(), 0, 1, Datatype.INT, 1, 0));
            world.barrier(); // nothing above sent anything: no stray message arrives
            assertNull(world.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG));
        });
    }

    @Test
    void shouldReportTypeMismatchWithoutLosingTheNextMessage()
    {
        Ranks.run(2, (mpi, world) ->
        {
            if (world.rank() == 0)
            {
                world.send(new int[] {1, 2}, 0, 2, Datatype.INT, 1, 0);
                world.send(new int[] {3}, 0, 1, Datatype.INT, 1, 1);
            }
            else
            {
                assertError(ErrorClass.ERR_TYPE, "mismatch", () -> world.recv(new float[2], 0, 2, Datatype.FLOAT, 0, 0));
                final int[] v = new int[1];
                world.recv(v, 0, 1, Datatype.INT, 0, 1);
                assertEquals(3, v[0]);
            }
        });
    }

    @Test
    void shouldAbortJobWhenErrorsAreFatal()
    {
        final AssertionError failure = assertThrows(AssertionError.class, () -> Ranks.run(2, (mpi, world) ->
        {
            world.setErrorHandler(ErrorHandler.ERRORS_ARE_FATAL);
            if (world.rank() == 0)
            {
                world.send(new int[1], 0, 1, Datatype.INT, 5, 0);
            }
            else
            {
                world.recv(new int[1], 0, 1, Datatype.INT, 0, 0);
            }
        }));
        assertTrue(String.valueOf(failure.getMessage()).contains("ERR_PROC_ABORTED") ||
            String.valueOf(failure.getCause()).contains("ERR_PROC_ABORTED"), failure.toString());
    }

    @Test
    void shouldAnswerEnvironmentQueries()
    {
        Ranks.run(2, (mpi, world) ->
        {
            assertTrue(Mpi.initialized());
            assertFalse(Mpi.finalized());
            assertEquals(ThreadLevel.SINGLE, mpi.threadLevel());
            assertTrue(mpi.isThreadMain());
            assertFalse(mpi.processorName().isEmpty());
            assertTrue(Mpi.wtick() > 0 && Mpi.wtime() > 0);
            assertEquals(1, mpi.self().size());
            assertEquals(0, mpi.self().rank());
            assertEquals("WORLD", world.name());
            final int[] v = {world.rank()};
            mpi.self().send(v, 0, 1, Datatype.INT, 0, 0);
            final int[] back = new int[1];
            mpi.self().recv(back, 0, 1, Datatype.INT, 0, 0);
            assertEquals(world.rank(), back[0]);
            assertThrows(MpiException.class, () -> Mpi.init(new String[0]));
        });
    }

    private static void assertError(final ErrorClass expected, final String detail, final org.junit.jupiter.api.function.Executable call)
    {
        final MpiException ex = assertThrows(MpiException.class, call);
        assertEquals(expected, ex.errorClass(), ex.getMessage());
        if (detail != null)
        {
            assertTrue(ex.getMessage().contains(detail), "message '" + ex.getMessage() + "' should mention '" + detail + "'");
        }
    }
}
