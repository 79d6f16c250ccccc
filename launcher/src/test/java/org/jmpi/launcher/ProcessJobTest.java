package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.JvmFlags;
import org.jmpi.spi.Params;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProcessJobTest
{
    @Test
    void shouldStartRanksWithLaunchersJavaFlagsParamsAndJmpiClassPathFirst() throws UsageException
    {
        final LaunchOptions options = LaunchOptions.parse(new String[] {"-np", "2", "--param", "eager.limit=8k", "--jvm-arg", "-Xmx64m",
            "-cp", "app.jar:classes", "org.example.Main", "a", "b"}, Map.of());
        final ProcessJob job = new ProcessJob(options, new LineSink(new ByteArrayOutputStream()), new LineSink(new ByteArrayOutputStream()),
            new ByteArrayInputStream(new byte[0]), List.of("/opt/jmpi/launcher.jar", "/opt/jmpi/lib/*"), listener ->
            {
                throw new AssertionError("not started");
            });
        final List<String> expected = new ArrayList<>();
        expected.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        expected.addAll(JvmFlags.FLAGS);
        expected.addAll(List.of("-Xmx64m", "-Djmpi.eager.limit=8k",
            "-cp", "/opt/jmpi/launcher.jar:/opt/jmpi/lib/*:app.jar:classes", "org.example.Main", "a", "b"));
        assertEquals(expected, job.command());
    }

    @Test
    void shouldExitOneNamingTheCauseWhenTheBootstrapCannotStart() throws UsageException
    {
        final LaunchOptions options = LaunchOptions.parse(new String[] {"-np", "2", "--param", "bootstrap.handshake.timeout=0",
            "-cp", "classes", "org.example.Main"}, Map.of());
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final ProcessJob job = new ProcessJob(options, new LineSink(new ByteArrayOutputStream()), new LineSink(err),
            new ByteArrayInputStream(new byte[0]), List.of(), listener -> BootstrapServer.start(2, "job", listener,
                BootstrapServer.Config.loopback(new Params(options.params())), line -> { }));
        assertEquals(1, job.run());
        assertEquals("jmpirun: cannot start the bootstrap service: jmpi.bootstrap.handshake.timeout must be positive: 0 ms\n",
            err.toString(StandardCharsets.UTF_8));
    }
}
