package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.LocalJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class RankOutputStreamTest
{
    @Test
    void shouldTagLinesByTheWritingRankIncludingItsChildThreads()
    {
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        final RankOutputStream routed = new RankOutputStream(new LineSink(written));
        final PrintStream out = new PrintStream(routed, true, StandardCharsets.UTF_8);
        final LocalJob.Outcome outcome = LocalJob.create(3, Map.of()).run(rank ->
        {
            out.print("partial ");
            out.println("from " + rank);
            final Thread child = Thread.ofVirtual().start(() -> out.println("child of " + rank));
            child.join();
            out.print("tail " + rank);
        }, TimeUnit.SECONDS.toNanos(20));
        assertNull(outcome.firstFailure());
        out.println("launcher");
        routed.close();
        final List<String> lines = written.toString(StandardCharsets.UTF_8).lines().toList();
        for (int rank = 0; rank < 3; rank++)
        {
            assertTrue(lines.contains("[" + rank + "] partial from " + rank), lines::toString);
            assertTrue(lines.contains("[" + rank + "] child of " + rank), lines::toString);
            assertTrue(lines.contains("[" + rank + "] tail " + rank), lines::toString);
        }
        assertTrue(lines.contains("launcher"), lines::toString);
        assertEquals(10, lines.size(), lines::toString);
    }

    @Test
    void shouldGiveStdinToRank0AndEndOfInputToOthers()
    {
        final RankInputStream in = new RankInputStream(new ByteArrayInputStream("abc".getBytes(StandardCharsets.US_ASCII)));
        final int[] firstByte = new int[2];
        final LocalJob.Outcome outcome = LocalJob.create(2, Map.of()).run(rank -> firstByte[rank] = in.read(), TimeUnit.SECONDS.toNanos(20));
        assertNull(outcome.firstFailure());
        assertEquals('a', firstByte[0]);
        assertEquals(-1, firstByte[1]);
    }
}
