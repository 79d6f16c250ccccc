package org.jmpi.testkit;

import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.TransportProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks that docs/parameters.md has a row, with the default, for every parameter a transport declares
 * (each transport module's own test calls it; core's ParamsDocTest covers core's parameters).
 *
 * <p>Stateless; any thread. Run from a module directory beside docs/.
 */
public final class ParamsDoc
{
    private ParamsDoc()
    {
    }

    public static void assertDocumented(final TransportProvider provider)
    {
        final String doc;
        try
        {
            doc = Files.readString(Path.of("..", "docs", "parameters.md"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        for (final ParamSpec spec : provider.params())
        {
            assertTrue(doc.contains("| `" + spec.name() + "` | " + spec.defaultValue() + " |"),
                "docs/parameters.md lacks a row for " + spec.name() + " with default " + spec.defaultValue());
        }
    }
}
