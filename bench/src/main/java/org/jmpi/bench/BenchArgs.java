package org.jmpi.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of a bench harness: positional values, {@code --name value} options and bare
 * {@code --flag}s. Which names take a value is declared up front, so {@code --direct 64} is a flag then
 * a positional, never an option with value 64. Names not declared are left alone (jmpi's own arguments
 * pass through {@code Mpi.init}).
 *
 * <p>Threading: confined to the caller. Bad values throw {@link IllegalArgumentException} naming the
 * option and the value.
 */
public final class BenchArgs
{
    private final List<String> positional = new ArrayList<>();
    private final Map<String, String> options = new HashMap<>();

    private BenchArgs()
    {
    }

    /**
     * Parses {@code args}; {@code valued} lists the option names (with their dashes) that take a value.
     *
     * @throws IllegalArgumentException when a valued option is last, with no value after it.
     */
    public static BenchArgs parse(final String[] args, final String... valued)
    {
        final BenchArgs parsed = new BenchArgs();
        final List<String> valuedNames = List.of(valued);
        for (int i = 0; i < args.length; i++)
        {
            final String a = args[i];
            final int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0 && valuedNames.contains(a.substring(0, eq)))
            {
                parsed.options.put(a.substring(0, eq), a.substring(eq + 1));
            }
            else if (valuedNames.contains(a))
            {
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                parsed.options.put(a, args[++i]);
            }
            else if (a.startsWith("-"))
            {
                parsed.options.put(a, "");
            }
            else
            {
                parsed.positional.add(a);
            }
        }
        return parsed;
    }

    /** Whether {@code name} (for example {@code --direct}) was given. */
    public boolean flag(final String name)
    {
        return options.containsKey(name);
    }

    /** How many positional values were given. */
    public int positionalCount()
    {
        return positional.size();
    }

    /** The {@code index}-th positional value (0-based). */
    public String positional(final int index)
    {
        return positional.get(index);
    }

    /** The {@code index}-th positional value as an int, or {@code fallback} when there are fewer. */
    public int positionalInt(final int index, final int fallback)
    {
        return index < positional.size() ? toInt("positional argument " + (index + 1), positional.get(index)) : fallback;
    }

    /** The value of {@code name} as an int, or {@code fallback} when it was not given. */
    public int intOption(final String name, final int fallback)
    {
        final String v = options.get(name);
        return v == null ? fallback : toInt(name, v);
    }

    /** The value of {@code name}, or {@code fallback} when it was not given. */
    public String option(final String name, final String fallback)
    {
        final String v = options.get(name);
        return v == null ? fallback : v;
    }

    /** The value of {@code name} as a comma-separated list of positive ints ({@code 1,2,4}), or {@code fallback}. */
    public int[] intListOption(final String name, final int... fallback)
    {
        final String v = options.get(name);
        if (v == null)
        {
            return fallback.clone();
        }
        final String[] parts = v.split(",");
        final int[] values = new int[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            values[i] = toInt(name, parts[i].trim());
            if (values[i] <= 0)
            {
                throw new IllegalArgumentException(name + ": values must be positive, got " + v);
            }
        }
        return values;
    }

    private static int toInt(final String what, final String value)
    {
        try
        {
            final int v = Integer.parseInt(value);
            if (v < 0)
            {
                throw new IllegalArgumentException(what + " must not be negative, got " + value);
            }
            return v;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(what + " is not a whole number: '" + value + "'", ex);
        }
    }
}
