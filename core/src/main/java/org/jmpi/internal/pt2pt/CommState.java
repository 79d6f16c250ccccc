package org.jmpi.internal.pt2pt;

import org.jmpi.internal.datatype.BufferView;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

import org.jmpi.ErrorHandler;
import org.jmpi.MpiException;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.rank.ContextIdPool;
import org.jmpi.internal.rank.RankServices;

/**
 * What a communicator is inside, and the one object that owns it: its matching contexts (one for
 * point-to-point, one for collectives, so their traffic never matches across), its ranks' world ranks, its
 * error handler, its lifetime, and what other layers keep per communicator ({@link Slot}s: the collectives'
 * sequence and parameters, attributes). It refers to its rank's {@link RankServices}, so any thread holding
 * the communicator reaches the rank's state without thread-locals or static tables.
 *
 * <p><b>Lifetime of contexts.</b> A communicator made by {@code org.jmpi.internal.comm.Communicators} owns
 * the context-id pair it agreed: it opens the pair in the rank's {@link org.jmpi.internal.rank.ContextRegistry}
 * when made ({@link #deriveOwning}) and closes it, then gives the pair back to the rank's pool, in
 * {@link #free()}. WORLD and SELF open theirs at init and are never freed; views made with {@link #derive}
 * (temporary communicators of an agreement, the union of an intercommunicator's groups) use contexts another
 * state owns.
 *
 * <p>Threading: immutable but for the error handler and name (volatile), the freed flag and the slots
 * (atomic); any thread.
 */
public final class CommState
{
    /** Aborts the job; does not return normally (throws when the rank is a thread). */
    @FunctionalInterface
    public interface Aborter
    {
        MpiException abort(int code, String message, Throwable cause);
    }

    /**
     * A value another layer keeps per communicator, made on first use by {@code factory} (as Netty's
     * {@code AttributeKey}): lets this package hold the collectives' and the attributes' state without
     * depending on those packages. Declare slots as constants; there are at most {@link #MAX_SLOTS}.
     */
    public static final class Slot<T>
    {
        private final int index;
        private final Function<CommState, T> factory;

        private Slot(final int index, final Function<CommState, T> factory)
        {
            this.index = index;
            this.factory = factory;
        }
    }

    /** Slots a communicator has room for (one per layer that keeps per-communicator state). */
    public static final int MAX_SLOTS = 8;
    private static final AtomicInteger SLOTS = new AtomicInteger();
    private static final int NO_PAIR = -1;

    final Protocol protocol;
    final ProgressEngine engine;
    final BsendBuffer bsendBuffer;
    private final Aborter aborter;
    private final RankServices services;
    final int contextId;
    final int collContextId;
    /** The context-id pair this state opened and gives back when freed, or {@link #NO_PAIR}. */
    private final int ownedPair;
    private final AtomicBoolean freed = new AtomicBoolean();
    private final AtomicReferenceArray<Object> slots = new AtomicReferenceArray<>(MAX_SLOTS);
    final int rank;
    final int[] worldRanks;
    /**
     * The views of the arrays last sent from and received into on this communicator, reused when the next call
     * names the same array (no view allocated per message). Racy by design: a view is immutable (final fields),
     * so a thread that reads another's entry sees it whole, and at worst makes a new one.
     */
    BufferView lastSendView;
    BufferView lastRecvView;
    /**
     * The one-run address of the last send's and receive's data ({@link PointToPoint#sendRun}), for the next call that
     * names the same view, offset, count and type. Racy as the views are: each is one immutable record.
     */
    RunKey lastSendRun;
    RunKey lastRecvRun;
    /** The last blocking send's and receive's requests, when they may serve the next ({@link BlockingRequests}); else null. */
    SendRequestImpl spareSend;
    RecvRequestImpl spareRecv;
    private volatile ErrorHandler errorHandler;
    private volatile String name;
    private final RequestImpl.ErrorSink errorSink = this::handle;

    /**
     * A rank's first communicators (WORLD, SELF): the others are derived from them and share {@code services};
     * their contexts are opened here and stay open.
     */
    public CommState(
        final Protocol protocol,
        final BsendBuffer bsendBuffer,
        final Aborter aborter,
        final RankServices services,
        final int contextId,
        final int collContextId,
        final int rank,
        final int[] worldRanks,
        final ErrorHandler errorHandler,
        final String name)
    {
        this(protocol, bsendBuffer, aborter, services, contextId, collContextId, rank, worldRanks, errorHandler, name, NO_PAIR);
        services.contexts().open(contextId);
        services.contexts().open(collContextId);
    }

    private CommState(
        final Protocol protocol,
        final BsendBuffer bsendBuffer,
        final Aborter aborter,
        final RankServices services,
        final int contextId,
        final int collContextId,
        final int rank,
        final int[] worldRanks,
        final ErrorHandler errorHandler,
        final String name,
        final int ownedPair)
    {
        this.services = services;
        this.ownedPair = ownedPair;
        this.protocol = protocol;
        this.engine = protocol.engine();
        this.bsendBuffer = bsendBuffer;
        this.aborter = aborter;
        this.contextId = contextId;
        this.collContextId = collContextId;
        this.rank = rank;
        this.worldRanks = worldRanks;
        this.errorHandler = errorHandler;
        this.name = name;
        if (ownedPair != NO_PAIR)
        {
            services.contexts().open(ownedPair);
            services.contexts().open(ownedPair + 1);
        }
    }

