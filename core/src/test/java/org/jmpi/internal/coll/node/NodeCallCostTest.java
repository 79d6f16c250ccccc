package org.jmpi.internal.coll.node;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one small node collective call allocates in steady state (issue 16, item 2: "no allocation per call"),
 * ranks as threads in direct mode (the calling thread runs the engine, so its allocation counter sees the whole
 * path), through a heap region and through a region file. Each figure is the lowest of three measured phases
 * after a short warm-up: short, so that the test holds on a loaded machine too, where C2 may not have compiled
 * the path yet; what it counts is then what the code allocates before escape analysis removes anything, an
 * upper bound of the compiled path's. Since session 11 a blocking node call allocates nothing, interpreted or
 * compiled (no plan or lambda in the entry, the communicator's spare op and parts rearmed per call; 424-600 bytes
 * before: docs/collectives.md, "What one small call costs"); the bound leaves room only for the odd incidental
 * object.
 */
@Timeout(300)
class NodeCallCostTest
{
    private static final int WARMUP = 2_000;
    private static final int MEASURED = 500;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    @TempDir
    static Path dir;

    private static Map<String, Long> measure(final boolean file)
    {
        final Map<String, String> params = new java.util.HashMap<>(Map.of("jmpi.coll.barrier.algorithm", "node",
            "jmpi.coll.allreduce.algorithm", "node", "jmpi.coll.bcast.algorithm", "node", "jmpi.coll.gather.algorithm", "node",
            "jmpi.coll.scatter.algorithm", "node", "jmpi.coll.allgather.algorithm", "node", "jmpi.coll.alltoall.algorithm", "node"));
        if (file)
        {
            params.put("jmpi.coll.node.region", "file");
            params.put("jmpi.shm.dir", dir.toString());
        }
        final Map<String, Long> perCall = new ConcurrentHashMap<>();
        Ranks.run(2, ThreadLevel.SINGLE, params, (mpi, world) ->
        {
            final long[] in = {world.rank()};
            final long[] out = new long[1];
            final long[] blocks = new long[2];
            final long[] blocksOut = new long[2];
            for (int phase = 0; phase < 4; phase++)
            {
                final int calls = phase == 0 ? WARMUP : MEASURED;
                record(perCall, phase, world, "barrier", calls, world::barrier);
                record(perCall, phase, world, "allreduce 8 B", calls, () -> world.allreduce(in, 0, out, 0, 1, Datatype.LONG, Op.SUM));
                record(perCall, phase, world, "bcast 8 B", calls, () -> world.bcast(in, 0, 1, Datatype.LONG, 0));
                record(perCall, phase, world, "gather 8 B", calls, () -> world.gather(in, 0, 1, Datatype.LONG, blocksOut, 0, 1,
                    Datatype.LONG, 0));
                record(perCall, phase, world, "scatter 8 B", calls, () -> world.scatter(blocks, 0, 1, Datatype.LONG, out, 0, 1,
                    Datatype.LONG, 0));
                record(perCall, phase, world, "allgather 8 B", calls, () -> world.allgather(in, 0, 1, Datatype.LONG, blocksOut, 0, 1,
                    Datatype.LONG));
                record(perCall, phase, world, "alltoall 8 B", calls, () -> world.alltoall(blocks, 0, 1, Datatype.LONG, blocksOut, 0, 1,
                    Datatype.LONG));
            }
        });
        return perCall;
    }

