package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.ParamRegistry;
import org.jmpi.internal.bootstrap.CopyCalibration;
import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code jmpirun}: starts the ranks of a jmpi job on this node, in one JVM each or as threads of this
 * one ({@code --threads}), and ends with the job's exit code. {@code bin/jmpirun} finds a JDK 21+ and
 * runs this class; see docs/launcher.md.
 *
 * <p>Threading: {@link #main} runs the job on the calling thread.
 */
public final class JmpiRun
{
    /** Exit code for a malformed command line. */
    public static final int USAGE_EXIT_CODE = 2;

    private JmpiRun()
    {
    }

    /** Runs the command line and exits the JVM with the job's exit code. */
    public static void main(final String[] args)
    {
        // The job's secrets and the handshakes' MAC need the JDK's crypto providers (about 50 ms to load):
        // while this thread parses options and loads the launcher's classes.
        BootstrapAuth.prepareInBackground();
        System.exit(run(args, System.getenv()));
    }

    /** Runs the command line and returns the exit code, without exiting. */
    public static int run(final String[] args, final Map<String, String> env)
    {
        final LineSink out = new LineSink(new FileOutputStream(FileDescriptor.out));
        final LineSink err = new LineSink(new FileOutputStream(FileDescriptor.err));
        if (args.length > 0 && "--calibrate".equals(args[0]))
        {
            return calibrate(args, err);
        }
        final LaunchOptions options;
        try
        {
            options = LaunchOptions.parse(args, env);
        }
        catch (final UsageException ex)
        {
            err.println("jmpirun: " + ex.getMessage());
            return USAGE_EXIT_CODE;
        }
        if (options.help())
        {
            System.out.print(LaunchOptions.USAGE);
            System.out.flush();
            return 0;
        }
        if (options.info())
        {
            InfoReport.print(System.out, options.params(), options.rankCount() > 0 ? options : null);
            System.out.flush();
            return 0;
        }
        warnUnknownParams(options, err);
        if (options.srun() != null)
        {
            return new SrunJob(options, env, err, jmpiClassPath()).run();
        }
        if (options.threads() && options.placement() == null)
        {
            return new ThreadJob(options, out, err).run();
        }
        final List<String> jmpiClassPath = jmpiClassPath();
        return processJob(withAotCache(options, env, jmpiClassPath, err), out, err, System.in, jmpiClassPath).run();
    }

    private static ProcessJob processJob(final LaunchOptions options, final LineSink out, final LineSink err, final InputStream in,
        final List<String> jmpiClassPath)
    {
        final int size = options.rankCount();
        final boolean acrossHosts = options.placement() != null && options.placement().anyRemote();
        return new ProcessJob(options, out, err, in, jmpiClassPath,
            listener -> BootstrapServer.start(size, BootstrapEnv.newJobId(), listener, acrossHosts ?
                BootstrapServer.Config.acrossHosts(new Params(options.params())) :
                BootstrapServer.Config.loopback(new Params(options.params())), err::println));
    }

    /**
     * {@code options} with the rank JVMs' ahead-of-time cache ({@link AotCache}) for a job on this node, made
     * first by a training job when there is none yet; {@code options} as they are elsewhere.
     */
    private static LaunchOptions withAotCache(final LaunchOptions options, final Map<String, String> env,
        final List<String> jmpiClassPath, final LineSink err)
    {
        final AotCache cache = options.placement() == null ? AotCache.of(env, options.jvmArgs(), jmpiClassPath) : null;
        if (cache == null)
        {
            return options;
        }
        cache.deleteStaleTemporaries(Instant.now());
        if (cache.needsTraining())
        {
            cache.train((extra, log) ->
            {
                final LineSink sink = new LineSink(log);
                return processJob(options.aotTraining(extra, AotCache.TRAINING_TIMEOUT_NS), sink, sink,
                    InputStream.nullInputStream(), jmpiClassPath).run();
            }, err);
        }
        return options.withJvmArgsFirst(cache.jvmOptions());
    }

    /**
     * {@code jmpirun --calibrate [--param pvas.calibration=FILE]}: measures the copy cost model of
     * {@code jmpi.pvas.mode=auto} on this machine and writes it to FILE (default jmpi-calibration.properties here),
     * for jobs to read with the same parameter instead of measuring at start-up (docs/pvas.md).
     */
    private static int calibrate(final String[] args, final LineSink err)
    {
        String file = "jmpi-calibration.properties";
        for (int i = 1; i < args.length; i++)
        {
            final String option = args[i];
            final String value = ("--param".equals(option) || "--mca".equals(option)) && i + 1 < args.length ? args[++i] : "";
            final int eq = value.indexOf('=');
            final String name = eq < 0 ? "" : value.substring(0, eq).trim();
            if (!"pvas.calibration".equals(name) && !"jmpi.pvas.calibration".equals(name) || "startup".equals(value.substring(eq + 1).trim()))
            {
                err.println("jmpirun: --calibrate takes only --param pvas.calibration=FILE (where to write), not " + option + " " + value);
                return USAGE_EXIT_CODE;
            }
            file = value.substring(eq + 1).trim();
        }
        final Path path = Path.of(file).toAbsolutePath();
        final String figures;
        try
        {
            figures = CopyCalibration.write(path);
        }
        catch (final IOException ex)
        {
            err.println("jmpirun: --calibrate: cannot write " + path + ": " + ex.getMessage());
            return 1;
        }
        System.out.println("jmpirun: wrote " + path + ": " + figures);
        System.out.println("jmpirun: use it with --param pvas.calibration=" + path);
        System.out.flush();
        return 0;
    }

    /** The class path of this JVM: the launcher jar and its runtime dependencies. */
    private static List<String> jmpiClassPath()
    {
        final List<String> entries = new ArrayList<>();
        for (final String entry : System.getProperty("java.class.path", "").split(File.pathSeparator))
        {
            if (!entry.isEmpty())
            {
                entries.add(entry);
            }
        }
        return entries;
    }

    private static void warnUnknownParams(final LaunchOptions options, final LineSink err)
    {
        final Set<String> known;
        try
        {
            known = ParamRegistry.all().stream().map(ParamSpec::name).collect(Collectors.toSet());
        }
        catch (final RuntimeException | java.util.ServiceConfigurationError ex)
        {
            return;
        }
        for (final String name : options.params().keySet())
        {
            if (!known.contains(name))
            {
                err.println("jmpirun: warning: --param " + name + " is not a known jmpi parameter (see jmpirun --info); passing it on anyway");
            }
        }
    }
}
