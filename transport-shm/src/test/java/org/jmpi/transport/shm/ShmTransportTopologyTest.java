package org.jmpi.transport.shm;

import org.jmpi.MpiException;
import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.testkit.transport.JobTransportContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs that are not one node of single-rank JVMs: several ranks per JVM (shm carries only the pairs in
 * different JVMs) and several nodes (one file per node, per-node bootstrap keys, no global step).
 */
class ShmTransportTopologyTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final int FRAMES_PER_PEER = 1_000;

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void shouldReachOnlyRanksInOtherJvmsOfTheSameNode()
    {
        // Ranks 0,1 share JVM a; 2,3 share JVM b; all on one node.
        runAndExchange(4, r -> "node-0", r -> r < 2 ? "jvm-a" : "jvm-b");
    }

    @Test
    @Timeout(60)
    void shouldOpenOneFilePerNodeWithoutWaitingForOtherNodes()
    {
        // Even ranks on node 0, odd ranks on node 1; every rank its own JVM.
        runAndExchange(6, r -> "node-" + (r % 2), r -> "jvm-" + r);
    }

    @Test
    @Timeout(60)
    void shouldOpenOnANodeWhoseRanksAloneUseIt()
    {
        // Node 1's ranks never open shm (as if it were unavailable there): node 0 must not wait for them.
        final LocalJob job = LocalJob.create(4, Map.of(ShmParams.DIR.name(), dir.toString()));
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            if (rank % 2 == 0)
            {
                final TransportContext context = JobTransportContext.of(job, rank, r -> "node-" + (r % 2), r -> "jvm-" + r);
                try (Transport transport = new ShmTransportProvider().open(context))
                {
                    assertTrue(transport.reaches(2 - rank));
                    assertFalse(transport.reaches(rank + 1));
                }
            }
        }, TIMEOUT_NS);
        assertNull(outcome.firstFailure(), () -> "rank failed: " + outcome.firstFailure());
        assertEquals(0, countFiles(), "files left after close");
    }

    private void runAndExchange(final int size, final IntFunction<String> nodes, final IntFunction<String> jvms)
    {
        final LocalJob job = LocalJob.create(size, Map.of(ShmParams.DIR.name(), dir.toString()));
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            final TransportContext context = JobTransportContext.of(job, rank, nodes, jvms);
            assertNull(new ShmTransportProvider().probe(context));
            try (Transport transport = new ShmTransportProvider().open(context))
            {
                int peers = 0;
                for (int r = 0; r < size; r++)
                {
                    final boolean expected = r != rank && nodes.apply(r).equals(nodes.apply(rank)) && !jvms.apply(r).equals(jvms.apply(rank));
                    assertEquals(expected, transport.reaches(r), "rank " + rank + " reaches " + r);
                    peers += expected ? 1 : 0;
                    if (!expected)
                    {
                        final int dst = r;
                        assertThrows(MpiException.class, () -> transport.offer(dst, 8, (buffer, index, length) -> { }));
                    }
                }
                assertTrue(peers > 0, "rank " + rank + " has no shm peer");
                context.bootstrap().fence(TIMEOUT_NS);
                assertEquals(0, countFiles(), "files once every rank has opened: each node's creator deletes its file");

                final int[] next = new int[size];
                final long[] received = {0};
                final FrameHandler check = (src, buffer, index, length) ->
                {
                    assertTrue(transport.reaches(src), "frame from unreachable rank " + src);
                    assertEquals(next[src]++, buffer.getInt(index, ByteOrder.LITTLE_ENDIAN), "sequence from " + src);
                    assertEquals(rank, buffer.getInt(index + 4, ByteOrder.LITTLE_ENDIAN), "destination");
                    received[0]++;
                };
                for (int i = 0; i < FRAMES_PER_PEER; i++)
                {
                    final int sequence = i;
                    for (int dst = 0; dst < size; dst++)
                    {
                        if (transport.reaches(dst))
                        {
                            final int to = dst;
                            final int length = (i & 3) == 0 ? transport.maxFrameLength() : 16;
                            while (!transport.offer(dst, length, (buffer, index, l) ->
                            {
                                buffer.putInt(index, sequence, ByteOrder.LITTLE_ENDIAN);
                                buffer.putInt(index + 4, to, ByteOrder.LITTLE_ENDIAN);
                            }))
                            {
                                transport.progress(check);
                                job.checkAborted();
                            }
                        }
                    }
                }
                final long expected = (long)peers * FRAMES_PER_PEER;
                while (received[0] < expected)
                {
                    if (transport.progress(check) == 0)
                    {
                        job.checkAborted();
                        Thread.yield();
                    }
                }
                context.bootstrap().fence(TIMEOUT_NS);
            }
        }, TIMEOUT_NS);
        assertNull(outcome.firstFailure(), () -> "rank failed: " + outcome.firstFailure());
        assertEquals(0, countFiles(), "files left after close");
    }

    private long countFiles()
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.count();
        }
        catch (final java.io.IOException ex)
        {
            throw new AssertionError(ex);
        }
    }
}
