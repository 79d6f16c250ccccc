package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.EnvBootstrap;
import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.internal.bootstrap.SlurmBootstrap;
import org.jmpi.spi.Bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One host's JVM of a hybrid job ({@code jmpirun --threads --npernode K} across hosts): runs the host's
 * ranks as threads, each with its own class loader over the user's class path (as {@code --threads} on
 * one node), each connected to the launcher's bootstrap as its global rank; ranks of this JVM talk
 * in-JVM, ranks of other hosts over tcp.
 *
 * <p>{@code HostJob CLASSPATH MAIN [args]}, with the environment of {@link BootstrapEnv} except that
 * {@link #RANKS_ENV_NAME} lists the ranks instead of {@code JMPI_RANK}, and the tickets come as the
 * first lines of stdin, one per rank in that order. As a task of jmpirun's srun step inside a Slurm allocation
 * ({@code --threads --npernode K}, one task per node), {@link #SLURM_RANKS_PER_TASK_ENV_NAME} gives K instead and
 * the ranks find the job through Slurm. The first rank's connection carries the heartbeat
 * when {@code JMPI_HEARTBEAT} is set. A rank that throws or aborts stops the job through the launcher;
 * the JVM exits with 0 when every rank returned from {@code main}.
 *
 * <p>Threading: {@link #main} on the JVM's main thread; ranks on their own threads.
 */
public final class HostJob
{
    /** The global ranks this JVM runs, comma-separated, ascending. */
    public static final String RANKS_ENV_NAME = "JMPI_HOST_RANKS";
    /**
     * Set instead of {@link #RANKS_ENV_NAME} when this JVM is a task of a Slurm step (jmpirun's hybrid job inside an
     * allocation): K, the ranks per task; task t runs ranks t x K ... and finds the job through Slurm
     * ({@link SlurmBootstrap#forTask}).
     */
    public static final String SLURM_RANKS_PER_TASK_ENV_NAME = "JMPI_SLURM_RANKS_PER_TASK";
    private static final long NO_LIMIT_NS = TimeUnit.DAYS.toNanos(365);

    private HostJob()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length < 2)
        {
            System.err.println("usage: HostJob CLASSPATH MAIN [args...] (started by jmpirun --threads across hosts)");
            System.exit(2);
        }
        final String perTask = System.getenv(SLURM_RANKS_PER_TASK_ENV_NAME);
        final Bootstrap[] bootstraps = perTask != null ? slurmBootstraps(Integer.parseInt(perTask.trim())) : null;
        final int[] ranks = bootstraps != null ? Arrays.stream(bootstraps).mapToInt(Bootstrap::rank).toArray() :
            Arrays.stream(System.getenv().getOrDefault(RANKS_ENV_NAME, "").split(",")).mapToInt(text -> Integer.parseInt(text.trim())).toArray();
        final Bootstrap[] local = bootstraps != null ? bootstraps : launcherBootstraps(ranks);
        final URL[] urls = ThreadJob.classPathUrls(List.of(args[0].split(java.io.File.pathSeparator)));
        final String mainClass = args[1];
        final String[] appArgs = Arrays.copyOfRange(args, 2, args.length);
        final LocalJob job = LocalJob.forHost(ranks.length, Map.of(), i -> local[i]);
        final AtomicReference<String> failure = new AtomicReference<>();
        System.setIn(new RankInputStream(System.in));
        final LocalJob.Outcome outcome = job.run(i ->
        {
            final URLClassLoader loader = new URLClassLoader("jmpi-rank-" + ranks[i], urls, HostJob.class.getClassLoader());
            Thread.currentThread().setContextClassLoader(loader);
            try
            {
                mainMethod(loader, mainClass).invoke(null, (Object)appArgs.clone());
            }
            catch (final InvocationTargetException ex)
            {
                final Throwable cause = ex.getCause() == null ? ex : ex.getCause();
                if (!job.aborted() && failure.compareAndSet(null, "rank " + ranks[i] + " threw " + cause))
                {
                    final StringWriter trace = new StringWriter();
                    cause.printStackTrace(new PrintWriter(trace));
                    System.err.print("Exception in rank " + ranks[i] + " main: " + trace);
                    System.err.flush();
                }
                throw cause;
            }
        }, NO_LIMIT_NS);
        final LocalJob.RankOutcome first = outcome.firstFailure();
        if (outcome.aborted() || first != null)
        {
            final int code = outcome.aborted() && outcome.abortCode() != 0 ? outcome.abortCode() : 1;
            final String message = failure.get() != null ? failure.get() : outcome.abortMessage();
            local[0].abort(code, message);
            System.out.flush();
            Runtime.getRuntime().halt(code);
        }
        System.out.flush();
        System.exit(0);
    }

    /** The bootstraps of this task's ranks, found through Slurm. */
    private static Bootstrap[] slurmBootstraps(final int perTask)
    {
        final SlurmBootstrap[] found = SlurmBootstrap.forTask(System.getenv(), perTask);
        if (found == null)
        {
            throw new IllegalStateException(SLURM_RANKS_PER_TASK_ENV_NAME + "=" + perTask + " outside a Slurm step of two ranks or more");
        }
        return found;
    }

    /** The launcher's bootstraps of {@code ranks}, their tickets read from stdin, one line each. */
    private static Bootstrap[] launcherBootstraps(final int[] ranks) throws IOException
    {
        final Bootstrap[] bootstraps = new Bootstrap[ranks.length];
        for (int i = 0; i < ranks.length; i++)
        {
            final Map<String, String> env = new HashMap<>(System.getenv());
            env.put(BootstrapEnv.RANK_ENV_NAME, Integer.toString(ranks[i]));
            env.put(BootstrapEnv.TICKET_ENV_NAME, readLine(System.in));
            if (i > 0)
            {
                env.remove(BootstrapEnv.HEARTBEAT_ENV_NAME);
                env.remove(BootstrapEnv.LAUNCHER_PID_ENV_NAME);
            }
            bootstraps[i] = EnvBootstrap.fromEnvironment(env);
        }
        return bootstraps;
    }

    private static Method mainMethod(final ClassLoader loader, final String mainClass) throws ReflectiveOperationException
    {
        final Method main = Class.forName(mainClass, true, loader).getMethod("main", String[].class);
        if (!Modifier.isStatic(main.getModifiers()))
        {
            throw new NoSuchMethodException("public static void main(String[]) in " + mainClass);
        }
        main.setAccessible(true);
        return main;
    }

    /** One line of stdin, read byte by byte so nothing after it is consumed. */
    private static String readLine(final InputStream in) throws IOException
    {
        final StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n')
        {
            line.append((char)b);
        }
        if (b < 0 && line.isEmpty())
        {
            throw new IOException("stdin ended before this host's tickets (" + RANKS_ENV_NAME + ")");
        }
        return line.toString().trim();
    }
}
