package org.jmpi.spi;

/**
 * A tunable: {@code name} is the system property ({@code jmpi.eager.limit}); the environment variable
 * is the name upper-cased with dots as underscores ({@code JMPI_EAGER_LIMIT}); {@code jmpirun --param
 * eager.limit=8192} sets it for every rank (the {@code jmpi.} prefix is optional there).
 */
public record ParamSpec(String name, String defaultValue, String unit, String description)
{
    /** The environment variable that sets this parameter. */
    public String envName()
    {
        return name.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
    }
}
