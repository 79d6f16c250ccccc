package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.Mpi;
import org.jmpi.MpiException;
import org.jmpi.ThreadLevel;

/**
 * The MPI environment and constants of Open MPI's Java API, over jmpi: {@link #Init}, {@link #Finalize},
 * {@link #COMM_WORLD}, the datatypes, ops and error classes.
 * <pre>{@code
 * MPI.Init(args);
 * int rank = MPI.COMM_WORLD.getRank();
 * MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, 0, 7);
 * MPI.Finalize();
 * }</pre>
 * {@link #COMM_WORLD} and {@link #COMM_SELF} stand for the calling rank's communicators: with ranks as threads
 * of one JVM (jmpirun --threads, in-JVM tests) each rank sees its own, even when the ranks share this class.
 *
 * <p>Threading: as the thread level asked for at {@link #InitThread}.
 */
public final class MPI
{
    private static final ByteOrder NATIVE_ORDER = ByteOrder.nativeOrder();

    // Values the compat classes switch on (compile-time constants).
    static final int DISTRIBUTE_BLOCK_VALUE = 121;
    static final int DISTRIBUTE_CYCLIC_VALUE = 122;
    static final int DISTRIBUTE_NONE_VALUE = 123;

    /** This rank's world and self. */
    public static final Intracomm COMM_WORLD = new Intracomm(Comm.WORLD);
    public static final Intracomm COMM_SELF = new Intracomm(Comm.SELF);

    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    public static final int GRAPH = org.jmpi.Comm.GRAPH;
    public static final int DIST_GRAPH = org.jmpi.Comm.DIST_GRAPH;
    public static final int CART = org.jmpi.Comm.CART;
    public static final int ANY_SOURCE = org.jmpi.Comm.ANY_SOURCE;
    public static final int ANY_TAG = org.jmpi.Comm.ANY_TAG;

    public static final Op MAX = new Op(org.jmpi.Op.MAX);
    public static final Op MIN = new Op(org.jmpi.Op.MIN);
    public static final Op SUM = new Op(org.jmpi.Op.SUM);
    public static final Op PROD = new Op(org.jmpi.Op.PROD);
    public static final Op LAND = new Op(org.jmpi.Op.LAND);
    public static final Op BAND = new Op(org.jmpi.Op.BAND);
    public static final Op LOR = new Op(org.jmpi.Op.LOR);
    public static final Op BOR = new Op(org.jmpi.Op.BOR);
    public static final Op LXOR = new Op(org.jmpi.Op.LXOR);
    public static final Op BXOR = new Op(org.jmpi.Op.BXOR);
    public static final Op REPLACE = new Op(org.jmpi.Op.REPLACE);
    public static final Op NO_OP = new Op(org.jmpi.Op.NO_OP);
    /** Global minimum with its index, for {@link #INT2}, {@link #SHORT_INT}, {@link #LONG_INT}, {@link #FLOAT_INT}, {@link #DOUBLE_INT}. */
    public static final Op MINLOC = new Op(org.jmpi.Op.MINLOC);
    /** Global maximum with its index; see {@link #MINLOC}. */
    public static final Op MAXLOC = new Op(org.jmpi.Op.MAXLOC);

