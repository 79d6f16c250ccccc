package org.jmpi.internal.runtime;

import org.jmpi.spi.ParamSpec;

import java.util.List;

/**
 * The core's parameters. Every limit of the protocol and progress engines is one of these; see
 * docs/parameters.md (ParamsDocTest keeps that table complete).
 */
public final class CoreParams
{
    public static final ParamSpec EAGER_LIMIT = new ParamSpec("jmpi.eager.limit", "4k", "bytes",
        "Largest message payload sent eagerly; larger messages use the rendezvous protocol.");
    public static final ParamSpec FRAGMENT_SIZE = new ParamSpec("jmpi.fragment.size", "32k", "bytes",
        "Payload bytes per rendezvous fragment (capped by the transport's maximum frame).");
    public static final ParamSpec SPLIT_MIN = new ParamSpec("jmpi.pvas.split.min", "0", "bytes",
        "Rendezvous messages of at least this many bytes to a rank in the same address space take the split copy (sender and receiver both copy); smaller ones the receiver copies alone. 0 (the default) leaves the split copy off: on the 2-vCPU build machine it was not faster than the receiver's copy (docs/performance.md).");
    public static final ParamSpec SPLIT = new ParamSpec("jmpi.pvas.split", "0.5", "fraction",
        "Split copy: the fraction of each message's packed stream the receiver starts on (the sender starts on the rest; either takes over what the other has not claimed). 1 makes the receiver start on all of it.");
    public static final ParamSpec PVAS_MODE = new ParamSpec("jmpi.pvas.mode", "auto", "auto|direct|staged",
        "Rendezvous messages between ranks that can address each other's buffers (threads of one JVM, arena buffers across " +
        "JVMs): auto chooses per message between a direct copy and the staged pipeline by a cost model over both layouts; " +
        "direct copies directly wherever a buffer can be exposed; staged always goes through fragments (docs/pvas.md).");
    public static final ParamSpec PVAS_CALIBRATION = new ParamSpec("jmpi.pvas.calibration", "startup", "path",
        "Where pvas.mode=auto takes its cost model from: 'startup' measures it at init (a few ms per rank with a peer it " +
        "reaches by peer memory), otherwise a file written by 'jmpirun --calibrate' (docs/pvas.md).");
    public static final ParamSpec PVAS_ONLINE_SAMPLES = new ParamSpec("jmpi.pvas.online.samples", "4", "messages",
        "pvas.mode=auto: the on-line check of the cost model's choice. A message repeated between the same two ranks (same " +
        "communicator, tag, receive layout and size) tries the direct copy and the staged pipeline at the model's fragment " +
        "size and its neighbours on its first messages, this many each, and keeps the fastest by the median; 0 turns the " +
        "check off (the model alone decides, as before session 12; docs/pvas.md).");
    public static final ParamSpec PVAS_ONLINE_DELAY = new ParamSpec("jmpi.pvas.online.delay", "16", "messages",
        "pvas.mode=auto, on-line check: messages of a key on the model's path before its candidates are first tried (its " +
        "first messages pay for the layout's first use and the JIT's compilations, which would decide the trial); 0: from " +
        "the first message.");
    public static final ParamSpec PVAS_ONLINE_RECHECK = new ParamSpec("jmpi.pvas.online.recheck", "1000", "messages",
        "pvas.mode=auto, on-line check: messages of a key after its choice before the candidates are tried again (the " +
        "interval doubles, up to 64 times this, while the choice holds, and starts over when it changes); 0: never again.");
    public static final ParamSpec PVAS_STATS = new ParamSpec("jmpi.pvas.stats", "false", "boolean",
        "Print at finalize, per rank: rendezvous messages by path and why (eager, direct offered, staged for want of peer memory, " +
        "by mode or type; received by peer copy, split copy, sender copy, staged by the cost model or for want of an exposable " +
        "buffer) and the cost model; with the arena transport also its counters (exposed, refused, mapped, allocations, peak).");
    public static final ParamSpec EAGER_WINDOW = new ParamSpec("jmpi.eager.window", "256k", "bytes",
        "Per sender-receiver pair: eager bytes a sender may have unacknowledged at a receiver; beyond it messages go by rendezvous, so unexpected messages never exhaust a receiver's memory.");
    /**
     * Chosen with bench OsuLatency, 2 ranks as threads, on the project's 2-vCPU machine (2026-11-22):
     * at 1000 spins, waits for a rendezvous copy of 64-512 KiB fell into ~50 us parks (512 KiB: 125 us
     * one-way); at 10000, 26 us; at 50000, 24 us. A 4-JVM PointToPointTour on 2 cores took 2.5-2.8 s at
     * 1000, 10000 and 50000 alike, so the longer spin costs oversubscribed jobs nothing measurable.
     */
    public static final ParamSpec IDLE_SPINS = new ParamSpec("jmpi.idle.spins", "10000", "iterations",
        "Waiting: busy-spin iterations (each polls the transports once) before yielding.");
    public static final ParamSpec IDLE_YIELDS = new ParamSpec("jmpi.idle.yields", "100", "iterations",
        "Waiting: Thread.yield iterations before parking.");
    public static final ParamSpec IDLE_SPIN_BURST = new ParamSpec("jmpi.idle.spin.burst", "-1", "iterations",
        "Waiting: while spinning, yield once every this many polls (a power of two; 0: never). -1: 64 when the ranks " +
        "on this node outnumber its processors or a progress thread drives the engine (MULTIPLE, async progress), " +
        "else 0, except 64 while the JIT compiler is at work in the first jmpi.idle.jit.window.");
    public static final ParamSpec IDLE_JIT_WINDOW = new ParamSpec("jmpi.idle.jit.window", "0", "ms",
        "Waiting: for this long after init, with jmpi.idle.spin.burst -1, a spinning rank yields once every 64 polls " +
        "while the JIT compiler is at work (it finished a compilation in the last 50 ms), so the compiler gets a core; " +
        "0: never. Off by default: it halves a job's first-second latencies but left later ones slower (docs/performance.md).");
    public static final ParamSpec IDLE_MIN_PARK = new ParamSpec("jmpi.idle.park.min", "1000", "ns",
        "Waiting: first park period; doubles up to the maximum.");
    public static final ParamSpec IDLE_MAX_PARK = new ParamSpec("jmpi.idle.park.max", "100000", "ns",
        "Waiting: longest park period between polls of the transports.");
    public static final ParamSpec ASYNC_PROGRESS = new ParamSpec("jmpi.progress.async", "false", "boolean",
        "Run a progress thread per rank that completes nonblocking work while the application computes.");
    public static final ParamSpec INIT_TIMEOUT = new ParamSpec("jmpi.init.timeout", "60000", "ms",
        "How long init and finalize wait for the other ranks at the bootstrap.");
    public static final ParamSpec TRANSPORTS = new ParamSpec("jmpi.transports", "all", "list",
        "Transports to open, by name: 'all' for every one that is available, by priority; 'shm,jvm' opens only these, the " +
        "first that reaches a peer carrying its traffic; '^name,...' opens all but these.");
    public static final ParamSpec JVM_ISOLATE = new ParamSpec("jmpi.jvm.isolate", "false", "boolean",
        "Ranks that are threads of one JVM present themselves as JVMs of their own, so node-level transports " +
        "(shm) carry their traffic; for testing those transports with ranks as threads.");
    public static final ParamSpec FINALIZE_WAIT = new ParamSpec("jmpi.finalize.wait", "1000", "ms",
        "How long finalize waits for the other ranks before it returns and leaves the rest to a closing thread (a " +
        "failing rank's exception then leaves main and ends the job).");

