package org.jmpi.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The calling thread's context switches so far, from /proc (Linux): voluntary ones (it blocked: a park) and
 * involuntary ones (it was preempted). Harnesses read them before and after a phase to tell waiting from being
 * crowded off a CPU.
 */
public final class ThreadSwitches
{
    private ThreadSwitches()
    {
    }

    /** {voluntary, involuntary} context switches of the calling thread; zeros where /proc has none (not Linux). */
    public static long[] read()
    {
        final long[] out = new long[2];
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/thread-self/status")))
            {
                if (line.startsWith("voluntary_ctxt_switches:"))
                {
                    out[0] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
                else if (line.startsWith("nonvoluntary_ctxt_switches:"))
                {
                    out[1] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // not Linux: no counts
        }
        return out;
    }
}
