package org.jmpi.transport.pvas;

import org.jmpi.spi.ParamSpec;

import java.util.List;

/**
 * The arena transport's parameters (docs/parameters.md lists them with the core's; docs/pvas.md explains them).
 *
 * <p>Immutable; any thread.
 */
public final class PvasParams
{
    public static final ParamSpec PARTITION_SIZE = new ParamSpec("jmpi.pvas.partition.size", "0", "bytes",
        "Bytes of each rank's partition of the node's arena (mpi.allocMem allocates there); 0 leaves the arena transport off. " +
        "Same value on every rank of a node.");
    public static final ParamSpec SEGMENT_SIZE = new ParamSpec("jmpi.pvas.segment.size", "1g", "bytes",
        "Bytes one mapping of a partition covers (a multiple of 4096, at most 1 GiB); an allocation never straddles two, so it " +
        "is also the largest allocation.");
    public static final ParamSpec EXPOSURES = new ParamSpec("jmpi.pvas.exposures", "1024", "slots",
        "Exposure slots per partition: arena buffers one rank may have exposed to peers at once (rendezvous messages in flight).");
    /** The transport that carries the arena transport's frames, opened by it (not a parameter). */
    static final String FRAMES = "shm";

    public static final ParamSpec CHECK = new ParamSpec("jmpi.pvas.check", "false", "boolean",
        "Checking mode: guard zones with canaries around every allocMem buffer in the arena, verified at freeMem (ERR_BUFFER) and " +
        "at finalize (reported on standard error), naming the rank, the buffer and the offset written.");
    /** Read, not listed: the core lists {@code jmpi.pvas.stats} (it also prints the protocol's per-path counts). */
    public static final ParamSpec STATS = new ParamSpec("jmpi.pvas.stats", "false", "boolean", "");

    /** Read, not listed: the arena lies in the shm transport's directory (that transport lists the parameter). */
    static final ParamSpec SHM_DIR = new ParamSpec("jmpi.shm.dir", "/dev/shm", "path", "");

    public static final List<ParamSpec> ALL = List.of(PARTITION_SIZE, SEGMENT_SIZE, EXPOSURES, CHECK);

    private PvasParams()
    {
    }
}
