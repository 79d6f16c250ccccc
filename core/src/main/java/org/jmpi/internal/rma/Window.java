package org.jmpi.internal.rma;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.function.UnaryOperator;

import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.reduce.Kernels;

/**
 * One rank's side of an RMA window (MPI 4.1 ch. 12), the engine behind {@code org.jmpi.Win}: the window's memory
 * registered with the rank's one-sided layer, every rank's key, displacement unit and size, the operations in flight
 * per target, and the epochs this rank has open.
 * <ol>
 * <li><b>Create</b> (collective): register the memory and a control region (per rank: a post counter and a complete
 * counter; one lock word), then gather every rank's keys, sizes and displacement units.</li>
 * <li><b>Operations</b> check the epoch (ERR_RMA_SYNC), the target rank, the displacement (ERR_DISP) and the target
 * footprint against the target's size (ERR_RMA_RANGE) at the origin, then go to the one-sided layer: contiguous
 * puts and gets to {@link OneSided} (direct, remote memory or frames), everything else to {@link WinOps}. What
 * did not finish at once is kept per target until a flush, unlock, complete or fence waits for it.</li>
 * <li><b>Fence</b>: wait for this rank's operations, then a barrier on the window's communicator.</li>
 * <li><b>PSCW and locks</b>: the epochs and their transitions are {@link Epochs}'s; the target takes no part in a
 * lock: through peer memory nothing of it runs; through frames its engine applies them whenever it polls (with
 * asynchronous progress, while the application computes).</li>
 * </ol>
 *
 * <p>Threading: the calling thread runs the checks and waits; everything touching the one-sided layer runs on the
 * rank's engine ({@link ProgressEngine#call}). One thread per window at a time (as MPI requires for epochs).
 */
public final class Window
{
    /** Longs of one rank's record in the exchange at create. */
    private static final int RECORD = 3 * RegionKey.LONGS + 3;
    private static final long BYTES = UnsafeApi.arrayBaseOffset(byte[].class);

    /** Lock types (MPI_LOCK_EXCLUSIVE, MPI_LOCK_SHARED). */
    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;

    private final CommState comm;
    private final ProgressEngine engine;
    private final OneSided oneSided;
    private final int rank;
    private final int size;
    private final Object memory;
    private final Region region;
    private final Control control;
    /** The attachments of a dynamic window, or null. */
    private final Directory directory;
    /** The attachment the last {@link #checkTarget} found (dynamic windows), read by the operation it checked. */
    private Directory.Entry checked;
    private final RegionKey[] keys;
    private final long[] sizes;
    private final int[] dispUnits;
    /** Per rank: its memory's element type, or null for a ByteBuffer (any type). */
    private final Datatype[] elementTypes;
    private final RemoteRegion[] resolved;
    private final ArrayList<Completion>[] inFlight;
    /** Targets whose memory this rank reaches directly, for the fetch-and-op hot path. */
    private final DirectTargets direct;
    /** The epochs this rank has open, and their transitions. */
    private final Epochs epochs;
    private boolean freed;

    /**
     * Registers {@code memory} (a primitive array or ByteBuffer; null for a window without memory) and exchanges the
     * records through {@code allgather} (this rank's longs in, every rank's out, in rank order). Collective.
     */
    @SuppressWarnings("unchecked")
    public Window(final CommState comm, final Object memory, final int dispUnit, final UnaryOperator<long[]> allgather)
    {
        this(comm, memory, dispUnit, false, allgather);
    }

