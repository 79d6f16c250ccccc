package org.jmpi.testkit.transport;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The contract every transport passes: ranks run as threads of one {@link LocalJob}, each opens the
 * transport under test through its provider, and frames go between them. A transport's test is a
 * subclass that says how to make its provider and each rank's context:
 *
 * <pre>{@code
 * class ShmTransportContractTest extends TransportContractTest {
 *     protected TransportProvider provider() { return new ShmTransportProvider(); }
 *     protected TransportContext context(LocalJob job, int rank) { return JobTransportContext.separateJvms(job, rank); }
 *     protected Map<String, String> params(Path scratchDir) { return Map.of("jmpi.shm.dir", scratchDir.toString()); }
 * }
 * }</pre>
 *
 * <p>What is checked: per-pair FIFO order under load (many senders to one receiver, and all to all);
 * frames of every size from 1 byte to the maximum with their content (every size up to 40 KiB,
 * sampled above); back-pressure (a sender whose receiver never drains eventually sees {@code false}
 * without its writer being called, and after draining every frame arrives exactly once, in order); a
 * writer that throws sends nothing; {@code progress} returns 0 when idle; {@code reaches}; and that no
 * file is left in the scratch directory once every rank has closed. Traffic starts after a bootstrap
 * fence that follows every rank's {@code open}, as in the runtime's init. Contents come from {@link FramePattern} (seed printed).
 *
 * <p>Threading: each rank's body runs on its rank thread and uses only its own transport.
 */
public abstract class TransportContractTest
{
    private static final long JOB_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(90);
    private static final long WAIT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final int FRAMES_PER_PAIR = 20_000;
    private static final int ALL_TO_ALL_FRAMES_PER_PAIR = 5_000;
    /**
     * Every size up to this is sent (it covers a 32 KiB rendezvous fragment with its header); beyond it
     * sizes are sampled, since sending every size costs the square of the maximum.
     */
    private static final int EVERY_SIZE_LIMIT = 40 * 1024;
    /** The ordering and load tests draw their largest frames up to this (or the maximum, if smaller). */
    private static final int LOAD_FRAME_LIMIT = 64 * 1024;
    private static final int SAMPLED_SIZES = 1024;
    /** Consecutive refused offers after which a sender is taken to be back-pressured for good. */
    private static final int REFUSALS_FOR_BACK_PRESSURE = 1_000;
    private static final long MAX_OFFERS_BEFORE_BACK_PRESSURE = 50_000_000L;
    /** Bytes a sender may get accepted by a receiver that never drains before the transport is judged unbounded. */
    private static final long MAX_BYTES_BEFORE_BACK_PRESSURE = 256L << 20;
    private static final int IDLE_PROGRESS_CALLS = 1_000;
    /** Consecutive idle polls taken to mean that a transport's own staged output is drained. */
    private static final int QUIET_CALLS_TO_DRAIN = 200;
    /** Sequenced frames: sequence, sender rank, then pattern bytes. */
    private static final int SEQUENCE_OFFSET = 0;
    private static final int SENDER_OFFSET = SEQUENCE_OFFSET + Integer.BYTES;
    private static final int SEQUENCED_HEADER_LENGTH = SENDER_OFFSET + Integer.BYTES;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    /** A fresh directory per test; {@link #params(Path)} may point the transport's files there. */
    @TempDir
    protected Path scratchDir;

    /** The provider under test. */
    protected abstract TransportProvider provider();

    /** The context rank {@code rank} of {@code job} opens the transport with (see {@link JobTransportContext}). */
    protected abstract TransportContext context(LocalJob job, int rank);

    /** Explicit parameters of every job; a transport that creates files points them into {@code scratchDir}. */
    protected Map<String, String> params(final Path scratchDir)
    {
        return Map.of();
    }

    /** Whether the transport reaches its own rank. */
    protected boolean reachesSelf()
    {
        return false;
    }

    @BeforeAll
    static void printSeed()
    {
        System.out.println("TransportContractTest: FramePattern.SEED=0x" + Long.toHexString(FramePattern.SEED));
    }

    /** What one rank does with its open transport. */
    @FunctionalInterface
    protected interface RankBody
    {
        void run(RankEnv env) throws Exception;
    }

    /** One rank's view: its context and open transport, plus waiting helpers that fail instead of hanging. */
    protected static final class RankEnv
    {
        private static final FrameHandler UNEXPECTED = (src, buffer, index, length) ->
            fail("unexpected frame: source=" + src + ", length=" + length);

