package org.jmpi.internal.runtime;

import org.jmpi.MpiException;
import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class ParamsTest
{
    private static final ParamSpec SPEC = new ParamSpec("jmpi.test.size", "4k", "bytes", "a test parameter");

    @Test
    void shouldPreferExplicitThenPropertyThenEnvironmentThenDefault()
    {
        assertEquals(4096, new Params(Map.of(), Map.of()).getLong(SPEC));
        assertEquals(2L << 20, new Params(Map.of(), Map.of("JMPI_TEST_SIZE", "2m")).getLong(SPEC));
        System.setProperty(SPEC.name(), "3k");
        try
        {
            assertEquals(3072, new Params(Map.of(), Map.of("JMPI_TEST_SIZE", "2m")).getLong(SPEC));
            assertEquals(7, new Params(Map.of(SPEC.name(), "7"), Map.of()).getLong(SPEC));
        }
        finally
        {
            System.clearProperty(SPEC.name());
        }
    }

    @Test
    void shouldRejectMalformedValuesNamingTheParameter()
    {
        final MpiException ex = assertThrows(MpiException.class, () -> new Params(Map.of(SPEC.name(), "lots"), Map.of()).getLong(SPEC));
        assertTrue(ex.getMessage().contains("jmpi.test.size=lots"), ex.getMessage());
    }
}
