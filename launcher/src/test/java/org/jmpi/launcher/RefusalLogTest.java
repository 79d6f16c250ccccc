package org.jmpi.launcher;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RefusalLogTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    private final List<String> lines = new ArrayList<>();
    private final RefusalLog log = new RefusalLog(10 * SECOND_NS, lines::add);

    @Test
    void shouldReportTheFirstEventAtOnceAndSumTheRestIntoOneLinePerInterval()
    {
        log.record(RefusalLog.Kind.REFUSED, "127.0.0.1");
        assertEquals(Long.MAX_VALUE, log.poll(0));
        assertEquals(List.of("jmpirun: bootstrap: turned away 1 connection(s): 1 refused; from 127.0.0.1 (1)"), lines);
        for (int i = 0; i < 500; i++)
        {
            log.record(i % 2 == 0 ? RefusalLog.Kind.TIMED_OUT : RefusalLog.Kind.OVER_CAP, "127.0.0." + (1 + i % 7));
        }
        assertEquals(9 * SECOND_NS, log.poll(SECOND_NS));
        assertEquals(1, lines.size());
        log.poll(10 * SECOND_NS);
        assertEquals(2, lines.size());
        assertEquals("jmpirun: bootstrap: turned away 500 connection(s) in the last 10.0 s: 250 timed out, 250 over the cap; " +
            "from 127.0.0.1 (72), 127.0.0.2 (72), 127.0.0.3 (72), 127.0.0.4 (71), other addresses (213)", lines.get(1));
        assertEquals(501, log.totalReported());
        assertEquals(Long.MAX_VALUE, log.poll(30 * SECOND_NS));
    }

    @Test
    void shouldReportAcceptFailuresWithTheLastError()
    {
        log.acceptFailed("Too many open files");
        log.acceptFailed("Too many open files");
        log.poll(0);
        assertEquals(List.of("jmpirun: bootstrap: accept failing: 2 accept failures (last: Too many open files; backing off and retrying)"), lines);
    }

    @Test
    void shouldFlushWhatIsPendingWhenClosing()
    {
        log.record(RefusalLog.Kind.CLOSED_EARLY, null);
        log.poll(0);
        log.record(RefusalLog.Kind.REFUSED, "::1");
        log.flush(SECOND_NS);
        assertEquals(2, lines.size());
        assertTrue(lines.get(1).contains("1 refused; from ::1 (1)"), lines.get(1));
    }
}
