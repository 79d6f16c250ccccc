package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.runtime.CoreParams;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.Params;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The bootstrap of a rank started by Slurm's {@code srun} without jmpirun (docs/cluster.md, "Slurm").
 *
 * <p>Rank 0 (task 0 of a hybrid job's step, {@link #forTask}) hosts the job's bootstrap server (the launcher's
 * own, found through {@link RendezvousHost}: same protocol, authentication and bounds as under jmpirun) and every rank, rank 0 included, connects to
 * it with {@link TcpBootstrap}. What the ranks need to do so, the server's endpoints and a random 256-bit
 * step key from which each rank derives its ticket ({@link BootstrapAuth#derivedTicket}), travels:
 * <ol>
 * <li>with {@code srun --mpi=pmi2}: through Slurm's PMI-2 key/value space ({@link Pmi2Client}): rank 0
 * puts it, every rank fences, the others get it. Only tasks of the step hold a PMI descriptor;</li>
 * <li>without PMI: from rank 0 on the step's first node at a port derived from the job and step ids,
 * sealed in a MUNGE credential only the job's uid can decode ({@link SlurmKeyServer}).</li>
 * </ol>
 * Abort: with PMI-2, Slurm kills the step (PMI abort); without, the aborting rank exits with its code,
 * and rank 0, told through the bootstrap, exits likewise, which ends the step under
 * {@code srun --kill-on-bad-exit}. A rank that dies ends the step the same way (see docs/cluster.md).
 *
 * <p>Threading: one thread per rank at a time, as {@link Bootstrap}; abort from any thread.
 */
public final class SlurmBootstrap implements Bootstrap
{
    /** The PMI-2 key under which rank 0 publishes {@code <step key hex> <endpoints>}. */
    static final String RENDEZVOUS_KEY = "jmpi-rdv";
    private static final long FINALIZE_WAIT_NS = TimeUnit.SECONDS.toNanos(10);

    private final SlurmEnv slurm;
    private final Pmi2Client pmi;
    private final RendezvousHost.Hosted hosted;
    private SlurmKeyServer keyServer;
    private TcpBootstrap delegate;
    private final int rank;
    private final int size;
    /** Whether this bootstrap owns the task's PMI-2 connection and servers (the task's first rank). */
    private final boolean owner;

    private SlurmBootstrap(final SlurmEnv slurm, final Pmi2Client pmi, final RendezvousHost.Hosted hosted, final SlurmKeyServer keyServer,
        final int rank, final int size, final boolean owner)
    {
        this.slurm = slurm;
        this.pmi = pmi;
        this.hosted = hosted;
        this.keyServer = keyServer;
        this.rank = rank;
        this.size = size;
        this.owner = owner;
    }

    /**
     * The bootstrap of this task of a Slurm step of two or more tasks, connected; null when this process
     * is not such a task.
     *
     * @throws MpiException ERR_OTHER when Slurm's variables are malformed, PMI-2 or the rendezvous fails,
     * or the bootstrap cannot be reached within {@code timeoutNs}.
     */
    public static SlurmBootstrap fromEnvironment(final Map<String, String> env, final long timeoutNs)
    {
        final SlurmBootstrap[] task = forTask(env, 1, timeoutNs);
        return task == null ? null : task[0];
    }

    /**
     * The bootstraps of the ranks this task of a Slurm step runs as threads, connected: a hybrid job
     * ({@code jmpirun --threads --npernode K} in an allocation, one task per node) has {@code ranksPerTask} ranks
     * per task, task t running ranks t x ranksPerTask ... (t + 1) x ranksPerTask - 1 of tasks x ranksPerTask. Task
     * 0 hosts the bootstrap server for all of them; the rendezvous is the tasks' (PMI-2 or MUNGE, as above), each
     * rank connects with its own derived ticket. Null when this process is not a task of a Slurm step or the job
     * would have one rank. The timeout is {@code jmpi.init.timeout}.
     */
    public static SlurmBootstrap[] forTask(final Map<String, String> env, final int ranksPerTask)
    {
        return forTask(env, ranksPerTask, TimeUnit.MILLISECONDS.toNanos(new Params(Map.of(), env).getLong(CoreParams.INIT_TIMEOUT)));
    }

    private static SlurmBootstrap[] forTask(final Map<String, String> env, final int ranksPerTask, final long timeoutNs)
    {
        final SlurmEnv slurm = SlurmEnv.from(env);
        if (ranksPerTask < 1)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "slurm: " + ranksPerTask + " ranks per task");
        }
        if (slurm == null || (long)slurm.size() * ranksPerTask < 2)
        {
            return null;
        }
        final int jobSize = Math.multiplyExact(slurm.size(), ranksPerTask);
        JvmFlags.requireUnsafeExport("init (srun)");
        final long deadlineNs = System.nanoTime() + timeoutNs;
        final Params params = new Params(Map.of(), env);
        final Pmi2Client pmi = slurm.hasPmi() ? Pmi2Client.connect(slurm.pmiFd(), slurm.rank(), slurm.pmiJobId(), timeoutNs) : null;
        if (pmi != null && pmi.size() != slurm.size())
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "slurm: PMI-2 says the step has " + pmi.size() + " tasks, SLURM_STEP_NUM_TASKS " +
                slurm.size());
        }
        final String stepKeyHex;
        final String endpoints;
        RendezvousHost.Hosted hosted = null;
        SlurmKeyServer keyServer = null;
        final List<Integer> ports = SlurmKeyServer.candidatePorts(slurm, portRange(params)[0], portRange(params)[1]);
        final String mungeSocket = params.get(BootstrapParams.MUNGE_SOCKET);
        final SlurmBootstrap[] made = new SlurmBootstrap[1];
        if (slurm.rank() == 0)
        {
            final byte[] stepKey = BootstrapAuth.newSecret();
            final byte[][] tickets = new byte[jobSize][];
            for (int r = 0; r < tickets.length; r++)
            {
                tickets[r] = BootstrapAuth.derivedTicket(stepKey, slurm.jobId(), r);
            }
            hosted = RendezvousHost.find().start(jobSize, slurm.jobId(), tickets, slurm.stepNodes().size() > 1,
                Map.of(BootstrapParams.BIND_IF.name(), params.get(BootstrapParams.BIND_IF)),
                (rank, exitCode, message) -> stepAborted(made[0], rank, exitCode, message));
            stepKeyHex = HexFormat.of().formatHex(stepKey);
            endpoints = fitting(hosted.endpoints(), Pmi2Wire.MAX_VALUE_LENGTH - stepKeyHex.length() - 1);
            if (pmi != null)
            {
                pmi.put(RENDEZVOUS_KEY, stepKeyHex + " " + endpoints, remaining(deadlineNs));
                pmi.fence(remaining(deadlineNs));
            }
            else
            {
                keyServer = SlurmKeyServer.start(ports, slurm.jobId(), stepKeyHex, endpoints, mungeSocket);
            }
        }
        else if (pmi != null)
        {
            pmi.fence(remaining(deadlineNs));
            final String value = pmi.get(RENDEZVOUS_KEY, remaining(deadlineNs));
            final int space = value == null ? -1 : value.indexOf(' ');
            if (space < 0)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "slurm: rank 0 published no rendezvous in PMI-2 (" + RENDEZVOUS_KEY + "=" +
                    value + "); is every task of the step a jmpi rank?");
            }
            stepKeyHex = value.substring(0, space);
            endpoints = value.substring(space + 1);
        }
        else
        {
            if (slurm.stepNodes().isEmpty())
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "slurm: no SLURM_STEP_NODELIST, so rank 0's host is unknown; use srun --mpi=pmi2");
            }
            final String[] record = SlurmKeyServer.fetch(slurm.stepNodes().get(0), ports, slurm.jobId(), mungeSocket, remaining(deadlineNs));
            stepKeyHex = record[0];
            endpoints = record[1];
        }
        final SlurmBootstrap[] bootstraps = new SlurmBootstrap[ranksPerTask];
        for (int i = 0; i < ranksPerTask; i++)
        {
            bootstraps[i] = new SlurmBootstrap(slurm, pmi, i == 0 ? hosted : null, i == 0 ? keyServer : null,
                slurm.rank() * ranksPerTask + i, jobSize, i == 0);
        }
        made[0] = bootstraps[0];
        try
        {
            final List<InetSocketAddress> addresses = new ArrayList<>();
            for (final String one : endpoints.split(","))
            {
                addresses.add(EnvBootstrap.parseAddress(one.trim()));
            }
            for (final SlurmBootstrap b : bootstraps)
            {
                final byte[] ticket = BootstrapAuth.derivedTicket(HexFormat.of().parseHex(stepKeyHex), slurm.jobId(), b.rank);
                b.delegate = TcpBootstrap.connect(addresses, b.rank, jobSize, slurm.jobId(), ticket, remaining(deadlineNs));
            }
        }
        catch (final RuntimeException ex)
        {
            for (final SlurmBootstrap b : bootstraps)
            {
                if (b.delegate != null)
                {
                    b.delegate.close();
                }
            }
            bootstraps[0].closeServers();
            throw ex instanceof MpiException ? ex : new MpiException(ErrorClass.ERR_OTHER, "slurm: bad rendezvous from rank 0: " + ex, ex);
        }
        return bootstraps;
    }

    /** The Slurm node this task runs on ({@code SLURMD_NODENAME}); empty when Slurm did not say. */
    public String node()
    {
        return slurm.node();
    }

    /** Whether this task talks PMI-2 with srun. */
    public boolean usesPmi()
    {
        return pmi != null;
    }

    @Override
    public int rank()
    {
        return rank;
    }

    @Override
    public int size()
    {
        return size;
    }

    @Override
    public String jobId()
    {
        return slurm.jobId();
    }

    @Override
    public void put(final String key, final byte[] value)
    {
        delegate.put(key, value);
    }

    @Override
    public byte[] get(final String key, final long timeoutNs)
    {
        return delegate.get(key, timeoutNs);
    }

    @Override
    public void fence(final long timeoutNs)
    {
        delegate.fence(timeoutNs);
        if (keyServer != null)
        {
            // Every rank has fenced, so every rank holds the key: stop handing it out.
            keyServer.close();
            keyServer = null;
        }
    }

    @Override
    public void abort(final int exitCode, final String message)
    {
        if (pmi != null)
        {
            pmi.abort("rank " + rank + " aborted with code " + exitCode + ": " + message);
        }
        else
        {
            delegate.abort(exitCode, message);
        }
    }

    @Override
    public void close()
    {
        try
        {
            delegate.close();
        }
        finally
        {
            closeServers();
            if (pmi != null && owner)
            {
                pmi.close();
            }
        }
    }

    /** Rank 0, on a server thread: another rank aborted. */
    private static void stepAborted(final SlurmBootstrap bootstrap, final int rank, final int exitCode, final String message)
    {
        final String text = "rank " + rank + " aborted with code " + exitCode + ": " + message;
        if (bootstrap != null && bootstrap.pmi != null)
        {
            bootstrap.pmi.abort(text);
            return;
        }
        System.err.println("jmpi: rank 0: " + text + "; exiting so that srun --kill-on-bad-exit ends the step");
        System.err.flush();
        Runtime.getRuntime().halt(exitCode == 0 ? 1 : exitCode);
    }

    private void closeServers()
    {
        if (keyServer != null)
        {
            keyServer.close();
            keyServer = null;
        }
        if (hosted != null)
        {
            hosted.close(FINALIZE_WAIT_NS);
        }
    }

    /** {@code jmpi.slurm.ports} as {low, high}. */
    static int[] portRange(final Params params)
    {
        final String text = params.get(BootstrapParams.SLURM_PORTS).trim();
        final int dash = text.indexOf('-');
        try
        {
            final int low = Integer.parseInt(text.substring(0, dash).trim());
            final int high = Integer.parseInt(text.substring(dash + 1).trim());
            if (low >= 1024 && high <= 65535 && low <= high)
            {
                return new int[] {low, high};
            }
        }
        catch (final NumberFormatException | IndexOutOfBoundsException ex)
        {
            // reported below
        }
        throw new MpiException(ErrorClass.ERR_ARG, BootstrapParams.SLURM_PORTS.name() + "=" + text + " is not a port range LOW-HIGH within 1024-65535");
    }

    /** The leading endpoints of a comma-separated list that fit in {@code maxLength} characters (at least the first). */
    static String fitting(final String endpoints, final int maxLength)
    {
        String fit = "";
        for (final String one : endpoints.split(","))
        {
            final String longer = fit.isEmpty() ? one : fit + "," + one;
            if (!fit.isEmpty() && longer.length() > maxLength)
            {
                break;
            }
            fit = longer;
        }
        return fit;
    }

    private static long remaining(final long deadlineNs)
    {
        return Math.max(1, deadlineNs - System.nanoTime());
    }
}
