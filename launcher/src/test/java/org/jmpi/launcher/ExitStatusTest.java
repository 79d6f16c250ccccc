package org.jmpi.launcher;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ExitStatusTest
{
    @Test
    void shouldDescribeExitCodesAndSignals()
    {
        assertEquals("exited with code 0", ExitStatus.describe(0));
        assertEquals("exited with code 3", ExitStatus.describe(3));
        assertEquals("exited with code 128", ExitStatus.describe(128));
        assertEquals("killed by signal 9 (SIGKILL)", ExitStatus.describe(137));
        assertEquals("killed by signal 15 (SIGTERM)", ExitStatus.describe(143));
        assertEquals("killed by signal 31", ExitStatus.describe(159));
        assertEquals("exited with code 200", ExitStatus.describe(200));
    }
}
