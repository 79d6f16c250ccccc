package mpi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * MPI_Win, as Open MPI's Java bindings publish it, over jmpi's {@link org.jmpi.Win}. Sizes, displacement units and
 * target displacements are in the buffer's elements, as there; a buffer is addressed from its index 0 (position
 * and limit are ignored and left untouched). Unlike Open MPI, heap buffers are accepted as well as direct ones.
 *
 * <p>The allocating constructor ({@code MPI_Win_allocate}, {@code MPI_Win_allocate_shared}) takes the memory as
 * {@code base}, since the Java signature has no way to hand allocated memory back: the window exposes {@code base},
 * as {@code MPI_Win_create} would.
 *
 * <p>Threading: as the window's communicator.
 */
public final class Win implements Freeable
{
    /** A window that was freed. */
    public static final int WIN_NULL = 0;
    /** {@link #Win(int, int, Info, Comm, Buffer, int)}: MPI_Win_allocate. */
    public static final int FLAVOR_PRIVATE = 0;
    /** {@link #Win(int, int, Info, Comm, Buffer, int)}: MPI_Win_allocate_shared. */
    public static final int FLAVOR_SHARED = 1;

    private org.jmpi.Win win;
    private final org.jmpi.Intracomm comm;
    private final Buffer base;
    /** The views {@link #attach} gave the core window, by the buffer the program attached. */
    private final Map<Buffer, Buffer> attached = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());
    private final int baseSize;
    private final Map<Integer, byte[]> attrs = new ConcurrentHashMap<>();

    /** MPI_Win_create over the first {@code size} elements of {@code base}; {@code dispUnit} in elements. */
    public Win(final Buffer base, final int size, final int dispUnit, final Info info, final Comm comm) throws MPIException
    {
        this.base = base;
        this.baseSize = elementSize(base);
        this.comm = intra(comm);
        final Buffer memory = window(base, size);
        this.win = open(() -> org.jmpi.Win.create(memory, dispUnit * baseSize, Info.core(info), this.comm));
    }

    /** MPI_Win_allocate ({@link #FLAVOR_PRIVATE}) or MPI_Win_allocate_shared ({@link #FLAVOR_SHARED}) over {@code base}. */
    public Win(final int size, final int dispUnit, final Info info, final Comm comm, final Buffer base, final int flavor)
        throws MPIException
    {
        this(base, size, dispUnit, info, comm);
        if (flavor != FLAVOR_PRIVATE && flavor != FLAVOR_SHARED)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "Win: flavor " + flavor + " is neither FLAVOR_PRIVATE nor FLAVOR_SHARED");
        }
    }

    /** MPI_Win_create_dynamic: memory comes with {@link #attach}. */
    public Win(final Info info, final Comm comm) throws MPIException
    {
        this.base = null;
        this.baseSize = 1;
        this.comm = intra(comm);
        this.win = open(() -> org.jmpi.Win.createDynamic(Info.core(info), this.comm));
    }

    /** MPI_Win_attach of the first {@code size} elements of {@code base}. */
    public void attach(final Buffer base, final int size) throws MPIException
    {
        final Buffer memory = window(base, size);
        run(w -> w.attach(memory));
        attached.put(base, memory);
    }

    /** MPI_Win_detach of a buffer given to {@link #attach}. */
    public void detach(final Buffer base) throws MPIException
    {
        final Buffer memory = attached.get(base);
        if (memory == null)
        {
            throw MPIException.of(ErrorClass.ERR_RMA_ATTACH, "detach: the buffer was not attached to this window");
        }
        run(w -> w.detach(memory));
        attached.remove(base);
    }

    /** MPI_Win_get_group. */
    public Group getGroup() throws MPIException
    {
        return new Group(call(org.jmpi.Win::group));
    }

    /** MPI_Put. */
    public void put(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank, final int targetDisp,
        final int targetCount, final Datatype targetType) throws MPIException
    {
        final org.jmpi.Datatype o = Datatype.core(orgType);
        final org.jmpi.Datatype t = Datatype.core(targetType);
        run(w -> w.put(origin, 0, orgCount, o, targetRank, targetDisp, targetCount, t));
    }

    /** MPI_Get. */
    public void get(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank, final int targetDisp,
        final int targetCount, final Datatype targetType) throws MPIException
    {
        final org.jmpi.Datatype o = Datatype.core(orgType);
        final org.jmpi.Datatype t = Datatype.core(targetType);
        run(w -> w.get(origin, 0, orgCount, o, targetRank, targetDisp, targetCount, t));
    }

    /** MPI_Accumulate. */
    public void accumulate(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank, final int targetDisp,
        final int targetCount, final Datatype targetType, final Op op) throws MPIException
    {
        final org.jmpi.Datatype o = Datatype.core(orgType);
        final org.jmpi.Datatype t = Datatype.core(targetType);
        final org.jmpi.Op c = op.core(targetType);
        run(w -> w.accumulate(origin, 0, orgCount, o, targetRank, targetDisp, targetCount, t, c));
    }

    /** MPI_Get_accumulate. */
    public void getAccumulate(final Buffer origin, final int orgCount, final Datatype orgType, final Buffer resultAddr,
        final int resultCount, final Datatype resultType, final int targetRank, final int targetDisp, final int targetCount,
        final Datatype targetType, final Op op) throws MPIException
    {
        final org.jmpi.Datatype o = Datatype.core(orgType);
        final org.jmpi.Datatype r = Datatype.core(resultType);
        final org.jmpi.Datatype t = Datatype.core(targetType);
        final org.jmpi.Op c = op.core(targetType);
        run(w -> w.getAccumulate(origin, 0, orgCount, o, resultAddr, 0, resultCount, r, targetRank, targetDisp, targetCount, t, c));
    }

    /** MPI_Fetch_and_op: one element of {@code dataType}. */
    public void fetchAndOp(final Buffer origin, final Buffer resultAddr, final Datatype dataType, final int targetRank,
        final int targetDisp, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(dataType);
        final org.jmpi.Op c = op.core(dataType);
        run(w -> w.fetchAndOp(origin, 0, resultAddr, 0, t, targetRank, targetDisp, c));
    }

    /** MPI_Compare_and_swap: one element of {@code targetType}. */
    public void compareAndSwap(final Buffer origin, final Buffer compareAddr, final Buffer resultAddr, final Datatype targetType,
        final int targetRank, final int targetDisp) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(targetType);
        run(w -> w.compareAndSwap(origin, 0, compareAddr, 0, resultAddr, 0, t, targetRank, targetDisp));
    }

    /** MPI_Rput. */
    public Request rPut(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank, final int targetDisp,
        final int targetCount, final Datatype targetType) throws MPIException
    {
        final org.jmpi.Datatype o = Datatype.core(orgType);
        final org.jmpi.Datatype t = Datatype.core(targetType);
        return new Request(call(w -> w.rput(origin, 0, orgCount, o, targetRank, targetDisp, targetCount, t)));
    }

    /** MPI_Rget. */
    public Request rGet(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank, final int targetDisp,
        final int targetCount, final Datatype targetType) throws MPIException
    {
        final org.jmpi.Datatype o = Datatype.core(orgType);
        final org.jmpi.Datatype t = Datatype.core(targetType);
        return new Request(call(w -> w.rget(origin, 0, orgCount, o, targetRank, targetDisp, targetCount, t)));
    }

    /** MPI_Raccumulate. */
    public Request rAccumulate(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType, final Op op) throws MPIException
    {
        final org.jmpi.Datatype o = Datatype.core(orgType);
        final org.jmpi.Datatype t = Datatype.core(targetType);
        final org.jmpi.Op c = op.core(targetType);
        return new Request(call(w -> w.raccumulate(origin, 0, orgCount, o, targetRank, targetDisp, targetCount, t, c)));
    }

    /** MPI_Rget_accumulate. */
    public Request rGetAccumulate(final Buffer origin, final int orgCount, final Datatype orgType, final Buffer resultAddr,
        final int resultCount, final Datatype resultType, final int targetRank, final int targetDisp, final int targetCount,
        final Datatype targetType, final Op op) throws MPIException
    {
        final org.jmpi.Datatype o = Datatype.core(orgType);
        final org.jmpi.Datatype r = Datatype.core(resultType);
        final org.jmpi.Datatype t = Datatype.core(targetType);
        final org.jmpi.Op c = op.core(targetType);
        return new Request(call(w -> w.rgetAccumulate(origin, 0, orgCount, o, resultAddr, 0, resultCount, r, targetRank, targetDisp,
            targetCount, t, c)));
    }

    /** MPI_Win_fence; {@code assertion} from {@link MPI}'s MODE_* constants. */
    public void fence(final int assertion) throws MPIException
    {
        final int a = assertion(assertion);
        run(w -> w.fence(a));
    }

    /** MPI_Win_start. */
    public void start(final Group group, final int assertion) throws MPIException
    {
        final org.jmpi.Group g = group.core();
        final int a = assertion(assertion);
        run(w -> w.start(g, a));
    }

    /** MPI_Win_complete. */
    public void complete() throws MPIException
    {
        run(org.jmpi.Win::complete);
    }

    /** MPI_Win_post. */
    public void post(final Group group, final int assertion) throws MPIException
    {
        final org.jmpi.Group g = group.core();
        final int a = assertion(assertion);
        run(w -> w.post(g, a));
    }

    /** MPI_Win_wait. */
    public void waitFor() throws MPIException
    {
        run(org.jmpi.Win::await);
    }

    /** MPI_Win_test. */
    public boolean test() throws MPIException
    {
        return call(org.jmpi.Win::test);
    }

    /** MPI_Win_lock; {@code lockType} {@link MPI#LOCK_EXCLUSIVE} or {@link MPI#LOCK_SHARED}. */
    public void lock(final int lockType, final int rank, final int assertion) throws MPIException
    {
        final int type = lockType == MPI.LOCK_EXCLUSIVE ? org.jmpi.Win.LOCK_EXCLUSIVE
            : lockType == MPI.LOCK_SHARED ? org.jmpi.Win.LOCK_SHARED : -1;
        if (type < 0)
        {
            throw MPIException.of(ErrorClass.ERR_LOCKTYPE, "lock: lock type " + lockType + " is neither LOCK_EXCLUSIVE nor LOCK_SHARED");
        }
        final int a = assertion(assertion);
        run(w -> w.lock(type, rank, a));
    }

    /** MPI_Win_unlock. */
    public void unlock(final int rank) throws MPIException
    {
        run(w -> w.unlock(rank));
    }

    /** MPI_Win_lock_all. */
    public void lockAll(final int assertion) throws MPIException
    {
        final int a = assertion(assertion);
        run(w -> w.lockAll(a));
    }

    /** MPI_Win_unlock_all. */
    public void unlockAll() throws MPIException
    {
        run(org.jmpi.Win::unlockAll);
    }

    /** MPI_Win_sync. */
    public void sync() throws MPIException
    {
        run(org.jmpi.Win::sync);
    }

    /** MPI_Win_flush. */
    public void flush(final int targetRank) throws MPIException
    {
        run(w -> w.flush(targetRank));
    }

    /** MPI_Win_flush_all. */
    public void flushAll() throws MPIException
    {
        run(org.jmpi.Win::flushAll);
    }

    /** MPI_Win_flush_local. */
    public void flushLocal(final int targetRank) throws MPIException
    {
        run(w -> w.flushLocal(targetRank));
    }

    /** MPI_Win_flush_local_all. */
    public void flushLocalAll() throws MPIException
    {
        run(org.jmpi.Win::flushLocalAll);
    }

    /** MPI_Win_set_errhandler. */
    public void setErrhandler(final Errhandler errhandler) throws MPIException
    {
        if (errhandler == null)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "setErrhandler: errhandler is null");
        }
        run(w -> w.setErrorHandler(errhandler.handler));
    }

    /** MPI_Win_call_errhandler: under ERRORS_RETURN an exception with the code's class, else the job aborts. */
    public void callErrhandler(final int errorCode) throws MPIException
    {
        final ErrorClass ec = ErrorClass.of(errorCode);
        if (call(org.jmpi.Win::errorHandler) == org.jmpi.ErrorHandler.ERRORS_RETURN)
        {
            throw MPIException.of(ec, "callErrhandler: error " + errorCode + " raised on window " + getName());
        }
        comm.abort(errorCode);
    }

    /** MPI_Win_create_keyval. */
    public static int createKeyval() throws MPIException
    {
        MPI.check();
        return Attrs.createKeyval();
    }

    /** MPI_Win_free_keyval. */
    public static void freeKeyval(final int keyval) throws MPIException
    {
        MPI.check();
        Attrs.freeKeyval(keyval);
    }

    /** MPI_Win_set_attr: a serialised copy of {@code value}; predefined keys cannot be set (ERR_KEYVAL). */
    public void setAttr(final int keyval, final Object value) throws MPIException
    {
        live();
        if (Attrs.isPredefined(keyval))
        {
            throw MPIException.of(ErrorClass.ERR_KEYVAL, "setAttr: key " + keyval + " is predefined");
        }
        Attrs.keyval(keyval);
        attrs.put(keyval, Attrs.serialize(value));
    }

    /**
     * MPI_Win_get_attr: a copy of the value, or {@code null}; {@link MPI#WIN_BASE} gives the base buffer,
     * {@link MPI#WIN_SIZE} the size in bytes and {@link MPI#WIN_DISP_UNIT} the unit in bytes (Integers).
     */
    public Object getAttr(final int keyval) throws MPIException
    {
        final org.jmpi.Win w = live();
        if (keyval == MPI.WIN_BASE)
        {
            return base;
        }
        if (keyval == MPI.WIN_SIZE)
        {
            return (int)w.size();
        }
        if (keyval == MPI.WIN_DISP_UNIT)
        {
            return w.dispUnit();
        }
        Attrs.keyval(keyval);
        final byte[] bytes = attrs.get(keyval);
        return bytes == null ? null : Attrs.deserialize(bytes);
    }

    /** MPI_Win_delete_attr. */
    public void deleteAttr(final int keyval) throws MPIException
    {
        live();
        Attrs.keyval(keyval);
        attrs.remove(keyval);
    }

    /** MPI_Win_get_info. */
    public Info getInfo() throws MPIException
    {
        return new Info(call(org.jmpi.Win::getInfo));
    }

    /** MPI_Win_set_info. */
    public void setInfo(final Info info) throws MPIException
    {
        final org.jmpi.Info i = Info.core(info);
        run(w -> w.setInfo(i));
    }

    /** MPI_Win_get_name. */
    public String getName() throws MPIException
    {
        return call(org.jmpi.Win::name);
    }

    /** MPI_Win_set_name. */
    public void setName(final String name) throws MPIException
    {
        run(w -> w.setName(name));
    }

    /** MPI_Win_free (collective). A second free raises ERR_WIN. */
    @Override
    public void free() throws MPIException
    {
        run(org.jmpi.Win::free);
        win = null;
    }

    // ------------------------------------------------------------------------------------------ helpers

    @FunctionalInterface
    private interface Body<T>
    {
        T apply(org.jmpi.Win win);
    }

    @FunctionalInterface
    private interface Action
    {
        void apply(org.jmpi.Win win);
    }

    @FunctionalInterface
    private interface Opening
    {
        org.jmpi.Win open();
    }

    private static org.jmpi.Win open(final Opening opening) throws MPIException
    {
        MPI.check();
        try
        {
            return opening.open();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    private org.jmpi.Win live() throws MPIException
    {
        MPI.check();
        final org.jmpi.Win w = win;
        if (w == null)
        {
            throw MPIException.of(ErrorClass.ERR_WIN, "the window was freed");
        }
        return w;
    }

    private <T> T call(final Body<T> body) throws MPIException
    {
        final org.jmpi.Win w = live();
        try
        {
            return body.apply(w);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    private void run(final Action action) throws MPIException
    {
        call(w ->
        {
            action.apply(w);
            return null;
        });
    }

    private static org.jmpi.Intracomm intra(final Comm comm) throws MPIException
    {
        if (!(comm instanceof Intracomm ic))
        {
            throw MPIException.of(ErrorClass.ERR_COMM, "Win: an intracommunicator is needed, not " + comm);
        }
        return ic.intra();
    }

    /** The window's memory: the first {@code size} elements of {@code base}, from its index 0. */
    private static Buffer window(final Buffer base, final int size) throws MPIException
    {
        if (base == null)
        {
            throw MPIException.of(ErrorClass.ERR_BUFFER, "Win: base buffer is null");
        }
        if (size < 0 || size > base.capacity())
        {
            throw MPIException.of(ErrorClass.ERR_SIZE, "Win: size " + size + " elements, the buffer holds " + base.capacity());
        }
        return base.duplicate().clear().limit(size).slice();
    }

    /** The bytes of one element of {@code base}. */
    private static int elementSize(final Buffer base) throws MPIException
    {
        return switch (base)
        {
            case null -> throw MPIException.of(ErrorClass.ERR_BUFFER, "Win: base buffer is null");
            case ByteBuffer b -> 1;
            case CharBuffer b -> 2;
            case ShortBuffer b -> 2;
            case IntBuffer b -> 4;
            case FloatBuffer b -> 4;
            case LongBuffer b -> 8;
            case DoubleBuffer b -> 8;
            default -> throw MPIException.of(ErrorClass.ERR_BUFFER, "Win: unsupported buffer " + base.getClass().getName());
        };
    }

    /** {@link MPI}'s MODE_* bits as the core window's. */
    private static int assertion(final int modes) throws MPIException
    {
        if ((modes & ~(MPI.MODE_NOCHECK | MPI.MODE_NOPRECEDE | MPI.MODE_NOPUT | MPI.MODE_NOSTORE | MPI.MODE_NOSUCCEED)) != 0)
        {
            throw MPIException.of(ErrorClass.ERR_ASSERT, "assertion " + modes + " has bits no MODE_* constant has");
        }
        int core = 0;
        core |= (modes & MPI.MODE_NOCHECK) != 0 ? org.jmpi.Win.MODE_NOCHECK : 0;
        core |= (modes & MPI.MODE_NOPRECEDE) != 0 ? org.jmpi.Win.MODE_NOPRECEDE : 0;
        core |= (modes & MPI.MODE_NOPUT) != 0 ? org.jmpi.Win.MODE_NOPUT : 0;
        core |= (modes & MPI.MODE_NOSTORE) != 0 ? org.jmpi.Win.MODE_NOSTORE : 0;
        core |= (modes & MPI.MODE_NOSUCCEED) != 0 ? org.jmpi.Win.MODE_NOSUCCEED : 0;
        return core;
    }
}
