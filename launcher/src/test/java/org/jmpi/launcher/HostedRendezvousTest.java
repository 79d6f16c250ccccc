package org.jmpi.launcher;

import org.jmpi.MpiException;
import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.RendezvousHost;
import org.jmpi.internal.bootstrap.TcpBootstrap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class HostedRendezvousTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final String JOB = "slurm-7-0";

    private static InetSocketAddress address(final RendezvousHost.Hosted hosted)
    {
        final String first = hosted.endpoints().split(",")[0];
        final int colon = first.lastIndexOf(':');
        return new InetSocketAddress(first.substring(0, colon), Integer.parseInt(first.substring(colon + 1)));
    }

    @Test
    void shouldBeTheRendezvousHostServiceOfTheClassPath()
    {
        assertInstanceOf(HostedRendezvous.class, ServiceLoader.load(RendezvousHost.class).findFirst().orElseThrow());
        assertInstanceOf(HostedRendezvous.class, RendezvousHost.find());
    }

    @Test
    void shouldServeRanksWhoseTicketsDeriveFromTheStepKeyAndReportAnAbort() throws Exception
    {
        final byte[] stepKey = BootstrapAuth.newSecret();
        final byte[][] tickets = {BootstrapAuth.derivedTicket(stepKey, JOB, 0), BootstrapAuth.derivedTicket(stepKey, JOB, 1)};
        final AtomicReference<String> aborted = new AtomicReference<>();
        final RendezvousHost.Hosted hosted = new HostedRendezvous().start(2, JOB, tickets, false, Map.of(),
            (rank, code, message) -> aborted.set(rank + " " + code + " " + message));
        try
        {
            final InetSocketAddress at = address(hosted);
            assertTrue(at.getAddress().isLoopbackAddress(), "a one-node step listens on loopback: " + hosted.endpoints());
            final CompletableFuture<String> one = CompletableFuture.supplyAsync(() ->
            {
                try (TcpBootstrap b = TcpBootstrap.connect(List.of(at), 1, 2, JOB, BootstrapAuth.derivedTicket(stepKey, JOB, 1), TIMEOUT_NS))
                {
                    b.put("v.1", "one".getBytes(StandardCharsets.UTF_8));
                    b.fence(TIMEOUT_NS);
                    final String got = new String(b.get("v.0", TIMEOUT_NS), StandardCharsets.UTF_8);
                    b.abort(5, "rank 1 stops");
                    return got;
                }
            });
            try (TcpBootstrap zero = TcpBootstrap.connect(List.of(at), 0, 2, JOB, tickets[0], TIMEOUT_NS))
            {
                zero.put("v.0", "zero".getBytes(StandardCharsets.UTF_8));
                zero.fence(TIMEOUT_NS);
                assertEquals("one", new String(zero.get("v.1", TIMEOUT_NS), StandardCharsets.UTF_8));
            }
            assertEquals("zero", one.get(20, TimeUnit.SECONDS));
            assertEquals("1 5 rank 1 stops", aborted.get());
        }
        finally
        {
            hosted.close(0);
        }
    }

    @Test
    void shouldRefuseATicketOfAnotherStepKey()
    {
        final byte[] stepKey = BootstrapAuth.newSecret();
        final RendezvousHost.Hosted hosted = new HostedRendezvous().start(1, JOB, new byte[][] {BootstrapAuth.derivedTicket(stepKey, JOB, 0)},
            false, Map.of(), (rank, code, message) -> { });
        try
        {
            final MpiException ex = assertThrows(MpiException.class, () -> TcpBootstrap.connect(List.of(address(hosted)), 0, 1, JOB,
                BootstrapAuth.derivedTicket(BootstrapAuth.newSecret(), JOB, 0), TIMEOUT_NS));
            assertTrue(ex.getMessage().contains("refused"), ex.getMessage());
        }
        finally
        {
            hosted.close(0);
        }
    }
}
