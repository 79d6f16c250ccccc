package org.jmpi.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * jmpirun inside a Slurm allocation (salloc, sbatch): the ranks start as the tasks of one
 * {@code srun --mpi=pmi2 --kill-on-bad-exit=1} step, and find each other through Slurm's PMI-2 as ranks
 * that srun started directly do ({@code SlurmBootstrap}, docs/cluster.md). srun places them on the
 * allocation's nodes, forwards their output (stdin to rank 0 only, {@code --input=0}), and ends the step
 * when a task exits with a non-zero code or is killed; jmpirun exits with srun's code. Options map onto
 * srun's: {@code -np} to {@code --ntasks}, {@code --npernode} to {@code --ntasks-per-node},
 * {@code --map-by slot|node} to {@code --distribution=block|cyclic}, {@code --oversubscribe} to
 * {@code --overcommit}, {@code --tag-output} to {@code --label}, {@code -x VAR=VALUE} to srun's environment
 * (srun exports jmpirun's whole environment to the tasks), {@code --timeout} to stopping srun. A hybrid job
 * ({@code --threads --npernode K}) is one task per node, each a {@link HostJob} running K ranks as threads.
 *
 * <p>Threading: {@link #run} on the caller's thread.
 */
final class SrunJob
{
    private static final long STOP_WAIT_MS = 10_000;

    private final LaunchOptions options;
    private final Map<String, String> env;
    private final LineSink err;
    private final List<String> jmpiClassPath;

    SrunJob(final LaunchOptions options, final Map<String, String> env, final LineSink err, final List<String> jmpiClassPath)
    {
        this.options = options;
        this.env = env;
        this.err = err;
        this.jmpiClassPath = jmpiClassPath;
    }

    /** Whether this process runs inside a Slurm allocation ({@code SLURM_JOB_ID} set and srun's plan applies). */
    static boolean inAllocation(final Map<String, String> env)
    {
        final String job = env.get("SLURM_JOB_ID");
        return job != null && !job.isBlank();
    }

    /**
     * The job size when {@code -np} is not given: {@code perNode} times the allocation's nodes, else
     * {@code SLURM_NTASKS}, else the sum of {@code SLURM_TASKS_PER_NODE} ({@code 2(x3),1} is 7); -1 when
     * Slurm says none of these.
     */
    static int allocationRanks(final Map<String, String> env, final int perNode)
    {
        try
        {
            final String nodes = env.getOrDefault("SLURM_JOB_NUM_NODES", env.get("SLURM_NNODES"));
            if (perNode > 0 && nodes != null)
            {
                return Math.multiplyExact(perNode, Integer.parseInt(nodes.trim()));
            }
            final String tasks = env.get("SLURM_NTASKS");
            if (tasks != null && !tasks.isBlank())
            {
                return Integer.parseInt(tasks.trim());
            }
            final String perNodeList = env.get("SLURM_TASKS_PER_NODE");
            if (perNodeList != null && !perNodeList.isBlank())
            {
                int sum = 0;
                for (final String part : perNodeList.split(","))
                {
                    final int x = part.indexOf("(x");
                    sum += x < 0 ? Integer.parseInt(part.trim()) :
                        Integer.parseInt(part.substring(0, x).trim()) * Integer.parseInt(part.substring(x + 2, part.indexOf(')')).trim());
                }
                return sum;
            }
        }
        catch (final NumberFormatException | ArithmeticException | IndexOutOfBoundsException ex)
        {
            return -1;
        }
        return -1;
    }

    /** The srun command line of this job. */
    List<String> command()
    {
        final LaunchOptions.SrunPlan plan = options.srun();
        final List<String> command = new ArrayList<>(List.of("srun", "--mpi=pmi2", "--kill-on-bad-exit=1", "--input=0"));
        if (plan.threads())
        {
            // A hybrid job: one task per node, each running --npernode ranks as threads (HostJob), ranks in blocks.
            final int tasks = options.rankCount() / plan.perNode();
            command.addAll(List.of("--ntasks=" + tasks, "--nodes=" + tasks, "--ntasks-per-node=1"));
        }
        else
        {
            command.add("--ntasks=" + options.rankCount());
            if (plan.perNode() > 0)
            {
                command.add("--ntasks-per-node=" + plan.perNode());
            }
            command.add("--distribution=" + (plan.mapBy() == Hosts.MapBy.NODE ? "cyclic" : "block"));
        }
        if (plan.oversubscribe())
        {
            command.add("--overcommit");
        }
        if (options.tagOutput())
        {
            command.add("--label");
        }
        command.addAll(plan.threads() ? RankCommands.hostJob(options, jmpiClassPath) : RankCommands.rank(options, jmpiClassPath));
        return command;
    }

    /** Runs srun to its end; returns its exit code, 124 after {@code --timeout}. */
    int run()
    {
        final ProcessBuilder builder = new ProcessBuilder(command()).inheritIO();
        if (options.srun().threads())
        {
            builder.environment().put(HostJob.SLURM_RANKS_PER_TASK_ENV_NAME, Integer.toString(options.srun().perNode()));
        }
        options.exports().forEach((name, value) ->
        {
            final String resolved = value != null ? value : env.get(name);
            if (resolved != null)
            {
                builder.environment().put(name, resolved);
            }
        });
        final Process srun;
        try
        {
            srun = builder.start();
        }
        catch (final java.io.IOException ex)
        {
            err.println("jmpirun: cannot start srun inside the Slurm allocation " + env.get("SLURM_JOB_ID") + ": " + ex.getMessage() +
                " (use --launcher local to run on this node only)");
            return 1;
        }
        final Thread hook = new Thread(() -> stop(srun), "jmpirun-srun-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            final long timeoutNs = options.timeoutNs();
            if (timeoutNs > 0 && !srun.waitFor(timeoutNs, TimeUnit.NANOSECONDS))
            {
                err.println("jmpirun: job timed out after " + LaunchOptions.formatSeconds(timeoutNs) + " s; stopping srun");
                stop(srun);
                return ProcessJob.TIMEOUT_EXIT_CODE;
            }
            return srun.waitFor();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            stop(srun);
            return 1;
        }
        finally
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ex)
            {
                // the JVM is shutting down: the hook runs
            }
        }
    }

    /** SIGTERM to srun (it cancels the step), SIGKILL after 10 s. */
    private static void stop(final Process srun)
    {
        if (!srun.isAlive())
        {
            return;
        }
        srun.destroy();
        try
        {
            if (!srun.waitFor(STOP_WAIT_MS, TimeUnit.MILLISECONDS))
            {
                srun.destroyForcibly();
            }
        }
        catch (final InterruptedException ex)
        {
            srun.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
