package org.jmpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Supplier;

import org.jmpi.internal.rma.Completion;
import org.jmpi.internal.rma.OneSided;
import org.jmpi.internal.rma.RmaRequest;
import org.jmpi.internal.rma.Window;
import org.jmpi.spi.ArenaMemory;

/**
 * An RMA window (MPI 4.1 ch. 12): memory each rank of a communicator exposes to the others' one-sided puts, gets and
 * accumulates, with fence, post/start/complete/wait and lock synchronisation. A face of jmpi's one-sided layer: a
 * target in the same JVM (a rank running as a thread) is reached by plain loads, stores and atomics on its memory;
 * another JVM by active messages its engine applies (or a transport's remote memory). See docs/rma.md.
 *
 * <p>Memory: a primitive array (elements of one type, which every access must use) or a ByteBuffer (any type; give
 * it the native byte order to read what typed puts wrote). Displacements count {@link #dispUnit()} bytes from
 * element 0 of the target's memory; nio position and limit are ignored. The memory model is unified: there is one
 * copy, and {@link #sync()} is a full memory fence.
 *
 * <p>Errors go through the window's error handler, which starts as the creating communicator's: ERR_RMA_RANGE for an
 * access outside the target's window, ERR_RMA_SYNC outside an epoch or for mismatched synchronisation, ERR_DISP for a
 * bad displacement, ERR_WIN on a freed window.
 *
 * <p>Threading: one thread uses a window's epochs at a time (MPI's rule); several windows may be used from several
 * threads at ThreadLevel.MULTIPLE. The window does not own user memory given to {@link #create}; memory from
 * {@link #allocate} and {@link #allocateShared} is the window's and lives until {@link #free}.
 */
public final class Win implements AutoCloseable
{
    /** MPI_LOCK_EXCLUSIVE. */
    public static final int LOCK_EXCLUSIVE = Window.LOCK_EXCLUSIVE;
    /** MPI_LOCK_SHARED. */
    public static final int LOCK_SHARED = Window.LOCK_SHARED;
    /** MPI_MODE_NOCHECK: no conflicting lock or epoch exists; lock and lock_all take no lock at the target. */
    public static final int MODE_NOCHECK = 1;
    /** MPI_MODE_NOSTORE: no local stores since the last synchronisation (accepted; changes nothing here). */
    public static final int MODE_NOSTORE = 2;
    /** MPI_MODE_NOPUT: no puts or accumulates to this rank until the next synchronisation (accepted). */
    public static final int MODE_NOPUT = 4;
    /** MPI_MODE_NOPRECEDE: the fence closes no operations (accepted; the fence still synchronises). */
    public static final int MODE_NOPRECEDE = 8;
    /** MPI_MODE_NOSUCCEED: the fence opens no epoch; operations after it are ERR_RMA_SYNC. */
    public static final int MODE_NOSUCCEED = 16;
    private static final int ALL_MODES = 31;

    /** How a window's memory came to be (MPI_WIN_CREATE_FLAVOR). */
    public enum Flavor
    {
        /** {@link #create}: the user's memory. */
        CREATE,
        /** {@link #allocate}: memory the window allocated. */
        ALLOCATE,
        /**
         * {@link #allocateShared}: every rank's part reachable by every rank's loads and stores (one block between
         * threads of one JVM; each rank's arena partition across JVMs).
         */
        SHARED,
        /** {@link #createDynamic}: memory attached later. */
        DYNAMIC
    }

    /** The memory model (MPI_WIN_MODEL): jmpi's is always unified (one copy of the window's memory). */
    public enum Model
    {
        SEPARATE, UNIFIED
    }

    /**
     * One rank's part of a shared window ({@link #sharedQuery}): the memory as this rank reaches it (a slice of the
     * shared block, native byte order), its size and displacement unit.
     */
    public record SharedMemory(ByteBuffer memory, long sizeBytes, int dispUnit)
    {
    }

    private final Intracomm comm;
    final Window window;
    private final Flavor flavor;
    private final Object base;
    private final int dispUnit;
    /** Every rank's part as this rank reaches it (shared windows), or null. */
    ByteBuffer[] sharedParts;
    private Info info;
    private String name = "";

