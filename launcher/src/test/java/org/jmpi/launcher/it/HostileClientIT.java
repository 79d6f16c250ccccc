package org.jmpi.launcher.it;

import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.BootstrapMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile clients against the bootstrap of a live 4-rank job started by bin/jmpirun (issue 20): hundreds
 * of connections announcing the largest frame and trickling, trickling HELLOs, garbage, wrong proofs,
 * a rank out of range, the ticket a rank's child inherited, then file-descriptor exhaustion of the
 * launcher under a limit lowered with prlimit(1). Meanwhile the launcher's threads, resident memory and
 * heap are sampled; afterwards the job must exchange values, open a fresh authenticated connection,
 * and abort with its code. Figures go to target/it-logs/hostile.figures.
 */
@Timeout(150)
class HostileClientIT
{
    private static final long HANDSHAKE_TIMEOUT_MS = 2_000;
    private static final int MAX_UNAUTHENTICATED = 64;
    private static final long LOG_INTERVAL_MS = 1_000;
    private static final long CLOSE_SLACK_MS = 2_500;
    private static final byte[] REFUSED_FRAME = BootstrapMessage.failure(STATUS_AUTH_FAILED, REFUSED).encode();
    private static final Pattern READY = Pattern.compile("ready bootstrap=([0-9.]+):(\\d+) job=(\\S+) launcher=(\\d+)");

    private final ExecutorService attackers = Executors.newVirtualThreadPerTaskExecutor();
    private final Random random = new Random(20);

    /** How one hostile connection ended. */
    private record Outcome(String kind, boolean connected, byte[] answer, long closedAfterMs)
    {
    }

    @AfterEach
    void noStragglers()
    {
        attackers.shutdownNow();
        assertEquals(0, Jmpirun.killStragglers(), "processes left behind");
    }

