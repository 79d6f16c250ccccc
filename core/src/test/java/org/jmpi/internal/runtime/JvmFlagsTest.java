package org.jmpi.internal.runtime;

import org.jmpi.internal.bootstrap.JvmFlags;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmFlagsTest
{
    @Test
    void shouldMatchTheFlagsThePomGivesTests()
    {
        assertEquals(System.getProperty("jmpi.test.jvmFlags"), String.join(" ", JvmFlags.FLAGS),
            "root pom property jmpi.jvm.flags and JvmFlags.FLAGS must list the same flags");
    }

    @Test
    void shouldSeeTheExportWhenTheJvmHasTheFlags()
    {
        assertTrue(JvmFlags.unsafeExported(), "surefire passes " + JvmFlags.FLAGS + ", so the export must be visible");
    }

    @Test
    void shouldNameTheFlagAndEveryPlaceToPutIt()
    {
        final String message = JvmFlags.missingExportMessage("init");
        for (final String expected : new String[] {"--add-exports java.base/jdk.internal.misc=ALL-UNNAMED", "argLine", "jvmArgs",
            "VM options", "Add-Exports: java.base/jdk.internal.misc", "docs/getting-started.md"})
        {
            assertTrue(message.contains(expected), () -> "missing '" + expected + "' in: " + message);
        }
    }
}