    private Win(final Intracomm comm, final Object memory, final int dispUnit, final Info info, final Flavor flavor)
    {
        this.comm = comm;
        this.flavor = flavor;
        this.base = memory;
        this.dispUnit = dispUnit;
        this.info = info == null ? new Info() : info;
        final int records = Window.recordLongs();
        this.window = new Window(comm.state, memory, dispUnit, flavor == Flavor.DYNAMIC, mine ->
        {
            final long[] all = new long[records * comm.size()];
            comm.allgather(mine, 0, records, Datatype.LONG, all, 0, records, Datatype.LONG);
            return all;
        });
    }

    /**
     * MPI_Win_create over this rank's {@code memory} (a primitive array or a ByteBuffer, heap or direct; null for a
     * rank that exposes nothing). Collective over {@code comm}.
     *
     * @param dispUnit bytes per displacement unit at this rank (usually the element size), at least 1.
     */
    public static Win create(final Object memory, final int dispUnit, final Info info, final Intracomm comm)
    {
        return make("Win.create", comm, dispUnit, () -> memory, info, Flavor.CREATE);
    }

    /**
     * MPI_Win_allocate: a window over {@code sizeBytes} of new direct memory at this rank, in native byte order;
     * {@link #base()} returns it as a ByteBuffer. Collective. Where the node's PVAS arena is on
     * ({@code jmpi.pvas.partition.size}), the memory is in this rank's arena partition (aligned to 64 bytes), so the
     * other JVMs' puts, gets and atomics on it are direct copies and atomics rather than frames; a partition without
     * room for it leaves it in ordinary direct memory (docs/rma.md, "Paths").
     */
    public static Win allocate(final long sizeBytes, final int dispUnit, final Info info, final Intracomm comm)
    {
        checkSize("Win.allocate", sizeBytes, comm);
        final ArenaMemory arena = comm.state.services().component(OneSided.class).arena();
        final ByteBuffer[] inArena = new ByteBuffer[1];
        try
        {
            final Win win = make("Win.allocate", comm, dispUnit, () ->
            {
                inArena[0] = WinMemory.arenaPart(arena, sizeBytes);
                return inArena[0] != null ? inArena[0] : ByteBuffer.allocateDirect((int)sizeBytes).order(ByteOrder.nativeOrder());
            }, info, Flavor.ALLOCATE);
            win.arenaPart = inArena[0];
            win.arena = arena;
            return win;
        }
        catch (final RuntimeException ex)
        {
            if (inArena[0] != null)
            {
                arena.free(inArena[0]);
            }
            throw ex;
        }
    }

    /**
     * MPI_Win_allocate_shared: memory for every rank's part, each reachable by loads and stores from every rank through
     * {@link #sharedQuery} (in native byte order). Collective. Where to (docs/rma.md, "Shared windows"):
     * <ul>
     * <li>ranks that are threads of one JVM: one block of direct memory, rank 0's part first, each part aligned to 64
     * bytes (contiguous, as MPI's default);</li>
     * <li>ranks in several JVMs of one node with the PVAS arena on ({@code jmpi.pvas.partition.size}): each rank's part
     * in its own arena partition (aligned to 64 bytes; not contiguous across ranks, as with MPI's
     * {@code alloc_shared_noncontig}), and {@code sharedQuery(r)} maps rank r's part.</li>
     * </ul>
     *
     * @throws MpiException ERR_RMA_SHARED when the ranks are on several nodes, or (on every rank) when they are in
     *                      several JVMs of one node without the PVAS arena, or threads of one JVM mixed with other
     *                      JVMs: their memory cannot be shared (docs/rma.md, "Shared windows"); ERR_NO_MEM (on every
     *                      rank) when a rank's arena partition has no room for its part.
     */
    public static Win allocateShared(final long sizeBytes, final int dispUnit, final Info info, final Intracomm comm)
    {
        checkSize("Win.allocateShared", sizeBytes, comm);
        final long[] sizes = new long[comm.size()];
        comm.allgather(new long[] {sizeBytes}, 0, 1, Datatype.LONG, sizes, 0, 1, Datatype.LONG);
        final int[] world = comm.state.worldRanks();
        for (int r = 1; r < world.length; r++)
        {
            final String node = comm.state.services().nodeOf(world[r]);
            if (!node.equals(comm.state.services().nodeOf(world[0])))
            {
                throw comm.state.handle(new MpiException(ErrorClass.ERR_RMA_SHARED, "Win.allocateShared: rank " + r + " is on node " +
                    node + ", rank 0 on " + comm.state.services().nodeOf(world[0]) + ": a shared window needs ranks of one node " +
                    "(split the communicator with splitType(SHARED))"));
            }
        }
        final Win inOneBlock = WinMemory.sharedInOneBlock(sizes, dispUnit, info, comm);
        if (inOneBlock != null)
        {
            return inOneBlock;
        }
        final Win inArena = WinMemory.sharedInArena(sizes, dispUnit, info, comm);
        if (inArena != null)
        {
            return inArena;
        }
        throw comm.state.handle(new MpiException(ErrorClass.ERR_RMA_SHARED, "Win.allocateShared: " + comm.size() + " ranks " +
            "are in several JVMs and not every rank can map every other's part: the PVAS arena is off (start the job with " +
            "--param pvas.partition.size=<bytes>, docs/pvas.md), or ranks that are threads of one JVM are mixed with other " +
            "JVMs (docs/rma.md, \"Shared windows\")"));
    }