        private final LocalJob job;
        private final TransportContext context;
        private final Transport transport;
        private final long deadlineNs;

        RankEnv(final LocalJob job, final TransportContext context, final Transport transport)
        {
            this.job = job;
            this.context = context;
            this.transport = transport;
            this.deadlineNs = System.nanoTime() + WAIT_TIMEOUT_NS;
        }

        public int rank()
        {
            return context.rank();
        }

        public int size()
        {
            return context.size();
        }

        public TransportContext context()
        {
            return context;
        }

        public Transport transport()
        {
            return transport;
        }

        public int maxFrameLength()
        {
            return transport.maxFrameLength();
        }

        /** Fails when the job was aborted (another rank failed) or this rank waited too long. */
        public void check(final String waitingFor)
        {
            job.checkAborted();
            if (System.nanoTime() - deadlineNs > 0)
            {
                fail("rank " + rank() + " timed out waiting for " + waitingFor);
            }
        }

        /** Offers until accepted, draining inbound frames into {@code handler} meanwhile. */
        public void send(final int dstRank, final int lengthBytes, final FrameWriter writer, final FrameHandler handler)
        {
            while (!transport.offer(dstRank, lengthBytes, writer))
            {
                if (transport.progress(handler) == 0)
                {
                    check("room to send to rank " + dstRank);
                    Thread.yield();
                }
            }
        }

        /** Calls progress until {@code done} says so. */
        public void progressUntil(final FrameHandler handler, final java.util.function.BooleanSupplier done, final String what)
        {
            while (!done.getAsBoolean())
            {
                if (transport.progress(handler) == 0)
                {
                    check(what);
                    Thread.yield();
                }
            }
        }

        /**
         * Publishes {@code key} for this rank and polls until every rank has published it: frames this rank still
         * has staged for a slower peer go out meanwhile, so a later {@link #assertIdle} sees no late flush.
         */
        public void allReached(final String key)
        {
            context.bootstrap().put(key + "." + context.rank(), new byte[] {1});
            final long deadline = System.nanoTime() + WAIT_TIMEOUT_NS;
            for (int r = 0; r < context.size(); r++)
            {
                awaitKey(context, transport, key + "." + r, deadline);
            }
        }

        /**
         * Asserts that {@code progress} finds nothing to do, many times over, once this rank's own output is
         * drained: a transport that stages frames (a socket's send buffer) may still be writing them for peers
         * that are behind, and reports that as work, for a bounded time; it must never deliver a frame here.
         */
        public void assertIdle()
        {
            final long drainDeadline = System.nanoTime() + WAIT_TIMEOUT_NS;
            for (int quiet = 0; quiet < QUIET_CALLS_TO_DRAIN; )
            {
                quiet = transport.progress(UNEXPECTED) == 0 ? quiet + 1 : 0;
                assertTrue(System.nanoTime() < drainDeadline, "rank " + context.rank() + ": progress never became idle");
                Thread.yield();
            }
            for (int i = 0; i < IDLE_PROGRESS_CALLS; i++)
            {
                assertEquals(0, transport.progress(UNEXPECTED), "progress of an idle transport must return 0");
            }
        }

        public void put(final String key, final long value)
        {
            context.bootstrap().put(key, Long.toString(value).getBytes(StandardCharsets.UTF_8));
        }

        public long get(final String key)
        {
            return Long.parseLong(new String(context.bootstrap().get(key, WAIT_TIMEOUT_NS), StandardCharsets.UTF_8));
        }

        /**
         * As {@link #get}, polling this rank's transport meanwhile: a sender waits like this, since a transport
         * may need its sender's progress to push frames it accepted (a socket's staged bytes), as MPI's
         * progress rule allows. Any frame that arrives meanwhile fails the test.
         */
        public long getProgressing(final String key)
        {
            return Long.parseLong(new String(awaitKey(context, transport, key, deadlineNs), StandardCharsets.UTF_8));
        }
    }

