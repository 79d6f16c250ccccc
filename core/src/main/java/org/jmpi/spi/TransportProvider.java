package org.jmpi.spi;

import java.util.List;

/**
 * Entry point of a pluggable transport, found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.jmpi.spi.TransportProvider}).
 *
 * <p>Threading: called only by the rank's initialising thread.
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
     * Whether this transport can run here.
     *
     * @return {@code null} when it can, otherwise a one-line reason; never throws.
     */
    String probe(TransportContext context);

    /**
     * Opens the transport. May use the bootstrap to exchange addresses with the other ranks (every rank
     * opens every available transport, in the same order, so collective bootstrap steps line up).
     */
    Transport open(TransportContext context);
}