    /** The window rank 0's block lives in (threads of one JVM), freed with this one; or null. */
    Win sharedBlock;
    /** This rank's part in the arena (shared windows across JVMs, allocated windows), freed with the window; or null. */
    ByteBuffer arenaPart;
    ArenaMemory arena;

    /**
     * MPI_Win_create_dynamic: a window without memory; each rank attaches memory later ({@link #attach}) and tells its
     * peers the address attach returned. The displacement of a dynamic window's target is such an address plus a
     * byte offset (its disp unit is 1). Collective.
     */
    public static Win createDynamic(final Info info, final Intracomm comm)
    {
        return make("Win.createDynamic", comm, 1, () -> null, info, Flavor.DYNAMIC);
    }

    /**
     * MPI_Win_attach: exposes {@code memory} (a primitive array or a ByteBuffer) in this dynamic window; returns the
     * displacement of its byte 0 for peers (send it to them; they may use it after a synchronisation).
     *
     * @throws MpiException ERR_RMA_FLAVOR on a window that is not dynamic; ERR_RMA_ATTACH when already attached.
     */
    public long attach(final Object memory)
    {
        return call("Win.attach", () -> window.attach("Win.attach", memory));
    }

    /** MPI_Win_detach: ends {@code memory}'s attachment. */
    public void detach(final Object memory)
    {
        call("Win.detach", () -> window.detach("Win.detach", memory));
    }

    private static void checkSize(final String call, final long sizeBytes, final Intracomm comm)
    {
        if (sizeBytes < 0 || sizeBytes > Integer.MAX_VALUE - 64)
        {
            throw comm.state.handle(new MpiException(ErrorClass.ERR_SIZE, call + ": size " + sizeBytes + " bytes must be in [0, 2^31 - 65]"));
        }
    }

    static Win make(final String call, final Intracomm comm, final int dispUnit, final Supplier<Object> memory, final Info info,
        final Flavor flavor)
    {
        if (dispUnit <= 0)
        {
            throw comm.state.handle(new MpiException(ErrorClass.ERR_DISP, call + ": disp unit " + dispUnit + " must be positive"));
        }
        final Intracomm dup = comm.dup();
        dup.setErrorHandler(comm.errorHandler());
        return dup.call(call, () -> new Win(dup, memory.get(), dispUnit, info, flavor));
    }

    // ------------------------------------------------------------------------------------------ attributes

    /** MPI_WIN_BASE: this rank's window memory (the array or buffer given or allocated), or null. */
    public Object base()
    {
        return base;
    }

    /**
     * Whether this rank's window memory lies in the node's PVAS arena ({@link #allocate} and {@link #allocateShared}
     * with {@code jmpi.pvas.partition.size} set), where ranks in other JVMs of the node reach it by loads, stores and
     * atomics rather than messages. A jmpi extension (MPI has no such attribute); coarrays use it to choose their memory.
     */
    public boolean inArena()
    {
        return arenaPart != null;
    }

    /** MPI_WIN_SIZE: bytes of this rank's window memory. */
    public long size()
    {
        return window.sizeBytes(comm.rank());
    }

    /** MPI_WIN_DISP_UNIT: this rank's displacement unit. */
    public int dispUnit()
    {
        return dispUnit;
    }

    /** MPI_WIN_CREATE_FLAVOR. */
    public Flavor flavor()
    {
        return flavor;
    }

    /** MPI_WIN_MODEL: always {@link Model#UNIFIED}. */
    public Model model()
    {
        return Model.UNIFIED;
    }

