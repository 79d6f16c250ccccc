package org.jmpi.launcher;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jmpirun --info} with a job layout: the transport each rank would use to each peer. */
class PeerReportTest
{
    @Test
    void shouldPredictJvmForSelfShmWithinAHostAndTcpBetweenHosts() throws UsageException
    {
        final String report = info("--info", "--host", "a:2,b:2");
        assertTrue(report.contains("per-peer transports for -np 4 on a:2, b:2"), report);
        assertTrue(report.contains("  rank 0 (a): 0=jvm 1=shm 2=tcp 3=tcp\n"), report);
        assertTrue(report.contains("  rank 3 (b): 0=tcp 1=tcp 2=shm 3=jvm\n"), report);
        assertTrue(report.contains("remote ranks start through: ssh -x -o BatchMode=yes"), report);
    }

    @Test
    void shouldPredictJvmWithinAHostOfAHybridJobAndHonourTheTransportsParameter() throws UsageException
    {
        final String hybrid = info("--info", "--host", "a,b", "--threads", "--npernode", "2");
        assertTrue(hybrid.contains("  rank 1 (a): 0=jvm 1=jvm 2=tcp 3=tcp\n"), hybrid);
        final String noShm = info("--info", "-np", "2", "--param", "transports=tcp,jvm");
        assertTrue(noShm.contains("  rank 0 (") && noShm.contains("): 0=jvm 1=none\n"), "tcp is not opened on one node:\n" + noShm);
        final String tcpLocal = info("--info", "-np", "2", "--param", "transports=tcp,jvm", "--param", "tcp.local=true");
        assertTrue(tcpLocal.contains("): 0=jvm 1=tcp\n"), tcpLocal);
    }

    @Test
    void shouldShowTheVerbsTransportWithItsDeviceLineAndPredictItForNamedPeers() throws UsageException
    {
        final String report = info("--info", "--host", "a,b", "--param", "transports=verbs,tcp,jvm");
        assertTrue(report.contains("  verbs      priority 20"), "transport-verbs ships with the launcher:\n" + report);
        assertTrue(report.contains("      here:                   "), "the device line:\n" + report);
        // No device on a build machine: tcp between the hosts; in the soft-RoCE VM jmpirun-verbs.sh checks 1=verbs.
        assertTrue(report.contains("  rank 0 (a): 0=jvm 1=tcp\n") || report.contains("  rank 0 (a): 0=jvm 1=verbs\n"), report);
    }

    @Test
    void shouldPrintNoPeerTableWithoutALayout() throws UsageException
    {
        assertTrue(!info("--info").contains("per-peer"));
    }

    private static String info(final String... args) throws UsageException
    {
        final LaunchOptions options = LaunchOptions.parse(args, Map.of());
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        InfoReport.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), options.params(), options.rankCount() > 0 ? options : null);
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
