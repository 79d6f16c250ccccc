package org.jmpi.internal.pt2pt;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bytes allocated per message in steady state (issue 12, item 3), ranks as threads in direct mode, where the
 * calling thread runs the engine too, so its allocation counter sees the whole path. Each figure is the lowest of
 * five measured phases after a warm-up (a phase that runs partly before C2 has compiled the path counts what
 * the interpreter allocates). The target is 0 for every row; what is left is listed in docs/status.md,
 * and the bounds below keep it from growing: an empty probe allocates nothing already.
 */
@Timeout(300)
class AllocationPerMessageTest
{
    private static final int WARMUP = 20_000;
    private static final int MEASURED = 5_000;

    private static Map<String, Long> measure()
    {
        final Map<String, Long> perMessage = new ConcurrentHashMap<>();
        // 45,000 exchanges of each kind: 30 s on a quiet 2-core machine, minutes on a loaded one
        Ranks.run(2, ThreadLevel.SINGLE, Map.of(), 240, (mpi, world) ->
        {
            final int peer = 1 - world.rank();
            final double[] out = new double[16];
            final double[] in = new double[16];
            final Request persistentRecv = world.recvInit(in, 0, 16, Datatype.DOUBLE, peer, 3);
            final Request persistentSend = world.sendInit(out, 0, 16, Datatype.DOUBLE, peer, 3);
            for (int phase = 0; phase < 6; phase++)
            {
                final int rounds = phase == 0 ? WARMUP : MEASURED;
                long before = AllocationProbe.allocatedBytes();
                for (int i = 0; i < rounds; i++)
                {
                    if (world.rank() == 0)
                    {
                        world.send(out, 0, 1, Datatype.DOUBLE, peer, 1);
                        world.recv(in, 0, 1, Datatype.DOUBLE, peer, 1);
                    }
                    else
                    {
                        world.recv(in, 0, 1, Datatype.DOUBLE, peer, 1);
                        world.send(out, 0, 1, Datatype.DOUBLE, peer, 1);
                    }
                }
                final long blocking = AllocationProbe.allocatedBytes() - before;
                world.barrier();
                before = AllocationProbe.allocatedBytes();
                for (int i = 0; i < rounds; i++)
                {
                    final Request r = world.irecv(in, 0, 16, Datatype.DOUBLE, peer, 2);
                    final Request s = world.isend(out, 0, 16, Datatype.DOUBLE, peer, 2);
                    s.await();
                    r.await();
                }
                final long nonblocking = AllocationProbe.allocatedBytes() - before;
                world.barrier();
                before = AllocationProbe.allocatedBytes();
                for (int i = 0; i < rounds; i++)
                {
                    persistentRecv.start();
                    persistentSend.start();
                    persistentSend.await();
                    persistentRecv.await();
                }
                final long persistent = AllocationProbe.allocatedBytes() - before;
                world.barrier();
                before = AllocationProbe.allocatedBytes();
                for (int i = 0; i < rounds; i++)
                {
                    world.iprobe(peer, 99);
                }
                final long probes = AllocationProbe.allocatedBytes() - before;
                world.barrier();
                if (phase > 0 && world.rank() == 0)
                {
                    perMessage.merge("blocking", blocking / (2L * rounds), Math::min);
                    perMessage.merge("nonblocking", nonblocking / (2L * rounds), Math::min);
                    perMessage.merge("persistent", persistent / (2L * rounds), Math::min);
                    perMessage.merge("iprobe", probes / rounds, Math::min);
                }
            }
        });
        return perMessage;
    }

    @Test
    void shouldAllocateNoMoreThanTheBoundsPerMessage()
    {
        final Map<String, Long> perMessage = measure();
        System.out.println("allocation per message (bytes): " + perMessage);
        assertEquals(0, perMessage.get("iprobe"), "an iprobe that finds nothing: " + perMessage);
        assertTrue(perMessage.get("blocking") <= 60, "blocking send and recv of 8 bytes: " + perMessage);
        // 133-175 B in session 10 on the four axes (an eager isend hands back a 56-byte SentRequest; the irecv's request
        // stays); 196 B, and 95 B persistent, on the shm axis inside a whole suite at load 16, where C2 came late
        assertTrue(perMessage.get("nonblocking") <= 240, "isend, irecv and await of 128 bytes: " + perMessage);
        assertTrue(perMessage.get("persistent") <= 120, "start and await of a persistent send and receive of 128 bytes: " + perMessage);
    }
}
