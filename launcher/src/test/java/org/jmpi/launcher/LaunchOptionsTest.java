package org.jmpi.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaunchOptionsTest
{
    @Test
    void shouldParseOptionsThenProgramThenItsArguments() throws UsageException
    {
        final LaunchOptions options = parse("-np", "4", "--threads", "--tag-output", "--param", "eager.limit=8k",
            "--param", "jmpi.fragment.size=64k", "-x", "A=1", "-x", "B", "--timeout", "1.5", "--jvm-arg", "-Xmx1g",
            "-cp", "a.jar:classes", "org.example.Main", "-np", "9", "--threads");
        assertEquals(4, options.rankCount());
        assertTrue(options.threads());
        assertTrue(options.tagOutput());
        assertEquals(Map.of("jmpi.eager.limit", "8k", "jmpi.fragment.size", "64k"), options.params());
        assertEquals("1", options.exports().get("A"));
        assertTrue(options.exports().containsKey("B"));
        assertNull(options.exports().get("B"));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1500), options.timeoutNs());
        assertEquals(List.of("-Xmx1g"), options.jvmArgs());
        assertEquals(List.of("a.jar", "classes"), options.classPath());
        assertEquals("org.example.Main", options.mainClass());
        assertEquals(List.of("-np", "9", "--threads"), options.appArgs());
    }

    @Test
    void shouldTakeMainClassAndClassPathFromJarManifest(@TempDir final Path dir) throws IOException, UsageException
    {
        final Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "org.example.App");
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, "lib/dep.jar");
        final Path jar = dir.resolve("app.jar");
        try (OutputStream out = Files.newOutputStream(jar))
        {
            new JarOutputStream(out, manifest).close();
        }
        final LaunchOptions options = parse("-n", "2", "-jar", jar.toString(), "x");
        assertEquals("org.example.App", options.mainClass());
        assertEquals(List.of(jar.toString(), dir.resolve("lib/dep.jar").toString()), options.classPath());
        assertEquals(List.of("x"), options.appArgs());
    }

    @Test
    void shouldReportMalformedCommandLines()
    {
        assertEquals("the number of ranks is missing: give -np N", message("-cp", ".", "Main"));
        assertEquals("-np needs a positive number of ranks, got 0", message("-np", "0", "-cp", ".", "Main"));
        assertEquals("unknown option --frobnicate (see jmpirun --help)", message("-np", "2", "--frobnicate", "-cp", ".", "Main"));
        assertEquals("missing value for the main class after -cp", message("-np", "2", "-cp", "."));
        assertEquals("--param needs NAME=VALUE, got eager.limit", message("-np", "2", "--param", "eager.limit", "-cp", ".", "M"));
        assertEquals("--timeout needs a positive number of seconds, got -1", message("--timeout", "-1", "-np", "2", "-cp", ".", "M"));
        assertTrue(message("-np", "2").startsWith("no program given"));
        assertTrue(message("-np", "1", "-jar", "/nonexistent.jar").startsWith("no such jar"));
    }

    @Test
    void shouldAcceptHelpAndInfoWithoutProgram() throws UsageException
    {
        assertTrue(parse("--help").help());
        assertTrue(parse("--info").info());
        assertFalse(parse("--info").help());
    }

    @Test
    void shouldUseClasspathVariableForBareMainClass() throws UsageException
    {
        final LaunchOptions options = LaunchOptions.parse(new String[] {"-np", "1", "Main"}, Map.of("CLASSPATH", "x:y"));
        assertEquals(List.of("x", "y"), options.classPath());
        assertEquals(List.of("."), LaunchOptions.parse(new String[] {"-np", "1", "Main"}, Map.of()).classPath());
    }

    private static LaunchOptions parse(final String... args) throws UsageException
    {
        return LaunchOptions.parse(args, Collections.emptyMap());
    }

    private static String message(final String... args)
    {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }
}
