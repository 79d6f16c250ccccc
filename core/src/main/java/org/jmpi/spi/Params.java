package org.jmpi.spi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.util.Locale;
import java.util.Map;

/**
 * Parameter values of one rank. Lookup order: explicit values (jmpirun --param, or the in-JVM job's
 * map), then system properties, then environment variables, then the spec's default. Sizes accept the
 * suffixes k, m, g (binary: 4k = 4096).
 *
 * <p>Immutable; any thread.
 */
public final class Params
{
    private final Map<String, String> explicit;
    private final Map<String, String> env;

    public Params(final Map<String, String> explicit)
    {
        this(explicit, System.getenv());
    }

    public Params(final Map<String, String> explicit, final Map<String, String> env)
    {
        this.explicit = Map.copyOf(explicit);
        this.env = env;
    }

    /** The raw value of {@code spec}, or its default. */
    public String get(final ParamSpec spec)
    {
        String value = explicit.get(spec.name());
        if (value == null)
        {
            value = System.getProperty(spec.name());
        }
        if (value == null)
        {
            value = env.get(spec.envName());
        }
        return value == null ? spec.defaultValue() : value.trim();
    }

    /** The value as a long, with k/m/g suffixes. @throws MpiException ERR_ARG when malformed. */
    public long getLong(final ParamSpec spec)
    {
        return parseSize(spec.name(), get(spec));
    }

    public int getInt(final ParamSpec spec)
    {
        final long value = getLong(spec);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + spec.name() + "=" + value + " does not fit an int");
        }
        return (int)value;
    }

    public boolean getBoolean(final ParamSpec spec)
    {
        final String value = get(spec).toLowerCase(Locale.ROOT);
        return switch (value)
        {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new MpiException(ErrorClass.ERR_ARG, "parameter " + spec.name() + "=" + value + " is not a boolean");
        };
    }

    /** The explicit values, for handing on to ranks. */
    public Map<String, String> explicit()
    {
        return explicit;
    }

    static long parseSize(final String name, final String text)
    {
        final String value = text.trim().toLowerCase(Locale.ROOT);
        long multiplier = 1;
        String digits = value;
        if (!value.isEmpty())
        {
            switch (value.charAt(value.length() - 1))
            {
                case 'k' -> multiplier = 1L << 10;
                case 'm' -> multiplier = 1L << 20;
                case 'g' -> multiplier = 1L << 30;
                default -> multiplier = 1;
            }
            if (multiplier != 1)
            {
                digits = value.substring(0, value.length() - 1);
            }
        }
        try
        {
            return Math.multiplyExact(Long.parseLong(digits), multiplier);
        }
        catch (final NumberFormatException | ArithmeticException ex)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + name + "=" + text + " is not a number");
        }
    }
}
