package org.jmpi.internal.bootstrap;

import java.util.List;

import org.jmpi.spi.ParamSpec;

/**
 * A layer of the core that reads parameters names them here, as a {@link java.util.ServiceLoader} service
 * (core's META-INF/services), so {@link ParamRegistry} lists them without this package depending on the
 * layers above it. Transports list theirs through {@link org.jmpi.spi.TransportProvider#params()} instead.
 */
public interface ParamSource
{
    /** The parameters, in the order {@code jmpirun --info} and docs/parameters.md show them. */
    List<ParamSpec> params();
}