    /** Registers a new kind of per-communicator value; call once per kind, from a static initialiser. */
    public static <T> Slot<T> slot(final Function<CommState, T> factory)
    {
        final int index = SLOTS.getAndIncrement();
        if (index >= MAX_SLOTS)
        {
            throw new IllegalStateException("more than " + MAX_SLOTS + " communicator slots");
        }
        return new Slot<>(index, factory);
    }

    /** The value of {@code slot} on this communicator, made on first use (every thread sees the same one). */
    @SuppressWarnings("unchecked")
    public <T> T get(final Slot<T> slot)
    {
        final Object found = slots.get(slot.index);
        if (found != null)
        {
            return (T)found;
        }
        final T made = slot.factory.apply(this);
        return slots.compareAndSet(slot.index, null, made) ? made : (T)slots.get(slot.index);
    }

    /** Sets the value of {@code slot} (before the communicator is used by another thread). */
    public <T> void set(final Slot<T> slot, final T value)
    {
        slots.set(slot.index, value);
    }

    /**
     * A view over the same rank runtime on contexts another state owns (a temporary communicator of one
     * agreement, the union of an intercommunicator's groups): same protocol, engine, bsend buffer and
     * abort path; the error handler is inherited (MPI 4.1 §9.3).
     *
     * @param contextId     the point-to-point matching context; every member must use the same value.
     * @param collContextId the collective matching context.
     * @param rank          this process's rank in the new communicator.
     * @param worldRanks    the world rank of each member, indexed by rank in the new communicator.
     */
    public CommState derive(final int contextId, final int collContextId, final int rank, final int[] worldRanks, final String name)
    {
        return new CommState(protocol, bsendBuffer, aborter, services, contextId, collContextId, rank, worldRanks.clone(),
            errorHandler, name, NO_PAIR);
    }

    /**
     * As {@link #derive}, for a communicator that owns the pair {@code contextId, contextId + 1}, committed in
     * this rank's pool by a {@code ContextIdAgreement}: opened in the registry now, closed and given back by
     * {@link #free()}.
     */
    public CommState deriveOwning(final int contextId, final int rank, final int[] worldRanks, final String name)
    {
        return deriveOwning(contextId, contextId, contextId + 1, rank, worldRanks, name);
    }

    /**
     * As above, owning the pair at {@code ownedPair} and matching on {@code contextId} and {@code collContextId}
     * (which may lie in that pair or in another this rank owns): the parts of an intercommunicator.
     */
    public CommState deriveOwning(final int ownedPair, final int contextId, final int collContextId, final int rank,
        final int[] worldRanks, final String name)
    {
        return new CommState(protocol, bsendBuffer, aborter, services, contextId, collContextId, rank, worldRanks.clone(),
            errorHandler, name, ownedPair);
    }

    /** The rank's services (parameters, shared structures, context ids). */
    public RankServices services()
    {
        return services;
    }

    /** This rank's pool of context ids (shared by all its communicators). */
    public ContextIdPool contextIds()
    {
        return services.contextIds();
    }

    /**
     * MPI_Comm_free, inside: marks this communicator freed and, if it owns a context pair, closes it in the
     * registry and gives it back to the rank's pool.
     *
     * @return false when it was already freed.
     */
    public boolean free()
    {
        if (!freed.compareAndSet(false, true))
        {
            return false;
        }
        if (ownedPair != NO_PAIR)
        {
            services.contexts().close(ownedPair);
            services.contexts().close(ownedPair + 1);
            services.contextIds().free(services.contextIds().slot(ownedPair));
        }
        return true;
    }

    /** Whether {@link #free()} was called. */
    public boolean freed()
    {
        return freed.get();
    }

    /** The world rank of each member, indexed by rank in this communicator (a copy). */
    public int[] worldRanks()
    {
        return worldRanks.clone();
    }

    public int rank()
    {
        return rank;
    }

    public int size()
    {
        return worldRanks.length;
    }

    public int worldRank(final int commRank)
    {
        return worldRanks[commRank];
    }

    public int contextId()
    {
        return contextId;
    }

    public int collContextId()
    {
        return collContextId;
    }

    public ProgressEngine engine()
    {
        return engine;
    }

    /** The rank's protocol: its engine hosts activities ({@link ProgressEngine#addActivity}) on the engine thread. */
    public Protocol protocol()
    {
        return protocol;
    }

    public ErrorHandler errorHandler()
    {
        return errorHandler;
    }

    public void errorHandler(final ErrorHandler handler)
    {
        this.errorHandler = handler;
    }

    public String name()
    {
        return name;
    }

    public void name(final String name)
    {
        this.name = name;
    }

    /** Aborts the job (MPI_Abort); returns only as the exception a rank thread must throw. */
    public MpiException abort(final int code, final String message)
    {
        System.err.println("jmpi: " + message + " with code " + code);
        return aborter.abort(code, message, null);
    }

    RequestImpl.ErrorSink errorSink()
    {
        return errorSink;
    }

    /**
     * Applies the error handler: returns the exception for the caller to throw (ERRORS_RETURN), or
     * prints it and aborts the job with the error class as exit code.
     */
    public MpiException handle(final MpiException error)
    {
        if (errorHandler == ErrorHandler.ERRORS_RETURN)
        {
            return error;
        }
        final String message = "rank " + rank + " of " + name + ": " + error.getMessage();
        System.err.println("jmpi: fatal error (ERRORS_ARE_FATAL) on " + message);
        error.printStackTrace();
        return aborter.abort(Math.max(1, error.errorCode()), message, error);
    }
}
