package org.jmpi.internal.coll;

import java.util.List;
import java.util.Locale;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;

/**
 * The collectives' parameters: algorithm choices (forcing one is for tests and benchmarks) and the
 * message-size switch points. The switch points are MPICH's defaults (MPIR_CVAR_BCAST_SHORT_MSG_SIZE,
 * MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE, MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE); they have not yet been
 * re-measured for jmpi: bench/coll/OsuCollective is the harness for it, but the only machine so far (2
 * shared cores, load 8) gives no usable timings.
 *
 * <p>Immutable once read; any thread.
 */
public final class CollParams
{
    public static final ParamSpec BARRIER_ALGORITHM = new ParamSpec("jmpi.coll.barrier.algorithm", "auto", "name",
        "Barrier algorithm: auto (node where the communicator's ranks share a node: threads of this JVM, or JVMs reached through shm; else dissemination), node, dissemination. Across nodes, auto and hier run it in two levels (within each node, among the nodes' leaders, within each node again; docs/collectives.md).");
    public static final ParamSpec BCAST_ALGORITHM = new ParamSpec("jmpi.coll.bcast.algorithm", "auto", "name",
        "Bcast algorithm: auto (node where the ranks are threads of this JVM), node (through the communicator's node region; ranks on one node), binomial, scatter_allgather (scatter then ring allgather). Across nodes, auto and hier run it in two levels (within each node, among the nodes' leaders, within each node again; docs/collectives.md).");
    public static final ParamSpec REDUCE_ALGORITHM = new ParamSpec("jmpi.coll.reduce.algorithm", "auto", "name",
        "Reduce algorithm: auto (node where the ranks are threads of this JVM, or JVMs of one node that do not outnumber its processors; else binomial), node (ranks on one node), binomial. Across nodes, auto and hier run it in two levels (within each node, among the nodes' leaders, within each node again; docs/collectives.md).");
    public static final ParamSpec GATHER_ALGORITHM = new ParamSpec("jmpi.coll.gather.algorithm", "auto", "name",
        "Gather algorithm: auto (node where the ranks are threads of this JVM, or JVMs of one node that do not outnumber its processors; else linear), node (ranks on one node), linear.");
    public static final ParamSpec SCATTER_ALGORITHM = new ParamSpec("jmpi.coll.scatter.algorithm", "auto", "name",
        "Scatter algorithm: auto (node where the ranks are threads of this JVM, or JVMs of one node that do not outnumber its processors; else linear), node (ranks on one node), linear.");
    public static final ParamSpec NODE_SLOT = new ParamSpec("jmpi.coll.node.slot", "16k", "bytes",
        "Node collectives: bytes of each rank's slot in a communicator's region. Calls whose data per rank (scatter, alltoall: all blocks) fits go through the slots, larger ones copy straight between the ranks' buffers (threads) or go through the slots in rounds (JVMs).");
    public static final ParamSpec BCAST_SHORT = new ParamSpec("jmpi.coll.bcast.short", "12k", "bytes",
        "auto bcast: binomial tree up to this size (or below 8 ranks), else scatter + ring allgather.");
    public static final ParamSpec ALLREDUCE_ALGORITHM = new ParamSpec("jmpi.coll.allreduce.algorithm", "auto", "name",
        "Allreduce algorithm: auto (node where the communicator's ranks share a node), node (ranks on one node), recursive_doubling, rabenseifner (reduce-scatter + allgather), ring. The last two need a commutative op (otherwise recursive doubling is used). Across nodes, auto and hier run it in two levels (within each node, among the nodes' leaders, within each node again; docs/collectives.md).");
    public static final ParamSpec ALLREDUCE_SHORT = new ParamSpec("jmpi.coll.allreduce.short", "2k", "bytes",
        "auto allreduce: recursive doubling up to this size, else Rabenseifner.");
    public static final ParamSpec ALLGATHER_ALGORITHM = new ParamSpec("jmpi.coll.allgather.algorithm", "auto", "name",
        "Allgather algorithm: auto (node where the communicator's ranks share a node), node (ranks on one node), ring, recursive_doubling (power-of-two sizes; others use ring). Across nodes, auto and hier run it in two levels (within each node, among the nodes' leaders, within each node again; docs/collectives.md).");
    public static final ParamSpec ALLTOALL_ALGORITHM = new ParamSpec("jmpi.coll.alltoall.algorithm", "auto", "name",
        "Alltoall algorithm: auto (node where the communicator's ranks share a node), node (ranks on one node), bruck, pairwise, linear (all sends and receives posted at once).");
    public static final ParamSpec ALLTOALL_SHORT = new ParamSpec("jmpi.coll.alltoall.short", "256", "bytes",
        "auto alltoall: Bruck for blocks up to this size on 8 or more ranks; else linear up to 32 KiB blocks, pairwise above.");
    public static final ParamSpec REDUCE_SCATTER_ALGORITHM = new ParamSpec("jmpi.coll.reduce_scatter.algorithm", "auto", "name",
        "Reduce_scatter(_block) algorithm: auto, ring (commutative ops), reduce_scatterv (reduce to rank 0, then scatterv).");
    public static final ParamSpec PERSISTENT_SCHEDULE = new ParamSpec("jmpi.coll.persistent.schedule", "auto", "name",
        "Persistent barrier, bcast, reduce, allreduce, gather(v), scatter(v), allgather on communicators whose ranks share one JVM: auto (put or get, whichever the calibrated cost model predicts faster), put, get, or p2p (no put/get schedule: the path the blocking call takes, the node collectives where they are selected, else the point-to-point schedules). Between ranks that do not share a heap, auto is p2p unless jmpi.coll.persistent.calibration.remote names a calibration measured on the device.");
    public static final ParamSpec PERSISTENT_CALIBRATION = new ParamSpec("jmpi.coll.persistent.calibration", "", "path",
        "File of the put/get calibration (t_sync per rank count, t_put, t_get): what it holds is loaded, what it lacks is measured at first use and added to it. Empty: measured once per job (t_sync once per rank count).");
    public static final ParamSpec PERSISTENT_CALIBRATION_REMOTE = new ParamSpec("jmpi.coll.persistent.calibration.remote", "", "path",
        "File of the put/get calibration measured on the device between ranks that do not share a heap (format of jmpi.coll.persistent.calibration; verbs: PutGetBcastBench -Dverbs.bench.calibration.out, docs/verbs.md): with it, auto chooses put or get there by the cost model; the same file on every node. Empty: p2p there.");
    public static final ParamSpec TRACE = new ParamSpec("jmpi.coll.trace", "false", "boolean",
        "Every rank prints on stderr, once per communicator, call and path, which path its collective calls take: the node region (heap or file; slot, direct or rounds) or a point-to-point schedule (docs/collectives.md, \"Tracing the paths\").");
    public static final ParamSpec CHECK = new ParamSpec("jmpi.coll.check", "false", "boolean",
        "Before every collective, check that all ranks called the same collective with the same root and message size (one extra allreduce): a mismatch is ERR_OTHER on every rank instead of a hang or wrong data.");