    /**
     * Runs {@code body} on {@code size} ranks, each with the transport opened (and closed after a
     * fence), then checks that every rank succeeded and the scratch directory is empty.
     */
    protected final void runJob(final int size, final RankBody body)
    {
        final LocalJob job = LocalJob.create(size, params(scratchDir));
        final TransportProvider provider = provider();
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            final TransportContext context = context(job, rank);
            final String refused = provider.probe(context);
            if (refused != null)
            {
                fail("rank " + rank + ": probe refused: " + refused);
            }
            try (Transport transport = provider.open(context))
            {
                // Like the runtime's init: traffic starts once every rank has opened its transports.
                context.bootstrap().fence(WAIT_TIMEOUT_NS);
                body.run(new RankEnv(job, context, transport));
                // Every rank keeps polling until all are done, so frames a transport staged still go out.
                context.bootstrap().put("contract.done." + rank, new byte[] {1});
                final long deadline = System.nanoTime() + WAIT_TIMEOUT_NS;
                for (int r = 0; r < size; r++)
                {
                    awaitKey(context, transport, "contract.done." + r, deadline);
                }
                context.bootstrap().fence(WAIT_TIMEOUT_NS);
            }
        }, JOB_TIMEOUT_NS);

        // The rank that failed first aborted the job; the others' failures are its echo.
        LocalJob.RankOutcome cause = outcome.firstFailure();
        if (outcome.abortRank() >= 0 && !outcome.ranks().get(outcome.abortRank()).ok())
        {
            cause = outcome.ranks().get(outcome.abortRank());
        }
        if (cause != null)
        {
            throw new AssertionError("rank " + cause.rank() + (cause.timedOut() ? " timed out" : " failed") +
                " (job of " + size + " ranks, abort: " + outcome.abortMessage() + ")", cause.failure());
        }
        assertNoFilesLeft();
    }

    /** The value of {@code key}, polling {@code transport} (any frame fails the test) until it is published. */
    private static byte[] awaitKey(final TransportContext context, final Transport transport, final String key, final long deadlineNs)
    {
        while (true)
        {
            try
            {
                return context.bootstrap().get(key, TimeUnit.MILLISECONDS.toNanos(1));
            }
            catch (final org.jmpi.MpiException notYet)
            {
                assertTrue(System.nanoTime() < deadlineNs, "rank " + context.rank() + " timed out waiting for " + key);
                transport.progress(RankEnv.UNEXPECTED);
            }
        }
    }

    private void assertNoFilesLeft()
    {
        try (Stream<Path> files = Files.list(scratchDir))
        {
            final List<Path> left = files.toList();
            assertTrue(left.isEmpty(), "files left after close: " + left);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot list " + scratchDir, ex);
        }
    }

    /** Length of frame {@code sequence} from {@code src} to {@code dst}: mostly small, some up to {@link #LOAD_FRAME_LIMIT} or the maximum. */
    static int sequencedLength(final int src, final int dst, final int sequence, final int maxFrameLength)
    {
        long h = (((long)src * 1_000_003L + dst) * 0x9E37_79B9_7F4A_7C15L) ^ (sequence * 0xC2B2_AE3D_27D4_EB4FL);
        h ^= h >>> 31;
        h *= 0xBF58_476D_1CE4_E5B9L;
        h ^= h >>> 29;
        final int band = (int)Long.remainderUnsigned(h, 10);
        final long r = h >>> 8;
        final int limit;
        if (band < 6)
        {
            limit = 128;
        }
        else if (band < 8)
        {
            limit = 4096 + 64;
        }
        else
        {
            limit = LOAD_FRAME_LIMIT;
        }
        final int span = Math.max(1, Math.min(limit, maxFrameLength) - SEQUENCED_HEADER_LENGTH + 1);
        return SEQUENCED_HEADER_LENGTH + (int)Long.remainderUnsigned(r, span);
    }

    private static long key(final int src, final int dst, final int sequence)
    {
        return ((long)src << 48) ^ ((long)dst << 32) ^ sequence;
    }

    /** Writes sequenced frames from one sender to one receiver; fields set before each offer. */
    private static final class SequencedWriter implements FrameWriter
    {
        private final int src;
        private int dst;
        private int sequence;

        SequencedWriter(final int src)
        {
            this.src = src;
        }

        SequencedWriter next(final int dst, final int sequence)
        {
            this.dst = dst;
            this.sequence = sequence;
            return this;
        }

        @Override
        public void write(final MutableDirectBuffer buffer, final int index, final int lengthBytes)
        {
            buffer.putInt(index + SEQUENCE_OFFSET, sequence, ORDER);
            buffer.putInt(index + SENDER_OFFSET, src, ORDER);
            FramePattern.write(buffer, index + SEQUENCED_HEADER_LENGTH, lengthBytes - SEQUENCED_HEADER_LENGTH, key(src, dst, sequence));
        }
    }

    /** Checks sequenced frames: per sender in order, from the sender they claim, of the right length and content. */
    private static final class OrderChecker implements FrameHandler
    {
        private final int self;
        private final int maxFrameLength;
        private final int[] nextSequence;
        private final FramePattern pattern = new FramePattern();
        private long received;

        OrderChecker(final int self, final int size, final int maxFrameLength)
        {
            this.self = self;
            this.maxFrameLength = maxFrameLength;
            this.nextSequence = new int[size];
        }

        @Override
        public void onFrame(final int srcRank, final DirectBuffer buffer, final int index, final int lengthBytes)
        {
            assertTrue(lengthBytes >= SEQUENCED_HEADER_LENGTH, "frame too short: " + lengthBytes);
            final int sequence = buffer.getInt(index + SEQUENCE_OFFSET, ORDER);
            final int claimedSender = buffer.getInt(index + SENDER_OFFSET, ORDER);
            if (claimedSender != srcRank || sequence != nextSequence[srcRank])
            {
                fail("rank " + self + ": out of order or misattributed frame: source=" + srcRank + ", claimedSender=" + claimedSender +
                    ", sequence=" + sequence + ", expected=" + nextSequence[srcRank]);
            }
            assertEquals(sequencedLength(srcRank, self, sequence, maxFrameLength), lengthBytes,
                "length of frame " + sequence + " from rank " + srcRank);
            final int wrong = pattern.verify(buffer, index + SEQUENCED_HEADER_LENGTH, lengthBytes - SEQUENCED_HEADER_LENGTH, key(srcRank, self, sequence));
            if (wrong >= 0)
            {
                fail("rank " + self + ": frame " + sequence + " from rank " + srcRank + " (length " + lengthBytes + ") differs at byte " +
                    (wrong + SEQUENCED_HEADER_LENGTH));
            }
            nextSequence[srcRank]++;
            received++;
        }

        long received()
        {
            return received;
        }

        int nextSequence(final int src)
        {
            return nextSequence[src];
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5})
    @Timeout(120)
    void shouldDeliverInOfferOrderFromManySendersToOneReceiver(final int size)
    {
        runJob(size, env ->
        {
            final OrderChecker checker = new OrderChecker(env.rank(), size, env.maxFrameLength());
            if (env.rank() == 0)
            {
                final long expected = (long)(size - 1) * FRAMES_PER_PAIR;
                env.progressUntil(checker, () -> checker.received() == expected, "frames from every sender");
                for (int src = 1; src < size; src++)
                {
                    assertEquals(FRAMES_PER_PAIR, checker.nextSequence(src), "frames from rank " + src);
                }
                env.assertIdle();
            }
            else
            {
                final SequencedWriter writer = new SequencedWriter(env.rank());
                for (int sequence = 0; sequence < FRAMES_PER_PAIR; sequence++)
                {
                    env.send(0, sequencedLength(env.rank(), 0, sequence, env.maxFrameLength()), writer.next(0, sequence), checker);
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5})
    @Timeout(120)
    void shouldKeepPerPairOrderAllToAll(final int size)
    {
        runJob(size, env ->
        {
            final OrderChecker checker = new OrderChecker(env.rank(), size, env.maxFrameLength());
            final SequencedWriter writer = new SequencedWriter(env.rank());
            for (int sequence = 0; sequence < ALL_TO_ALL_FRAMES_PER_PAIR; sequence++)
            {
                for (int step = 1; step < size; step++)
                {
                    final int dst = (env.rank() + step) % size;
                    env.send(dst, sequencedLength(env.rank(), dst, sequence, env.maxFrameLength()), writer.next(dst, sequence), checker);
                }
            }
            final long expected = (long)(size - 1) * ALL_TO_ALL_FRAMES_PER_PAIR;
            env.progressUntil(checker, () -> checker.received() == expected, "frames from every rank");
            // Every rank sends here: until all have received, a rank's own frames may still be staged for a peer
            // that reads slowly, and flushing them later is work, not a non-idle transport (a tcp flake, 1 in 5 CI runs).
            env.allReached("contract.a2a.received");
            env.assertIdle();
        });
    }

    @Test
    @Timeout(120)
    void shouldDeliverFramesOfEverySizeWithTheirContent()
    {
        runJob(2, env ->
        {
            final int peer = 1 - env.rank();
            final int[] sizes = frameSizes(env.maxFrameLength());
            final FramePattern pattern = new FramePattern();
            final int[] received = {0};
            final FrameHandler checker = (src, buffer, index, length) ->
            {
                assertEquals(peer, src, "source");
                final int expected = sizes[received[0]];
                assertEquals(expected, length, "frame " + received[0] + " length");
                final int wrong = pattern.verify(buffer, index, length, expected);
                if (wrong >= 0)
                {
                    fail("frame of " + length + " bytes differs at byte " + wrong);
                }
                received[0]++;
            };
            for (final int size : sizes)
            {
                env.send(peer, size, (buffer, index, length) -> FramePattern.write(buffer, index, length, length), checker);
            }
            env.progressUntil(checker, () -> received[0] == sizes.length, "frames of every size");
            // The peer may still be receiving this rank's largest frames: a transport that stages them (a socket's
            // send buffer) flushes while the peer drains, which is work; once both have everything, nothing is left.
            env.allReached("contract.sizes.received");
            env.assertIdle();
        });
    }

    private static int[] frameSizes(final int maxFrameLength)
    {
        final int every = Math.min(maxFrameLength, EVERY_SIZE_LIMIT);
        final int sampled = maxFrameLength > every ? SAMPLED_SIZES : 0;
        final int[] sizes = new int[every + sampled];
        for (int i = 0; i < every; i++)
        {
            sizes[i] = i + 1;
        }
        for (int i = 1; i <= sampled; i++)
        {
            sizes[every + i - 1] = every + (int)((long)(maxFrameLength - every) * i / sampled);
        }
        return sizes;
    }

    @Test
    @Timeout(120)
    void shouldRefuseOffersUnderBackPressureAndDeliverEverythingOnceAfterDraining()
    {
        runJob(2, env ->
        {
            final int max = env.maxFrameLength();
            final int[] cycle = {max, 16, 1, max / 2 + 1, 100, Math.min(max, 4096), 8};
            if (env.rank() == 1)
            {
                final long[] writes = {0};
                long accepted = 0;
                long acceptedBytes = 0;
                long offers = 0;
                int refusedInARow = 0;
                while (refusedInARow < REFUSALS_FOR_BACK_PRESSURE)
                {
                    assertTrue(++offers < MAX_OFFERS_BEFORE_BACK_PRESSURE && acceptedBytes < MAX_BYTES_BEFORE_BACK_PRESSURE,
                        "no back-pressure after " + offers + " offers (" + accepted + " frames, " + acceptedBytes +
                        " bytes accepted) to a receiver that never drains");
                    final int length = cycle[(int)(accepted % cycle.length)];
                    final long key = accepted;
                    final long before = writes[0];
                    final boolean ok = env.transport().offer(0, length, (buffer, index, lengthBytes) ->
                    {
                        writes[0]++;
                        FramePattern.write(buffer, index, lengthBytes, key);
                    });
                    assertEquals(ok ? before + 1 : before, writes[0], "writer calls of an offer that returned " + ok);
                    if (ok)
                    {
                        accepted++;
                        acceptedBytes += length;
                        refusedInARow = 0;
                    }
                    else
                    {
                        refusedInARow++;
                        env.transport().progress(RankEnv.UNEXPECTED);
                    }
                }
                env.put("1.contract.accepted", accepted);
                env.getProgressing("0.contract.drained");
                for (int i = 0; i < cycle.length; i++)
                {
                    final long key = accepted + i;
                    env.send(0, cycle[(int)(key % cycle.length)],
                        (buffer, index, lengthBytes) -> FramePattern.write(buffer, index, lengthBytes, key), RankEnv.UNEXPECTED);
                }
            }
            else
            {
                final long accepted = env.get("1.contract.accepted");
                assertTrue(accepted > 0, "the sender got nothing through");
                final FramePattern pattern = new FramePattern();
                final long[] received = {0};
                final FrameHandler checker = (src, buffer, index, length) ->
                {
                    final long key = received[0];
                    assertEquals(1, src, "source");
                    assertEquals(cycle[(int)(key % cycle.length)], length, "length of frame " + key);
                    final int wrong = pattern.verify(buffer, index, length, key);
                    if (wrong >= 0)
                    {
                        fail("frame " + key + " differs at byte " + wrong);
                    }
                    received[0]++;
                };
                env.progressUntil(checker, () -> received[0] >= accepted, "the frames sent before back-pressure");
                env.assertIdle();
                assertEquals(accepted, received[0], "frames delivered after draining");
                env.put("0.contract.drained", received[0]);
                env.progressUntil(checker, () -> received[0] >= accepted + cycle.length, "the frames sent after draining");
                env.assertIdle();
                assertEquals(accepted + cycle.length, received[0], "frames delivered in all");
            }
        });
    }

    @Test
    @Timeout(60)
    void shouldSendNothingWhenTheWriterThrows()
    {
        runJob(2, env ->
        {
            final int max = env.maxFrameLength();
            final int[] lengths = {SEQUENCED_HEADER_LENGTH, max};
            final int frames = 4;
            if (env.rank() == 0)
            {
                final SequencedWriter writer = new SequencedWriter(0);
                int sequence = 0;
                for (int i = 0; i < frames; i++)
                {
                    final int length = lengths[i % lengths.length];
                    final RuntimeException failure = new IllegalStateException("writer failed on purpose");
                    final RuntimeException thrown = assertThrows(RuntimeException.class,
                        () -> env.transport().offer(1, length, (buffer, index, lengthBytes) ->
                        {
                            throw failure;
                        }));
                    assertTrue(thrown == failure || thrown.getCause() == failure, "the writer's exception must propagate: " + thrown);
                    final int expectedLength = sequencedLength(0, 1, sequence, max);
                    env.send(1, expectedLength, writer.next(1, sequence), RankEnv.UNEXPECTED);
                    sequence++;
                }
            }
            else
            {
                final OrderChecker checker = new OrderChecker(1, 2, max);
                env.progressUntil(checker, () -> checker.received() == frames, "frames sent after failed writes");
                env.assertIdle();
            }
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    @Timeout(60)
    void shouldReturnZeroFromProgressWhenIdle(final int size)
    {
        runJob(size, env ->
        {
            env.assertIdle();
            env.context().bootstrap().fence(WAIT_TIMEOUT_NS);
            final OrderChecker checker = new OrderChecker(env.rank(), size, env.maxFrameLength());
            final int dst = (env.rank() + 1) % size;
            final int src = (env.rank() + size - 1) % size;
            env.send(dst, sequencedLength(env.rank(), dst, 0, env.maxFrameLength()), new SequencedWriter(env.rank()).next(dst, 0), checker);
            env.progressUntil(checker, () -> checker.nextSequence(src) == 1, "one frame from rank " + src);
            // Every rank has its frame, so every frame left its sender: a transport that connects pairs on demand
            // posts a frame offered before its pair connected only once it is, and that is work.
            env.allReached("received");
            env.assertIdle();
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5})
    @Timeout(60)
    void shouldReachEveryPeer(final int size)
    {
        runJob(size, env ->
        {
            final Transport transport = env.transport();
            assertEquals(provider().name(), transport.name(), "name");
            assertTrue(transport.maxFrameLength() > SEQUENCED_HEADER_LENGTH, "maxFrameLength");
            for (int rank = 0; rank < size; rank++)
            {
                assertEquals(rank != env.rank() || reachesSelf(), transport.reaches(rank), "reaches(" + rank + ") on rank " + env.rank());
            }
            assertFalse(transport.reaches(-1), "reaches(-1)");
            assertFalse(transport.reaches(size), "reaches(size)");
        });
    }

    @Test
    @Timeout(60)
    void shouldLeaveNoFilesAfterClose()
    {
        runJob(3, env ->
        {
            final OrderChecker checker = new OrderChecker(env.rank(), 3, env.maxFrameLength());
            final SequencedWriter writer = new SequencedWriter(env.rank());
            for (int sequence = 0; sequence < 100; sequence++)
            {
                for (int step = 1; step < 3; step++)
                {
                    final int dst = (env.rank() + step) % 3;
                    env.send(dst, sequencedLength(env.rank(), dst, sequence, env.maxFrameLength()), writer.next(dst, sequence), checker);
                }
            }
            env.progressUntil(checker, () -> checker.received() == 200, "frames from both peers");
        });
        assertNoFilesLeft();
    }
}
