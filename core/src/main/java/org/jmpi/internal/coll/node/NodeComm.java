package org.jmpi.internal.coll.node;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.coll.PathTrace;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.RequestImpl;
import org.jmpi.internal.pt2pt.SendMode;

/**
 * One rank's side of a communicator's node collectives: the region it attached, the number of its next call,
 * which of its calls has posted last and which has finished last, and its scratch array.
 *
 * <p>Across JVMs ({@link #mappedRegion}): at its first node collective on a communicator, rank 0 creates the
 * region's file ({@link NodeRegionFile}) and sends its name to every other rank on the communicator's
 * collective context (tag {@link #SETUP_TAG}); each maps it when the name arrives. All of it runs in the
 * first call's steps on the engine thread, without blocking, so the first call may be a nonblocking one. If
 * rank 0 cannot create the file it sends the reason instead, and every rank fails that call and every later
 * node collective on the communicator alike (ERR_OTHER); a rank that cannot map a file rank 0 made aborts the
 * job (its peers would otherwise wait for it forever). Rank 0 deletes the file once every rank has posted a
 * first round (which it does only after mapping): its first call waits for that.
 *
 * <p>Between threads of one JVM ({@link #heapRegion}), finding the region: at its first node collective on a
 * communicator every rank looks the region up in the in-JVM job's shared map under the communicator's
 * collective context id and world ranks (unique among the communicators alive in the job), creating it if it is
 * the first; the last rank to attach removes the entry.
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
    /**
     * Tag of the region file's name on the collective context: below the collective operations' tags (from 64),
     * above the finalize barrier's (1 + round).
     */
    static final int SETUP_TAG = 63;
    /** Longest file name message rank 0 sends. */
    private static final int SETUP_MESSAGE_BYTES = 4096;
    private static final CommState.Slot<NodeComm> SLOT = CommState.slot(NodeComm::new);
    /** Slot size of the regions this rank creates: set by the first caller (every rank of a job passes the job's parameter). */
    private int slotBytesParam;

    final CommState comm;
    /** Whether the region lies on the heap (ranks share it and no file is forced). */
    final boolean heap;
    /** The rank's node host (files, wakers), or null where the runtime installed none. */
    private final NodeHost host;
    /** Whether node collectives can run on the communicator ({@link NodeCollectives#available}). */
    final boolean available;
    final int rank;
    final int size;
    /** The communicator's error handler, as every call's request reports to it (made once, not per call). */
    final RequestImpl.ErrorSink errors;
    /** Whether {@code jmpi.coll.trace} is on ({@link PathTrace}). */
    final boolean trace;
    private NodeRegion region;
    /** Number of the last call started. */
    private long started;
    /** Number of the last call whose done flag was set: done flags go up in call order. */
    long lastDone;
    /** Number of the highest call the engine has seen: no peer's flag can be more than three beyond it ({@link NodeOp}). */
    long highestSeen;
    /** The half of the slots (0 or 1) the next round posts in: every rank takes the halves in the same order. */
    int nextHalf;
    /**
     * Per half, the flag (call and round) of the last round posted in it: this rank posts there again once every
     * peer's done flag has reached it.
     */
    final long[] halfUser = new long[2];
    /** Per rank, the highest done flag this rank has read from it (engine thread; {@link NodeOp}'s guards). */
    final long[] seenDone;
    /** Mapped regions, engine thread: the setup's messages in flight and its failure. */
    private RequestImpl setupReceive;
    private byte[] setupMessage;
    private final List<RequestImpl> setupSends = new ArrayList<>();
    private MpiException setupFailure;
    private boolean fileReleased;
    /** Mapped regions: a spare {@link SlotRounds} (engine thread; calls in flight at once take more). */
    private SlotRounds spareRounds;
    /** A finished blocking call's op, rearmed by the next blocking call (calling thread, direct mode: {@link NodeOp#take}). */
    NodeOp spareOp;
    private byte[] scratch = new byte[0];
    private UnsafeBuffer scratchBuffer = new UnsafeBuffer(scratch);

    private NodeComm(final CommState comm)
    {
        this.comm = comm;
        this.host = NodeHost.of(comm);
        this.heap = comm.services().sharedHeap() && (host == null || !host.fileForced());
        this.available = heap || host != null && host.serves(comm);
        this.rank = comm.rank();
        this.size = comm.size();
        this.seenDone = new long[size];
        this.errors = comm::handle;
        this.trace = PathTrace.on(comm);
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

    /** The heap region where the ranks share the heap (attached at the first call), else null. Calling thread. */
    NodeRegion heapRegion()
    {
        return heap ? region() : null;
    }

    /**
     * The mapped region, or null while its setup is under way (or failed: {@link #setupFailure}). Engine thread.
     */
    NodeRegion mappedRegion()
    {
        if (region != null || setupFailure != null)
        {
            return region;
        }
        if (host == null)
        {
            setupFailure = new MpiException(ErrorClass.ERR_INTERN, "node collective region: rank " + rank + " has no node host");
            return null;
        }
        try
        {
            if (rank == 0)
            {
                create();
            }
            else
            {
                attach();
            }
        }
        catch (final MpiException ex)
        {
            setupFailure = ex;
        }
        return region;
    }

    private void create()
    {
        byte[] message;
        try
        {
            final NodeRegionFile file = NodeRegionFile.create(host.dir(), host.jobId(), size, slotBytesParam);
            try
            {
                final NodeRegion r = new NodeRegion(size, slotBytesParam, file, this::wake);
                r.attach(rank, size, null);
                region = r;
            }
            catch (final MpiException ex)
            {
                file.close();
                throw ex;
            }
            message = file.path().toString().getBytes(StandardCharsets.UTF_8);
        }
        catch (final MpiException ex)
        {
            setupFailure = new MpiException(ex.errorClass(), "rank 0 could not create the node collective region: " + ex.getMessage(), ex);
            message = ("!" + setupFailure.getMessage()).getBytes(StandardCharsets.UTF_8);
            message = Arrays.copyOf(message, Math.min(message.length, SETUP_MESSAGE_BYTES));
            fileReleased = true;
        }
        for (int j = 1; j < size; j++)
        {
            setupSends.add(PointToPoint.isend(comm, comm.collContextId(), message, 0, message.length, Datatype.BYTE, j, SETUP_TAG,
                SendMode.STANDARD));
        }
    }

    private void attach()
    {
        if (setupReceive == null)
        {
            setupMessage = new byte[SETUP_MESSAGE_BYTES];
            setupReceive = PointToPoint.irecv(comm, comm.collContextId(), setupMessage, 0, SETUP_MESSAGE_BYTES, Datatype.BYTE, 0, SETUP_TAG);
        }
        if (!setupReceive.isDone())
        {
            return;
        }
        if (setupReceive.failure() != null)
        {
            throw setupReceive.failure();
        }
        final String name = new String(setupMessage, 0, (int)setupReceive.status().countBytes(), StandardCharsets.UTF_8);
        setupReceive = null;
        setupMessage = null;
        fileReleased = true;
        if (name.startsWith("!"))
        {
            throw new MpiException(ErrorClass.ERR_OTHER, name.substring(1));
        }
        try
        {
            final NodeRegion r = new NodeRegion(size, slotBytesParam, NodeRegionFile.attach(host.dir(), host.jobId(), name, size,
                slotBytesParam), this::wake);
            r.attach(rank, size, null);
            region = r;
        }
        catch (final MpiException ex)
        {
            throw comm.abort(ex.errorClass().code(), "rank " + rank + " of " + comm.name() + " cannot map the node collective region " +
                "that rank 0 made: " + ex.getMessage());
        }
    }

    /** Whether the job's ranks on this node outnumber its processors ({@link NodeHost#oversubscribed}); false without a host. */
    boolean oversubscribed()
    {
        return host != null && host.oversubscribed();
    }

    /** The region this rank attached, or null before its first call (tests: read after a call completed). */
    NodeRegion attached()
    {
        return region;
    }

    /** Why the region could not be set up (the same on every rank), or null. Engine thread. */
    MpiException setupFailure()
    {
        return setupFailure;
    }

    /**
     * Whether the region's file is gone or not this rank's to delete: rank 0 deletes it once every rank has
     * posted a first round. Engine thread.
     */
    boolean fileReleased()
    {
        if (fileReleased || region == null || region.heap())
        {
            return true;
        }
        for (int j = 1; j < size; j++)
        {
            if (region.arrive(j) == 0)
            {
                return false;
            }
        }
        region.file().deleteFile();
        fileReleased = true;
        setupSends.clear();
        return true;
    }

    /** Wakes communicator rank {@code r}'s engine (mapped regions). */
    private void wake(final int r)
    {
        host.wake(comm.worldRank(r));
    }

    /** The heap region, attached at the first call. Calling thread. */
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

    /** Rounds for {@code call} through the mapped {@code region}: the spare if there is one. Engine thread. */
    SlotRounds rounds(final NodeOp call, final NodeRegion mapped)
    {
        final SlotRounds r = spareRounds != null ? spareRounds : new SlotRounds(this, mapped);
        spareRounds = null;
        return r.bind(call);
    }

    /** Takes back the rounds of a finished call as the spare. Engine thread. */
    void release(final SlotRounds r)
    {
        r.release();
        spareRounds = r;
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