    /** MPI_Win_get_group: the window's ranks. */
    public Group group()
    {
        return comm.group();
    }

    /**
     * MPI_Win_shared_query: rank {@code rank}'s part of a shared window (the memory is the same for every caller).
     *
     * @throws MpiException ERR_RMA_FLAVOR unless the window came from {@link #allocateShared}.
     */
    public SharedMemory sharedQuery(final int rank)
    {
        return call("Win.sharedQuery", () ->
        {
            if (sharedParts == null)
            {
                throw new MpiException(ErrorClass.ERR_RMA_FLAVOR, "Win.sharedQuery: the window's flavor is " + flavor + ", not SHARED");
            }
            if (rank < 0 || rank >= sharedParts.length)
            {
                throw new MpiException(ErrorClass.ERR_RANK, "Win.sharedQuery: rank " + rank + " outside the window's group of " +
                    sharedParts.length);
            }
            return new SharedMemory(sharedParts[rank].duplicate().order(ByteOrder.nativeOrder()), sharedParts[rank].capacity(),
                window.dispUnit(rank));
        });
    }

    /** MPI_Win_get_info: the hints the window was given (jmpi acts on none yet; they are kept and returned). */
    public Info getInfo()
    {
        return info;
    }

    /** MPI_Win_set_info. */
    public void setInfo(final Info info)
    {
        this.info = info == null ? new Info() : info;
    }

    /** MPI_Win_get_name ("" until set). */
    public String name()
    {
        return name;
    }

    /** MPI_Win_set_name. */
    public void setName(final String name)
    {
        this.name = name == null ? "" : name;
    }

    /** MPI_Win_get_errhandler. */
    public ErrorHandler errorHandler()
    {
        return comm.errorHandler();
    }

    /** MPI_Win_set_errhandler. */
    public void setErrorHandler(final ErrorHandler handler)
    {
        comm.setErrorHandler(handler);
    }

    // ------------------------------------------------------------------------------------------ operations

    /**
     * MPI_Put: {@code originCount} items of {@code originType} from {@code origin} at element {@code originOffset} to
     * {@code targetCount} items of {@code targetType} at displacement {@code targetDisp} of rank {@code target}'s window.
     * Complete at the next synchronisation that closes the access epoch (on the direct path, on return). Where the
     * target's memory is reached directly and both sides are {@code count} elements of one basic type, with
     * {@code origin} an array of it, this is one plain copy and allocates nothing.
     */
    public void put(final Object origin, final int originOffset, final int originCount, final Datatype originType, final int target,
        final long targetDisp, final int targetCount, final Datatype targetType)
    {
        if (window.copyDirect(true, origin, originOffset, originCount, originType, target, targetDisp, targetCount, targetType))
        {
            return;
        }
        call("Win.put", () -> window.put("Win.put", origin, originOffset, originCount, originType, target, targetDisp, targetCount,
            targetType));
    }

    /** MPI_Get: the reverse of {@link #put}; {@code origin} is written by the next synchronisation. */
    public void get(final Object origin, final int originOffset, final int originCount, final Datatype originType, final int target,
        final long targetDisp, final int targetCount, final Datatype targetType)
    {
        if (window.copyDirect(false, origin, originOffset, originCount, originType, target, targetDisp, targetCount, targetType))
        {
            return;
        }
        call("Win.get", () -> window.get("Win.get", origin, originOffset, originCount, originType, target, targetDisp, targetCount,
            targetType));
    }

    /**
     * MPI_Accumulate: {@code target = origin op target}, element-wise atomic with respect to other accumulates of the
     * same basic type (any predefined op, {@link Op#REPLACE}, {@link Op#NO_OP}); accumulates from one origin to one
     * target are applied in program order.
     */
    public void accumulate(final Object origin, final int originOffset, final int originCount, final Datatype originType, final int target,
        final long targetDisp, final int targetCount, final Datatype targetType, final Op op)
    {
        call("Win.accumulate", () -> window.accumulate("Win.accumulate", origin, originOffset, originCount, originType, null, 0, 0, null,
            target, targetDisp, targetCount, targetType, op));
    }

