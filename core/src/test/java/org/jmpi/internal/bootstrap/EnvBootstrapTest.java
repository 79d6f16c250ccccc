package org.jmpi.internal.bootstrap;

import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnvBootstrapTest
{
    @Test
    void shouldReturnNullWhenNotStartedByLauncher()
    {
        assertNull(EnvBootstrap.fromEnvironment(Map.of("PATH", "/bin")));
    }

    @Test
    void shouldNameTheMissingVariable()
    {
        final Map<String, String> env = validEnv();
        env.remove(BootstrapEnv.TICKET_ENV_NAME);
        final MpiException ex = assertThrows(MpiException.class, () -> EnvBootstrap.fromEnvironment(env));
        assertTrue(ex.getMessage().contains(BootstrapEnv.TICKET_ENV_NAME), ex.getMessage());
    }

    @Test
    void shouldRejectRankNotBelowSize()
    {
        final Map<String, String> env = validEnv();
        env.put(BootstrapEnv.RANK_ENV_NAME, "4");
        final MpiException ex = assertThrows(MpiException.class, () -> EnvBootstrap.fromEnvironment(env));
        assertTrue(ex.getMessage().contains("JMPI_RANK=4"), ex.getMessage());
    }

    @Test
    void shouldRejectUnsafeJobIdAndMalformedTicket()
    {
        final Map<String, String> badJob = validEnv();
        badJob.put(BootstrapEnv.JOB_ID_ENV_NAME, "../etc");
        assertThrows(MpiException.class, () -> EnvBootstrap.fromEnvironment(badJob));
        final Map<String, String> badTicket = validEnv();
        badTicket.put(BootstrapEnv.TICKET_ENV_NAME, "1234");
        assertThrows(MpiException.class, () -> EnvBootstrap.fromEnvironment(badTicket));
    }

    @Test
    void shouldParseHostAndPort()
    {
        final InetSocketAddress address = EnvBootstrap.parseAddress("127.0.0.1:4242");
        assertEquals("127.0.0.1", address.getHostString());
        assertEquals(4242, address.getPort());
        assertThrows(MpiException.class, () -> EnvBootstrap.parseAddress("127.0.0.1"));
        assertThrows(MpiException.class, () -> EnvBootstrap.parseAddress("127.0.0.1:x"));
        assertThrows(MpiException.class, () -> EnvBootstrap.parseAddress("127.0.0.1:70000"));
    }

    private static Map<String, String> validEnv()
    {
        final Map<String, String> env = new HashMap<>();
        env.put(BootstrapEnv.BOOTSTRAP_ENV_NAME, "127.0.0.1:1");
        env.put(BootstrapEnv.RANK_ENV_NAME, "1");
        env.put(BootstrapEnv.SIZE_ENV_NAME, "4");
        env.put(BootstrapEnv.JOB_ID_ENV_NAME, "abc-123");
        env.put(BootstrapEnv.TICKET_ENV_NAME, BootstrapAuth.encodeSecret(BootstrapAuth.newSecret()));
        return env;
    }
}