    /** Every collective parameter, for the registry and docs/parameters.md. */
    public static final List<ParamSpec> ALL = List.of(BARRIER_ALGORITHM, BCAST_ALGORITHM, REDUCE_ALGORITHM, GATHER_ALGORITHM,
        SCATTER_ALGORITHM, NODE_SLOT, org.jmpi.internal.coll.node.NodeHost.REGION, BCAST_SHORT, ALLREDUCE_ALGORITHM, ALLREDUCE_SHORT,
        ALLGATHER_ALGORITHM, ALLTOALL_ALGORITHM, ALLTOALL_SHORT, REDUCE_SCATTER_ALGORITHM, CHECK, TRACE,
        PERSISTENT_SCHEDULE, PERSISTENT_CALIBRATION, PERSISTENT_CALIBRATION_REMOTE);

    /**
     * The algorithm parameters that also take "hier": two levels (org.jmpi.internal.coll.hier) where the communicator
     * spans nodes, which "auto" chooses alike, so "hier" is read as "auto" (docs/collectives.md, "Two-level collectives").
     */
    private static final List<ParamSpec> TWO_LEVEL = List.of(BARRIER_ALGORITHM, BCAST_ALGORITHM, REDUCE_ALGORITHM, ALLREDUCE_ALGORITHM,
        ALLGATHER_ALGORITHM);


