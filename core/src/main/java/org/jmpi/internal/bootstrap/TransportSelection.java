package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.TransportProvider;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which transports a rank opens, and in what order, from {@code jmpi.transports} ({@link ParamRegistry#TRANSPORTS}):
 * <ul>
 * <li>{@code all} (or empty): every provider, highest priority first (ties by name);</li>
 * <li>{@code a,b}: only these, in this order (the first that reaches a peer carries its traffic);</li>
 * <li>{@code ^a,b}: every provider but these, by priority.</li>
 * </ul>
 * A name no provider has is an ERR_ARG naming the providers there are, so a typo never silently
 * falls back to another transport.
 *
 * <p>Stateless; any thread.
 */
public final class TransportSelection
{
    private TransportSelection()
    {
    }

    public static List<TransportProvider> select(final List<TransportProvider> available, final String spec)
    {
        final List<TransportProvider> byPriority = new ArrayList<>(available);
        byPriority.sort(Comparator.comparingInt(TransportProvider::priority).reversed().thenComparing(TransportProvider::name));
        final String text = spec == null ? "" : spec.trim().toLowerCase(Locale.ROOT);
        if (text.isEmpty() || text.equals("all"))
        {
            return byPriority;
        }
        final boolean exclude = text.startsWith("^");
        final Set<String> names = new LinkedHashSet<>();
        for (final String part : (exclude ? text.substring(1) : text).split(","))
        {
            final String name = part.trim();
            if (name.isEmpty())
            {
                continue;
            }
            if (byPriority.stream().noneMatch(p -> p.name().equals(name)))
            {
                throw new MpiException(ErrorClass.ERR_ARG, ParamRegistry.TRANSPORTS + "=" + spec + ": no transport named '" +
                    name + "' (there are: " + byPriority.stream().map(TransportProvider::name).toList() + ")");
            }
            names.add(name);
        }
        if (exclude)
        {
            return byPriority.stream().filter(p -> !names.contains(p.name())).toList();
        }
        final List<TransportProvider> chosen = new ArrayList<>();
        for (final String name : names)
        {
            byPriority.stream().filter(p -> p.name().equals(name)).findFirst().ifPresent(chosen::add);
        }
        return chosen;
    }
}
