package org.jmpi.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jmpi.internal.bootstrap.SpawnWire;
import org.junit.jupiter.api.Test;

class SpawnServiceTest
{
    private final List<String> started = new ArrayList<>();
    private final List<BootstrapServer> servers = new ArrayList<>();

    @org.junit.jupiter.api.AfterEach
    void closeServers()
    {
        servers.forEach(BootstrapServer::close);
    }

    private SpawnService service() throws UsageException
    {
        final LaunchOptions options = LaunchOptions.parse(new String[] {"-np", "2", "--jvm-arg", "-Xss1m", "--param", "eager.limit=1k",
            "-cp", "app/classes", "Main"}, Map.of());
        return new SpawnService(options, List.of("lib/jmpi.jar"), Map::of, new SpawnService.Job()
        {
            @Override
            public Process start(final ProcessBuilder builder, final String name, final BootstrapServer server, final int rank) throws IOException
            {
                started.add(name);
                throw new IOException("not in this test");
            }

            @Override
            public void adopt(final BootstrapServer server)
            {
                servers.add(server);
            }

            @Override
            public void onAbort(final int rank, final int exitCode, final String message)
            {
            }
        });
    }

    @Test
    void shouldBuildAChildsCommandLikeARanksWithItsOwnClassAndArguments() throws Exception
    {
        final List<String> command = service().command(new SpawnWire.App("org.example.Child", List.of("-Dk=v"), List.of(), List.of("a", "b"),
            1, "", ""));
        assertTrue(command.contains("-Xss1m") && command.contains("-Djmpi.eager.limit=1k") && command.contains("-Dk=v"), command.toString());
        final String classPath = command.get(command.indexOf("-cp") + 1);
        assertEquals(Path.of("lib/jmpi.jar").toAbsolutePath() + File.pathSeparator + Path.of("app/classes").toAbsolutePath(), classPath);
        assertEquals(List.of("org.example.Child", "a", "b"), command.subList(command.size() - 3, command.size()));
        final List<String> given = service().command(new SpawnWire.App("C", List.of(), List.of("/opt/x"), List.of(), 1, "", ""));
        assertTrue(given.get(given.indexOf("-cp") + 1).endsWith(File.pathSeparator + "/opt/x"), given.toString());
    }

    @Test
    void shouldAnswerWhyWhenNothingStarts() throws Exception
    {
        final SpawnService spawner = service();
        assertFalse(reply(spawner.spawn(0, new byte[] {1, 2, 3})).ok());
        final SpawnWire.Reply elsewhere = reply(spawner.spawn(0, new SpawnWire.Request(2, List.of(
            new SpawnWire.App("C", List.of(), List.of(), List.of(), 1, "no-such-host.invalid", ""))).encode()));
        assertFalse(elsewhere.ok());
        assertTrue(elsewhere.message().contains("no-such-host.invalid"), elsewhere.message());
        assertFalse(reply(spawner.spawn(0, new SpawnWire.Request(2, List.of(
            new SpawnWire.App("-version", List.of(), List.of(), List.of(), 1, "", ""))).encode())).ok());
        final SpawnWire.Reply failed = reply(spawner.spawn(1, new SpawnWire.Request(2, List.of(
            new SpawnWire.App("C", List.of(), List.of(), List.of(), 2, "localhost", ""))).encode()));
        assertFalse(failed.ok());
        assertTrue(failed.message().contains("not in this test"), failed.message());
        assertEquals(1, started.size(), "the first child's start failed: no second one");
    }

    private static SpawnWire.Reply reply(final byte[] bytes)
    {
        return SpawnWire.Reply.decode(bytes);
    }
}