    /** As {@link #Window(CommState, Object, int, UnaryOperator)}; {@code dynamic}: no memory, attachments later. */
    public Window(final CommState comm, final Object memory, final int dispUnit, final boolean dynamic,
        final UnaryOperator<long[]> allgather)
    {
        this.comm = comm;
        this.engine = comm.engine();
        this.oneSided = comm.services().component(OneSided.class);
        this.rank = comm.rank();
        this.size = comm.size();
        this.memory = memory;
        final BufferView view = memory == null ? null : Region.addressable(memory, "window memory");
        this.region = memory == null ? null : engine.call(() -> oneSided.register(memory));
        this.control = new Control(comm, oneSided);
        this.directory = dynamic ? new Directory(oneSided, engine) : null;
        final long[] mine = new long[RECORD];
        (region == null ? RegionKey.NONE : region.key()).toLongs(mine, 0);
        control.key().toLongs(mine, RegionKey.LONGS);
        (directory == null ? RegionKey.NONE : directory.key()).toLongs(mine, 2 * RegionKey.LONGS);
        mine[3 * RegionKey.LONGS] = view == null ? 0 : view.capacityBytes();
        mine[3 * RegionKey.LONGS + 1] = dispUnit;
        mine[3 * RegionKey.LONGS + 2] = view == null || view.byteAddressed() ? -1 : Directory.elementIndex(view.elementType());
        final long[] all = allgather.apply(mine);
        keys = new RegionKey[size];
        final RegionKey[] controlKeys = new RegionKey[size];
        sizes = new long[size];
        dispUnits = new int[size];
        elementTypes = new Datatype[size];
        final RegionKey[] tables = new RegionKey[size];
        for (int r = 0; r < size; r++)
        {
            final int at = r * RECORD;
            keys[r] = RegionKey.fromLongs(all, at);
            controlKeys[r] = RegionKey.fromLongs(all, at + RegionKey.LONGS);
            tables[r] = RegionKey.fromLongs(all, at + 2 * RegionKey.LONGS);
            sizes[r] = all[at + 3 * RegionKey.LONGS];
            dispUnits[r] = (int)all[at + 3 * RegionKey.LONGS + 1];
            elementTypes[r] = Directory.element((int)all[at + 3 * RegionKey.LONGS + 2]);
        }
        control.peers(controlKeys);
        if (directory != null)
        {
            directory.peers(tables);
        }
        resolved = new RemoteRegion[size];
        inFlight = new ArrayList[size];
        for (int r = 0; r < size; r++)
        {
            inFlight[r] = new ArrayList<>();
        }
        epochs = new Epochs(this, control, engine, size);
        direct = new DirectTargets(sizes, dispUnits, elementTypes);
    }

    /** Longs each rank contributes to the exchange at create. */
    public static int recordLongs()
    {
        return RECORD;
    }

    /** The memory this rank exposes (null for none). */
    public Object memory()
    {
        return memory;
    }

    /** Bytes of rank {@code r}'s window memory. */
    public long sizeBytes(final int r)
    {
        return sizes[r];
    }

    /** Rank {@code r}'s displacement unit. */
    public int dispUnit(final int r)
    {
        return dispUnits[r];
    }

    /** The window memory of rank {@code r} as this rank reaches it directly (threads of one JVM, itself), else null. */
    public Object directMemory(final int r)
    {
        return engine.call(() -> target(r).directMemory());
    }

    /** Whether rank {@code r}'s memory is reached directly (loads and stores) rather than by messages. */
    public boolean direct(final int r)
    {
        return directMemory(r) != null;
    }

    // ------------------------------------------------------------------------------------------ operations

    /** MPI_Put (and MPI_Rput: the returned completion is its request's). */
    public Completion put(final String call, final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final int target, final long disp, final int targetCount, final Datatype targetType)
    {
        final Convertor src = Convertor.create(BufferView.of(origin, call + ": origin buffer"), originOffset, originCount, originType);
        final long targetByte = checkTarget(call, target, disp, targetCount, targetType, src.totalBytes());
        if (src.totalBytes() == 0)
        {
            return Completion.DONE;
        }
        final boolean plain = plain(originType, targetType, src);
        final Directory.Entry e = checked;
        return track(target, engine.call(() -> plain ?
            oneSided.put(place(target, e), targetByte + targetType.trueLb(), src.view(),
                (long)originOffset * src.view().elementSize() + originType.trueLb(), src.totalBytes()) :
            oneSided.winOps().put(place(target, e), targetByte, targetCount, targetType, src)));
    }

