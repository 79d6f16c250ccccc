package org.jmpi.internal.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JvmFlagsTest
{
    @Test
    void shouldMatchTheFlagsThePomGivesTests()
    {
        assertEquals(System.getProperty("jmpi.test.jvmFlags"), String.join(" ", JvmFlags.FLAGS),
            "root pom property jmpi.jvm.flags and JvmFlags.FLAGS must list the same flags");
    }
}
