package org.jmpi.transport.shm;

import org.jmpi.spi.ParamSpec;

import java.util.List;

/**
 * The shared-memory transport's parameters (docs/parameters.md lists them with the core's).
 *
 * <p>Immutable; any thread.
 */
public final class ShmParams
{
    public static final ParamSpec DIR = new ParamSpec("jmpi.shm.dir", "/dev/shm", "path",
        "Directory of the node's shared-memory file (tmpfs); the file is removed once every local rank has mapped it.");
    public static final ParamSpec RING_SIZE = new ParamSpec("jmpi.shm.ring.size", "256k", "bytes",
        "Capacity of the ring of each ordered pair of local ranks (single producer, single consumer) for small frames and " +
        "pooled frame descriptors (power of two, at least 8 x jmpi.shm.inline.max).");
    public static final ParamSpec POOL_SLOTS = new ParamSpec("jmpi.shm.pool.slots", "8", "slots",
        "Fragment pool slots per ordered pair of local ranks: large frames one sender may have in flight to one receiver.");
    public static final ParamSpec SLOT_SIZE = new ParamSpec("jmpi.shm.slot.size", "33024", "bytes",
        "Bytes per fragment pool slot: the transport's maximum frame (default 32 KiB fragment + 256 B header).");
    public static final ParamSpec INLINE_MAX = new ParamSpec("jmpi.shm.inline.max", "4352", "bytes",
        "Frames up to this length are copied through the pair's ring; larger ones are written in place into a pool slot.");

    public static final ParamSpec CHECKSUM = new ParamSpec("jmpi.shm.checksum", "false", "boolean",
        "Every ring record carries a CRC-32C of its header and frame (pooled frames: the slot's bytes too), checked before " +
        "delivery; a mismatch names the sender, the message sequence and the offset. Same value on every rank of a node.");

    public static final List<ParamSpec> ALL = List.of(DIR, RING_SIZE, POOL_SLOTS, SLOT_SIZE, INLINE_MAX, CHECKSUM);

    private ShmParams()
    {
    }
}