    /**
     * MPI_Get_accumulate: as {@link #accumulate}, and the target's data before the operation goes to {@code result}
     * (with {@link Op#NO_OP}: an atomic get; {@code origin} may then be null).
     */
    public void getAccumulate(final Object origin, final int originOffset, final int originCount, final Datatype originType,
        final Object result, final int resultOffset, final int resultCount, final Datatype resultType, final int target,
        final long targetDisp, final int targetCount, final Datatype targetType, final Op op)
    {
        call("Win.getAccumulate", () -> window.accumulate("Win.getAccumulate", origin, originOffset, originCount, originType, result,
            resultOffset, resultCount, resultType, target, targetDisp, targetCount, targetType, op));
    }

    /**
     * MPI_Fetch_and_op: one element of {@code type} (predefined); the old value goes to {@code result}. Where the
     * target's memory is reached directly (this rank, a thread of this JVM, the arena) and {@code origin} and
     * {@code result} are arrays of {@code type}, this is one atomic on the target's memory and allocates nothing.
     */
    public void fetchAndOp(final Object origin, final int originOffset, final Object result, final int resultOffset, final Datatype type,
        final int target, final long targetDisp, final Op op)
    {
        // two calls and nothing else, so that the JIT inlines this method into a caller's loop (its general path, with
        // the lambda's allocation, compiled here would make it too big to inline)
        if (!window.fetchAndOpDirect(origin, originOffset, result, resultOffset, type, target, targetDisp, op))
        {
            fetchAndOpGeneral(origin, originOffset, result, resultOffset, type, target, targetDisp, op);
        }
    }

    private void fetchAndOpGeneral(final Object origin, final int originOffset, final Object result, final int resultOffset,
        final Datatype type, final int target, final long targetDisp, final Op op)
    {
        call("Win.fetchAndOp", () -> window.accumulate("Win.fetchAndOp", origin, originOffset, 1, type, result, resultOffset, 1, type,
            target, targetDisp, 1, type, op));
    }

    /**
     * MPI_Compare_and_swap: atomically, the target element goes to {@code result} and is replaced by {@code origin}'s
     * when it equals {@code compare}'s (bit for bit). One element of a predefined type.
     */
    public void compareAndSwap(final Object origin, final int originOffset, final Object compare, final int compareOffset,
        final Object result, final int resultOffset, final Datatype type, final int target, final long targetDisp)
    {
        call("Win.compareAndSwap", () -> window.compareAndSwap("Win.compareAndSwap", origin, originOffset, compare, compareOffset, result,
            resultOffset, type, target, targetDisp));
    }

    /** MPI_Rput: as {@link #put}; the request completes when the put is complete at the target. */
    public Request rput(final Object origin, final int originOffset, final int originCount, final Datatype originType, final int target,
        final long targetDisp, final int targetCount, final Datatype targetType)
    {
        return request("Win.rput", () -> window.put("Win.rput", origin, originOffset, originCount, originType, target, targetDisp,
            targetCount, targetType));
    }

    /** MPI_Rget: as {@link #get}; {@code origin} holds the data when the request completes. */
    public Request rget(final Object origin, final int originOffset, final int originCount, final Datatype originType, final int target,
        final long targetDisp, final int targetCount, final Datatype targetType)
    {
        return request("Win.rget", () -> window.get("Win.rget", origin, originOffset, originCount, originType, target, targetDisp,
            targetCount, targetType));
    }

    /** MPI_Raccumulate. */
    public Request raccumulate(final Object origin, final int originOffset, final int originCount, final Datatype originType,
        final int target, final long targetDisp, final int targetCount, final Datatype targetType, final Op op)
    {
        return request("Win.raccumulate", () -> window.accumulate("Win.raccumulate", origin, originOffset, originCount, originType, null, 0,
            0, null, target, targetDisp, targetCount, targetType, op));
    }

    /** MPI_Rget_accumulate. */
    public Request rgetAccumulate(final Object origin, final int originOffset, final int originCount, final Datatype originType,
        final Object result, final int resultOffset, final int resultCount, final Datatype resultType, final int target,
        final long targetDisp, final int targetCount, final Datatype targetType, final Op op)
    {
        return request("Win.rgetAccumulate", () -> window.accumulate("Win.rgetAccumulate", origin, originOffset, originCount, originType,
            result, resultOffset, resultCount, resultType, target, targetDisp, targetCount, targetType, op));
    }

    private Request request(final String call, final Supplier<Completion> op)
    {
        return call(call, () -> new RmaRequest(op.get(), window.engine(), comm.state::handle, 0));
    }