    @Test
    void shouldKeepServingTheJobThroughHostileClientsAndFdExhaustion() throws Exception
    {
        Files.createDirectories(Jmpirun.LOG_DIR);
        final Path go = Jmpirun.LOG_DIR.resolve("hostile.go");
        final Path stdoutFile = Jmpirun.LOG_DIR.resolve("hostile.out");
        final Path stderrFile = Jmpirun.LOG_DIR.resolve("hostile.err");
        Files.deleteIfExists(go);
        final ProcessBuilder builder = new ProcessBuilder(Jmpirun.SCRIPT.toString(), "-np", "4",
            "--param", "bootstrap.handshake.timeout=" + HANDSHAKE_TIMEOUT_MS,
            "--param", "bootstrap.unauthenticated.max=" + MAX_UNAUTHENTICATED,
            "--param", "bootstrap.log.interval=" + LOG_INTERVAL_MS,
            "-cp", Jmpirun.TEST_CLASSES, "org.jmpi.launcher.it.HostileTargetProgram", go.toString())
            .redirectOutput(stdoutFile.toFile())
            .redirectError(stderrFile.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        // A heap the old server filled with 8 announced frames: memory that grows per connection shows as OOM.
        builder.environment().put("JMPIRUN_JAVA_OPTS", "-Xmx128m");
        final long startNs = System.nanoTime();
        final Process jmpirun = builder.start();
        final Matcher ready = awaitLine(stdoutFile, READY, jmpirun);
        final InetSocketAddress address = new InetSocketAddress(ready.group(1), Integer.parseInt(ready.group(2)));
        final String jobId = ready.group(3);
        final long launcherPid = Long.parseLong(ready.group(4));
        final Matcher child = awaitLine(stdoutFile, Pattern.compile("child-ticket=([0-9a-f]*)"), jmpirun);
        final byte[] childTicket = HexFormat.of().parseHex(child.group(1));

        final LauncherProbe.Sample baseline = LauncherProbe.sample(launcherPid, true);
        final LauncherProbe.Sampler sampler = LauncherProbe.Sampler.start(launcherPid);

        // Phase 1a: 300 connections at once announcing the largest frame, then trickling: refused on the
        // length field, or closed at accept while the cap is full.
        final List<Future<Outcome>> flood = new ArrayList<>();
        for (int i = 0; i < 300; i++)
        {
            flood.add(attack("large-frame", address, (socket, nonce) -> announceLargeFrameAndTrickle(socket)));
        }
        final List<Outcome> flooded = new ArrayList<>(await(flood));
        // Phase 1b: 100 trickled HELLOs at once, more than the cap: the first 64 held until the deadline, the
        // rest closed at accept.
        flood.clear();
        for (int i = 0; i < 100; i++)
        {
            flood.add(attack("trickled-hello", address, (socket, nonce) -> trickleHello(socket, jobId, nonce)));
        }
        Thread.sleep(1_000);
        final LauncherProbe.Sample midAttack = LauncherProbe.sample(launcherPid, true);
        flooded.addAll(await(flood));
        // Phase 1c: well-formed but wrong HELLOs and garbage, in batches below the cap, each answered at once.
        final List<Attack> wrongs = new ArrayList<>();
        final List<String> kinds = new ArrayList<>();
        for (int i = 0; i < 50; i++)
        {
            final byte[] garbage = new byte[200];
            random.nextBytes(garbage);
            kinds.add("garbage");
            wrongs.add((socket, nonce) -> send(socket, garbage));
        }
        for (int i = 0; i < 50; i++)
        {
            final int rank = i % 4;
            kinds.add("wrong-proof");
            wrongs.add((socket, nonce) -> hello(socket, nonce, jobId, rank, BootstrapAuth.newSecret()));
        }
        for (int i = 0; i < 20; i++)
        {
            kinds.add("rank-99");
            wrongs.add((socket, nonce) -> hello(socket, nonce, jobId, 99, BootstrapAuth.newSecret()));
        }
        kinds.add("child-ticket");
        wrongs.add((socket, nonce) -> hello(socket, nonce, jobId, 1, childTicket));
        final List<Outcome> answered = new ArrayList<>();
        for (int from = 0; from < wrongs.size(); from += MAX_UNAUTHENTICATED / 2)
        {
            final List<Future<Outcome>> batch = new ArrayList<>();
            for (int i = from; i < Math.min(wrongs.size(), from + MAX_UNAUTHENTICATED / 2); i++)
            {
                batch.add(attack(kinds.get(i), address, wrongs.get(i)));
            }
            answered.addAll(await(batch));
        }
        final List<Outcome> finished = new ArrayList<>(flooded);
        finished.addAll(answered);

        // Phase 2: exhaust the launcher's file descriptors with connections that send nothing.
        final int openFds = LauncherProbe.openFds(launcherPid);
        final int lowered = openFds + 24;
        LauncherProbe.lowerFdLimit(launcherPid, lowered);
        final List<Socket> holders = new ArrayList<>();
        final AtomicInteger holderConnectFailures = new AtomicInteger();
        final List<Future<Socket>> pending = new ArrayList<>();
        for (int i = 0; i < 200; i++)
        {
            pending.add(attackers.submit(() ->
            {
                final Socket socket = new Socket();
                try
                {
                    socket.connect(address, 2_000);
                    return socket;
                }
                catch (final IOException ex)
                {
                    holderConnectFailures.incrementAndGet();
                    socket.close();
                    return null;
                }
            }));
        }
        for (final Future<Socket> socket : pending)
        {
            final Socket held = socket.get(30, TimeUnit.SECONDS);
            if (held != null)
            {
                holders.add(held);
            }
        }
        final LauncherProbe.Sample exhausted = LauncherProbe.sample(launcherPid, true);
        Thread.sleep(HANDSHAKE_TIMEOUT_MS + 500);
        for (final Socket holder : holders)
        {
            holder.close();
        }
        final LauncherProbe.Sample maxDuringAttack = sampler.stop();

        // Phase 3: the job goes on, with the lowered limit still in force.
        Files.writeString(go, "go");
        assertTrue(jmpirun.waitFor(60, TimeUnit.SECONDS), "jmpirun did not end after the attack");
        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        final String stdout = Files.readString(stdoutFile);
        final String stderr = Files.readString(stderrFile);
        final String context = "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;

        final String figures = "baseline: " + baseline + "\nmid-attack: " + midAttack + "\nmax during attack: " + maxDuringAttack +
            "\nfd exhaustion (limit " + lowered + ", " + holders.size() + " holders connected, " + holderConnectFailures.get() +
            " connects failed): " + exhausted + "\noutcomes: " + summarize(finished) + "\n";
        Files.writeString(Jmpirun.LOG_DIR.resolve("hostile.figures"), figures);
        System.out.println(figures);

        assertEquals(7, jmpirun.exitValue(), context);
        assertTrue(stderr.contains("jmpirun: rank 1 called abort with code 7: after the attack"), context);
        for (int rank = 0; rank < 4; rank++)
        {
            assertTrue(stdout.contains("rank " + rank + " got [hello from 0][hello from 1][hello from 2][hello from 3]"), context);
            assertTrue(stdout.contains("rank " + rank + " fresh connection ok"), context);
        }
        assertFalse(stderr.contains("OutOfMemoryError"), context);
        assertTrue(stderr.contains("Too many open files"), "the fd limit was never hit" + context);

        // Rate-limited reports: some, with counts and the peer, never more than one per interval (plus the flush at close).
        final List<String> reports = stderr.lines().filter(line -> line.startsWith("jmpirun: bootstrap: ")).toList();
        assertFalse(reports.isEmpty(), context);
        assertTrue(reports.stream().anyMatch(line -> line.contains("refused") && line.contains("127.0.0.1")), context);
        assertTrue(reports.stream().anyMatch(line -> line.contains("timed out")), context);
        assertTrue(reports.size() <= elapsedMs / LOG_INTERVAL_MS + 2, reports.size() + " reports in " + elapsedMs + " ms" + context);

        // Every hostile connection was closed by the launcher within the handshake deadline (plus slack),
        // and every answer it got was exactly "refused" or nothing.
        for (final Outcome outcome : finished)
        {
            if (outcome.connected)
            {
                assertTrue(outcome.closedAfterMs <= HANDSHAKE_TIMEOUT_MS + CLOSE_SLACK_MS, outcome.kind + " held " + outcome.closedAfterMs + " ms");
                assertTrue(outcome.answer.length == 0 || java.util.Arrays.equals(REFUSED_FRAME, outcome.answer),
                    outcome.kind + " answered " + HexFormat.of().formatHex(outcome.answer));
            }
        }
        for (final Outcome outcome : answered)
        {
            assertTrue(outcome.connected && java.util.Arrays.equals(REFUSED_FRAME, outcome.answer),
                outcome.kind + " was not answered 'refused': " + summarize(answered));
        }
        assertTrue(flooded.stream().anyMatch(o -> o.kind.equals("large-frame") && java.util.Arrays.equals(REFUSED_FRAME, o.answer)),
            "no announced large frame was refused: " + summarize(flooded));
        assertTrue(flooded.stream().anyMatch(o -> o.kind.equals("trickled-hello") && o.closedAfterMs >= HANDSHAKE_TIMEOUT_MS - 100),
            "no trickled HELLO was held until the deadline: " + summarize(flooded));
        assertTrue(flooded.stream().anyMatch(o -> o.kind.equals("trickled-hello") && o.closedAfterMs < HANDSHAKE_TIMEOUT_MS / 2 && o.answer.length == 0),
            "no trickled HELLO was closed over the cap: " + summarize(flooded));

        // Bounded: the launcher's threads and heap do not grow with hostile connections.
        assertTrue(maxDuringAttack.threads() <= baseline.threads() + 6, figures);
        assertTrue(midAttack.heapUsedKb() >= 0 && midAttack.heapUsedKb() < 96 * 1024, figures);
        assertTrue(exhausted.threads() <= baseline.threads() + 6, figures);
    }

    /** Waits for a line of {@code file} matching {@code pattern} while {@code process} runs. */
    private static Matcher awaitLine(final Path file, final Pattern pattern, final Process process) throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true)
        {
            if (Files.exists(file))
            {
                for (final String line : Files.readAllLines(file))
                {
                    final Matcher matcher = pattern.matcher(line);
                    if (matcher.matches())
                    {
                        return matcher;
                    }
                }
            }
            if (!process.isAlive() || System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("no line matching " + pattern + " (jmpirun " + (process.isAlive() ? "running" : "exited " +
                    process.exitValue()) + "): " + (Files.exists(file) ? Files.readString(file) : ""));
            }
            Thread.sleep(20);
        }
    }

    private static List<Outcome> await(final List<Future<Outcome>> futures) throws Exception
    {
        final List<Outcome> outcomes = new ArrayList<>();
        for (final Future<Outcome> future : futures)
        {
            outcomes.add(future.get(30, TimeUnit.SECONDS));
        }
        return outcomes;
    }

    /** Per kind: connections, how many got "refused", the longest the launcher held one. */
    private static String summarize(final List<Outcome> outcomes)
    {
        final java.util.Map<String, long[]> byKind = new java.util.TreeMap<>();
        for (final Outcome outcome : outcomes)
        {
            final long[] figures = byKind.computeIfAbsent(outcome.kind, k -> new long[4]);
            figures[0]++;
            figures[1] += outcome.connected ? 1 : 0;
            figures[2] += java.util.Arrays.equals(REFUSED_FRAME, outcome.answer) ? 1 : 0;
            figures[3] = Math.max(figures[3], outcome.connected ? outcome.closedAfterMs : 0);
        }
        final StringBuilder text = new StringBuilder();
        byKind.forEach((kind, f) -> text.append(kind).append(": ").append(f[0]).append(" tried, ").append(f[1]).append(" connected, ")
            .append(f[2]).append(" answered refused, held at most ").append(f[3]).append(" ms; "));
        return text.toString();
    }

    // ---- attacks -------------------------------------------------------------------------------

    /** What one hostile client does once it has the server's challenge nonce. */
    @FunctionalInterface
    private interface Attack
    {
        void run(Socket socket, byte[] nonce) throws IOException, InterruptedException;
    }

    /**
     * Connects, reads the challenge, runs {@code attack} while another thread reads whatever the server
     * answers until it closes; the outcome says how long the server kept the connection.
     */
    private Future<Outcome> attack(final String kind, final InetSocketAddress address, final Attack attack)
    {
        return attackers.submit(() ->
        {
            try (Socket socket = new Socket())
            {
                try
                {
                    socket.connect(address, 3_000);
                }
                catch (final IOException ex)
                {
                    return new Outcome(kind, false, new byte[0], 0);
                }
                final long connectedNs = System.nanoTime();
                socket.setSoTimeout((int)(HANDSHAKE_TIMEOUT_MS + 2 * CLOSE_SLACK_MS));
                final BootstrapMessage challenge;
                try
                {
                    challenge = BootstrapMessage.readFrom(new DataInputStream(socket.getInputStream()), MAX_HANDSHAKE_FRAME_LENGTH);
                }
                catch (final SocketTimeoutException ex)
                {
                    return new Outcome(kind, true, new byte[0], Long.MAX_VALUE);
                }
                catch (final IOException ex)
                {
                    return new Outcome(kind, true, new byte[0], sinceMs(connectedNs));
                }
                if (challenge == null)
                {
                    // Closed at accept: over the cap.
                    return new Outcome(kind, true, new byte[0], sinceMs(connectedNs));
                }
                final AtomicLong closedNs = new AtomicLong();
                final Future<byte[]> reader = attackers.submit(() -> readUntilClosed(socket, closedNs));
                try
                {
                    attack.run(socket, challenge.value());
                }
                catch (final IOException ex)
                {
                    // The launcher closed the connection while we were sending: what it should do.
                }
                final byte[] answer = reader.get(HANDSHAKE_TIMEOUT_MS + 3 * CLOSE_SLACK_MS, TimeUnit.MILLISECONDS);
                return new Outcome(kind, true, answer,
                    closedNs.get() == 0 ? Long.MAX_VALUE : TimeUnit.NANOSECONDS.toMillis(closedNs.get() - connectedNs));
            }
        });
    }

    /** Everything the server sends until it closes (a reset counts as closing); sets {@code closedNs} then. */
    private static byte[] readUntilClosed(final Socket socket, final AtomicLong closedNs)
    {
        final ByteArrayOutputStream answer = new ByteArrayOutputStream();
        try
        {
            final InputStream in = socket.getInputStream();
            final byte[] buffer = new byte[256];
            int read;
            while ((read = in.read(buffer)) >= 0)
            {
                answer.write(buffer, 0, read);
            }
            closedNs.set(System.nanoTime());
        }
        catch (final SocketTimeoutException ex)
        {
            // Still open after the deadline and the slack: closedNs stays 0 and the test fails on it.
        }
        catch (final IOException ex)
        {
            closedNs.set(System.nanoTime());
        }
        return answer.toByteArray();
    }

    private static long sinceMs(final long startNs)
    {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
    }

    private static void announceLargeFrameAndTrickle(final Socket socket) throws IOException, InterruptedException
    {
        final OutputStream out = socket.getOutputStream();
        out.write(ByteBuffer.allocate(4).order(BYTE_ORDER).putInt(0, MAX_FRAME_LENGTH).array());
        out.flush();
        trickle(out, new byte[64]);
    }

    private static void trickleHello(final Socket socket, final String jobId, final byte[] nonce) throws IOException, InterruptedException
    {
        final byte[] hello = BootstrapMessage.request(TYPE_HELLO, 0, CREDENTIAL_TICKET, 0, jobId,
            BootstrapAuth.proof(BootstrapAuth.newSecret(), nonce, jobId, 0)).encode();
        trickle(socket.getOutputStream(), hello);
    }

    /** One byte every 250 ms (each read is quick; the whole takes longer than the handshake deadline). */
    private static void trickle(final OutputStream out, final byte[] bytes) throws IOException, InterruptedException
    {
        for (final byte b : bytes)
        {
            out.write(b);
            out.flush();
            Thread.sleep(250);
        }
    }

    private static void send(final Socket socket, final byte[] bytes) throws IOException
    {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** A well-formed HELLO proving {@code credential} over the server's real nonce. */
    private static void hello(final Socket socket, final byte[] nonce, final String jobId, final int rank, final byte[] credential)
        throws IOException
    {
        send(socket, BootstrapMessage.request(TYPE_HELLO, rank, CREDENTIAL_TICKET, 0, jobId,
            BootstrapAuth.proof(credential, nonce, jobId, rank)).encode());
    }
}