    /**
     * Direct ByteBuffers of BYTE, as OMB-J's {@code -a buffer} and compat's {@code MPI.newByteBuffer} pass them: 8-byte
     * gather, scatter, bcast and allreduce, and 1 MiB scatter and bcast (many rounds through a region file).
     */
    private static Map<String, Long> measureDirect(final boolean file)
    {
        final Map<String, String> params = new java.util.HashMap<>(Map.of("jmpi.coll.allreduce.algorithm", "node",
            "jmpi.coll.bcast.algorithm", "node", "jmpi.coll.gather.algorithm", "node", "jmpi.coll.scatter.algorithm", "node"));
        if (file)
        {
            params.put("jmpi.coll.node.region", "file");
            params.put("jmpi.shm.dir", dir.toString());
        }
        final Map<String, Long> perCall = new ConcurrentHashMap<>();
        final int large = 1 << 20;
        Ranks.run(2, ThreadLevel.SINGLE, params, (mpi, world) ->
        {
            final java.nio.ByteBuffer block = java.nio.ByteBuffer.allocateDirect(8);
            final java.nio.ByteBuffer out = java.nio.ByteBuffer.allocateDirect(8);
            final java.nio.ByteBuffer blocks = java.nio.ByteBuffer.allocateDirect(16);
            final java.nio.ByteBuffer big = java.nio.ByteBuffer.allocateDirect(large);
            final java.nio.ByteBuffer bigBlocks = java.nio.ByteBuffer.allocateDirect(2 * large);
            for (int phase = 0; phase < 4; phase++)
            {
                final int calls = phase == 0 ? WARMUP / 4 : MEASURED / 5;
                record(perCall, phase, world, "gather 8 B", calls, () -> world.gather(block, 0, 8, Datatype.BYTE, blocks, 0, 8,
                    Datatype.BYTE, 0));
                record(perCall, phase, world, "scatter 8 B", calls, () -> world.scatter(blocks, 0, 8, Datatype.BYTE, block, 0, 8,
                    Datatype.BYTE, 0));
                record(perCall, phase, world, "bcast 8 B", calls, () -> world.bcast(block, 0, 8, Datatype.BYTE, 0));
                record(perCall, phase, world, "allreduce 8 B", calls, () -> world.allreduce(block, 0, out, 0, 8, Datatype.BYTE, Op.BOR));
                record(perCall, phase, world, "scatter 1 MiB", Math.max(1, calls / 20), () -> world.scatter(bigBlocks, 0, large,
                    Datatype.BYTE, big, 0, large, Datatype.BYTE, 0));
                record(perCall, phase, world, "bcast 1 MiB", Math.max(1, calls / 20), () -> world.bcast(big, 0, large, Datatype.BYTE, 0));
            }
        });
        return perCall;
    }

    private static void record(final Map<String, Long> perCall, final int phase, final Comm world, final String what, final int calls,
        final Runnable call)
    {
        final long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++)
        {
            call.run();
        }
        final long bytes = (THREADS.getCurrentThreadAllocatedBytes() - before) / calls;
        world.barrier();
        if (phase > 0)
        {
            perCall.merge(what + " rank " + world.rank(), bytes, Math::min);
        }
    }

    /**
     * Direct ByteBuffers (session 10's finding: 1 MiB scatter allocated about 137 KB per call, a view and a convertor
     * per round through the slots, and 8-byte gather 6.7 KB, the argument checks' views, convertors and slots).
     */
    @Test
    void shouldAllocateLittlePerCallWithDirectByteBuffers()
    {
        for (final boolean file : new boolean[] {false, true})
        {
            final Map<String, Long> perCall = measureDirect(file);
            System.out.println("node collectives, direct ByteBuffers, " + (file ? "region file" : "heap region") + ", bytes allocated per call: " +
                new java.util.TreeMap<>(perCall));
            for (final Map.Entry<String, Long> e : perCall.entrySet())
            {
                assertTrue(e.getValue() <= 64, (file ? "file: " : "heap: ") + e.getKey() + " allocates " + e.getValue() + " bytes per call");
            }
        }
    }

    @Test
    void shouldAllocateNoMoreThanTheBoundsPerSmallCall()
    {
        for (final boolean file : new boolean[] {false, true})
        {
            final Map<String, Long> perCall = measure(file);
            System.out.println("node collectives, " + (file ? "region file" : "heap region") + ", bytes allocated per call: " +
                new java.util.TreeMap<>(perCall));
            for (final Map.Entry<String, Long> e : perCall.entrySet())
            {
                assertTrue(e.getValue() <= 64, (file ? "file: " : "heap: ") + e.getKey() + " allocates " + e.getValue() + " bytes per call");
            }
        }
    }
}