    // ------------------------------------------------------------------------------------------ synchronisation

    /**
     * MPI_Win_fence: completes this rank's operations, then synchronises the window's ranks; opens an access and
     * exposure epoch unless {@code assertion} has {@link #MODE_NOSUCCEED}. Collective. Between ranks that are threads
     * of one JVM the synchronisation is a barrier by atomics on the window's own memory (no message).
     *
     * @param assertion 0 or MODE_NOSTORE | MODE_NOPUT | MODE_NOPRECEDE | MODE_NOSUCCEED (ERR_ASSERT otherwise).
     */
    public void fence(final int assertion)
    {
        call("Win.fence", () ->
        {
            checkAssert("Win.fence", assertion, MODE_NOSTORE | MODE_NOPUT | MODE_NOPRECEDE | MODE_NOSUCCEED);
            window.fence("Win.fence", (assertion & MODE_NOSUCCEED) == 0);
            if (fenceDirect == 0)
            {
                fenceDirect = WinMemory.everyRank(comm, window.barrierDirect()) ? 1 : -1;
            }
            if (fenceDirect > 0)
            {
                window.barrier();
            }
            else
            {
                comm.barrier();
            }
        });
    }

    /**
     * How fences synchronise, decided together at the first fence: 1 by atomics on the ranks' synchronisation memory
     * (every rank reaches every other's directly: threads of one JVM), -1 by the communicator's barrier, 0 undecided.
     */
    private int fenceDirect;

    /** MPI_Win_post: opens an exposure epoch for the ranks of {@code group} (a subgroup of {@link #group()}). */
    public void post(final Group group, final int assertion)
    {
        call("Win.post", () ->
        {
            checkAssert("Win.post", assertion, MODE_NOCHECK | MODE_NOSTORE | MODE_NOPUT);
            window.post("Win.post", ranksOf("Win.post", group));
        });
    }

    /** MPI_Win_start: opens an access epoch to the ranks of {@code group}, once each has posted. */
    public void start(final Group group, final int assertion)
    {
        call("Win.start", () ->
        {
            checkAssert("Win.start", assertion, MODE_NOCHECK);
            window.start("Win.start", ranksOf("Win.start", group));
        });
    }

    /** MPI_Win_complete: completes the access epoch {@link #start} opened. */
    public void complete()
    {
        call("Win.complete", () -> window.complete("Win.complete"));
    }

    /** MPI_Win_wait: waits until every origin of the exposure epoch has called {@link #complete}, then closes it. */
    public void await()
    {
        call("Win.await", () -> window.waitEpoch("Win.await", true));
    }

    /**
     * A jmpi extension, for coarrays' {@code sync images}: signals each rank of {@code ranks} (window ranks, this rank
     * not among them) once and waits until each has signalled this rank once, through the window's synchronisation
     * memory (atomics between threads and through the PVAS arena; the one-sided layer elsewhere), with no message and
     * no epoch left open. The signal is {@link #post}'s: a rank's k-th signal or post to a partner matches the partner's
     * k-th wait for it. Everything this rank wrote to its memory or completed at a target before the call is visible to
     * the partners after theirs.
     *
     * @throws MpiException ERR_RANK for a rank outside the window's group or this rank, ERR_RMA_SYNC inside a PSCW
     *                      epoch of this window.
     */
    public void signalAndWait(final int... ranks)
    {
        call("Win.signalAndWait", () ->
        {
            for (final int r : ranks)
            {
                if (r < 0 || r >= comm.size() || r == comm.rank())
                {
                    throw new MpiException(ErrorClass.ERR_RANK, "Win.signalAndWait: rank " + r + " is not another rank of the window's group of " +
                        comm.size());
                }
            }
            window.signalAndWait("Win.signalAndWait", ranks);
        });
    }

    /** MPI_Win_test: {@link #await} without blocking; true when the exposure epoch is closed by this call. */
    public boolean test()
    {
        return call("Win.test", () -> window.waitEpoch("Win.test", false));
    }

    /** MPI_Win_lock: a passive-target access epoch to {@code rank}; {@link #LOCK_EXCLUSIVE} or {@link #LOCK_SHARED}. */
    public void lock(final int lockType, final int rank, final int assertion)
    {
        call("Win.lock", () ->
        {
            checkAssert("Win.lock", assertion, MODE_NOCHECK);
            window.lock("Win.lock", lockType, rank, (assertion & MODE_NOCHECK) != 0);
        });
    }

