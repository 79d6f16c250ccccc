package org.jmpi.testkit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The layering rules of HOUSE_STYLE.md section 1 and docs/transports.md, checked on the main sources'
 * imports (Maven already keeps module dependencies one way; this keeps packages in their lanes):
 * <ol>
 * <li>a transport module uses only the public API ({@code org.jmpi.X}), the SPI and its own package;</li>
 * <li>the SPI depends on nothing internal;</li>
 * <li>the launcher uses of the core's internals only the bootstrap package (the job's descriptors and
 * messages, the in-JVM job it starts ranks as threads with, the JVM flags, the parameter registry);</li>
 * <li>the JUnit extension (jmpi-junit) uses only the public API and the two entry points it starts
 * ranks as threads with;</li>
 * <li>compat (package {@code mpi}) uses only the public API.</li>
 * </ol>
 */
class LayeringTest
{
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?(org\\.jmpi\\.[\\w.]+?)(\\.\\*)?;", Pattern.MULTILINE);
    private static final Pattern PUBLIC_API = Pattern.compile("org\\.jmpi\\.[A-Z]\\w*(\\.\\w+)*");

    private static Path root()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("transport-shm")))
        {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "repository root not found above " + Path.of("").toAbsolutePath());
        return dir;
    }

    private record Use(Path file, String imported)
    {
    }

    private static List<Use> imports(final Path sources)
    {
        final List<Use> uses = new ArrayList<>();
        if (!Files.isDirectory(sources))
        {
            return uses;
        }
        try (Stream<Path> files = Files.walk(sources))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".java")).toList())
            {
                final Matcher m = IMPORT.matcher(Files.readString(file));
                while (m.find())
                {
                    uses.add(new Use(file, m.group(2)));
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return uses;
    }

    private static void assertNone(final String rule, final List<Use> violations)
    {
        assertEquals(List.of(), violations.stream().map(u -> u.file().getFileName() + " imports " + u.imported()).toList(), rule);
    }

    @Test
    void shouldKeepTransportsOnThePublicApiTheSpiAndTheirOwnPackage() throws IOException
    {
        final List<Path> modules;
        try (Stream<Path> dirs = Files.list(root()))
        {
            modules = dirs.filter(d -> d.getFileName().toString().startsWith("transport-")).toList();
        }
        assertTrue(modules.size() >= 1, "no transport modules found");
        for (final Path module : modules)
        {
            final String own = "org.jmpi.transport." + module.getFileName().toString().substring("transport-".length());
            assertNone(module.getFileName() + ": only org.jmpi.X, org.jmpi.spi and " + own,
                imports(module.resolve("src/main/java")).stream()
                    .filter(u -> !u.imported().startsWith("org.jmpi.spi.") && !u.imported().startsWith(own + ".") &&
                        !PUBLIC_API.matcher(u.imported()).matches())
                    .toList());
        }
    }

    @Test
    void shouldKeepTheSpiFreeOfInternals()
    {
        assertNone("org.jmpi.spi imports nothing internal",
            imports(root().resolve("core/src/main/java/org/jmpi/spi")).stream()
                .filter(u -> u.imported().startsWith("org.jmpi.internal."))
                .toList());
    }

    @Test
    void shouldKeepTheLauncherOffRuntimeInternals()
    {
        assertNone("launcher: of org.jmpi.internal only bootstrap",
            imports(root().resolve("launcher/src/main/java")).stream()
                .filter(u -> u.imported().startsWith("org.jmpi.internal.") &&
                    !u.imported().startsWith("org.jmpi.internal.bootstrap."))
                .toList());
    }

    @Test
    void shouldKeepTheJunitExtensionOnThePublicApiAndItsThreadJobEntryPoints()
    {
        final Set<String> entryPoints = Set.of("org.jmpi.internal.bootstrap.JvmFlags", "org.jmpi.internal.bootstrap.LocalJob");
        final List<Use> uses = imports(root().resolve("junit/src/main/java"));
        assertTrue(!uses.isEmpty(), "no jmpi imports found in junit/src/main/java");
        assertNone("junit: only org.jmpi.X, org.jmpi.junit and " + entryPoints,
            uses.stream()
                .filter(u -> !u.imported().startsWith("org.jmpi.junit.") && !PUBLIC_API.matcher(u.imported()).matches() &&
                    !entryPoints.contains(u.imported()))
                .toList());
    }

    @Test
    void shouldKeepCompatOnThePublicApi()
    {
        final List<Use> uses = imports(root().resolve("compat/src/main/java"));
        assertTrue(!uses.isEmpty(), "no jmpi imports found in compat/src/main/java");
        assertNone("compat: only org.jmpi.X", uses.stream().filter(u -> !PUBLIC_API.matcher(u.imported()).matches()).toList());
    }
}
