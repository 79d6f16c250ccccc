package org.jmpi;

import org.jmpi.internal.pt2pt.BsendBuffer;
import org.jmpi.internal.runtime.RankRuntime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MPI environment of one rank (MPI 4.1 ch. 11): {@link #init} joins the job, {@link #close()}
 * finalizes.
 * <pre>{@code
 * try (Mpi mpi = Mpi.init(args)) {
 *     Comm world = mpi.world();
 *     ...
 * }
 * }</pre>
 * A rank is a process started by {@code jmpirun}, a thread started by {@code jmpirun --threads} (or a
 * test's in-JVM job), or, without either, a world of one rank.
 *
 * <p>Threading: init and close on the rank's main thread; the rest as the thread level allows.
 */
public final class Mpi implements AutoCloseable
{
    /** Bytes each buffered send takes from the attached buffer beyond its data (MPI_BSEND_OVERHEAD). */
    public static final int BSEND_OVERHEAD = BsendBuffer.OVERHEAD_BYTES;

    private static final ConcurrentHashMap<Object, Mpi> INSTANCES = new ConcurrentHashMap<>();

    private final RankRuntime runtime;
    private final Intracomm world;
    private final Intracomm self;
    /** The intercommunicator to the parents of a spawned rank's world, else null. */
    private final Intercomm parent;
    private volatile boolean finalized;
    /** Buffers {@link #allocMem} took from ordinary direct memory (no arena), until freed: identity, not content. */
    private final Set<ByteBuffer> directAllocations = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    private Mpi(final RankRuntime runtime)
    {
        this.runtime = runtime;
        this.world = new Intracomm(runtime.world());
        this.self = new Intracomm(runtime.self());
        final org.jmpi.internal.comm.Ports.Joined toParents = org.jmpi.internal.runtime.Spawn.parent(runtime);
        this.parent = toParents == null ? null : Intercomm.joined(runtime.world(), toParents, "parent");
    }

    /** MPI_Init: joins the job with {@link ThreadLevel#SINGLE}. */
    public static Mpi init(final String[] args)
    {
        return init(args, ThreadLevel.SINGLE);
    }

    /**
     * MPI_Init_thread: joins the job with the thread level asked for (every level is provided).
     *
     * @throws MpiException ERR_OTHER when this rank is already initialised or finalized.
     */
    public static Mpi init(final String[] args, final ThreadLevel required)
    {
        if (required == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "init: thread level is null");
        }
        final Object key = RankRuntime.instanceKey();
        final Mpi existing = INSTANCES.get(key);
        if (existing != null)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, existing.finalized ?
                "init: MPI was already finalized on this rank" : "init: MPI is already initialised on this rank");
        }
        final Mpi mpi = new Mpi(RankRuntime.start(required));
        INSTANCES.put(key, mpi);
        return mpi;
    }

    /** MPI_Initialized: whether init has been called on this rank (stays true after finalize). */
    public static boolean initialized()
    {
        return INSTANCES.containsKey(RankRuntime.instanceKey());
    }

    /** MPI_Finalized: whether finalize has completed on this rank. */
    public static boolean finalized()
    {
        final Mpi mpi = INSTANCES.get(RankRuntime.instanceKey());
        return mpi != null && mpi.finalized;
    }

    /** This rank's environment, for libraries that did not call init themselves. */
    public static Mpi current()
    {
        final Mpi mpi = INSTANCES.get(RankRuntime.instanceKey());
        if (mpi == null || mpi.finalized)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "MPI is not initialised on this rank");
        }
        return mpi;
    }

    /** MPI_COMM_WORLD. */
    public Intracomm world()
    {
        return world;
    }

    /** MPI_COMM_SELF. */
    public Intracomm self()
    {
        return self;
    }

    /** The thread level provided (MPI_Query_thread). */
    public ThreadLevel threadLevel()
    {
        return runtime.threadLevel();
    }

    /** MPI_Is_thread_main: whether the caller is the thread that called init. */
    public boolean isThreadMain()
    {
        return Thread.currentThread() == runtime.mainThread();
    }

    /** MPI_Get_processor_name: this node's host name. */
    public String processorName()
    {
        return runtime.processorName();
    }

    /** MPI_Wtime: seconds since an arbitrary origin, from a monotonic clock. Not synchronised across nodes. */
    public static double wtime()
    {
        return System.nanoTime() * 1e-9;
    }

    /** MPI_Wtick: the resolution of {@link #wtime()}, in seconds. */
    public static double wtick()
    {
        return 1e-9;
    }

    /** MPI_Abort on world: stops every rank with {@code code}. Does not return. */
    public void abort(final int code)
    {
        world.abort(code);
    }

    /**
     * MPI_Buffer_attach: the buffer (a {@code byte[]} or {@code ByteBuffer}) that buffered sends copy
     * into. Each message takes its packed size plus {@link #BSEND_OVERHEAD}.
     */
    public void bufferAttach(final Object buffer)
    {
        world.call("bufferAttach", () -> runtime.bsendBuffer().attach(buffer));
    }

    /** MPI_Buffer_detach: waits until every buffered message has left, then returns the buffer. */
    public Object bufferDetach()
    {
        final BsendBuffer bb = runtime.bsendBuffer();
        return world.call("bufferDetach", () ->
        {
            if (!bb.attached())
            {
                throw new MpiException(ErrorClass.ERR_BUFFER, "bufferDetach: no buffer attached");
            }
            runtime.engine().await(bb::isEmpty);
            return bb.detach();
        });
    }

    /** Alignment of {@link #allocMem(int)}: a cache line. */
    public static final int ALLOC_MEM_ALIGNMENT = 64;

    /**
     * MPI_Alloc_mem: {@code bytes} of memory for messages, aligned to {@link #ALLOC_MEM_ALIGNMENT} bytes, as a
     * native-order direct buffer of capacity {@code bytes}. When the node's arena transport is active (transport-pvas,
     * docs/pvas.md) it comes from this rank's partition of the arena, which every rank of the node maps, so
     * rendezvous messages to and from it are copied directly between the two ranks' buffers; otherwise it is
     * ordinary direct memory. The buffer and its typed views ({@code asDoubleBuffer()}...) are accepted by every
     * call that takes a buffer. Free it with {@link #freeMem}.
     *
     * <p>Errors are raised on {@link #self()} (errors not tied to a communicator go to MPI_COMM_SELF's
     * error handler), so {@code mpi.self().setErrorHandler(ErrorHandler.ERRORS_RETURN)} makes them exceptions.
     *
     * @throws MpiException ERR_ARG for a negative size; ERR_NO_MEM, naming the size and the space left, when the
     *                      partition has no such block free.
     */
    public ByteBuffer allocMem(final int bytes)
    {
        return allocMem(bytes, ALLOC_MEM_ALIGNMENT);
    }

    /**
     * {@link #allocMem(int)} with the buffer's address a multiple of {@code alignment} (a power of two up to 1 MiB,
     * for example a page, 4096).
     */
    public ByteBuffer allocMem(final int bytes, final int alignment)
    {
        return self.call("allocMem", () ->
        {
            if (bytes < 0)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "allocMem: negative size " + bytes);
            }
            if (alignment < 1 || alignment > 1 << 20 || Integer.bitCount(alignment) != 1)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "allocMem: alignment " + alignment + " is not a power of two up to 1 MiB");
            }
            final org.jmpi.spi.ArenaMemory arena = runtime.arenaMemory();
            if (arena != null && bytes > 0)
            {
                return arena.allocate(bytes, alignment);
            }
            final ByteBuffer raw;
            try
            {
                raw = ByteBuffer.allocateDirect(bytes + alignment - 1);
            }
            catch (final OutOfMemoryError ex)
            {
                throw new MpiException(ErrorClass.ERR_NO_MEM, "allocMem: no direct memory for " + bytes + " bytes: " + ex.getMessage());
            }
            final int shift = (int)(-org.agrona.BufferUtil.address(raw) & (alignment - 1));
            final ByteBuffer buffer = raw.slice(shift, bytes).order(ByteOrder.nativeOrder());
            directAllocations.add(buffer);
            return buffer;
        });
    }

    /** {@link #allocMem(int, int)} as a {@link MemoryBlock} whose {@code close()} frees it (try-with-resources). */
    public MemoryBlock allocBlock(final int bytes, final int alignment)
    {
        return new MemoryBlock(this, allocMem(bytes, alignment));
    }

    /**
     * MPI_Free_mem: frees a buffer {@link #allocMem} returned (that very object). The buffer and its views must
     * not be used afterwards.
     *
     * @throws MpiException ERR_ARG when the buffer is not one allocMem returned, or was freed already.
     */
    public void freeMem(final ByteBuffer buffer)
    {
        self.call("freeMem", () ->
        {
            if (buffer == null)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "freeMem: buffer is null");
            }
            final org.jmpi.spi.ArenaMemory arena = runtime.arenaMemory();
            if (directAllocations.contains(buffer) || arena != null && arena.contains(buffer))
            {
                runtime.memoryFreed(buffer);
            }
            if (!directAllocations.remove(buffer) && (arena == null || !arena.free(buffer)))
            {
                throw new MpiException(ErrorClass.ERR_ARG, "freeMem: the buffer (capacity " + buffer.capacity() +
                    " bytes) is not memory allocMem returned, or was freed already");
            }
        });
    }

    /**
     * MPI_Open_port (MPI 4.1 §11.4.2): a new port, owned by this rank, on which {@link Intracomm#accept} waits for
     * a {@link Intracomm#connect} of another group of this job or of another job on this node. Its name is an opaque string
     * ({@code jmpi-port:<job>:<rank>:<n>}) to hand to the connecting side (a message, or {@link #publishName}).
     * Errors go to {@link #self()}'s error handler, as for {@link #allocMem}.
     */
    public String openPort()
    {
        return self.call("openPort", () -> ports().open());
    }

    /** MPI_Close_port: ERR_PORT when {@code port} is not open on this rank; pending and later connects to it fail with ERR_PORT. */
    public void closePort(final String port)
    {
        self.call("closePort", () -> ports().close(port));
    }

    /**
     * MPI_Publish_name (MPI 4.1 §11.4.4): publishes {@code port} under {@code service} for every rank of this job, and of
     * the other jobs given the same {@code jmpi.dyn.names} directory
     * (the launcher's key/value service holds it; no info key is acted on).
     *
     * @throws MpiException ERR_SERVICE when the name is published already; ERR_ARG for an empty name.
     */
    public void publishName(final String service, final Info info, final String port)
    {
        self.call("publishName", () -> ports().publish(service, port));
    }

    /** MPI_Unpublish_name: ERR_SERVICE when {@code service} is not published with {@code port}. */
    public void unpublishName(final String service, final Info info, final String port)
    {
        self.call("unpublishName", () -> ports().unpublish(service, port));
    }

    /** MPI_Lookup_name: the port published under {@code service}; ERR_NAME when none is. */
    public String lookupName(final String service, final Info info)
    {
        return self.call("lookupName", () -> ports().lookup(service));
    }

    /**
     * MPI_Comm_get_parent (MPI 4.1 §11.3.2): the intercommunicator to the group that spawned this rank's world
     * ({@link Intracomm#spawn}), or {@code null} (MPI_COMM_NULL) when it was not spawned. The same object every call,
     * until it is freed or disconnected, after which it is {@code null} again.
     */
    public Intercomm parent()
    {
        runtime.services().checkLive("parent");
        return parent == null || parent.isFreed() ? null : parent;
    }

    private org.jmpi.internal.comm.Ports ports()
    {
        return org.jmpi.internal.comm.Ports.of(runtime.world());
    }

    /** MPI_Finalize: waits for the other ranks, then releases the transports. Idempotent. */
    @Override
    public void close()
    {
        if (finalized)
        {
            return;
        }
        runtime.finish();
        finalized = true;
    }
}