    /** MPI_Win_unlock: completes the operations to {@code rank} (at the target) and releases the lock. */
    public void unlock(final int rank)
    {
        call("Win.unlock", () -> window.unlock("Win.unlock", rank));
    }

    /** MPI_Win_lock_all: a shared lock on every rank. */
    public void lockAll(final int assertion)
    {
        call("Win.lockAll", () ->
        {
            checkAssert("Win.lockAll", assertion, MODE_NOCHECK);
            window.lockAll("Win.lockAll", (assertion & MODE_NOCHECK) != 0);
        });
    }

    /** MPI_Win_unlock_all. */
    public void unlockAll()
    {
        call("Win.unlockAll", () -> window.unlockAll("Win.unlockAll"));
    }

    /** MPI_Win_flush: the operations to {@code rank} are complete at the target. Inside a lock epoch. */
    public void flush(final int rank)
    {
        if (window.flushDone(rank))
        {
            return;
        }
        call("Win.flush", () -> window.flush("Win.flush", rank));
    }

    /** MPI_Win_flush_all. */
    public void flushAll()
    {
        if (window.flushAllDone())
        {
            return;
        }
        call("Win.flushAll", () -> window.flushAll("Win.flushAll"));
    }

    /** MPI_Win_flush_local: the origin buffers of the operations to {@code rank} may be reused (here: as flush). */
    public void flushLocal(final int rank)
    {
        call("Win.flushLocal", () -> window.flush("Win.flushLocal", rank));
    }

    /** MPI_Win_flush_local_all (here: as flushAll). */
    public void flushLocalAll()
    {
        call("Win.flushLocalAll", () -> window.flushAll("Win.flushLocalAll"));
    }

    /** MPI_Win_sync: a full memory fence (the unified model has one copy to synchronise). */
    public void sync()
    {
        call("Win.sync", () -> window.sync("Win.sync"));
    }

    // ------------------------------------------------------------------------------------------ lifetime

    /**
     * MPI_Win_free: collective; no epoch may be open (ERR_RMA_SYNC). Completes this rank's operations, waits until
     * every rank is done with the window, then ends it. Later calls on it raise ERR_WIN.
     */
    public void free()
    {
        call("Win.free", () ->
        {
            window.beginFree("Win.free");
            comm.barrier();
            window.release();
        });
        if (sharedBlock != null)
        {
            sharedBlock.free();
        }
        if (arenaPart != null)
        {
            arena.free(arenaPart);
        }
        comm.free();
    }

    /** {@link #free()}, for try-with-resources. */
    @Override
    public void close()
    {
        free();
    }

    /** Whether {@link #free()} has run. */
    public boolean isFreed()
    {
        return window.freed();
    }

    private int[] ranksOf(final String call, final Group group)
    {
        if (group == null)
        {
            throw new MpiException(ErrorClass.ERR_GROUP, call + ": group is null");
        }
        final int[] world = comm.state.worldRanks();
        final int[] members = group.worldRanks();
        final int[] ranks = new int[members.length];
        for (int i = 0; i < members.length; i++)
        {
            ranks[i] = -1;
            for (int r = 0; r < world.length; r++)
            {
                if (world[r] == members[i])
                {
                    ranks[i] = r;
                }
            }
            if (ranks[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_GROUP, call + ": world rank " + members[i] + " is not in the window's group");
            }
        }
        return ranks;
    }

    private static void checkAssert(final String call, final int assertion, final int allowed)
    {
        if ((assertion & ~ALL_MODES) != 0 || (assertion & ~allowed) != 0)
        {
            throw new MpiException(ErrorClass.ERR_ASSERT, call + ": assertion " + assertion + " has bits this call does not take");
        }
    }

    private <T> T call(final String call, final Supplier<T> body)
    {
        if (window.freed())
        {
            comm.state.services().checkLive(call);
            throw comm.state.handle(new MpiException(ErrorClass.ERR_WIN, call + ": the window was freed"));
        }
        return comm.call(call, body);
    }

    private void call(final String call, final Runnable body)
    {
        call(call, () ->
        {
            body.run();
            return null;
        });
    }

    @Override
    public String toString()
    {
        return "Win[" + (name.isEmpty() ? flavor.toString() : name) + ", rank " + comm.rank() + " of " + comm.size() + "]";
    }
}
