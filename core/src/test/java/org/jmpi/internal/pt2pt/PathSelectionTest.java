package org.jmpi.internal.pt2pt;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.datatype.CopyCostModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jmpi.pvas.mode}: every mode delivers the same bytes; the sender's and the receiver's choices are counted. */
@Timeout(120)
class PathSelectionTest
{
    private static final int COUNT = 4096;

    @TempDir
    Path dir;

    /** Parameters for {@code auto} with no eager messages and {@code model} as the calibration file. */
    private Map<String, String> autoWith(final CopyCostModel model) throws IOException
    {
        final Path file = dir.resolve("calibration.properties");
        model.save(file);
        return Map.of("jmpi.pvas.mode", "auto", "jmpi.eager.limit", "0", "jmpi.pvas.calibration", file.toString());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "direct", "staged"})
    void shouldDeliverStridedAndContiguousMessagesInEveryMode(final String mode)
    {
        final Datatype strided = Datatype.vector(COUNT, 1, 2, Datatype.DOUBLE).commit();
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.pvas.mode", mode, "jmpi.eager.limit", "0"), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final double[] data = new double[2 * COUNT];
            if (world.rank() == 0)
            {
                for (int i = 0; i < data.length; i++)
                {
                    data[i] = i + 0.5;
                }
                world.send(data, 0, 1, strided, 1, 1);
                world.send(data, 0, data.length, Datatype.DOUBLE, 1, 2);
                // Between threads (jvm with peer memory) heap arrays are exposed; the other axes (shm, pvas, remote
                // memory) stage them.
                if (protocol.transportName(1).equals("jvm") && protocol.hasPeerMemory(1))
                {
                    final byte expected = mode.equals("staged") ? FrameDescriptor.PATH_FRAGMENTS : FrameDescriptor.PATH_PEER_COPY;
                    assertEquals(2, protocol.rendezvousSent(expected), "sends by path " + expected + " under " + mode);
                }
            }
            else
            {
                world.recv(data, 0, 1, strided, 0, 1);
                for (int i = 0; i < data.length; i++)
                {
                    assertEquals(i % 2 == 0 ? i + 0.5 : 0, data[i], "strided element " + i);
                }
                final double[] whole = new double[2 * COUNT];
                world.recv(whole, 0, whole.length, Datatype.DOUBLE, 0, 2);
                for (int i = 0; i < whole.length; i++)
                {
                    assertEquals(i + 0.5, whole[i], "contiguous element " + i);
                }
                final String stats = protocol.engine().call(() -> protocol.pathStats(1));
                assertTrue(stats.contains("jmpi.pvas.mode=" + mode), stats);
            }
        });
    }

    @Test
    void shouldFollowACommunicatorsModeAndFragmentHints()
    {
        // The job copies directly; a communicator with the staged hint and a 4 KiB fragment stages its messages in 4 KiB
        // fragments, the world still copies directly; once that communicator is freed its context carries no hint.
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.pvas.mode", "direct", "jmpi.eager.limit", "0"), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final boolean peerMemory = protocol.transportName(1 - world.rank()).equals("jvm") && protocol.hasPeerMemory(1 - world.rank());
            final org.jmpi.Comm staged = world.dup();
            staged.setInfo(new org.jmpi.Info().set("jmpi.pvas.mode", "staged").set("jmpi.fragment.size", "4k"));
            final org.jmpi.Comm copy = staged.dup();
            assertEquals("staged", copy.getInfo().get("jmpi.pvas.mode"), "dup keeps the hints");
            final double[] data = new double[COUNT];
            // The dups' own messages (eager limit 0: rendezvous too) are not counted.
            final long peerCopies = protocol.rendezvousSent(FrameDescriptor.PATH_PEER_COPY);
            final long fragmented = protocol.rendezvousSent(FrameDescriptor.PATH_FRAGMENTS);
            if (world.rank() == 0)
            {
                for (int i = 0; i < data.length; i++)
                {
                    data[i] = i + 0.75;
                }
                world.send(data, 0, data.length, Datatype.DOUBLE, 1, 1);
                staged.send(data, 0, data.length, Datatype.DOUBLE, 1, 2);
                copy.send(data, 0, data.length, Datatype.DOUBLE, 1, 3);
                if (peerMemory)
                {
                    assertEquals(1, protocol.rendezvousSent(FrameDescriptor.PATH_PEER_COPY) - peerCopies, "the world's send");
                    assertEquals(2, protocol.rendezvousSent(FrameDescriptor.PATH_FRAGMENTS) - fragmented, "the hinted communicators' sends");
                    final String stats = protocol.engine().call(() -> protocol.pathStats(0));
                    assertTrue(stats.contains(" mode=2 "), stats);
                }
            }
            else
            {
                for (int tag = 1; tag <= 3; tag++)
                {
                    final double[] in = new double[COUNT];
                    (tag == 1 ? world : tag == 2 ? staged : copy).recv(in, 0, in.length, Datatype.DOUBLE, 0, tag);
                    assertArrayEquals(java.util.stream.IntStream.range(0, COUNT).mapToDouble(i -> i + 0.75).toArray(), in, "tag " + tag);
                }
            }
            final MpiException bad = assertThrows(MpiException.class,
                () -> staged.setInfo(new org.jmpi.Info().set("jmpi.pvas.mode", "fast")));
            assertEquals(ErrorClass.ERR_ARG, bad.errorClass());
            assertThrows(MpiException.class, () -> staged.setInfo(new org.jmpi.Info().set("jmpi.fragment.size", "-4")));
            copy.free();
            staged.free();
            // A new communicator (possibly on a freed context id) copies directly again.
            final org.jmpi.Comm plain = world.dup();
            final long fragmentedBefore = protocol.rendezvousSent(FrameDescriptor.PATH_FRAGMENTS);
            if (world.rank() == 0)
            {
                plain.send(data, 0, data.length, Datatype.DOUBLE, 1, 4);
                if (peerMemory)
                {
                    assertEquals(fragmentedBefore, protocol.rendezvousSent(FrameDescriptor.PATH_FRAGMENTS), "after the free");
                }
            }
            else
            {
                plain.recv(data, 0, data.length, Datatype.DOUBLE, 0, 4);
            }
            plain.free();
        });
    }

    @Test
    void shouldStageScatteredLayoutsAndCopyContiguousOnesDirectlyWhenTheModelSaysSo() throws Exception
    {
        // Runs free, bytes dear, fragments nearly free: strided-to-strided (whose direct copy passes its bytes twice)
        // is staged, contiguous-to-contiguous (one pass, no fragments) stays direct.
        final Datatype strided = Datatype.vector(COUNT, 1, 2, Datatype.DOUBLE).commit();
        Ranks.run(2, ThreadLevel.SINGLE, autoWith(new CopyCostModel(0.1, 100, 0, 1, "test")), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final double[] out = new double[2 * COUNT];
            for (int i = 0; i < out.length; i++)
            {
                out[i] = -i;
            }
            if (world.rank() == 0)
            {
                world.send(out, 0, 1, strided, 1, 1);
                world.send(out, 0, out.length, Datatype.DOUBLE, 1, 2);
                // The exposure of the staged message was withdrawn on the CTS: a third message reuses the buffer.
                world.send(out, 0, 1, strided, 1, 3);
            }
            else
            {
                final double[] in = new double[2 * COUNT];
                world.recv(in, 0, 1, strided, 0, 1);
                final double[] whole = new double[2 * COUNT];
                world.recv(whole, 0, whole.length, Datatype.DOUBLE, 0, 2);
                assertArrayEquals(out, whole);
                final double[] again = new double[2 * COUNT];
                world.recv(again, 0, 1, strided, 0, 3);
                for (int i = 0; i < in.length; i++)
                {
                    assertEquals(i % 2 == 0 ? -i : 0, in[i], "strided element " + i);
                    assertEquals(in[i], again[i], "second strided message, element " + i);
                }
                if (protocol.transportName(0).equals("jvm") && protocol.hasPeerMemory(0))
                {
                    final String stats = protocol.engine().call(() -> protocol.pathStats(1));
                    assertTrue(stats.contains("staged[model=2 "), stats);
                    assertTrue(stats.contains("direct[peer-copy=1 "), stats);
                    assertTrue(stats.contains("model perByte=0.1000 ns"), stats);
                }
            }
        });
    }

    @Test
    void shouldCutStagedFragmentsToWhatTheTransportCarriesAtFullSpeed() throws Exception
    {
        // Per fragment 300 ns, bytes dear: a strided 32 KiB message is staged, best in 8 KiB fragments (4 of them), which
        // between threads do not fit the pair's 64 KiB ring (records up to 8 KiB, header included); the largest that
        // does, 8 KiB less the DATA header, is chosen instead of 4 KiB.
        final Datatype strided = Datatype.vector(COUNT, 1, 2, Datatype.DOUBLE).commit();
        Ranks.run(2, ThreadLevel.SINGLE, autoWith(new CopyCostModel(0.1, 100, 0, 300, "test")), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final double[] data = new double[2 * COUNT];
            if (world.rank() == 0)
            {
                for (int i = 0; i < data.length; i++)
                {
                    data[i] = i + 0.25;
                }
                world.send(data, 0, 1, strided, 1, 1);
                world.recv(new double[1], 0, 1, Datatype.DOUBLE, 1, 2);
                if (protocol.transportName(1).equals("jvm") && protocol.hasPeerMemory(1))
                {
                    final String stats = protocol.engine().call(() -> protocol.pathStats(0));
                    assertTrue(stats.contains("mean fragment chosen " + (64 * 1024 / 8 - FrameDescriptor.DATA_HEADER_LENGTH) + " B"), stats);
                }
            }
            else
            {
                world.recv(data, 0, 1, strided, 0, 1);
                for (int i = 0; i < data.length; i++)
                {
                    assertEquals(i % 2 == 0 ? i + 0.25 : 0, data[i], "strided element " + i);
                }
                world.send(new double[1], 0, 1, Datatype.DOUBLE, 0, 2);
            }
        });
    }

    @Test
    void shouldPackAFinelyScatteredSendAtSendAndReuseItsStagingBuffer() throws Exception
    {
        // Fragments dear, runs cheap: a strided send (8-byte runs) packs at send; the receiver unpacks from the staging
        // buffer into a strided and into a contiguous layout; a longer message grows the staging buffer.
        final Datatype strided = Datatype.vector(COUNT, 1, 2, Datatype.DOUBLE).commit();
        final Datatype longer = Datatype.vector(2 * COUNT, 1, 2, Datatype.DOUBLE).commit();
        Ranks.run(2, ThreadLevel.SINGLE, autoWith(new CopyCostModel(0.01, 10, 0.5, 100_000, "test")), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final double[] out = new double[4 * COUNT];
            for (int i = 0; i < out.length; i++)
            {
                out[i] = i + 0.25;
            }
            if (world.rank() == 0)
            {
                world.send(out, 0, 1, strided, 1, 1);
                world.send(out, 1, 1, strided, 1, 2);
                world.send(out, 0, 1, longer, 1, 3);
                if (protocol.transportName(1).equals("jvm") && protocol.hasPeerMemory(1))
                {
                    final String stats = protocol.engine().call(() -> protocol.pathStats(0));
                    assertTrue(stats.contains("(packed at send 3)"), stats);
                }
            }
            else
            {
                final double[] in = new double[2 * COUNT];
                world.recv(in, 0, 1, strided, 0, 1);
                for (int i = 0; i < in.length; i++)
                {
                    assertEquals(i % 2 == 0 ? i + 0.25 : 0, in[i], "strided element " + i);
                }
                final double[] packed = new double[COUNT];
                world.recv(packed, 0, COUNT, Datatype.DOUBLE, 0, 2);
                for (int i = 0; i < COUNT; i++)
                {
                    assertEquals(2 * i + 1.25, packed[i], "contiguous element " + i);
                }
                final double[] big = new double[4 * COUNT];
                world.recv(big, 0, 1, longer, 0, 3);
                for (int i = 0; i < big.length; i++)
                {
                    assertEquals(i % 2 == 0 ? i + 0.25 : 0, big[i], "longer message, element " + i);
                }
            }
        });
    }

    @Test
    void shouldOverruleTheModelWhenTheOnLineCheckFindsItsPathSlow() throws Exception
    {
        // The model is told that reading short runs from the peer costs 1 µs each and fragments nothing, so it stages a
        // strided message; the communicator's fragment hint makes the staged path artificially slow (64-byte
        // fragments: 4,096 of them per message). The on-line check times both on the first messages of the repeated
        // message and ends on the direct copy, with the bytes right throughout.
        final int doubles = 32 * 1024;
        final int messages = 30;
        final Datatype strided = Datatype.vector(doubles, 1, 2, Datatype.DOUBLE).commit();
        final Map<String, String> params = new java.util.HashMap<>(autoWith(new CopyCostModel(0.01, 7, 0.3, 0, 1000, "test")));
        params.put("jmpi.pvas.online.delay", "4");
        Ranks.run(2, ThreadLevel.SINGLE, params, (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final org.jmpi.Comm comm = world.dup();
            comm.setInfo(new org.jmpi.Info().set("jmpi.fragment.size", "64"));
            final double[] data = new double[2 * doubles];
            for (int m = 0; m < messages; m++)
            {
                if (world.rank() == 0)
                {
                    for (int i = 0; i < data.length; i++)
                    {
                        data[i] = m * 1e6 + i;
                    }
                    comm.send(data, 0, 1, strided, 1, 7);
                }
                else
                {
                    java.util.Arrays.fill(data, -1);
                    comm.recv(data, 0, 1, strided, 0, 7);
                    // The check's samples are periods between messages, so they include this loop: it compares only and
                    // builds its message only at a mismatch (a string per element took 0.5-38 ms per message, by JIT
                    // state and load, against the paths' difference, and under load the direct copy lost the round).
                    for (int i = 0; i < data.length; i++)
                    {
                        final double expected = i % 2 == 0 ? m * 1e6 + i : -1;
                        if (data[i] != expected)
                        {
                            assertEquals(expected, data[i], "message " + m + ", element " + i);
                        }
                    }
                }
            }
            if (world.rank() == 1 && protocol.transportName(0).equals("jvm") && protocol.hasPeerMemory(0))
            {
                final String stats = protocol.engine().call(() -> protocol.pathStats(1));
                assertTrue(stats.contains("changes=1 model overruled=1 last key's path=direct"), stats);
                // The model's path for the first 4 messages, then its turns: the default 4 samples of 2 messages each.
                assertTrue(stats.contains("staged[model=" + (4 + 4 * PathTrials.HOLD) + " "), stats);
            }
            comm.free();
        });
    }

    @Test
    void shouldRejectAnUnknownModeNamingIt()
    {
        final MpiException ex = assertThrows(MpiException.class, () -> PathSelector.Mode.parse("fast"));
        assertEquals(ErrorClass.ERR_ARG, ex.errorClass());
        assertTrue(ex.getMessage().contains("jmpi.pvas.mode") && ex.getMessage().contains("fast"), ex.getMessage());
    }

    @Test
    void shouldNameAMissingCalibrationFile()
    {
        final PathSelector selector = new PathSelector(32768);
        final MpiException ex = assertThrows(MpiException.class,
            () -> selector.configure("auto", dir.resolve("none.properties").toString(), true));
        assertEquals(ErrorClass.ERR_ARG, ex.errorClass());
        assertTrue(ex.getMessage().contains("none.properties"), ex.getMessage());
    }
}
