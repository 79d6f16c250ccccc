package org.jmpi.internal.coll.node;

import java.util.Arrays;
import java.util.concurrent.ConcurrentMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.internal.pt2pt.CommState;

/**
 * One rank's side of a communicator's node collectives: the region it attached, the number of its next call,
 * which of its calls has posted last and which has finished last, and its scratch array.
 *
 * <p>Finding the region: at its first node collective on a communicator every rank looks the region up in the
 * in-JVM job's shared map under the communicator's collective context id and world ranks (unique among the
 * communicators alive in the job), creating it if it is the first; the last rank to attach removes the entry.
 * No rank can finish its first call before all have attached (every call waits for every rank's post or for
 * a rank that waited for them), so a later communicator that reuses the context id and group after this one
 * was freed finds no entry and makes its own region. No messages: the lookup also works when the first node
 * collective is a nonblocking one.
 *
 * <p>Threading: calls are numbered on the calling thread (MPI orders a communicator's collective calls);
 * the other fields belong to the engine thread, which runs the calls ({@link NodeOp}).
 */
final class NodeComm
{
    private static final String KEY = "coll.node.region.";
    private static final CommState.Slot<NodeComm> SLOT = CommState.slot(NodeComm::new);
    /** Slot size of the regions this rank creates: set by the first caller (every rank of a job passes the job's parameter). */
    private int slotBytesParam;

    final CommState comm;
    final int rank;
    final int size;
    private NodeRegion region;
    /** Number of the last call started. */
    private long started;
    /** Number of the last call that posted (its slot, buffers and length stay in use until all ranks are done with it). */
    long lastPost;
    /** Number of the last call whose done flag was set: done flags go up in call order. */
    long lastDone;
    /** Number of the highest call the engine has seen: no peer's flag can be more than one beyond it. */
    long highestSeen;
    private byte[] scratch = new byte[0];
    private UnsafeBuffer scratchBuffer = new UnsafeBuffer(scratch);

    private NodeComm(final CommState comm)
    {
        this.comm = comm;
        this.rank = comm.rank();
        this.size = comm.size();
    }

    /** The state of {@code c}; {@code slotBytes}: the size of a slot in its region, if this rank creates it. */
    static NodeComm of(final CommState c, final int slotBytes)
    {
        final NodeComm n = c.get(SLOT);
        if (n.slotBytesParam == 0 && slotBytes > 0)
        {
            n.slotBytesParam = NodeRegionDescriptor.alignSlot(slotBytes);
        }
        return n;
    }

    /** The region, attached at the first call. Calling thread. */
    NodeRegion region()
    {
        if (region == null)
        {
            final ConcurrentMap<String, Object> shared = comm.services().jobShared();
            final String key = KEY + comm.collContextId() + Arrays.toString(comm.worldRanks());
            final NodeRegion r = (NodeRegion)shared.computeIfAbsent(key, k -> new NodeRegion(size, slotBytesParam));
            if (r.attach(rank, size, comm.engine()))
            {
                shared.remove(key, r);
            }
            region = r;
        }
        return region;
    }

    /** The number of the last call started. Calling thread. */
    long started()
    {
        return started;
    }

    /** The number of the next call. Calling thread. */
    long nextCall()
    {
        return ++started;
    }

    /** A scratch array of at least {@code bytes}. Engine thread. */
    byte[] scratch(final int bytes)
    {
        if (scratch.length < bytes)
        {
            scratch = new byte[bytes];
            scratchBuffer = new UnsafeBuffer(scratch);
        }
        return scratch;
    }

    /** The scratch array as a buffer (for convertors' pack and unpack). Engine thread. */
    UnsafeBuffer scratchBuffer()
    {
        return scratchBuffer;
    }
}
