package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.jmpi.compat.programs.Connectivity;
import org.jmpi.compat.programs.Hello;
import org.jmpi.compat.programs.Ring;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hello, Ring and Connectivity (written against Open MPI's Java API only) as ranks in one JVM. */
@ResourceLock("System.out")
class ProgramsTest
{
    private static String captured(final int size, final Job.Main main)
    {
        final PrintStream saved = System.out;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try
        {
            Job.run(size, main);
        }
        finally
        {
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldSayHelloFromEveryRank(final int size)
    {
        final String out = captured(size, Hello::main);
        for (int r = 0; r < size; r++)
        {
            assertTrue(out.contains("Hello, world, I am " + r + " of " + size + " on "), out);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldPassTheTokenRoundTheRing(final int size)
    {
        final String out = captured(size, args -> Ring.main(new String[] {"7"}));
        for (int r = 0; r < size; r++)
        {
            assertTrue(out.contains("ring: rank " + r + " exiting after " + (r == 0 ? 7 : 8) + " passes"), out);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldConnectEveryPair(final int size)
    {
        final String out = captured(size, Connectivity::main);
        assertEquals(1, out.split("PASSED", -1).length - 1, out);
        assertTrue(out.contains("Connectivity test on " + size + " processes PASSED."), out);
    }
}
