package org.jmpi.transport.pvas;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.pt2pt.FrameDescriptor;
import org.jmpi.internal.pt2pt.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Types published in the arena (issue 11, point 4) between ranks that are threads presenting separate JVMs: a send
 * type and a receive type whose wire forms are larger than a shm frame go by reference, so the message is copied
 * directly (before, it fell back to fragments as "type-not-sendable"); each side publishes a type once and the peer
 * rebuilds it once, however many messages and type objects of that content follow.
 */
@Timeout(120)
class PvasPublishedTypesTest
{
    /** Blocks of the indexed types: about 12 bytes each in the wire form, so well beyond a 33 KiB frame. */
    private static final int BLOCKS = 6000;
    private static final int MESSAGES = 4;

    @TempDir
    Path shmDir;

    /** Every third double, with blocks of 1 or 2 (so the type stays indexed, not a vector). */
    private static Datatype scattered()
    {
        final int[] lengths = new int[BLOCKS];
        final int[] displacements = new int[BLOCKS];
        for (int b = 0; b < BLOCKS; b++)
        {
            lengths[b] = 1 + b % 2;
            displacements[b] = 3 * b;
        }
        return Datatype.indexed(lengths, displacements, Datatype.DOUBLE).commit();
    }

    @Test
    void shouldCopyDirectlyWithTypesLargerThanAFrame() throws IOException
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.transports", "pvas,jvm", "jmpi.jvm.isolate", "true", "jmpi.shm.dir", shmDir.toString(),
            PvasParams.PARTITION_SIZE.name(), "4m", "jmpi.pvas.mode", "direct", "jmpi.eager.limit", "0", "jmpi.pvas.split.min", "1"),
            (mpi, world) ->
            {
                final Protocol protocol = CommInternals.state(world).protocol();
                final ByteBuffer arena = mpi.allocMem(3 * BLOCKS * 8);
                for (int m = 0; m < MESSAGES; m++)
                {
                    // A new object of the same content each time: a new id in the pair's table, the same publication.
                    final Datatype type = scattered();
                    if (world.rank() == 0)
                    {
                        for (int i = 0; i < 3 * BLOCKS; i++)
                        {
                            arena.putDouble(8 * i, m * 1e6 + i);
                        }
                        world.send(arena.asDoubleBuffer(), 0, 1, type, 1, m);
                    }
                    else
                    {
                        for (int i = 0; i < 3 * BLOCKS; i++)
                        {
                            arena.putDouble(8 * i, -1);
                        }
                        world.recv(arena.asDoubleBuffer(), 0, 1, type, 0, m);
                        for (int b = 0; b < BLOCKS; b++)
                        {
                            for (int k = 0; k < 1 + b % 2; k++)
                            {
                                assertEquals(m * 1e6 + 3 * b + k, arena.getDouble(8 * (3 * b + k)), "message " + m + ", block " + b);
                            }
                            assertEquals(-1, arena.getDouble(8 * (3 * b + 2)), "gap of block " + b);
                        }
                    }
                }
                final String stats = protocol.engine().call(() -> protocol.pathStats(world.rank()));
                if (world.rank() == 0)
                {
                    assertEquals(MESSAGES, protocol.rendezvousSent(FrameDescriptor.PATH_SPLIT_COPY), stats);
                    assertTrue(stats.contains("type-not-sendable=0"), stats);
                }
                // Each side published its type once (the sender in the RTS, the receiver in the SPLIT) and rebuilt the other's once.
                assertTrue(stats.contains("types published=1 "), stats);
                assertTrue(stats.contains("reused by content " + (MESSAGES - 1) + ")"), stats);
                assertTrue(stats.contains("rebuilt=1 reused by content=" + (MESSAGES - 1)), stats);
                assertTrue(stats.contains("split-copy=" + (world.rank() == 1 ? MESSAGES : 0)), stats);
                world.barrier();
                mpi.freeMem(arena);
            });
        try (var files = Files.list(shmDir))
        {
            assertEquals(List.of(), files.toList(), "files left in the shm directory");
        }
    }
}
