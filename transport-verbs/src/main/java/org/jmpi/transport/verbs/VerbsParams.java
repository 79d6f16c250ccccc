package org.jmpi.transport.verbs;

import org.jmpi.spi.ParamSpec;

import java.util.List;

/** The verbs transport's parameters (docs/parameters.md lists them, VerbsParamsDocTest keeps the table whole). */
final class VerbsParams
{
    static final ParamSpec DEVICE = new ParamSpec("jmpi.verbs.device", "", "name",
        "verbs: the RDMA device (mlx5_0, rxe0); empty: the first libibverbs lists.");
    static final ParamSpec PORT = new ParamSpec("jmpi.verbs.port", "1", "port",
        "verbs: the device port (its state must be PORT_ACTIVE).");
    static final ParamSpec GID_INDEX = new ParamSpec("jmpi.verbs.gid.index", "auto", "index",
        "verbs: the port's GID table entry queue pairs are addressed by; auto: on RoCE the first IPv4-mapped GID " +
        "(RoCE v2 on rxe and most NICs), on InfiniBand entry 0.");
    static final ParamSpec LOCAL = new ParamSpec("jmpi.verbs.local", "false", "boolean",
        "verbs: open the transport even when every rank is on this node (it also opens when jmpi.transports names verbs).");
    static final ParamSpec SLOTS = new ParamSpec("jmpi.verbs.eager.slots", "16", "count",
        "verbs: receive buffers pre-posted per peer, each of jmpi.verbs.frame bytes: the credits a sender has before it must " +
        "wait for the receiver to return some.");
    static final ParamSpec FRAME = new ParamSpec("jmpi.verbs.frame", "64k", "bytes",
        "verbs: the largest frame (a receive buffer's size); at least 36k (core's 32 KiB rendezvous fragment with its header).");
    static final ParamSpec TIMEOUT = new ParamSpec("jmpi.verbs.timeout", "16", "exponent",
        "verbs: the queue pairs' local ACK timeout, 4.096 us * 2^value (16: 268 ms); after 6 retries a peer is reported dead.");
    static final ParamSpec RMA_DEPTH = new ParamSpec("jmpi.verbs.rma.depth", "64", "count",
        "verbs: RDMA puts and gets in flight per peer; a put or get beyond it is refused (the one-sided layer retries or uses frames).");
    static final ParamSpec SGE = new ParamSpec("jmpi.verbs.sge", "16", "count",
        "verbs: scatter-gather entries per RDMA work request of a non-contiguous transfer (each entry one run of the layout; " +
        "docs/verbs.md, \"Scatter-gather lists\"), at most the device's max_sge (max_sge_rd for reads); 1: one request per run.");
    static final ParamSpec RCACHE_BYTES = new ParamSpec("jmpi.verbs.rcache.bytes", "256m", "bytes",
        "verbs: registration cache bound: registered bytes of direct buffers kept for reuse after their last use " +
        "(least recently used evicted first; buffers in use are never evicted).");
    static final ParamSpec RCACHE_ENTRIES = new ParamSpec("jmpi.verbs.rcache.entries", "512", "count",
        "verbs: registration cache bound: registrations kept for reuse.");
    static final ParamSpec BOUNCE_SLOTS = new ParamSpec("jmpi.verbs.bounce.slots", "8", "count",
        "verbs: registered bounce buffers for remote-memory operations on heap arrays (chunks in flight at once).");
    static final ParamSpec BOUNCE_BYTES = new ParamSpec("jmpi.verbs.bounce.bytes", "64k", "bytes",
        "verbs: size of one bounce buffer (a heap array's put or get moves in chunks of it).");
    static final ParamSpec ATOMICS = new ParamSpec("jmpi.verbs.atomics", "auto", "auto|on|off",
        "verbs: remote-memory atomics (fetch-and-add, compare-and-swap of 8-byte integers) for the one-sided layer: auto where " +
        "the device's atomics are atomic with the CPU's (IBV_ATOMIC_GLOB); on also where they are atomic only among the " +
        "device's own (rxe, most mlx5: right when a window's counters are updated only through them); off never.");
    static final ParamSpec CONNECT = new ParamSpec("jmpi.verbs.connect", "lazy", "lazy|eager",
        "verbs: create and connect a pair's queue pairs at its first message (lazy), or every pair's while opening (eager); " +
        "either way on a helper thread, through the peer's connection listener (docs/verbs.md, \"Connection\").");
    static final ParamSpec LIBRARY = new ParamSpec("jmpi.verbs.library", "ibverbs", "name",
        "verbs: the libibverbs JNA loads (a path or a name); for tests and unusual installations.");

    static final List<ParamSpec> ALL = List.of(DEVICE, PORT, GID_INDEX, LOCAL, SLOTS, FRAME, TIMEOUT, RMA_DEPTH, SGE,
        RCACHE_BYTES, RCACHE_ENTRIES, BOUNCE_SLOTS, BOUNCE_BYTES, ATOMICS, CONNECT, LIBRARY);

    /** Core's transport selection ({@code jmpi.transports}): read to know whether verbs was asked for by name. */
    static final ParamSpec TRANSPORTS = new ParamSpec("jmpi.transports", "all", "list", "core's; not listed here");

    private VerbsParams()
    {
    }
}
