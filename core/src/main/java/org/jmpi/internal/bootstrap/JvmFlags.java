package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.util.List;

/**
 * The JVM flags every jmpi JVM needs: Agrona reaches {@code jdk.internal.misc.Unsafe}, JNA calls
 * native code. The launcher passes them to rank JVMs and the benchmarks to their forks; the root
 * pom's {@code jmpi.jvm.flags} must hold the same list (JvmFlagsTest checks it).
 *
 * <p>A JVM started without the launcher (plain {@code java}, an IDE, a test runner) may lack them;
 * {@link #requireUnsafeExport()} turns Agrona's {@code IllegalAccessError} deep inside init into one
 * message that names the flag and where to put it.
 */
public final class JvmFlags
{
    /** Flags, one argument each. */
    public static final List<String> FLAGS = List.of(
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED");

    /** The package Agrona needs exported to it. */
    static final String UNSAFE_PACKAGE = "jdk.internal.misc";

    private JvmFlags()
    {
    }

    /** Whether {@code java.base} exports {@code jdk.internal.misc} to jmpi's (and so Agrona's) module. */
    public static boolean unsafeExported()
    {
        return Object.class.getModule().isExported(UNSAFE_PACKAGE, JvmFlags.class.getModule());
    }

    /**
     * The message for a JVM that lacks the export: the flag, and where each way of starting a JVM
     * takes it.
     */
    public static String missingExportMessage(final String what)
    {
        final String flags = String.join(" ", FLAGS);
        return what + ": this JVM was started without the flag jmpi needs: --add-exports java.base/jdk.internal.misc=ALL-UNNAMED " +
            "(Agrona, jmpi's buffer library, uses jdk.internal.misc.Unsafe). Start the JVM with:\n" +
            "    " + flags + "\n" +
            "  java command line:   java " + flags + " -cp ... your.Main\n" +
            "  Maven Surefire:      <argLine>" + flags + "</argLine>\n" +
            "  Gradle:              tasks.withType(JavaExec) / test { jvmArgs(\"" + String.join("\", \"", FLAGS) + "\") }\n" +
            "  IDE:                 the run configuration's VM options: " + flags + "\n" +
            "  executable jar:      manifest entries Add-Exports: java.base/jdk.internal.misc and Enable-Native-Access: ALL-UNNAMED\n" +
            "  or bin/jmpirun, which passes them. See docs/getting-started.md.";
    }

    /**
     * Fails at once, with {@link #missingExportMessage}, when the export is missing.
     *
     * @throws MpiException ERR_OTHER naming the flag.
     */
    public static void requireUnsafeExport(final String what)
    {
        if (!unsafeExported())
        {
            throw new MpiException(ErrorClass.ERR_OTHER, missingExportMessage(what));
        }
    }
}
