package org.jmpi.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The core's internal packages depend on each other one way (issue 10, item 4): engine and rank at the bottom,
 * then pt2pt, coll, comm, and runtime on top (the entry points). Reads every source file of those packages,
 * comments stripped, and collects the internal packages it names (imports and qualified names alike).
 */
class PackageCyclesTest
{
    private static final Path SOURCES = Path.of("src/main/java/org/jmpi/internal");
    private static final List<String> LAYERS = List.of("engine", "reduce", "rank", "pt2pt", "rma", "io", "coll", "comm", "runtime");
    private static final Pattern REFERENCE = Pattern.compile("org\\.jmpi\\.internal\\.([a-z0-9]+)\\.");
    private static final Pattern COMMENTS = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");

    @Test
    void shouldDependOnlyOnLowerLayers() throws IOException
    {
        final Map<String, Set<String>> uses = new TreeMap<>();
        for (final String layer : LAYERS)
        {
            final Set<String> named = new TreeSet<>();
            try (Stream<Path> files = Files.list(SOURCES.resolve(layer)))
            {
                for (final Path file : files.filter(f -> f.toString().endsWith(".java")).toList())
                {
                    final Matcher m = REFERENCE.matcher(COMMENTS.matcher(Files.readString(file)).replaceAll(""));
                    while (m.find())
                    {
                        if (LAYERS.contains(m.group(1)) && !m.group(1).equals(layer))
                        {
                            named.add(m.group(1));
                        }
                    }
                }
            }
            uses.put(layer, named);
        }
        assertTrue(uses.values().stream().anyMatch(s -> !s.isEmpty()), "the scan found the packages' references");
        final List<String> upward = new ArrayList<>();
        uses.forEach((from, targets) -> targets.stream()
            .filter(to -> LAYERS.indexOf(to) > LAYERS.indexOf(from))
            .forEach(to -> upward.add(from + " -> " + to)));
        assertEquals(List.of(), upward, "references against the layering " + LAYERS + "; all: " + uses);
    }
}
