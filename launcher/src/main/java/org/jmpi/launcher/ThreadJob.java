package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.LocalJob;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@code --threads} job: every rank is a thread of this JVM, run by {@link LocalJob}, with the
 * application loaded by its own {@link URLClassLoader} per rank (parent: the launcher's loader, so jmpi
 * is shared and the application's statics are per rank). A rank fails by throwing from {@code main};
 * the others are then interrupted by the job and given {@link #STOP_WAIT_MS} to return before the
 * launcher gives up on them (threads cannot be killed; the launcher's exit ends them).
 *
 * <p>Threading: {@link #run} on one thread; ranks on their own threads.
 */
final class ThreadJob
{
    static final long STOP_WAIT_MS = 5_000;
    private static final long POLL_MS = 20;
    private static final long NO_LIMIT_NS = TimeUnit.DAYS.toNanos(365);

    private record Failure(int rank, Throwable cause)
    {
    }

    private final LaunchOptions options;
    private final LineSink out;
    private final LineSink err;

    ThreadJob(final LaunchOptions options, final LineSink out, final LineSink err)
    {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Runs the job and returns the launcher's exit code. */
    int run()
    {
        options.exports().forEach((name, value) ->
        {
            if (value != null)
            {
                err.println("jmpirun: warning: -x " + name + "=...: ranks run as threads of jmpirun and share its environment; not applied");
            }
        });
        if (!options.jvmArgs().isEmpty())
        {
            err.println("jmpirun: warning: --jvm-arg has no effect with --threads; pass JVM options in JMPIRUN_JAVA_OPTS");
        }
        final URL[] urls;
        try
        {
            urls = classPathUrls(options.classPath());
        }
        catch (final IOException ex)
        {
            err.println("jmpirun: bad class path: " + ex.getMessage());
            return 2;
        }
        final LocalJob job = LocalJob.create(options.rankCount(), options.params());
        final AtomicReference<Failure> firstFailure = new AtomicReference<>();
        final List<URLClassLoader> loaders = new CopyOnWriteArrayList<>();
        final ClassLoader parent = ThreadJob.class.getClassLoader();
        final String[] appArgs = options.appArgs().toArray(String[]::new);

        final PrintStream savedOut = System.out;
        final PrintStream savedErr = System.err;
        final InputStream savedIn = System.in;
        RankOutputStream tagOut = null;
        RankOutputStream tagErr = null;
        if (options.tagOutput())
        {
            tagOut = new RankOutputStream(out);
            tagErr = new RankOutputStream(err);
            System.setOut(new PrintStream(tagOut, true));
            System.setErr(new PrintStream(tagErr, true));
        }
        System.setIn(new RankInputStream(savedIn));
        final AtomicReference<LocalJob.Outcome> outcome = new AtomicReference<>();
        final int[] cpus = CpuBinding.plan(options.bindTo(), options.rankCount(), CpuBinding.allowedCpus());
        final String taskset = cpus.length > 0 && cpus[0] >= 0 ? CpuBinding.taskset() : null;
        final Thread runner = Thread.ofPlatform().daemon().name("jmpirun-threads").start(() -> outcome.set(job.run(rank ->
        {
            CpuBinding.bindThisThread(cpus[rank], taskset);
            final URLClassLoader loader = new URLClassLoader("jmpi-rank-" + rank, urls, parent);
            loaders.add(loader);
            Thread.currentThread().setContextClassLoader(loader);
            try
            {
                mainMethod(loader).invoke(null, (Object)appArgs.clone());
            }
            catch (final InvocationTargetException ex)
            {
                final Throwable cause = ex.getCause() == null ? ex : ex.getCause();
                if (!job.aborted() && firstFailure.compareAndSet(null, new Failure(rank, cause)))
                {
                    final StringWriter trace = new StringWriter();
                    cause.printStackTrace(new PrintWriter(trace));
                    System.err.print("Exception in rank " + rank + " main: " + trace);
                    System.err.flush();
                }
                throw cause;
            }
            catch (final ReflectiveOperationException | RuntimeException | LinkageError ex)
            {
                firstFailure.compareAndSet(null, new Failure(rank, ex));
                throw ex;
            }
        }, NO_LIMIT_NS)));

        final int exitCode;
        try
        {
            exitCode = supervise(job, runner, outcome, firstFailure);
        }
        finally
        {
            System.setOut(savedOut);
            System.setErr(savedErr);
            System.setIn(savedIn);
            if (tagOut != null)
            {
                tagOut.close();
                tagErr.close();
            }
            for (final URLClassLoader loader : loaders)
            {
                try
                {
                    loader.close();
                }
                catch (final IOException ex)
                {
                    // Closing jar files of a finished job.
                }
            }
            JobCleanup.run(options.params(), System.getenv(), job.jobId());
        }
        return exitCode;
    }

    private int supervise(final LocalJob job, final Thread runner, final AtomicReference<LocalJob.Outcome> outcome,
        final AtomicReference<Failure> firstFailure)
    {
        final long timeoutDeadline = options.timeoutNs() > 0 ? System.nanoTime() + options.timeoutNs() : Long.MAX_VALUE;
        boolean timedOut = false;
        try
        {
            while (runner.isAlive() && firstFailure.get() == null && !job.aborted())
            {
                if (timeoutDeadline != Long.MAX_VALUE && System.nanoTime() - timeoutDeadline >= 0)
                {
                    timedOut = true;
                    err.println("jmpirun: job timed out after " + LaunchOptions.formatSeconds(options.timeoutNs()) +
                        " s; stopping " + options.rankCount() + " rank thread(s)");
                    job.abort(-1, ProcessJob.TIMEOUT_EXIT_CODE, "the job timed out");
                    break;
                }
                runner.join(POLL_MS);
            }
            final Failure failure = firstFailure.get();
            if (failure != null)
            {
                err.println("jmpirun: rank " + failure.rank() + " failed: " + failure.cause() + "; stopping the job");
            }
            runner.join(STOP_WAIT_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            job.abort(-1, 1, "jmpirun interrupted");
            return 1;
        }
        if (timedOut)
        {
            return ProcessJob.TIMEOUT_EXIT_CODE;
        }
        if (firstFailure.get() != null)
        {
            return 1;
        }
        final LocalJob.Outcome result = outcome.get();
        if (result == null)
        {
            err.println("jmpirun: rank threads did not stop within " + STOP_WAIT_MS / 1000 + " s after the job was aborted");
            return 1;
        }
        if (result.aborted())
        {
            err.println("jmpirun: rank " + result.abortRank() + " called abort with code " + result.abortCode() + ": " + result.abortMessage());
            return result.abortCode();
        }
        return 0;
    }

    private Method mainMethod(final ClassLoader loader) throws ReflectiveOperationException
    {
        final Class<?> mainClass = Class.forName(options.mainClass(), true, loader);
        final Method main = mainClass.getMethod("main", String[].class);
        if (!Modifier.isStatic(main.getModifiers()))
        {
            throw new NoSuchMethodException("public static void main(String[]) in " + options.mainClass());
        }
        main.setAccessible(true);
        return main;
    }

    /** Class path entries as URLs; {@code dir/*} expands to the jars in {@code dir}, as for {@code java -cp}. */
    static URL[] classPathUrls(final List<String> classPath) throws IOException
    {
        final List<URL> urls = new ArrayList<>();
        for (final String entry : classPath)
        {
            if (entry.endsWith("*"))
            {
                final Path dir = Path.of(entry.substring(0, entry.length() - 1).isEmpty() ? "." : entry.substring(0, entry.length() - 1));
                if (Files.isDirectory(dir))
                {
                    try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, "*.{jar,JAR}"))
                    {
                        for (final Path jar : jars)
                        {
                            urls.add(toUrl(jar));
                        }
                    }
                }
            }
            else
            {
                urls.add(toUrl(Path.of(entry)));
            }
        }
        return urls.toArray(URL[]::new);
    }

    private static URL toUrl(final Path path) throws MalformedURLException
    {
        return path.toAbsolutePath().normalize().toUri().toURL();
    }
}