    public static final Datatype DATATYPE_NULL = new Datatype(null, Datatype.NULL, 0);
    public static final Datatype BYTE = new Datatype(org.jmpi.Datatype.BYTE, Datatype.BYTE, 1);
    public static final Datatype CHAR = new Datatype(org.jmpi.Datatype.CHAR, Datatype.CHAR, 2);
    public static final Datatype SHORT = new Datatype(org.jmpi.Datatype.SHORT, Datatype.SHORT, 2);
    public static final Datatype BOOLEAN = new Datatype(org.jmpi.Datatype.BOOLEAN, Datatype.BOOLEAN, 1);
    public static final Datatype INT = new Datatype(org.jmpi.Datatype.INT, Datatype.INT, 4);
    public static final Datatype LONG = new Datatype(org.jmpi.Datatype.LONG, Datatype.LONG, 8);
    public static final Datatype FLOAT = new Datatype(org.jmpi.Datatype.FLOAT, Datatype.FLOAT, 4);
    public static final Datatype DOUBLE = new Datatype(org.jmpi.Datatype.DOUBLE, Datatype.DOUBLE, 8);
    public static final Datatype PACKED = new Datatype(org.jmpi.Datatype.PACKED, Datatype.PACKED, 1);
    /** Two FLOATs (real, imaginary), on float arrays; reductions other than SUM act per part. */
    public static final Datatype FLOAT_COMPLEX =
        new Datatype(org.jmpi.Datatype.contiguous(2, org.jmpi.Datatype.FLOAT).commit(), Datatype.FLOAT, 4);
    /** Two DOUBLEs (real, imaginary), on double arrays; reductions other than SUM act per part. */
    public static final Datatype DOUBLE_COMPLEX =
        new Datatype(org.jmpi.Datatype.contiguous(2, org.jmpi.Datatype.DOUBLE).commit(), Datatype.DOUBLE, 8);
    /** {int value, int index}, in a ByteBuffer; see {@link #int2}. */
    public static final Datatype INT2 = new Datatype(org.jmpi.Datatype.INT2, Datatype.BYTE, 1);
    /** {short value, int index}, in a ByteBuffer; see {@link #shortInt}. */
    public static final Datatype SHORT_INT = new Datatype(org.jmpi.Datatype.SHORT_INT, Datatype.BYTE, 1);
    /** {long value, int index}, in a ByteBuffer; see {@link #longInt}. */
    public static final Datatype LONG_INT = new Datatype(org.jmpi.Datatype.LONG_INT, Datatype.BYTE, 1);
    /** {float value, int index}, in a ByteBuffer; see {@link #floatInt}. */
    public static final Datatype FLOAT_INT = new Datatype(org.jmpi.Datatype.FLOAT_INT, Datatype.BYTE, 1);
    /** {double value, int index}, in a ByteBuffer; see {@link #doubleInt}. */
    public static final Datatype DOUBLE_INT = new Datatype(org.jmpi.Datatype.DOUBLE_INT, Datatype.BYTE, 1);

    /** Struct accessor for {@link #INT2}. */
    public static final Int2 int2 = new Int2();
    /** Struct accessor for {@link #SHORT_INT}. */
    public static final ShortInt shortInt = new ShortInt();
    /** Struct accessor for {@link #LONG_INT}. */
    public static final LongInt longInt = new LongInt();
    /** Struct accessor for {@link #FLOAT_INT}. */
    public static final FloatInt floatInt = new FloatInt();
    /** Struct accessor for {@link #DOUBLE_INT}. */
    public static final DoubleInt doubleInt = new DoubleInt();

    public static final Request REQUEST_NULL = new Request(null);
    public static final Group GROUP_EMPTY = new Group(org.jmpi.Group.EMPTY);
    /** MPI_INFO_ENV: jmpi records no environment hints; an empty info. */
    public static final Info INFO_ENV = new Info(new org.jmpi.Info());
    public static final Info INFO_NULL = new Info((org.jmpi.Info)null);

    public static final int PROC_NULL = org.jmpi.Comm.PROC_NULL;
    public static final int UNDEFINED = org.jmpi.Comm.UNDEFINED;
    public static final int IDENT = org.jmpi.Comm.IDENT;
    public static final int CONGRUENT = org.jmpi.Comm.CONGRUENT;
    public static final int SIMILAR = org.jmpi.Comm.SIMILAR;
    public static final int UNEQUAL = org.jmpi.Comm.UNEQUAL;

    // Predefined attribute keys (Comm.getAttr).
    public static final int TAG_UB = Attrs.TAG_UB;
    public static final int HOST = Attrs.HOST;
    public static final int IO = Attrs.IO;
    public static final int WTIME_IS_GLOBAL = Attrs.WTIME_IS_GLOBAL;
    public static final int APPNUM = Attrs.APPNUM;
    public static final int LASTUSEDCODE = Attrs.LASTUSEDCODE;
    public static final int UNIVERSE_SIZE = Attrs.UNIVERSE_SIZE;
    public static final int WIN_BASE = Attrs.WIN_BASE;
    public static final int WIN_SIZE = Attrs.WIN_SIZE;
    public static final int WIN_DISP_UNIT = Attrs.WIN_DISP_UNIT;

    /** The MPI standard version jmpi follows (MPI 4.1). */
    public static final int VERSION = 4;
    public static final int SUBVERSION = 1;

