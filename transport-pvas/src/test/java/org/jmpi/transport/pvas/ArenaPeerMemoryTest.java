package org.jmpi.transport.pvas;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.ArenaMemory;
import org.jmpi.spi.PeerMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static org.jmpi.transport.pvas.ArenaExposureDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The arena's peer memory between two ranks that present separate JVMs, at the SPI: exposure and mapping of typed
 * views, what is refused, and the checks on a peer's exposure slot (a slot scribbled over by a buggy rank is ERR_INTERN
 * naming that rank and the slot, never a view outside its partition).
 */
@Timeout(120)
class ArenaPeerMemoryTest
{
    private static final long WAIT_NS = ArenaJob.WAIT_NS;

    @TempDir
    Path shmDir;

    @Test
    void shouldMapTypedViewsAndRefuseCorruptSlots()
    {
        ArenaJob.run(2, shmDir, Map.of(PvasParams.PARTITION_SIZE.name(), "1m", PvasParams.SEGMENT_SIZE.name(), "256k"), (rank, context, transport) ->
        {
            final PeerMemory pm = transport.feature(PeerMemory.class);
            final ArenaMemory arena = transport.feature(ArenaMemory.class);
            if (rank == 0)
            {
                assertEquals(0, pm.expose(new double[8]), "heap memory is not exposed");
                assertEquals(0, pm.expose(ByteBuffer.allocateDirect(64)), "direct memory outside the arena is not exposed");
                // the third 256 KiB segment: offsets in the partition beyond the first mapping
                arena.allocate(200_000, 64);
                arena.allocate(200_000, 64);
                final ByteBuffer bytes = arena.allocate(8 * 100, 64);
                final DoubleBuffer doubles = bytes.order(ByteOrder.BIG_ENDIAN).asDoubleBuffer();
                for (int i = 0; i < 100; i++)
                {
                    doubles.put(i, i + 0.5);
                }
                final long handle = pm.expose(doubles);
                assertTrue(handle > 0);
                context.bootstrap().put("handle", Long.toString(handle).getBytes(StandardCharsets.UTF_8));
                context.bootstrap().get("mapped", WAIT_NS);
                // a buggy rank scribbles over its own slot: the length now runs past the partition
                final int slot = (int)(handle % 1024);
                final Arena a = transport.arena();
                a.table(a.localIndex()).putLong(slot * LENGTH + LENGTH_OFFSET, 1L << 40);
                context.bootstrap().put("corrupt", new byte[] {1});
                context.bootstrap().get("checked", WAIT_NS);
                a.table(a.localIndex()).putLong(slot * LENGTH + LENGTH_OFFSET, 800);
                a.table(a.localIndex()).putInt(slot * LENGTH + KIND_OFFSET, 99);
                context.bootstrap().put("corrupt2", new byte[] {1});
                context.bootstrap().get("checked2", WAIT_NS);
                a.table(a.localIndex()).putInt(slot * LENGTH + KIND_OFFSET, KIND_DOUBLE);
                pm.withdraw(handle);
                context.bootstrap().put("withdrawn", new byte[] {1});
                assertThrows(MpiException.class, () -> pm.withdraw(handle), "a second withdraw");
                assertTrue(arena.free(bytes));
            }
            else
            {
                final long handle = Long.parseLong(new String(context.bootstrap().get("handle", WAIT_NS), StandardCharsets.UTF_8));
                final DoubleBuffer view = assertInstanceOf(DoubleBuffer.class, pm.map(0, handle));
                assertEquals(100, view.capacity());
                assertEquals(ByteOrder.BIG_ENDIAN, view.order());
                assertTrue(view.isDirect());
                for (int i = 0; i < 100; i++)
                {
                    assertEquals(i + 0.5, view.get(i), 0.0);
                }
                context.bootstrap().put("mapped", new byte[] {1});
                context.bootstrap().get("corrupt", WAIT_NS);
                final MpiException outside = assertThrows(MpiException.class, () -> pm.map(0, handle));
                assertEquals(ErrorClass.ERR_INTERN, outside.errorClass());
                assertTrue(outside.getMessage().contains("rank 0's arena exposure slot") && outside.getMessage().contains("read by rank 1"),
                    outside.getMessage());
                context.bootstrap().put("checked", new byte[] {1});
                context.bootstrap().get("corrupt2", WAIT_NS);
                final MpiException kind = assertThrows(MpiException.class, () -> pm.map(0, handle));
                assertTrue(kind.getMessage().contains("element kind 99"), kind.getMessage());
                context.bootstrap().put("checked2", new byte[] {1});
                context.bootstrap().get("withdrawn", WAIT_NS);
                final MpiException stale = assertThrows(MpiException.class, () -> pm.map(0, handle));
                assertTrue(stale.getMessage().contains("withdrawn"), stale.getMessage());
                assertThrows(MpiException.class, () -> pm.map(0, -5));
                assertThrows(MpiException.class, () -> pm.map(7, handle), "a rank not on this node");
            }
        });
    }
}
