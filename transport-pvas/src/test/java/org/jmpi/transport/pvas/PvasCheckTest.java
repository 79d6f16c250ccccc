package org.jmpi.transport.pvas;

import org.agrona.UnsafeApi;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checking mode (jmpi.pvas.check): a write just outside an allocMem buffer is caught at freeMem, or at finalize for a buffer never freed, naming the rank and offset. */
@Timeout(120)
class PvasCheckTest
{
    @TempDir
    Path shmDir;

    @Test
    void shouldReportDamageToABufferStillAllocatedAtFinalize()
    {
        final PrintStream original = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new java.io.OutputStream()
        {
            @Override
            public void write(final int b)
            {
                original.write(b);
                synchronized (captured)
                {
                    captured.write(b);
                }
            }
        }, true));
        try
        {
            Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.transports", "pvas,jvm", "jmpi.jvm.isolate", "true", "jmpi.shm.dir", shmDir.toString(),
                PvasParams.PARTITION_SIZE.name(), "1m", PvasParams.CHECK.name(), "true", "jmpi.finalize.wait", "30000"), (mpi, world) ->
            {
                final ByteBuffer leaked = mpi.allocMem(500);
                if (world.rank() == 1)
                {
                    final long at = Arena.address(leaked) + 500;
                    UnsafeApi.putByte(null, at, (byte)~ArenaGuards.canary(at));
                }
                world.barrier();
            });
        }
        finally
        {
            System.setErr(original);
        }
        final String err;
        synchronized (captured)
        {
            err = captured.toString(StandardCharsets.UTF_8);
        }
        assertTrue(err.contains("jmpi: pvas check at finalize: rank 1 wrote outside its allocMem buffer of 500 bytes") &&
            err.contains("buffer offset 500 changed"), err);
        assertTrue(!err.contains("rank 0 wrote"), err);
    }

    /** The partition's own guards: a write at the last byte of a rank's data area is found by the verification at finalize. */
    @Test
    void shouldFindAWriteIntoThePartitionGuard()
    {
        ArenaJob.run(2, shmDir, Map.of(PvasParams.PARTITION_SIZE.name(), "1m", PvasParams.CHECK.name(), "true"), (rank, context, transport) ->
        {
            final Arena arena = transport.arena();
            final ByteBuffer buf = arena.allocate(1000, 64);
            final long offset = arena.ownDataOffset(Arena.address(buf), 1000);
            assertTrue(offset >= 2 * ArenaGuards.BYTES && offset % 4096 == 2 * ArenaGuards.BYTES, "after the random prefix guard: " + offset);
            assertEquals(java.util.List.of(), arena.verifyAll());
            final ByteBuffer last = arena.segment(arena.localIndex(), 0);
            last.put(last.capacity() - 1, (byte)~last.get(last.capacity() - 1));
            final java.util.List<String> found = arena.verifyAll();
            assertEquals(1, found.size(), found.toString());
            assertTrue(found.get(0).contains("rank " + rank + "'s arena partition guard at partition offset " + (1024 * 1024 - 1)),
                found.get(0));
            last.put(last.capacity() - 1, (byte)~last.get(last.capacity() - 1));
            assertTrue(arena.free(buf));
        });
    }

    @ParameterizedTest(name = "write at buffer offset {0}")
    @ValueSource(ints = {-1, -64, 1000, 1063})
    void shouldNameTheRankAndTheOffsetOfAWriteOutsideTheBuffer(final int offset)
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.transports", "pvas,jvm", "jmpi.jvm.isolate", "true", "jmpi.shm.dir", shmDir.toString(),
            PvasParams.PARTITION_SIZE.name(), "1m", PvasParams.CHECK.name(), "true", PvasParams.STATS.name(), "true"), (mpi, world) ->
        {
            mpi.self().setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final ByteBuffer clean = mpi.allocMem(1000);
            final ByteBuffer buf = mpi.allocMem(1000);
            for (int i = 0; i < 1000; i++)
            {
                buf.put(i, (byte)-1);
                clean.put(i, (byte)-1);
            }
            mpi.freeMem(clean);
            if (world.rank() == 1)
            {
                // a buggy rank: a raw write beside its buffer
                final long at = Arena.address(buf) + offset;
                UnsafeApi.putByte(null, at, (byte)~ArenaGuards.canary(at));
                final MpiException ex = assertThrows(MpiException.class, () -> mpi.freeMem(buf));
                assertEquals(ErrorClass.ERR_BUFFER, ex.errorClass());
                assertTrue(ex.getMessage().contains("rank 1 ") && ex.getMessage().contains("buffer offset " + offset + " "), ex.getMessage());
            }
            else
            {
                mpi.freeMem(buf);
            }
            world.barrier();
        });
    }
}
