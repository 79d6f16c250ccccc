package org.jmpi.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --bind-to}: each rank JVM of this node bound to one CPU, as Open MPI's mpirun binds ranks to cores
 * by default. The rank JVM starts under {@code taskset -c CPU}, with {@code -XX:ActiveProcessorCount} set to
 * the CPUs the launcher may use, so the JVM sizes its collector and compiler threads as it would unbound (a
 * JVM that saw one CPU would pick the serial collector and a single compiler thread) and a rank still knows
 * how many cores its node has.
 *
 * <p>Why: unbound, the scheduler now and then puts both spinning ranks of a 2-rank job on one CPU, and one
 * waits a whole time slice (0.6-0.7 ms on this kernel) for the other; bound, that never happens. On the
 * 2-vCPU machine, quiet: a halo exchange's p99.9 went from about 600 us to 6-7 us and the message rate at
 * 1-16 B from 0.6-1.5 to 2.6-9.4 million per second (docs/launcher.md, "CPU binding").
 *
 * <p>{@link #AUTO} binds when this node's rank JVMs fit the CPUs this process may use (its affinity mask:
 * a cgroup or an outer {@code taskset} is respected), else leaves them unbound, as Open MPI does not bind
 * an oversubscribed node; {@link #CORE} binds anyway, round robin; {@link #NONE} never binds. With
 * {@code --threads} each rank's thread is bound the same way (the JVM's own threads stay unbound); the JVMs of
 * a hybrid job and ranks started on other hosts are not bound. Without {@code taskset} on the path nothing is
 * bound.
 */
final class CpuBinding
{
    static final String AUTO = "auto";
    static final String CORE = "core";
    static final String NONE = "none";

    private CpuBinding()
    {
    }

    static String parseMode(final String text) throws UsageException
    {
        return switch (text)
        {
            case AUTO, CORE, NONE -> text;
            default -> throw new UsageException("--bind-to takes core or none, got " + text);
        };
    }

    /**
     * Per rank JVM on this node, the CPU it is bound to, or -1.
     *
     * @param mode {@link #AUTO}, {@link #CORE} or {@link #NONE}
     * @param localUnits how many rank JVMs this launcher starts on this node
     * @param allowed the CPUs this process may use ({@link #allowedCpus()}); empty when unknown
     */
    static int[] plan(final String mode, final int localUnits, final int[] allowed)
    {
        final int[] cpus = new int[localUnits];
        final boolean bind = allowed.length > 0 &&
            (CORE.equals(mode) || (AUTO.equals(mode) && localUnits <= allowed.length));
        for (int u = 0; u < localUnits; u++)
        {
            cpus[u] = bind ? allowed[u % allowed.length] : -1;
        }
        return cpus;
    }

    /**
     * {@code command} (a {@code java ...} command line) run bound to {@code cpu}: {@code taskset -c CPU java
     * -XX:ActiveProcessorCount=N ...}; {@code command} itself when {@code cpu} is -1 or there is no taskset.
     * The rank's own {@code --jvm-arg -XX:ActiveProcessorCount=...} comes later and wins.
     */
    static List<String> bound(final List<String> command, final int cpu, final int allowedCount, final String taskset)
    {
        if (cpu < 0 || taskset == null)
        {
            return command;
        }
        final List<String> bound = new ArrayList<>(command.size() + 4);
        bound.add(taskset);
        bound.add("-c");
        bound.add(Integer.toString(cpu));
        bound.add(command.get(0));
        bound.add("-XX:ActiveProcessorCount=" + allowedCount);
        bound.addAll(command.subList(1, command.size()));
        return bound;
    }

    /**
     * Binds the calling thread (a rank of a {@code --threads} job) to {@code cpu} with {@code taskset -p}: Java
     * has no affinity call, and this thread's Linux id is the last part of {@code /proc/thread-self}. Does
     * nothing when {@code cpu} is -1 or there is no taskset; a failure leaves the thread unbound.
     */
    static void bindThisThread(final int cpu, final String taskset)
    {
        if (cpu < 0 || taskset == null)
        {
            return;
        }
        try
        {
            final String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
            final Process p = new ProcessBuilder(taskset, "-p", "-c", Integer.toString(cpu), tid)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            p.waitFor();
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            // No /proc/thread-self: the rank runs unbound.
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** The CPUs this process may run on, from {@code Cpus_allowed_list} in /proc/self/status; empty when unknown. */
    static int[] allowedCpus()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("Cpus_allowed_list:"))
                {
                    return parseList(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // Not Linux, or an unreadable /proc: nothing is bound.
        }
        return new int[0];
    }

    /** A Linux CPU list ({@code 0-3,8,10-11}) as CPU numbers in order; empty for an empty or malformed list. */
    static int[] parseList(final String list)
    {
        final List<Integer> cpus = new ArrayList<>();
        if (list.isEmpty())
        {
            return new int[0];
        }
        try
        {
            for (final String part : list.split(","))
            {
                final int dash = part.indexOf('-');
                final int from = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
                final int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).trim());
                if (from < 0 || to < from || to - from > 65_536)
                {
                    return new int[0];
                }
                for (int c = from; c <= to; c++)
                {
                    cpus.add(c);
                }
            }
        }
        catch (final NumberFormatException ex)
        {
            return new int[0];
        }
        return cpus.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The {@code taskset} program on the PATH (util-linux), or null. */
    static String taskset()
    {
        final String path = System.getenv("PATH");
        for (final String dir : (path == null ? "/usr/bin:/bin" : path).split(File.pathSeparator))
        {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "taskset")))
            {
                return Path.of(dir, "taskset").toString();
            }
        }
        return null;
    }
}
