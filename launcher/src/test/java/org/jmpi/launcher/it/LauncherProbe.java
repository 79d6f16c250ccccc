package org.jmpi.launcher.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Measures a running launcher JVM from outside, as the hostile-client IT needs: threads and resident
 * memory from /proc/PID/status, open descriptors from /proc/PID/fd, heap in use from
 * {@code jcmd PID GC.heap_info} (the test JVM's own jcmd).
 *
 * <p>Threading: {@link Sampler} samples on its own thread; the rest on the caller's.
 */
final class LauncherProbe
{
    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    /** One measurement; heapUsedKb is -1 when not taken. */
    record Sample(int threads, long rssKb, long heapUsedKb)
    {
        @Override
        public String toString()
        {
            return "threads=" + threads + " rss=" + rssKb / 1024 + " MiB" + (heapUsedKb >= 0 ? " heapUsed=" + heapUsedKb / 1024 + " MiB" : "");
        }
    }

    private LauncherProbe()
    {
    }

    static Sample sample(final long pid, final boolean withHeap) throws IOException, InterruptedException
    {
        int threads = -1;
        long rssKb = -1;
        for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")))
        {
            if (line.startsWith("Threads:"))
            {
                threads = Integer.parseInt(line.substring(8).trim());
            }
            else if (line.startsWith("VmRSS:"))
            {
                rssKb = Long.parseLong(line.substring(6).replace("kB", "").trim());
            }
        }
        return new Sample(threads, rssKb, withHeap ? heapUsedKb(pid) : -1);
    }

    static int openFds(final long pid) throws IOException
    {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd")))
        {
            return (int)fds.count();
        }
    }

    /** Lowers the soft limit of open files of {@code pid} (the hard limit stays). */
    static void lowerFdLimit(final long pid, final int soft) throws IOException, InterruptedException
    {
        final Process prlimit = new ProcessBuilder("prlimit", "--pid", Long.toString(pid), "--nofile=" + soft + ":")
            .redirectErrorStream(true).start();
        final String output = new String(prlimit.getInputStream().readAllBytes());
        if (!prlimit.waitFor(10, TimeUnit.SECONDS) || prlimit.exitValue() != 0)
        {
            throw new AssertionError("prlimit failed: " + output);
        }
    }

    /** Heap in use (sum of the generations' "used"), from jcmd. */
    static long heapUsedKb(final long pid) throws IOException, InterruptedException
    {
        final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        final Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.heap_info").redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(20, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            throw new AssertionError("jcmd GC.heap_info failed: " + output);
        }
        long usedKb = 0;
        boolean found = false;
        for (final String line : output.lines().toList())
        {
            if (line.contains("Metaspace") || line.contains("class space"))
            {
                continue;
            }
            final Matcher matcher = USED.matcher(line);
            if (matcher.find())
            {
                usedKb += Long.parseLong(matcher.group(1));
                found = true;
            }
        }
        if (!found)
        {
            throw new AssertionError("no heap figure in jcmd GC.heap_info output: " + output);
        }
        return usedKb;
    }

    /** Samples threads and resident memory every 50 ms and keeps the maxima. */
    static final class Sampler
    {
        private final long pid;
        private final Thread thread;
        private volatile boolean running = true;
        private volatile int maxThreads;
        private volatile long maxRssKb;

        private Sampler(final long pid)
        {
            this.pid = pid;
            this.thread = Thread.ofPlatform().daemon().name("launcher-sampler").unstarted(this::run);
        }

        static Sampler start(final long pid)
        {
            final Sampler sampler = new Sampler(pid);
            sampler.thread.start();
            return sampler;
        }

        Sample stop() throws InterruptedException
        {
            running = false;
            thread.join();
            return max();
        }

        Sample max()
        {
            return new Sample(maxThreads, maxRssKb, -1);
        }

        private void run()
        {
            while (running)
            {
                try
                {
                    final Sample sample = sample(pid, false);
                    maxThreads = Math.max(maxThreads, sample.threads());
                    maxRssKb = Math.max(maxRssKb, sample.rssKb());
                    Thread.sleep(50);
                }
                catch (final IOException | InterruptedException ex)
                {
                    return;
                }
            }
        }
    }
}
