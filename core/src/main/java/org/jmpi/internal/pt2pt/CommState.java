package org.jmpi.internal.pt2pt;

import java.util.concurrent.atomic.AtomicBoolean;

import org.jmpi.ErrorHandler;
import org.jmpi.MpiException;
import org.jmpi.internal.comm.ContextIdPool;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * What a communicator is inside: its matching contexts (one for point-to-point, one for collectives,
 * so their traffic never matches across), its ranks' world ranks, and its error handler.
 *
 * <p>Context ids come from the rank's {@link ContextIdPool} (shared by all communicators of the rank): a
 * communicator made by {@code org.jmpi.internal.comm.Communicators} owns its pair and gives it back with
 * {@link #releaseContextIds()} when freed; WORLD, SELF and intercommunicator parts do not (an
 * {@code Intercomm} gives its pairs back itself).
 *
 * <p>Threading: immutable but for the error handler and name (volatile) and the release flag; any thread.
 */
public final class CommState
{
    /** Aborts the job; does not return normally (throws when the rank is a thread). */
    @FunctionalInterface
    public interface Aborter
    {
        MpiException abort(int code, String message, Throwable cause);
    }

    final Protocol protocol;
    final ProgressEngine engine;
    final BsendBuffer bsendBuffer;
    private final Aborter aborter;
    final int contextId;
    final int collContextId;
    private final ContextIdPool contextIds;
    /** Whether this state took its pair from the pool (and must give it back); null if it did not. */
    private final AtomicBoolean ownsContext;
    final int rank;
    final int[] worldRanks;
    private volatile ErrorHandler errorHandler;
    private volatile String name;
    private final RequestImpl.ErrorSink errorSink = this::handle;

    /**
     * A rank's first communicators (WORLD, SELF): the others are derived from them and share {@code contextIds},
     * the rank's pool of free context ids.
     */
    public CommState(
        final Protocol protocol,
        final BsendBuffer bsendBuffer,
        final Aborter aborter,
        final int contextId,
        final int collContextId,
        final int rank,
        final int[] worldRanks,
        final ErrorHandler errorHandler,
        final String name,
        final ContextIdPool contextIds)
    {
        this(protocol, bsendBuffer, aborter, contextId, collContextId, rank, worldRanks, errorHandler, name, contextIds, false);
    }

    private CommState(
        final Protocol protocol,
        final BsendBuffer bsendBuffer,
        final Aborter aborter,
        final int contextId,
        final int collContextId,
        final int rank,
        final int[] worldRanks,
        final ErrorHandler errorHandler,
        final String name,
        final ContextIdPool contextIds,
        final boolean ownsContext)
    {
        this.contextIds = contextIds;
        this.ownsContext = ownsContext ? new AtomicBoolean(true) : null;
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
    }

    /**
     * A new communicator's state over the same rank runtime: same protocol, engine, bsend buffer and
     * abort path; the error handler is inherited (MPI 4.1 §9.3).
     *
     * @param contextId     the point-to-point matching context; every member must use the same value.
     * @param collContextId the collective matching context.
     * @param rank          this process's rank in the new communicator.
     * @param worldRanks    the world rank of each member, indexed by rank in the new communicator.
     */
    public CommState derive(final int contextId, final int collContextId, final int rank, final int[] worldRanks, final String name)
    {
        return new CommState(protocol, bsendBuffer, aborter, contextId, collContextId, rank, worldRanks.clone(),
            errorHandler, name, contextIds, false);
    }

    /**
     * As {@link #derive}, for a communicator that owns the pair {@code contextId, contextId + 1}, committed in
     * this rank's pool by a {@code ContextIdAgreement}: {@link #releaseContextIds()} gives it back.
     */
    public CommState deriveOwning(final int contextId, final int rank, final int[] worldRanks, final String name)
    {
        return new CommState(protocol, bsendBuffer, aborter, contextId, contextId + 1, rank, worldRanks.clone(),
            errorHandler, name, contextIds, true);
    }

    /** This rank's pool of context ids (shared by all its communicators). */
    public ContextIdPool contextIds()
    {
        return contextIds;
    }

    /**
     * Gives this communicator's context ids back to the rank's pool, once (MPI_Comm_free); nothing for
     * communicators that do not own theirs (WORLD, SELF, intercommunicator parts).
     */
    public void releaseContextIds()
    {
        if (ownsContext != null && ownsContext.compareAndSet(true, false))
        {
            contextIds.free(contextIds.slot(contextId));
        }
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