    final String barrierAlgorithm;
    final String bcastAlgorithm;
    final String reduceAlgorithm;
    final String gatherAlgorithm;
    final String scatterAlgorithm;
    final int nodeSlotBytes;
    final long bcastShort;
    final String allreduceAlgorithm;
    final long allreduceShort;
    final String allgatherAlgorithm;
    final String alltoallAlgorithm;
    final long alltoallShort;
    final String reduceScatterAlgorithm;
    final String persistentSchedule;
    final String persistentCalibration;
    final String persistentCalibrationRemote;
    final boolean check;
    final boolean trace;

    private CollParams(final Params p)
    {
        barrierAlgorithm = choice(p, BARRIER_ALGORITHM, "auto", "node", "dissemination");
        bcastAlgorithm = choice(p, BCAST_ALGORITHM, "auto", "node", "binomial", "scatter_allgather");
        reduceAlgorithm = choice(p, REDUCE_ALGORITHM, "auto", "node", "binomial");
        gatherAlgorithm = choice(p, GATHER_ALGORITHM, "auto", "node", "linear");
        scatterAlgorithm = choice(p, SCATTER_ALGORITHM, "auto", "node", "linear");
        final long slot = p.getLong(NODE_SLOT);
        if (slot < 0 || slot > 1 << 26)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + NODE_SLOT.name() + "=" + slot + " is not between 0 and 64 MiB");
        }
        nodeSlotBytes = (int)slot;
        bcastShort = p.getLong(BCAST_SHORT);
        allreduceAlgorithm = choice(p, ALLREDUCE_ALGORITHM, "auto", "node", "recursive_doubling", "rabenseifner", "ring");
        allreduceShort = p.getLong(ALLREDUCE_SHORT);
        allgatherAlgorithm = choice(p, ALLGATHER_ALGORITHM, "auto", "node", "ring", "recursive_doubling");
        alltoallAlgorithm = choice(p, ALLTOALL_ALGORITHM, "auto", "node", "bruck", "pairwise", "linear");
        alltoallShort = p.getLong(ALLTOALL_SHORT);
        reduceScatterAlgorithm = choice(p, REDUCE_SCATTER_ALGORITHM, "auto", "ring", "reduce_scatterv");
        persistentSchedule = choice(p, PERSISTENT_SCHEDULE, "auto", "put", "get", "p2p");
        persistentCalibration = p.get(PERSISTENT_CALIBRATION);
        persistentCalibrationRemote = p.get(PERSISTENT_CALIBRATION_REMOTE);
        check = p.getBoolean(CHECK);
        trace = p.getBoolean(TRACE);
    }

    /** The collective parameters of {@code p} (a rank's job parameters). */
    static CollParams of(final Params p)
    {
        return new CollParams(p);
    }

    private static String choice(final Params p, final ParamSpec spec, final String... allowed)
    {
        final String value = p.get(spec).toLowerCase(Locale.ROOT);
        if (value.equals("hier") && TWO_LEVEL.contains(spec))
        {
            return "auto";
        }
        for (final String a : allowed)
        {
            if (a.equals(value))
            {
                return a;
            }
        }
        throw new MpiException(ErrorClass.ERR_ARG, "parameter " + spec.name() + "=" + value + " is not one of " + String.join(", ", allowed) +
            (TWO_LEVEL.contains(spec) ? ", hier" : ""));
    }
}