    /** MPI_Get (and MPI_Rget). */
    public Completion get(final String call, final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final int target, final long disp, final int targetCount, final Datatype targetType)
    {
        final Convertor dst = Convertor.createForReceive(BufferView.of(origin, call + ": origin buffer"), originOffset, originCount,
            originType);
        final long targetByte = checkTarget(call, target, disp, targetCount, targetType, dst.totalBytes());
        if (dst.totalBytes() == 0)
        {
            return Completion.DONE;
        }
        final boolean plain = plain(originType, targetType, dst);
        final Directory.Entry e = checked;
        return track(target, engine.call(() -> plain ?
            oneSided.get(place(target, e), targetByte + targetType.trueLb(), dst.view(),
                (long)originOffset * dst.view().elementSize() + originType.trueLb(), dst.totalBytes()) :
            oneSided.winOps().get(place(target, e), targetByte, targetCount, targetType, dst)));
    }

    /**
     * MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op (and their request forms): {@code result} null for a plain
     * accumulate; {@code origin} ignored for NO_OP.
     */
    public Completion accumulate(final String call, final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final Object result, final int resultOffset, final int resultCount, final Datatype resultType,
        final int target, final long disp, final int targetCount, final Datatype targetType, final Op op)
    {
        Kernels.check(call, op, targetType);
        if (!op.isPredefined())
        {
            throw new MpiException(ErrorClass.ERR_OP, call + ": one-sided accumulates take predefined ops only (MPI 4.1 §12.3.4), not a user op");
        }
        if (targetType.size() > 0 && targetType.basicType() == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": the target datatype " + targetType.name() + " mixes basic types");
        }
        final long total = targetType.size() * targetCount;
        byte[] in = null;
        if (op.code() != Op.CODE_NO_OP)
        {
            final Convertor src = Convertor.create(BufferView.of(origin, call + ": origin buffer"), originOffset, originCount, originType);
            if (src.totalBytes() != total || (total > 0 && originType.basicType() != targetType.basicType()))
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": origin (" + originCount + " x " + originType.name() + ", " +
                    src.totalBytes() + " bytes) and target (" + targetCount + " x " + targetType.name() + ", " + total +
                    " bytes) differ in basic type or size");
            }
            in = new byte[(int)total];
            src.pack(in, BYTES, total);
        }
        Convertor res = null;
        if (result != null)
        {
            res = Convertor.createForReceive(BufferView.of(result, call + ": result buffer"), resultOffset, resultCount, resultType);
            if (res.totalBytes() != total)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": result (" + res.totalBytes() + " bytes) and target (" + total +
                    " bytes) differ in size");
            }
        }
        final long targetByte = checkTarget(call, target, disp, targetCount, targetType, total);
        if (total == 0)
        {
            return Completion.DONE;
        }
        final byte[] data = in;
        final Convertor fetched = res;
        final Directory.Entry e = checked;
        return track(target, engine.call(() ->
            oneSided.winOps().accumulate(place(target, e), targetByte, targetCount, targetType, op, data, fetched)));
    }

    /**
     * MPI_Fetch_and_op's hot path ({@link DirectTargets}): one atomic on the target's memory where this rank reaches
     * it directly, the operand and result in primitive arrays of {@code type}. Checks what {@link #accumulate} checks;
     * returns false, having done nothing, when anything is off or the path does not apply (the caller then takes
     * {@link #accumulate}, which raises the errors). No allocation, no engine call once the target is resolved.
     */
    public boolean fetchAndOpDirect(final Object origin, final int originOffset, final Object result, final int resultOffset,
        final Datatype type, final int target, final long disp, final Op op)
    {
        // the fewest checks that keep the path, inlined, small: a freed window's targets are forgotten, a dynamic
        // window's never learnt, and DirectTargets checks the element, its range and the arrays
        if (target < 0 || target >= size || !epochs.open(target) ||
            comm.services().finalized())
        {
            return false;
        }
        return direct.fetchAndOp(origin, originOffset, result, resultOffset, type, target, disp, op) ||
            firstFetchAndOp(origin, originOffset, result, resultOffset, type, target, disp, op);
    }

    /** The first fetch-and-op to {@code target}: learns its path, then tries again; false when already known. */
    private boolean firstFetchAndOp(final Object origin, final int originOffset, final Object result, final int resultOffset,
        final Datatype type, final int target, final long disp, final Op op)
    {
        if (freed || direct.known(target))
        {
            return false;
        }
        learn(target);
        return direct.fetchAndOp(origin, originOffset, result, resultOffset, type, target, disp, op);
    }

    /**
     * MPI_Put's and MPI_Get's hot path ({@link DirectTargets#copy}): one plain copy between the origin's array and the
     * target's memory where this rank reaches it directly, for {@code count} elements of one basic type on both sides
     * (the coarrays' transfers, halo planes, gathered blocks). Checks what {@link #put} and {@link #get} check; returns
     * false, having done nothing, when anything is off or the path does not apply (the caller then takes the general
     * path, which raises the errors). No allocation, no engine call once the target is resolved; complete on return.
     */
    public boolean copyDirect(final boolean put, final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final int target, final long disp, final int targetCount, final Datatype targetType)
    {
        if (freed || directory != null || target < 0 || target >= size || disp < 0 || originType == null || originType != targetType ||
            originCount != targetCount || originCount < 0 || !epochs.open(target) || comm.services().finalized())
        {
            return false;
        }
        final Datatype element = elementTypes[target];
        final long unit = targetType.size();
        if ((element != null && element != targetType) || !targetType.isPredefined() || targetType.basicType() != targetType ||
            unit <= 0 || (unit & (unit - 1)) != 0)
        {
            return false;
        }
        final long limit = sizes[target];
        if (disp > limit / dispUnits[target])
        {
            return false;
        }
        final long targetByte = disp * dispUnits[target];
        final long bytes = unit * originCount;
        // nothing to move (a rank may expose nothing): the general path's checks and its done completion
        if (bytes == 0 || targetByte + bytes > limit || (element != null && (targetByte & (unit - 1)) != 0))
        {
            return false;
        }
        if (!direct.known(target))
        {
            learn(target);
        }
        return direct.copy(put, origin, originOffset, originCount, targetType, target, targetByte, bytes);
    }

    /**
     * MPI_Win_flush_all's hot path: true, having done all it does, when a passive-target epoch is open to every rank
     * (lockAll) and nothing is in flight (every operation took the direct path); false for {@link #flushAll(String)}.
     */
    public boolean flushAllDone()
    {
        if (freed || directory != null || !epochs.lockAll() || comm.services().finalized())
        {
            return false;
        }
        for (int r = 0; r < size; r++)
        {
            if (!inFlight[r].isEmpty())
            {
                return false;
            }
        }
        return true;
    }

    /** Resolves target {@code r}'s memory on the engine once, for {@link DirectTargets}. */
    private void learn(final int r)
    {
        direct.learn(r, directory != null ? null : engine.call(() -> target(r).direct()));
    }

    /**
     * MPI_Win_flush's hot path: true, having done all a flush does, when a passive-target epoch to {@code target} is
     * open and nothing to it is in flight (every operation took the direct path); false for the general
     * {@link #flush(String, int)}.
     */
    public boolean flushDone(final int target)
    {
        return !freed && directory == null && target >= 0 && target < size && epochs.passive(target) &&
            inFlight[target].isEmpty() && !comm.services().finalized();
    }

    /** MPI_Compare_and_swap: one element of a predefined type. */
    public Completion compareAndSwap(final String call, final Object origin, final int originOffset, final Object compare,
        final int compareOffset, final Object result, final int resultOffset, final Datatype type, final int target, final long disp)
    {
        if (type == null || !type.isPredefined() || type.basicType() != type)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": compare-and-swap takes one element of a basic type, not " + type);
        }
        final int unit = (int)type.size();
        final byte[] data = new byte[2 * unit];
        Convertor.create(BufferView.of(origin, call + ": origin buffer"), originOffset, 1, type).pack(data, BYTES, unit);
        Convertor.create(BufferView.of(compare, call + ": compare buffer"), compareOffset, 1, type).pack(data, BYTES + unit, unit);
        final Convertor res = Convertor.createForReceive(BufferView.of(result, call + ": result buffer"), resultOffset, 1, type);
        final long targetByte = checkTarget(call, target, disp, 1, type, unit);
        final Directory.Entry e = checked;
        return track(target, engine.call(() -> oneSided.winOps().compareAndSwap(place(target, e), targetByte, type, data, res)));
    }

    /** Contiguous on both sides with the same basic layout: the untyped layer moves it (and may use remote memory). */
    private static boolean plain(final Datatype originType, final Datatype targetType, final Convertor origin)
    {
        return originType.isContiguous() && targetType.isContiguous() && origin.isNativeOrder() && origin.view().indirect() == null;
    }

    /**
     * The checks every operation makes at the origin: the window is live, an access epoch to {@code target} is open,
     * the target rank exists, the displacement is not negative, the target datatype suits the target's memory, the
     * sizes match, and the footprint lies inside the target's window. Returns the target byte of item 0.
     */
    private long checkTarget(final String call, final int target, final long disp, final int targetCount, final Datatype targetType,
        final long originBytes)
    {
        checkLive(call);
        if (target < 0 || target >= size)
        {
            throw new MpiException(ErrorClass.ERR_RANK, call + ": target rank " + target + " outside the window's group of " + size);
        }
        if (!epochs.open(target))
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": no access epoch to rank " + target + " is open on this window " +
                "(call fence, start, lock or lockAll first)");
        }
        if (targetType == null || !targetType.isCommitted())
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": target datatype " + targetType + " is not committed");
        }
        if (targetCount < 0)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, call + ": target count " + targetCount + " must be >= 0");
        }
        if (disp < 0)
        {
            throw new MpiException(ErrorClass.ERR_DISP, call + ": target displacement " + disp + " must be >= 0");
        }
        final long total = targetType.size() * targetCount;
        if (total != originBytes)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": origin data (" + originBytes + " bytes) and target data (" +
                targetCount + " x " + targetType.name() + " = " + total + " bytes) differ in size");
        }
        checked = directory == null ? null : directory.lookup(call, target, comm.worldRank(target), disp);
        final Datatype element = checked == null ? elementTypes[target] : checked.element;
        final long limit = checked == null ? sizes[target] : checked.key.lengthBytes();
        final Datatype basic = targetType.basicType();
        if (element != null && total > 0 && (basic == null || component(basic) != element))
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": target datatype " + targetType.name() + " does not suit rank " + target +
                "'s window memory of " + element.name() + " elements (a ByteBuffer window takes any type)");
        }
        final long unit = dispUnits[target];
        final long targetByte = checked == null ? Math.multiplyExact(disp, unit) : Directory.offset(disp);
        if (element != null && targetByte % element.size() != 0)
        {
            throw new MpiException(ErrorClass.ERR_DISP, call + ": displacement " + disp + " x disp unit " + unit + " = byte " + targetByte +
                " is not at an element of rank " + target + "'s " + element.name() + " window");
        }
        if (total > 0)
        {
            final long span = (targetCount - 1) * targetType.extent();
            final long lo = targetByte + targetType.trueLb() + Math.min(0, span);
            final long hi = targetByte + targetType.trueUb() + Math.max(0, span);
            if (lo < 0 || hi > limit)
            {
                throw new MpiException(ErrorClass.ERR_RMA_RANGE, call + ": target bytes [" + lo + ", " + hi + ") (displacement " + disp +
                    " x disp unit " + unit + ", " + targetCount + " x " + targetType.name() + ") outside rank " + target + "'s window of " +
                    limit + " bytes");
            }
        }
        return targetByte;
    }

    /** The array element type a basic type is made of (INT2: INT); null for mixed pairs. */
    private static Datatype component(final Datatype basic)
    {
        if (basic == Datatype.INT2)
        {
            return Datatype.INT;
        }
        if (basic == Datatype.LONG2)
        {
            return Datatype.LONG;
        }
        if (basic == Datatype.FLOAT2)
        {
            return Datatype.FLOAT;
        }
        if (basic == Datatype.DOUBLE2)
        {
            return Datatype.DOUBLE;
        }
        return basic.isPredefined() && !basic.name().contains("_") ? basic : null;
    }

    Completion track(final int target, final Completion c)
    {
        if (!c.isDone())
        {
            inFlight[target].add(c);
        }
        else if (c.failure() != null)
        {
            throw c.failure();
        }
        return c;
    }

    /** Engine thread: the region an operation checked by {@link #checkTarget} goes to. */
    private RemoteRegion place(final int r, final Directory.Entry e)
    {
        return e == null ? target(r) : e.region(oneSided, comm.worldRank(r));
    }

    /** Engine thread: rank {@code r}'s window memory, resolved once. */
    private RemoteRegion target(final int r)
    {
        RemoteRegion rr = resolved[r];
        if (rr == null)
        {
            rr = oneSided.resolve(comm.worldRank(r), keys[r]);
            resolved[r] = rr;
        }
        return rr;
    }

    // ------------------------------------------------------------------------------------------ completion

    void forget()
    {
        if (directory != null)
        {
            directory.forget();
        }
    }

    /** MPI_Win_attach (dynamic windows): returns the address of {@code memory}'s byte 0, the displacement peers use. */
    public long attach(final String call, final Object memory)
    {
        checkLive(call);
        if (directory == null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_FLAVOR, call + ": only a dynamic window takes attachments");
        }
        return directory.attach(call, memory);
    }

    /** MPI_Win_detach. */
    public void detach(final String call, final Object memory)
    {
        checkLive(call);
        if (directory == null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_FLAVOR, call + ": only a dynamic window takes attachments");
        }
        directory.detach(call, memory);
    }

    /** Waits for every operation to {@code target} (MPI_Win_flush and flush_local: remote completion implies local). */
    public void flush(final String call, final int target)
    {
        checkLive(call);
        if (target < 0 || target >= size)
        {
            throw new MpiException(ErrorClass.ERR_RANK, call + ": target rank " + target + " outside the window's group of " + size);
        }
        if (!epochs.passive(target))
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": no passive-target epoch (lock or lockAll) to rank " + target + " is open");
        }
        complete(target);
        forget();
    }

    /** Waits for every operation to every target (flush_all, flush_local_all). */
    public void flushAll(final String call)
    {
        checkLive(call);
        if (!epochs.anyPassive())
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": no passive-target epoch (lock or lockAll) is open");
        }
        completeAll();
    }

    void completeAll()
    {
        for (int r = 0; r < size; r++)
        {
            complete(r);
        }
    }

    void complete(final int target)
    {
        final ArrayList<Completion> list = inFlight[target];
        if (list.isEmpty())
        {
            return;
        }
        final Thread me = Thread.currentThread();
        for (int i = 0; i < list.size(); i++)
        {
            list.get(i).wakeOnDone(me);
        }
        engine.await(() -> allDone(list));
        MpiException failure = null;
        for (final Completion c : list)
        {
            failure = failure == null ? c.failure() : failure;
        }
        list.clear();
        if (failure != null)
        {
            throw new MpiException(failure.errorClass(), failure.getMessage(), failure);
        }
    }

    private static boolean allDone(final ArrayList<Completion> list)
    {
        for (int i = 0; i < list.size(); i++)
        {
            if (!list.get(i).isDone())
            {
                return false;
            }
        }
        return true;
    }

    /** Waits for one completion (a request's), and reports its failure. */
    public void await(final Completion c)
    {
        c.wakeOnDone(Thread.currentThread());
        engine.await(c::isDone);
    }

    /** The engine, for requests. */
    public ProgressEngine engine()
    {
        return engine;
    }

    // ------------------------------------------------------------------------------------------ synchronisation

    /**
     * The first half of MPI_Win_fence: completes this rank's operations and opens (or with {@code succeed} false,
     * closes) the fence epoch; the caller then runs the barrier.
     */
    public void fence(final String call, final boolean succeed)
    {
        checkLive(call);
        final String open = epochs.openEpoch();
        if (open != null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": a " + (open.equals("a lock") ? "lock" : "start/post") +
                " epoch is open on this window");
        }
        completeAll();
        epochs.fence(succeed);
        forget();
    }

    /** Whether every rank's synchronisation memory is reached directly: {@link #barrier()} may run where it holds everywhere. */
    public boolean barrierDirect()
    {
        return control.allDirect();
    }

    /**
     * The second half of MPI_Win_fence where {@link #barrierDirect()} holds on every rank (ranks that are threads of one
     * JVM): a barrier by atomics on the ranks' synchronisation memory, with no message and no collective call.
     */
    public void barrier()
    {
        control.barrier();
    }

    /** MPI_Win_post: exposes this rank's window to the ranks of {@code group} (window ranks). */
    public void post(final String call, final int[] group)
    {
        checkLive(call);
        epochs.post(call, group);
    }

    /** Signals each rank of {@code group} and waits for a signal of each ({@link Epochs#signalAndWait}). */
    public void signalAndWait(final String call, final int[] group)
    {
        checkLive(call);
        epochs.signalAndWait(call, group);
    }

    /** MPI_Win_start: waits until every target of {@code group} has posted, then opens access to them. */
    public void start(final String call, final int[] group)
    {
        checkLive(call);
        epochs.start(call, group);
    }

    /** MPI_Win_complete: completes the operations of the access epoch and tells its targets. */
    public void complete(final String call)
    {
        checkLive(call);
        epochs.complete(call);
    }

    /** MPI_Win_wait ({@code block}) or MPI_Win_test: whether every origin of the exposure epoch has completed. */
    public boolean waitEpoch(final String call, final boolean block)
    {
        checkLive(call);
        return epochs.waitEpoch(call, block);
    }

    /** MPI_Win_lock. {@code noCheck}: MPI_MODE_NOCHECK, no lock is taken at the target. */
    public void lock(final String call, final int lockType, final int target, final boolean noCheck)
    {
        checkLive(call);
        epochs.lock(call, lockType, target, noCheck);
    }

    /** MPI_Win_unlock: completes the operations to {@code target} and releases its lock. */
    public void unlock(final String call, final int target)
    {
        checkLive(call);
        epochs.unlock(call, target);
    }

    /** MPI_Win_lock_all: a shared lock on every rank. */
    public void lockAll(final String call, final boolean noCheck)
    {
        checkLive(call);
        epochs.lockAll(call, noCheck);
    }

    /** MPI_Win_unlock_all. */
    public void unlockAll(final String call)
    {
        checkLive(call);
        epochs.unlockAll(call);
    }

    /** MPI_Win_sync: a full memory fence between this rank's loads and stores and the window's public copy (one copy here). */
    public void sync(final String call)
    {
        checkLive(call);
        VarHandle.fullFence();
    }

    // ------------------------------------------------------------------------------------------ lifetime

    /**
     * The first half of MPI_Win_free: no epoch may be open (ERR_RMA_SYNC); completes everything this rank started. The
     * caller then runs a barrier (so no peer still reaches this rank's memory) and calls {@link #release()}.
     */
    public void beginFree(final String call)
    {
        checkLive(call);
        final String open = epochs.openEpoch();
        if (open != null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": an epoch is still open on this window (" + open + ")");
        }
        completeAll();
    }

    /** Ends the registrations; the window is freed. */
    public void release()
    {
        freed = true;
        direct.forget();
        engine.call(() ->
        {
            if (region != null)
            {
                oneSided.deregister(region);
            }
            control.deregister();
            if (directory != null)
            {
                directory.release();
            }
            return null;
        });
    }

    public boolean freed()
    {
        return freed;
    }

    private void checkLive(final String call)
    {
        comm.services().checkLive(call);
        if (freed)
        {
            throw new MpiException(ErrorClass.ERR_WIN, call + ": the window was freed");
        }
    }
}
