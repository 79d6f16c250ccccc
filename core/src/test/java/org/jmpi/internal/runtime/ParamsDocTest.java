package org.jmpi.internal.runtime;

import org.jmpi.internal.bootstrap.ParamRegistry;
import org.jmpi.spi.ParamSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

class ParamsDocTest
{
    @Test
    void shouldDocumentEveryParameterOnTheClassPathWithItsDefault() throws Exception
    {
        final String doc = Files.readString(Path.of("..", "docs", "parameters.md"));
        for (final ParamSpec spec : ParamRegistry.all())
        {
            assertTrue(doc.contains("| `" + spec.name() + "` | " + spec.defaultValue() + " |"),
                "docs/parameters.md lacks a row for " + spec.name() + " with default " + spec.defaultValue());
        }
    }
}
