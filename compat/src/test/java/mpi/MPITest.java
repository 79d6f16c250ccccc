package mpi;

import static mpi.Job.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** MPI: the environment calls, constants and buffer helpers. */
class MPITest
{
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldInitReturnTheArgumentsAndFinalize(final int size)
    {
        Job.run(size, args ->
        {
            assertFalse(MPI.isInitialized());
            assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.getRank());
            final String[] back = MPI.Init(args);
            assertArrayEquals(args, back);
            assertTrue(MPI.isInitialized());
            assertFalse(MPI.isFinalized());
            assertMpiError(MPI.ERR_OTHER, () -> MPI.Init(args));
            assertEquals(size, MPI.COMM_WORLD.getSize());
            assertEquals(1, MPI.COMM_SELF.getSize());
            assertEquals(0, MPI.COMM_SELF.getRank());
            assertTrue(MPI.COMM_WORLD.getRank() >= 0 && MPI.COMM_WORLD.getRank() < size);
            assertEquals(MPI.THREAD_SINGLE, MPI.queryThread());
            assertTrue(MPI.isThreadMain());
            assertFalse(MPI.getProcessorName().isEmpty());
            assertTrue(MPI.wtick() > 0 && MPI.wtick() < 1e-3);
            final double t0 = MPI.wtime();
            assertTrue(MPI.wtime() >= t0);
            assertEquals(MPI.ERRORS_ARE_FATAL, MPI.COMM_WORLD.getErrhandler());
            MPI.Finalize();
            assertTrue(MPI.isFinalized());
            assertTrue(MPI.isInitialized());
            final MPIException after = assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.getRank());
            assertEquals("MPI is finalized.", after.getMessage());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldProvideTheThreadLevelAskedFor(final int size)
    {
        Job.run(size, args ->
        {
            assertEquals(MPI.THREAD_MULTIPLE, MPI.InitThread(args, MPI.THREAD_MULTIPLE));
            assertEquals(MPI.THREAD_MULTIPLE, MPI.queryThread());
            final boolean[] main = new boolean[1];
            final Thread other = new Thread(() ->
            {
                try
                {
                    main[0] = MPI.isThreadMain();
                }
                catch (final MPIException ex)
                {
                    throw new IllegalStateException(ex);
                }
            });
            other.start();
            other.join();
            assertFalse(main[0]);
            MPI.Finalize();
        });
    }

    @Test
    void shouldRejectAnUnknownThreadLevel()
    {
        Job.run(1, args -> assertMpiError(MPI.ERR_ARG, () -> MPI.InitThread(args, 7)));
    }

    @Test
    void shouldReportTheVersions()
    {
        assertEquals(4, MPI.getVersion().getVersion());
        assertEquals(1, MPI.getVersion().getSubVersion());
        assertTrue(MPI.getLibVersion().startsWith("jmpi"), MPI.getLibVersion());
    }

    @Test
    void shouldMakeDirectBuffersInNativeOrder()
    {
        final ByteBuffer b = MPI.newByteBuffer(16);
        assertTrue(b.isDirect());
        assertEquals(ByteOrder.nativeOrder(), b.order());
        assertEquals(16, b.capacity());
        final IntBuffer i = MPI.newIntBuffer(5);
        assertTrue(i.isDirect());
        assertEquals(ByteOrder.nativeOrder(), i.order());
        assertEquals(5, i.capacity());
        assertEquals(3, MPI.newDoubleBuffer(3).capacity());
        assertEquals(3, MPI.newLongBuffer(3).capacity());
        assertEquals(3, MPI.newFloatBuffer(3).capacity());
        assertEquals(3, MPI.newShortBuffer(3).capacity());
        assertEquals(3, MPI.newCharBuffer(3).capacity());
    }

    @Test
    void shouldSliceWithoutMovingTheBuffer()
    {
        final IntBuffer b = MPI.newIntBuffer(10);
        for (int i = 0; i < 10; i++)
        {
            b.put(i, i);
        }
        b.position(3).limit(7);
        final IntBuffer s = MPI.slice(b, 4);
        assertEquals(4, s.get(0));
        assertEquals(6, s.capacity());
        assertEquals(3, b.position());
        assertEquals(7, b.limit());
        final int[] a = {0, 1, 2, 3};
        final IntBuffer sa = MPI.slice(a, 2);
        sa.put(0, 42);
        assertEquals(42, a[2]);
        final ByteBuffer bb = MPI.slice(new byte[8], 3);
        assertEquals(5, bb.capacity());
        assertSame(ByteOrder.nativeOrder(), bb.order());
    }

    @Test
    void shouldNumberTheErrorClassesAsJmpi()
    {
        assertEquals(org.jmpi.ErrorClass.ERR_TRUNCATE.code(), MPI.ERR_TRUNCATE);
        assertEquals(org.jmpi.ErrorClass.ERR_RANK.code(), MPI.ERR_RANK);
        assertEquals(org.jmpi.ErrorClass.ERR_UNSUPPORTED_OPERATION.code(), MPI.ERR_UNSUPPORTED_OPERATION);
        assertTrue(MPI.ERR_LASTCODE >= MPI.ERR_SYSRESOURCE);
        assertNotNull(MPI.COMM_WORLD);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldBufferSendsThroughTheAttachedBuffer(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final byte[] buffer = new byte[1024 + MPI.BSEND_OVERHEAD];
            MPI.attachBuffer(buffer);
            final int next = (rank + 1) % n;
            final int prev = (rank + n - 1) % n;
            world.bSend(new int[] {rank, rank * 10}, 2, MPI.INT, next, 3);
            final int[] got = new int[2];
            world.recv(got, 2, MPI.INT, prev, 3);
            assertArrayEquals(new int[] {prev, prev * 10}, got);
            assertSame(buffer, MPI.detachBuffer());
            assertMpiError(MPI.ERR_BUFFER, MPI::detachBuffer);
        });
    }
}
