package org.jmpi.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Host lists, hostfiles, mapping, and the launch agent's command rule (run for real through /bin/sh). */
@Timeout(30)
class HostsTest
{
    @Test
    void shouldTakeSlotsFromHostListAndDefaultTheRankCountToThem() throws UsageException
    {
        final LaunchOptions options = parse("--host", "a,b:2,c", "-cp", ".", "Main");
        assertEquals(4, options.rankCount());
        assertEquals(List.of("a", "b", "c"), options.placement().hosts().names());
        assertArrayEquals(new int[] {0, 1, 1, 2}, options.placement().hostOfRank());
        assertEquals("b", options.placement().host(2));
        assertEquals(LaunchOptions.DEFAULT_LAUNCH_AGENT.split(" ")[0], "ssh");
    }

    @Test
    void shouldMapByNodeRoundRobinSkippingFullHosts() throws UsageException
    {
        final LaunchOptions options = parse("--host", "a,b:3,c", "--map-by", "node", "-np", "5", "-cp", ".", "Main");
        assertArrayEquals(new int[] {0, 1, 2, 1, 1}, options.placement().hostOfRank());
    }

    @Test
    void shouldPlaceNPerNodeAndAddUpRepeatedHosts() throws UsageException
    {
        assertArrayEquals(new int[] {0, 0, 1, 1}, parse("--host", "a,b", "--npernode", "2", "-cp", ".", "M").placement().hostOfRank());
        final LaunchOptions repeated = parse("--host", "a,a,b", "-cp", ".", "M");
        assertEquals(List.of(2, 1), repeated.placement().hosts().slots());
        assertEquals(3, repeated.rankCount());
    }

    @Test
    void shouldRefuseMoreRanksThanSlotsUnlessOversubscribed() throws UsageException
    {
        final String message = assertThrows(UsageException.class, () -> parse("--host", "a,b:2", "-np", "5", "-cp", ".", "M")).getMessage();
        assertEquals("not enough slots: -np 5 but the hosts have 3 slot(s) (a:1, b:2); give more slots or --oversubscribe", message);
        assertArrayEquals(new int[] {0, 1, 1, 0, 1}, parse("--host", "a,b:2", "-np", "5", "--oversubscribe", "-cp", ".", "M").placement().hostOfRank());
    }

    @Test
    void shouldReadOpenMpiHostfilesWithCommentsAndSlots(@TempDir final Path dir) throws IOException, UsageException
    {
        final Path file = dir.resolve("hosts");
        Files.writeString(file, "# cluster\nnode1 slots=2 max_slots=4\n\n  node2   # one slot\nnode3 slots=3\n");
        final LaunchOptions options = parse("--hostfile", file.toString(), "-cp", ".", "M");
        assertEquals(List.of("node1", "node2", "node3"), options.placement().hosts().names());
        assertEquals(List.of(2, 1, 3), options.placement().hosts().slots());
        assertEquals(6, options.rankCount());
        Files.writeString(file, "node1 cpus=2\n");
        assertEquals(file + ":1: unknown attribute cpus=2 (expected slots=N or max_slots=N)",
            assertThrows(UsageException.class, () -> parse("--hostfile", file.toString(), "-cp", ".", "M")).getMessage());
        Files.writeString(file, "node1 slots=0\n");
        assertTrue(assertThrows(UsageException.class, () -> parse("--hostfile", file.toString(), "-cp", ".", "M")).getMessage()
            .endsWith("slots must be a positive number, got 0"));
    }

    @Test
    void shouldRejectInconsistentPlacementOptions()
    {
        assertEquals("--threads across hosts needs --npernode K (one JVM per host with K rank threads)",
            assertThrows(UsageException.class, () -> parse("--host", "a,b", "--threads", "-cp", ".", "M")).getMessage());
        assertEquals("--npernode needs hosts: give --host or --hostfile",
            assertThrows(UsageException.class, () -> parse("-np", "2", "--npernode", "2", "-cp", ".", "M")).getMessage());
        assertEquals("--map-by takes slot or node, got board",
            assertThrows(UsageException.class, () -> parse("--host", "a", "--map-by", "board", "-cp", ".", "M")).getMessage());
        assertTrue(assertThrows(UsageException.class, () -> parse("--host", "a;rm", "-cp", ".", "M")).getMessage().contains("not a host name"));
        assertTrue(assertThrows(UsageException.class, () -> parse("--host", "a", "--launch-agent", "ssh 'x", "-cp", ".", "M"))
            .getMessage().contains("unterminated"));
        assertNull(parseQuietly("-np", "2", "-cp", ".", "M").placement());
    }

    @Test
    void shouldAppendOrSubstituteTheHostAndQuoteForSsh() throws UsageException
    {
        assertEquals(List.of("ip", "netns", "exec", "h1", "/bin/sh", "-c", "S"), new LaunchAgent("ip netns exec").command("h1", "S"));
        assertEquals(List.of("docker", "exec", "c-h1", "/bin/sh", "-c", "S"), new LaunchAgent("docker exec c-%h").command("h1", "S"));
        assertEquals(List.of("/usr/bin/ssh", "-o", "A B", "h1", "exec /bin/sh -c 'it'\\''s'"),
            new LaunchAgent("/usr/bin/ssh -o 'A B'").command("h1", "it's"));
    }

    @Test
    void shouldRunTheScriptReadingTheTicketFromStdinAndSettingTheEnvironment() throws Exception
    {
        final Map<String, String> env = new LinkedHashMap<>();
        env.put("JMPI_NODE", "node 'one'");
        env.put("OTHER", "$HOME;`x`");
        final String script = LaunchAgent.script("/nonexistent-dir", "JMPI_TICKET", env,
            List.of("/bin/sh", "-c", "printf '%s|%s|%s|%s|' \"$JMPI_TICKET\" \"$JMPI_NODE\" \"$OTHER\" \"$WHERE\"; cat"));
        final Process process = new ProcessBuilder(new LaunchAgent("env WHERE=%h").command("h7", script)).start();
        process.getOutputStream().write("T0K3N\nrest of stdin\n".getBytes(StandardCharsets.US_ASCII));
        process.getOutputStream().close();
        assertTrue(process.waitFor(10, TimeUnit.SECONDS));
        assertEquals("T0K3N|node 'one'|$HOME;`x`|h7|rest of stdin\n", new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, process.exitValue());
    }

    private static LaunchOptions parse(final String... args) throws UsageException
    {
        return LaunchOptions.parse(args, Collections.emptyMap());
    }

    private static LaunchOptions parseQuietly(final String... args)
    {
        try
        {
            return parse(args);
        }
        catch (final UsageException ex)
        {
            throw new AssertionError(ex);
        }
    }
}
