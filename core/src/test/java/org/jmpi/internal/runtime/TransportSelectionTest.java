package org.jmpi.internal.runtime;

import org.jmpi.internal.bootstrap.TransportSelection;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransportSelectionTest
{
    private record Named(String name, int priority) implements TransportProvider
    {
        @Override
        public String probe(final TransportContext context)
        {
            return null;
        }

        @Override
        public Transport open(final TransportContext context)
        {
            throw new UnsupportedOperationException("not opened in this test");
        }
    }

    private static final List<TransportProvider> ALL = List.of(new Named("shm", 50), new Named("jvm", 100), new Named("tcp", 10));

    private static List<String> names(final String spec)
    {
        return TransportSelection.select(ALL, spec).stream().map(TransportProvider::name).toList();
    }

    @Test
    void shouldOpenEveryTransportByPriorityWhenEmpty()
    {
        assertEquals(List.of("jvm", "shm", "tcp"), names(""));
        assertEquals(List.of("jvm", "shm", "tcp"), names(null));
        assertEquals(List.of("jvm", "shm", "tcp"), names("all"));
    }

    @Test
    void shouldOpenOnlyTheNamedInTheirOrderWhenListed()
    {
        assertEquals(List.of("shm", "jvm"), names("shm,jvm"));
        assertEquals(List.of("tcp"), names(" TCP "));
    }

    @Test
    void shouldOpenAllButTheNamedWhenExcluded()
    {
        assertEquals(List.of("jvm", "tcp"), names("^shm"));
        assertEquals(List.of("shm"), names("^jvm,tcp"));
    }

    @Test
    void shouldRaiseErrArgNamingTheChoicesWhenANameIsUnknown()
    {
        final MpiException ex = assertThrows(MpiException.class, () -> names("shm,verbs"));
        assertEquals(ErrorClass.ERR_ARG, ex.errorClass());
        assertTrue(ex.getMessage().contains("'verbs'") && ex.getMessage().contains("shm"), ex.getMessage());
    }
}
