package org.jmpi.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * A parsed jmpirun command line:
 * {@code jmpirun -np N [options] (-cp CLASSPATH MainClass | -jar app.jar) [args]}.
 *
 * <p>Immutable once parsed; any thread.
 *
 * @param rankCount ranks to start ({@code -np})
 * @param threads run every rank as a thread of the launcher's JVM ({@code --threads})
 * @param params {@code --param} values, full names ({@code jmpi.eager.limit})
 * @param exports {@code -x} variables; a {@code null} value means "the launcher's own value"
 * @param tagOutput prefix every forwarded line with {@code [rank] }
 * @param timeoutNs stop the job after this long; 0 = no limit
 * @param jvmArgs extra arguments for every rank JVM ({@code --jvm-arg}), before the class path
 * @param classPath the application's class path entries
 * @param mainClass the application's main class
 * @param appArgs arguments passed to every rank's {@code main}
 * @param info print the {@code --info} report instead of running
 * @param help print usage instead of running
 * @param placement the hosts and how ranks map onto them; null for a job on this node only
 * @param srun inside a Slurm allocation, how to start the ranks with srun; null when jmpirun starts them itself
 * @param bindTo {@code --bind-to}: {@link CpuBinding#AUTO}, {@link CpuBinding#CORE} or {@link CpuBinding#NONE}
 */
record LaunchOptions(
    int rankCount,
    boolean threads,
    Map<String, String> params,
    Map<String, String> exports,
    boolean tagOutput,
    long timeoutNs,
    List<String> jvmArgs,
    List<String> classPath,
    String mainClass,
    List<String> appArgs,
    boolean info,
    boolean help,
    Placement placement,
    SrunPlan srun,
    String bindTo)
{
    /**
     * The ranks of a job inside a Slurm allocation, started by one {@code srun} ({@link SrunJob}).
     *
     * @param perNode {@code --npernode}, 0 when not given
     * @param mapBy {@code --map-by}: srun's block (slot) or cyclic (node) distribution
     * @param oversubscribe {@code --oversubscribe}: srun's {@code --overcommit}
     * @param threads {@code --threads} (with {@code --npernode K}): one task per node running K ranks as threads ({@link HostJob})
     */
    record SrunPlan(int perNode, Hosts.MapBy mapBy, boolean oversubscribe, boolean threads)
    {
    }

    /**
     * Where the ranks of a job across hosts run.
     *
     * @param hosts the hosts with their slots
     * @param hostOfRank per rank, its host's index in {@code hosts}
     * @param launchAgent the command that starts a process on another host ({@code ssh} by default)
     */
    record Placement(Hosts hosts, int[] hostOfRank, LaunchAgent launchAgent)
    {
        /** The host rank {@code rank} runs on. */
        String host(final int rank)
        {
            return hosts.names().get(hostOfRank[rank]);
        }

        /** Whether some rank runs on another host than this one. */
        boolean anyRemote()
        {
            for (final String host : hosts.names())
            {
                if (!Hosts.isLocal(host))
                {
                    return true;
                }
            }
            return false;
        }
    }

    /** These options with {@code first} before the rank JVMs' own {@code --jvm-arg}s. */
    LaunchOptions withJvmArgsFirst(final List<String> first)
    {
        final List<String> args = new ArrayList<>(first);
        args.addAll(jvmArgs);
        return new LaunchOptions(rankCount, threads, params, exports, tagOutput, timeoutNs, List.copyOf(args), classPath,
            mainClass, appArgs, info, help, placement, srun, bindTo);
    }

    /**
     * The ahead-of-time cache's training job ({@link AotTraining}) for a job of these options: 2 ranks on this
     * node, jmpi's classes only, these rank JVM options followed by {@code extra}, no parameters, no time limit
     * beyond {@code timeoutNs}.
     */
    LaunchOptions aotTraining(final List<String> extra, final long trainingTimeoutNs)
    {
        final List<String> args = new ArrayList<>(jvmArgs);
        args.addAll(extra);
        return new LaunchOptions(2, false, Map.of(), Map.of(), false, trainingTimeoutNs, List.copyOf(args), List.of(),
            AotTraining.class.getName(), List.of(), false, false, null, null, CpuBinding.NONE);
    }

    /** The launch agent when none is given. */
    static final String DEFAULT_LAUNCH_AGENT = "ssh -x -o BatchMode=yes";

    static final String USAGE = """
        usage: jmpirun -np N [options] (-cp CLASSPATH MainClass | -jar app.jar) [args...]
               jmpirun --info | --help

        Starts N ranks of a jmpi program on this node, one JVM each (or threads of one JVM with
        --threads), serves their bootstrap, forwards their output and stops them all when one fails.

        options:
          -np N, -n N            number of ranks (required)
          --threads              run all ranks as threads of this JVM, each with its own class loader
          --param NAME=VALUE     set a jmpi parameter for every rank (the "jmpi." prefix is optional);
                                 see --info for the list
          -x VAR[=VALUE]         export an environment variable to every rank (VALUE, or this one's)
          --tag-output           prefix every line of output with the rank: "[1] ..."
          --timeout SECONDS      stop the job after SECONDS and exit with code 124
          --jvm-arg ARG          pass ARG to every rank JVM (repeatable), e.g. --jvm-arg -Xmx2g
          --bind-to core|none    bind each rank JVM of this node to one CPU (core), or not (none); default:
                                 core when this node's ranks fit the CPUs this launcher may use, else none
                                 (docs/launcher.md, "CPU binding")

        across hosts (docs/cluster.md):
          --host H[:N],...       run on these hosts, N slots each (default 1); -np defaults to the slots
          --hostfile FILE        hosts from FILE, one per line: "host slots=N", # comments
          --map-by slot|node     fill each host's slots in turn (slot, default) or go round the hosts (node)
          --npernode N           N ranks on every host (with --threads: one JVM per host, N rank threads)
          --oversubscribe        allow more ranks than slots
          --launch-agent CMD     how to start a process on another host (default: ssh -x -o BatchMode=yes);
                                 "%h" in CMD is replaced by the host, else the host is appended

        inside a Slurm allocation (salloc, sbatch; docs/cluster.md):
          ranks start with one "srun --mpi=pmi2 --kill-on-bad-exit=1"; -np defaults to SLURM_NTASKS;
          --npernode, --map-by and --oversubscribe become srun's --ntasks-per-node, --distribution
          and --overcommit; --threads --npernode K: one task per node, each running K ranks as
          threads; --host or --hostfile use ssh instead
          --launcher auto|srun|local   auto (default): srun inside an allocation, else this node;
                                 local: this node even inside an allocation
          --info                 print version, JDK, transports and every parameter, then exit; with -np N
                                 (and --host, --threads...) also the transport each rank would use to each peer
          --help, -h             print this and exit
          --calibrate            measure the copy cost model of pvas.mode=auto and write it to the file
                                 --param pvas.calibration=FILE names (default ./jmpi-calibration.properties)

        environment:
          JMPIRUN_AOT_CACHE=DIR|off   where rank JVMs' ahead-of-time cache of jmpi's classes is kept
                                 (JDK 25+; made by a short training job the first time; default
                                 ~/.cache/jmpi/aot; off: none)

        exit code: 0 when every rank exits 0; otherwise the code of the first rank that failed
        (128+N when killed by signal N), the code given to abort, 124 on timeout, 2 on a usage error.
        """;

    /** @throws UsageException when the command line is malformed; its message names the problem. */
    static LaunchOptions parse(final String[] args, final Map<String, String> env) throws UsageException
    {
        int rankCount = -1;
        boolean threads = false;
        final Map<String, String> params = new LinkedHashMap<>();
        final Map<String, String> exports = new LinkedHashMap<>();
        boolean tagOutput = false;
        long timeoutNs = 0;
        final List<String> jvmArgs = new ArrayList<>();
        List<String> classPath = null;
        String mainClass = null;
        boolean info = false;
        boolean help = false;
        final Map<String, Integer> hostSlots = Hosts.newSlotMap();
        Hosts.MapBy mapBy = Hosts.MapBy.SLOT;
        int perNode = 0;
        boolean oversubscribe = false;
        String launchAgent = null;
        String launcher = "auto";
        String bindTo = CpuBinding.AUTO;
        int i = 0;
        while (i < args.length && mainClass == null)
        {
            final String arg = args[i++];
            switch (arg)
            {
                case "-np", "-n", "--np" -> rankCount = parseRankCount(value(args, i++, arg), "-np");
                case "--threads" -> threads = true;
                case "--param", "--mca" -> addParam(params, value(args, i++, arg));
                case "-x" -> addExport(exports, value(args, i++, arg));
                case "--tag-output" -> tagOutput = true;
                case "--timeout" -> timeoutNs = parseTimeout(value(args, i++, arg));
                case "--jvm-arg" -> jvmArgs.add(value(args, i++, arg));
                case "--info" -> info = true;
                case "--help", "-h" -> help = true;
                case "--host", "-host", "-H" -> Hosts.addHostList(hostSlots, value(args, i++, arg));
                case "--hostfile", "-hostfile", "--machinefile" -> Hosts.addHostFile(hostSlots, Path.of(value(args, i++, arg)));
                case "--map-by" -> mapBy = parseMapBy(value(args, i++, arg));
                case "--npernode", "-npernode" -> perNode = parseRankCount(value(args, i++, arg), arg);
                case "--oversubscribe" -> oversubscribe = true;
                case "--launch-agent" -> launchAgent = value(args, i++, arg);
                case "--launcher" -> launcher = parseLauncher(value(args, i++, arg));
                case "--bind-to" -> bindTo = CpuBinding.parseMode(value(args, i++, arg));
                case "-cp", "-classpath", "--class-path" ->
                {
                    classPath = splitClassPath(value(args, i++, arg));
                    mainClass = value(args, i++, "the main class after " + arg);
                }
                case "-jar" ->
                {
                    final Path jar = Path.of(value(args, i++, arg));
                    classPath = jarClassPath(jar);
                    mainClass = jarMainClass(jar);
                }
                default ->
                {
                    if (arg.startsWith("-"))
                    {
                        throw new UsageException("unknown option " + arg + " (see jmpirun --help)");
                    }
                    final String fromEnv = env.get("CLASSPATH");
                    classPath = splitClassPath(fromEnv == null || fromEnv.isEmpty() ? "." : fromEnv);
                    mainClass = arg;
                }
            }
        }
        final List<String> appArgs = List.of(args).subList(i, args.length);
        if (help)
        {
            return new LaunchOptions(Math.max(rankCount, 1), threads, params, exports, tagOutput, timeoutNs, jvmArgs,
                classPath == null ? List.of() : classPath, mainClass, appArgs, info, true, null, null, bindTo);
        }
        if (mainClass == null && !info)
        {
            throw new UsageException("no program given: expected -cp CLASSPATH MainClass or -jar app.jar (see jmpirun --help)");
        }
        Placement placement = null;
        SrunPlan srun = null;
        final boolean inAllocation = SrunJob.inAllocation(env);
        if ("srun".equals(launcher) && !inAllocation)
        {
            throw new UsageException("--launcher srun needs a Slurm allocation (SLURM_JOB_ID is not set: run inside salloc or sbatch)");
        }
        if (hostSlots.isEmpty() && !info && !"local".equals(launcher) && inAllocation && !(threads && perNode == 0 && "auto".equals(launcher)))
        {
            if (threads && perNode == 0)
            {
                throw new UsageException("--threads with --launcher srun needs --npernode K (one task per node running K ranks as threads); " +
                    "or use --launcher local for one JVM on this node");
            }
            if (launchAgent != null)
            {
                throw new UsageException("--launch-agent needs hosts: give --host or --hostfile (inside a Slurm allocation ranks start with srun)");
            }
            srun = new SrunPlan(perNode, mapBy, oversubscribe, threads);
            if (rankCount < 0)
            {
                rankCount = SrunJob.allocationRanks(env, perNode);
            }
        }
        else if (hostSlots.isEmpty())
        {
            if (perNode > 0 || launchAgent != null)
            {
                throw new UsageException((perNode > 0 ? "--npernode" : "--launch-agent") + " needs hosts: give --host or --hostfile");
            }
        }
        else
        {
            final Hosts hosts = Hosts.of(hostSlots);
            if (rankCount < 0)
            {
                rankCount = perNode > 0 ? perNode * hosts.names().size() : hosts.slotCount();
            }
            if (threads && perNode == 0)
            {
                throw new UsageException("--threads across hosts needs --npernode K (one JVM per host with K rank threads)");
            }
            placement = new Placement(hosts, hosts.map(rankCount, mapBy, perNode, oversubscribe),
                new LaunchAgent(launchAgent == null ? DEFAULT_LAUNCH_AGENT : launchAgent));
        }
        if (info)
        {
            // 0 ranks: --info without a layout; otherwise the per-peer report describes this job.
            return new LaunchOptions(Math.max(rankCount, 0), threads, params, exports, tagOutput, timeoutNs, jvmArgs,
                classPath == null ? List.of() : classPath, mainClass, appArgs, true, false, placement, null, bindTo);
        }
        if (rankCount < 0)
        {
            throw new UsageException("the number of ranks is missing: give -np N" +
                (srun != null ? " (the allocation sets neither SLURM_NTASKS nor SLURM_TASKS_PER_NODE)" : ""));
        }
        if (srun != null && threads && rankCount % perNode != 0)
        {
            throw new UsageException("-np " + rankCount + " is not a multiple of --npernode " + perNode +
                " (a hybrid job under srun runs " + perNode + " rank threads in each task)");
        }
        return new LaunchOptions(rankCount, threads, Map.copyOf(params), Collections.unmodifiableMap(exports), tagOutput, timeoutNs,
            List.copyOf(jvmArgs),
            List.copyOf(classPath), mainClass, List.copyOf(appArgs), false, false, placement, srun, bindTo);
    }

    /** {@code name} with the {@code jmpi.} prefix added when missing. */
    static String fullParamName(final String name)
    {
        return name.startsWith("jmpi.") ? name : "jmpi." + name;
    }

    /** {@code 2} for 2 s, {@code 1.5} for 1.5 s. */
    static String formatSeconds(final long ns)
    {
        final double seconds = ns / 1e9;
        return seconds == Math.rint(seconds) ? Long.toString((long)seconds) : Double.toString(seconds);
    }

    private static String value(final String[] args, final int index, final String what) throws UsageException
    {
        if (index >= args.length)
        {
            throw new UsageException("missing value for " + what);
        }
        return args[index];
    }

    private static String parseLauncher(final String text) throws UsageException
    {
        if (!text.equals("auto") && !text.equals("srun") && !text.equals("local"))
        {
            throw new UsageException("--launcher must be auto, srun or local, got: " + text);
        }
        return text;
    }

    private static Hosts.MapBy parseMapBy(final String text) throws UsageException
    {
        return switch (text.toLowerCase(Locale.ROOT))
        {
            case "slot", "core" -> Hosts.MapBy.SLOT;
            case "node" -> Hosts.MapBy.NODE;
            default -> throw new UsageException("--map-by takes slot or node, got " + text);
        };
    }

    private static int parseRankCount(final String text, final String option) throws UsageException
    {
        try
        {
            final int count = Integer.parseInt(text);
            if (count >= 1)
            {
                return count;
            }
        }
        catch (final NumberFormatException ex)
        {
            // Reported below.
        }
        throw new UsageException(option + " needs a positive number of ranks, got " + text);
    }

    private static long parseTimeout(final String text) throws UsageException
    {
        try
        {
            final double seconds = Double.parseDouble(text);
            if (seconds > 0 && seconds < 1e9)
            {
                return (long)(seconds * 1e9);
            }
        }
        catch (final NumberFormatException ex)
        {
            // Reported below.
        }
        throw new UsageException("--timeout needs a positive number of seconds, got " + text);
    }

    private static void addParam(final Map<String, String> params, final String text) throws UsageException
    {
        final int eq = text.indexOf('=');
        if (eq <= 0)
        {
            throw new UsageException("--param needs NAME=VALUE, got " + text);
        }
        params.put(fullParamName(text.substring(0, eq).trim()), text.substring(eq + 1));
    }

    private static void addExport(final Map<String, String> exports, final String text) throws UsageException
    {
        final int eq = text.indexOf('=');
        final String name = eq < 0 ? text : text.substring(0, eq);
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*"))
        {
            throw new UsageException("-x needs VAR or VAR=VALUE with a valid variable name, got " + text);
        }
        exports.put(name, eq < 0 ? null : text.substring(eq + 1));
    }

    private static List<String> splitClassPath(final String text)
    {
        final List<String> entries = new ArrayList<>();
        for (final String entry : text.split(File.pathSeparator))
        {
            if (!entry.isEmpty())
            {
                entries.add(entry);
            }
        }
        return entries;
    }

    private static String jarMainClass(final Path jar) throws UsageException
    {
        try (JarFile file = new JarFile(jar.toFile()))
        {
            final String main = file.getManifest() == null ? null : file.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null || main.isBlank())
            {
                throw new UsageException("no Main-Class in the manifest of " + jar);
            }
            return main.trim();
        }
        catch (final IOException ex)
        {
            throw new UsageException("cannot read " + jar + ": " + ex.getMessage());
        }
    }

    /** The jar, then its manifest's Class-Path entries resolved against the jar's directory. */
    private static List<String> jarClassPath(final Path jar) throws UsageException
    {
        if (!Files.isRegularFile(jar))
        {
            throw new UsageException("no such jar: " + jar);
        }
        final List<String> entries = new ArrayList<>();
        entries.add(jar.toString());
        try (JarFile file = new JarFile(jar.toFile()))
        {
            final String manifestPath = file.getManifest() == null ? null :
                file.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            if (manifestPath != null)
            {
                final Path dir = jar.toAbsolutePath().getParent();
                for (final String entry : manifestPath.trim().split("\\s+"))
                {
                    if (!entry.isEmpty() && !entry.toLowerCase(Locale.ROOT).startsWith("http"))
                    {
                        entries.add(dir.resolve(entry.startsWith("file:") ? entry.substring(5) : entry).toString());
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UsageException("cannot read " + jar + ": " + ex.getMessage());
        }
        return entries;
    }
}
