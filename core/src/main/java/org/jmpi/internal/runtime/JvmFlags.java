package org.jmpi.internal.runtime;

import java.util.List;

/**
 * The JVM flags every jmpi JVM needs: Agrona reaches {@code jdk.internal.misc.Unsafe}, JNA calls
 * native code. The launcher passes them to rank JVMs and the benchmarks to their forks; the root
 * pom's {@code jmpi.jvm.flags} must hold the same list (JvmFlagsTest checks it).
 */
public final class JvmFlags
{
    /** Flags, one argument each. */
    public static final List<String> FLAGS = List.of(
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED");

    private JvmFlags()
    {
    }
}
