package org.jmpi.transport.verbs.ibv;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerbsProbeTest
{
    @Test
    void shouldReportNoLibraryWhenLibibverbsCannotBeLoaded()
    {
        final VerbsProbe.Result result = VerbsProbe.probe("jmpi-no-such-ibverbs", "", 1, 0);
        assertNotNull(result.reason());
        assertTrue(result.reason().startsWith("no library: libjmpi-no-such-ibverbs cannot be loaded"), result.reason());
    }

    @Test
    void shouldReportNoDeviceWhenNoneIsListed()
    {
        assertEquals("no device: libibverbs lists no RDMA device", VerbsProbe.deviceReason(List.of(), ""));
    }

    @Test
    void shouldReportAMissingNamedDeviceWithTheOnesFound()
    {
        assertEquals("no device: no RDMA device named mlx5_0 (found: rxe0, rxe1)",
            VerbsProbe.deviceReason(List.of("rxe0", "rxe1"), "mlx5_0"));
        assertNull(VerbsProbe.deviceReason(List.of("rxe0"), "rxe0"));
        assertNull(VerbsProbe.deviceReason(List.of("rxe0"), ""));
    }

    @Test
    void shouldReportAPortThatIsNotActive()
    {
        final PortAttributes down = new PortAttributes(1, 3, 3, 16, 0, Ibv.LINK_LAYER_ETHERNET);
        assertEquals("no active port: rxe0 port 1 is PORT_DOWN", VerbsProbe.portReason("rxe0", 1, down));
        final PortAttributes active = new PortAttributes(Ibv.PORT_ACTIVE, 3, 3, 16, 0, Ibv.LINK_LAYER_ETHERNET);
        assertNull(VerbsProbe.portReason("rxe0", 1, active));
    }

    /** On this machine, whatever it has: a result, never an exception; unavailable only for a known reason. */
    @Test
    void shouldProbeTheRealLibraryWithoutThrowing()
    {
        final VerbsProbe.Result result = VerbsProbe.probe(IbvLibrary.NAME, "", 1, 0);
        if (!result.available())
        {
            assertTrue(result.reason().startsWith("no library: ") || result.reason().startsWith("no device: ") ||
                result.reason().startsWith("no active port: "), result.reason());
        }
        else
        {
            assertTrue(result.description().contains("PORT_ACTIVE"), result.description());
        }
    }
}
