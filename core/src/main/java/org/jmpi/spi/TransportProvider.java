package org.jmpi.spi;

import java.nio.file.Path;
import java.util.List;

/**
 * Entry point of a pluggable transport, found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.jmpi.spi.TransportProvider}).
 *
 * <p>Threading: called only by the rank's initialising thread, except {@link #prepare}.
 */
public interface TransportProvider
{
    /** Short name used in parameters and diagnostics, for example {@code shm}. */
    String name();

    /** When several transports reach a peer, the one with the highest priority carries its traffic. */
    int priority();

    /** The parameters this transport reads, listed by {@code jmpirun --info} and docs/parameters.md. */
    default List<ParamSpec> params()
    {
        return List.of();
    }

    /**
     * The providers this one takes the place of once it is open (the arena transport carries its frames through
     * the shm transport it opens itself, so the rank opens no second shm transport). Empty by default.
     */
    default List<String> replaces()
    {
        return List.of();
    }

    /**
     * Starts the one-time work of this transport that needs no job, such as loading native code, so that it
     * overlaps the rank's bootstrap: a rank calls it on a background thread early in init, possibly while its
     * own thread calls {@link #probe} or {@link #open}. Nothing by default; never throws.
     */
    default void prepare()
    {
    }

    /**
     * What this transport finds on this machine beyond its probe, for {@code jmpirun --info} (a device, its port
     * state, its address), on one line; null (the default) when there is nothing more to say. Never throws.
     */
    default String describe(final Params params)
    {
        return null;
    }

    /**
     * Whether this transport can run here.
     *
     * @return {@code null} when it can, otherwise a one-line reason; never throws.
     */
    String probe(TransportContext context);

    /**
     * Removes what a job's ranks left on this node through this transport (shared-memory files, for
     * example), however the job ended: the launcher calls it once every rank of the job on this node is
     * gone. Never throws; reports what it could not remove on standard error.
     *
     * @param params the job's parameters as its ranks saw them (where the transport put its files).
     * @return what was removed, for the launcher's log.
     */
    default List<Path> cleanup(final String jobId, final Params params)
    {
        return List.of();
    }

    /**
     * Opens the transport. May use the bootstrap to exchange addresses with the other ranks (every rank
     * opens every available transport, in the same order, so collective bootstrap steps line up).
     */
    Transport open(TransportContext context);
}