    public static final int ROOT = org.jmpi.Intercomm.ROOT;
    public static final int KEYVAL_INVALID = Attrs.KEYVAL_INVALID;
    public static final int BSEND_OVERHEAD = Mpi.BSEND_OVERHEAD;
    public static final int MAX_OBJECT_NAME = 128;
    public static final int MAX_PORT_NAME = 1024;
    public static final int MAX_DATAREP_STRING = 128;
    public static final int MAX_INFO_KEY = org.jmpi.Info.MAX_KEY_LENGTH;
    public static final int MAX_INFO_VAL = org.jmpi.Info.MAX_VALUE_LENGTH;
    public static final int ORDER_C = 56;
    public static final int ORDER_FORTRAN = 57;
    public static final int DISTRIBUTE_BLOCK = DISTRIBUTE_BLOCK_VALUE;
    public static final int DISTRIBUTE_CYCLIC = DISTRIBUTE_CYCLIC_VALUE;
    public static final int DISTRIBUTE_NONE = DISTRIBUTE_NONE_VALUE;
    public static final int DISTRIBUTE_DFLT_DARG = org.jmpi.Datatype.DFLT_DARG;

    // MPI-IO (mpi.File, over org.jmpi.File) and one-sided constants; the values are Open MPI's.
    public static final int MODE_CREATE = org.jmpi.File.MODE_CREATE;
    public static final int MODE_RDONLY = org.jmpi.File.MODE_RDONLY;
    public static final int MODE_WRONLY = org.jmpi.File.MODE_WRONLY;
    public static final int MODE_RDWR = org.jmpi.File.MODE_RDWR;
    public static final int MODE_DELETE_ON_CLOSE = org.jmpi.File.MODE_DELETE_ON_CLOSE;
    public static final int MODE_UNIQUE_OPEN = org.jmpi.File.MODE_UNIQUE_OPEN;
    public static final int MODE_EXCL = org.jmpi.File.MODE_EXCL;
    public static final int MODE_APPEND = org.jmpi.File.MODE_APPEND;
    public static final int MODE_SEQUENTIAL = org.jmpi.File.MODE_SEQUENTIAL;
    public static final int DISPLACEMENT_CURRENT = (int)org.jmpi.File.DISPLACEMENT_CURRENT;
    public static final int SEEK_SET = 600;
    public static final int SEEK_CUR = 602;
    public static final int SEEK_END = 604;
    public static final int MODE_NOCHECK = 1;
    public static final int MODE_NOPRECEDE = 2;
    public static final int MODE_NOPUT = 4;
    public static final int MODE_NOSTORE = 8;
    public static final int MODE_NOSUCCEED = 16;
    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;

    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(ErrorHandler.ERRORS_ARE_FATAL);
    public static final Errhandler ERRORS_RETURN = new Errhandler(ErrorHandler.ERRORS_RETURN);

    // Error classes: jmpi's (org.jmpi.ErrorClass codes); the MPI-IO ones, which jmpi never raises, follow them.
    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_KEYVAL = 20;
    public static final int ERR_NO_MEM = 21;
    public static final int ERR_BASE = 22;
    public static final int ERR_INFO_KEY = 23;
    public static final int ERR_INFO_VALUE = 24;
    public static final int ERR_INFO_NOKEY = 25;
    public static final int ERR_SPAWN = 26;
    public static final int ERR_PORT = 27;
    public static final int ERR_SERVICE = 28;
    public static final int ERR_NAME = 29;
    public static final int ERR_WIN = 30;
    public static final int ERR_SIZE = 31;
    public static final int ERR_DISP = 32;
    public static final int ERR_INFO = 33;
    public static final int ERR_LOCKTYPE = 34;
    public static final int ERR_ASSERT = 35;
    public static final int ERR_RMA_CONFLICT = 36;
    public static final int ERR_RMA_SYNC = 37;
    public static final int ERR_RMA_RANGE = 38;
    public static final int ERR_RMA_ATTACH = 39;
    public static final int ERR_RMA_SHARED = 40;
    public static final int ERR_RMA_FLAVOR = 41;
    public static final int ERR_UNSUPPORTED_OPERATION = 42;
    public static final int ERR_NOT_SAME = 43;
    public static final int ERR_ACCESS = 48;
    public static final int ERR_AMODE = 49;
    public static final int ERR_BAD_FILE = 50;
    public static final int ERR_CONVERSION = 51;
    public static final int ERR_DUP_DATAREP = 52;
    public static final int ERR_FILE_EXISTS = 53;
    public static final int ERR_FILE_IN_USE = 54;
    public static final int ERR_FILE = 55;
    public static final int ERR_IO = 56;
    public static final int ERR_NO_SPACE = 57;
    public static final int ERR_NO_SUCH_FILE = 58;
    public static final int ERR_QUOTA = 59;
    public static final int ERR_READ_ONLY = 60;
    public static final int ERR_UNSUPPORTED_DATAREP = 61;
    public static final int ERR_SYSRESOURCE = 62;
    public static final int ERR_LASTCODE = 62;