    public static final ParamSpec TRANSPORTS_SHOW = new ParamSpec("jmpi.transports.show", "false", "boolean",
        "At init every rank prints one line on stderr naming its node and the transport that carries its traffic to each peer.");

    public static final ParamSpec RDMA_RENDEZVOUS = new ParamSpec("jmpi.rdma.rendezvous", "auto", "auto|read|write|off",
        "Rendezvous messages to ranks reached through remote memory (the verbs transport): auto: the receiver reads the " +
        "sender's registered buffer (from jmpi.rdma.read.min bytes, or into heap memory), else the sender writes into the " +
        "receiver's; read or write force one where both are possible; off: fragments (docs/verbs.md, \"Rendezvous\").");
    public static final ParamSpec RDMA_READ_MIN = new ParamSpec("jmpi.rdma.read.min", "0", "bytes",
        "With jmpi.rdma.rendezvous=auto: rendezvous messages of at least this many bytes between direct buffers are read " +
        "by the receiver, smaller ones written by the sender (docs/verbs.md, \"Rendezvous\").");
    public static final ParamSpec RDMA_SGE_MIN = new ParamSpec("jmpi.rdma.sge.min", "1024", "bytes",
        "Rendezvous messages to ranks reached through remote memory whose one side is a non-contiguous layout with runs of " +
        "at least this many bytes on average (the other side one run) move by scatter-gather lists, never packed; shorter " +
        "runs go packed through fragments (docs/verbs.md, \"Scatter-gather lists\").");

    public static final ParamSpec DYN_NAMES = new ParamSpec("jmpi.dyn.names", "", "path",
        "A directory that publishName/lookupName share with other jobs on this node (each name a file; two jmpirun jobs " +
        "given the same directory find each other's ports); empty: names stay within the job (docs/compat.md, \"Dynamic processes\").");

    public static final List<ParamSpec> ALL = List.of(
        EAGER_LIMIT, FRAGMENT_SIZE, EAGER_WINDOW, SPLIT_MIN, SPLIT, PVAS_MODE, PVAS_CALIBRATION, PVAS_ONLINE_SAMPLES, PVAS_ONLINE_DELAY, PVAS_ONLINE_RECHECK, PVAS_STATS,
        IDLE_SPINS, IDLE_YIELDS, IDLE_SPIN_BURST, IDLE_JIT_WINDOW, IDLE_MIN_PARK, IDLE_MAX_PARK, ASYNC_PROGRESS, INIT_TIMEOUT,
        TRANSPORTS, JVM_ISOLATE, FINALIZE_WAIT, TRANSPORTS_SHOW,
        RDMA_RENDEZVOUS, RDMA_READ_MIN, RDMA_SGE_MIN,
        DYN_NAMES);

    private CoreParams()
    {
    }
}