    private MPI()
    {
    }

    /** The calling rank's jmpi environment; "MPI is not initialized." / "MPI is finalized." otherwise. */
    static Mpi mpi() throws MPIException
    {
        try
        {
            return Mpi.current();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ErrorClass.ERR_OTHER, Mpi.initialized() ? "MPI is finalized." : "MPI is not initialized.");
        }
    }

    /** Open MPI's check: MPI is initialised and not finalized on the calling rank. */
    static void check() throws MPIException
    {
        mpi();
    }

    /**
     * MPI_Init: joins the job (ranks started by jmpirun, or a world of one rank otherwise).
     *
     * @return the arguments, unchanged (jmpirun passes the program only its own arguments).
     * @throws MPIException when MPI is already initialised on this rank.
     */
    public static String[] Init(final String[] args) throws MPIException
    {
        start(args, ThreadLevel.SINGLE);
        return args;
    }

    /**
     * MPI_Init_thread: joins the job at thread level {@code required} ({@link #THREAD_SINGLE} ...
     * {@link #THREAD_MULTIPLE}); jmpi provides every level.
     *
     * @return the level provided.
     */
    public static int InitThread(final String[] args, final int required) throws MPIException
    {
        if (required < THREAD_SINGLE || required > THREAD_MULTIPLE)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "InitThread: required=" + required + " is not one of MPI.THREAD_*");
        }
        return start(args, ThreadLevel.values()[required]).threadLevel().ordinal();
    }

    private static Mpi start(final String[] args, final ThreadLevel level) throws MPIException
    {
        if (Mpi.initialized())
        {
            throw MPIException.of(ErrorClass.ERR_OTHER, "MPI is already initialized.");
        }
        try
        {
            return Mpi.init(args == null ? new String[0] : args, level);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Query_thread: the thread level provided. */
    public static int queryThread() throws MPIException
    {
        return mpi().threadLevel().ordinal();
    }

    /** MPI_Is_thread_main: whether the caller is the thread that initialised MPI. */
    public static boolean isThreadMain() throws MPIException
    {
        return mpi().isThreadMain();
    }

    /** MPI_Finalize: waits for the other ranks, then releases jmpi. */
    public static void Finalize() throws MPIException
    {
        final Mpi mpi = mpi();
        try
        {
            mpi.close();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Wtime: seconds from an arbitrary origin (a monotonic clock, not synchronised across nodes). */
    public static double wtime() throws MPIException
    {
        check();
        return Mpi.wtime();
    }

    /** MPI_Wtick: the resolution of {@link #wtime()}. */
    public static double wtick() throws MPIException
    {
        check();
        return Mpi.wtick();
    }

    /** MPI_Get_version: the MPI standard version, {@value #VERSION}.{@value #SUBVERSION}. */
    public static Version getVersion()
    {
        return new Version(VERSION, SUBVERSION);
    }

    /** MPI_Get_library_version. */
    public static String getLibVersion()
    {
        final Package p = Mpi.class.getPackage();
        final String v = p == null ? null : p.getImplementationVersion();
        return "jmpi " + (v == null ? "0.1.0-SNAPSHOT" : v) + " (Open MPI Java API: jmpi-compat)";
    }

    /** MPI_Get_processor_name: this node's host name. */
    public static String getProcessorName() throws MPIException
    {
        return mpi().processorName();
    }

    /** MPI_Initialized: whether this rank called Init (stays true after Finalize). */
    public static boolean isInitialized() throws MPIException
    {
        return Mpi.initialized();
    }

    /** MPI_Finalized: whether this rank has finalized. */
    public static boolean isFinalized() throws MPIException
    {
        return Mpi.finalized();
    }

    /** MPI_Buffer_attach: the buffer buffered sends ({@code bSend}) copy into. */
    public static void attachBuffer(final byte[] buffer) throws MPIException
    {
        final Mpi mpi = mpi();
        try
        {
            mpi.bufferAttach(buffer);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Buffer_detach: waits for the buffered messages to leave, then returns the buffer. */
    public static byte[] detachBuffer() throws MPIException
    {
        final Mpi mpi = mpi();
        try
        {
            return (byte[])mpi.bufferDetach();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Pcontrol: no profiling library is attached; does nothing. */
    public static void pControl(final int level, final Object obj)
    {
    }

    /** A direct byte buffer in native order (what Open MPI requires for nonblocking calls; jmpi also takes arrays). */
    public static ByteBuffer newByteBuffer(final int capacity)
    {
        return ByteBuffer.allocateDirect(capacity).order(NATIVE_ORDER);
    }

    /** A direct char buffer in native order. */
    public static CharBuffer newCharBuffer(final int capacity)
    {
        return ByteBuffer.allocateDirect(Math.multiplyExact(capacity, 2)).order(NATIVE_ORDER).asCharBuffer();
    }

    /** A direct short buffer in native order. */
    public static ShortBuffer newShortBuffer(final int capacity)
    {
        return ByteBuffer.allocateDirect(Math.multiplyExact(capacity, 2)).order(NATIVE_ORDER).asShortBuffer();
    }

    /** A direct int buffer in native order. */
    public static IntBuffer newIntBuffer(final int capacity)
    {
        return ByteBuffer.allocateDirect(Math.multiplyExact(capacity, 4)).order(NATIVE_ORDER).asIntBuffer();
    }

    /** A direct long buffer in native order. */
    public static LongBuffer newLongBuffer(final int capacity)
    {
        return ByteBuffer.allocateDirect(Math.multiplyExact(capacity, 8)).order(NATIVE_ORDER).asLongBuffer();
    }

    /** A direct float buffer in native order. */
    public static FloatBuffer newFloatBuffer(final int capacity)
    {
        return ByteBuffer.allocateDirect(Math.multiplyExact(capacity, 4)).order(NATIVE_ORDER).asFloatBuffer();
    }

    /** A direct double buffer in native order. */
    public static DoubleBuffer newDoubleBuffer(final int capacity)
    {
        return ByteBuffer.allocateDirect(Math.multiplyExact(capacity, 8)).order(NATIVE_ORDER).asDoubleBuffer();
    }

    // slice: a buffer starting at element `offset` of `buf` (to its capacity); buf's position and limit are left alone.

    /** The part of {@code buf} from element {@code offset} on, in native order; {@code buf} is not changed. */
    public static ByteBuffer slice(final ByteBuffer buf, final int offset)
    {
        return buf.duplicate().clear().position(offset).slice().order(NATIVE_ORDER);
    }

    /** The part of {@code buf} from element {@code offset} on; {@code buf} is not changed. */
    public static CharBuffer slice(final CharBuffer buf, final int offset)
    {
        return buf.duplicate().clear().position(offset).slice();
    }

    /** The part of {@code buf} from element {@code offset} on; {@code buf} is not changed. */
    public static ShortBuffer slice(final ShortBuffer buf, final int offset)
    {
        return buf.duplicate().clear().position(offset).slice();
    }

    /** The part of {@code buf} from element {@code offset} on; {@code buf} is not changed. */
    public static IntBuffer slice(final IntBuffer buf, final int offset)
    {
        return buf.duplicate().clear().position(offset).slice();
    }

    /** The part of {@code buf} from element {@code offset} on; {@code buf} is not changed. */
    public static LongBuffer slice(final LongBuffer buf, final int offset)
    {
        return buf.duplicate().clear().position(offset).slice();
    }

    /** The part of {@code buf} from element {@code offset} on; {@code buf} is not changed. */
    public static FloatBuffer slice(final FloatBuffer buf, final int offset)
    {
        return buf.duplicate().clear().position(offset).slice();
    }

    /** The part of {@code buf} from element {@code offset} on; {@code buf} is not changed. */
    public static DoubleBuffer slice(final DoubleBuffer buf, final int offset)
    {
        return buf.duplicate().clear().position(offset).slice();
    }

    /** A buffer over {@code buf} from element {@code offset} on, in native order (shares the array). */
    public static ByteBuffer slice(final byte[] buf, final int offset)
    {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(NATIVE_ORDER);
    }

    /** A buffer over {@code buf} from element {@code offset} on (shares the array). */
    public static CharBuffer slice(final char[] buf, final int offset)
    {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** A buffer over {@code buf} from element {@code offset} on (shares the array). */
    public static ShortBuffer slice(final short[] buf, final int offset)
    {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** A buffer over {@code buf} from element {@code offset} on (shares the array). */
    public static IntBuffer slice(final int[] buf, final int offset)
    {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** A buffer over {@code buf} from element {@code offset} on (shares the array). */
    public static LongBuffer slice(final long[] buf, final int offset)
    {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** A buffer over {@code buf} from element {@code offset} on (shares the array). */
    public static FloatBuffer slice(final float[] buf, final int offset)
    {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** A buffer over {@code buf} from element {@code offset} on (shares the array). */
    public static DoubleBuffer slice(final double[] buf, final int offset)
    {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
