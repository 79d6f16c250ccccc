package org.jmpi.internal.pt2pt;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The on-line check's selection logic, fed durations as a fake clock would give them. */
class PathTrialsTest
{
    private static final int STAGED_4K = 4096;
    private static final int STAGED_8K = 8160;

    /** Runs one message: the path the trials give, timed by {@code ns} for that path when a round is on. */
    private static int message(final PathTrials t, final long... nsByCandidate)
    {
        final int path = t.next();
        if (t.timing())
        {
            t.record(path, nsByCandidate[index(t, path)]);
        }
        return path;
    }

    private static int index(final PathTrials t, final int path)
    {
        final int[] c = t.candidates();
        for (int i = 0; i < c.length; i++)
        {
            if (c[i] == path)
            {
                return i;
            }
        }
        throw new AssertionError("path " + path);
    }

    @Test
    void shouldTryEveryCandidateInTurnThenKeepTheFastest()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, STAGED_4K, STAGED_8K}, 3, 0, 0, -1);
        final int[] order = new int[9];
        for (int i = 0; i < 9; i++)
        {
            assertTrue(t.timing(), "message " + i + " is timed");
            order[i] = message(t, 15_000, 6_000, 6_400);
        }
        // Interleaved, the model's choice first, so a change of load hits every candidate alike.
        assertEquals(PathTrials.DIRECT, order[0]);
        assertEquals(STAGED_4K, order[1]);
        assertEquals(STAGED_8K, order[2]);
        assertEquals(PathTrials.DIRECT, order[3]);
        assertFalse(t.timing());
        assertEquals(STAGED_4K, t.chosen());
        assertEquals(1, t.rounds());
        assertEquals(1, t.changes());
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(STAGED_4K, t.next());
            assertFalse(t.timing(), "no clock once decided (recheck off)");
        }
    }

    @Test
    void shouldBearOneOutlierPerCandidate()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, STAGED_4K}, 3, 0, 0, -1);
        // direct: 5, 5, 900 (a stall); staged: 7, 1 (a fast fluke), 7: medians 5 and 7.
        final long[][] samples = {{5_000, 7_000}, {5_000, 1_000}, {900_000, 7_000}};
        for (final long[] round : samples)
        {
            for (int k = 0; k < 2; k++)
            {
                final int path = t.next();
                t.record(path, round[index(t, path)]);
            }
        }
        assertFalse(t.timing());
        assertEquals(PathTrials.DIRECT, t.chosen());
        assertEquals(0, t.changes(), "the model's choice held");
    }

    @Test
    void shouldCountTheKeysFirstMessageForTheModelsChoice()
    {
        final PathTrials t = new PathTrials(new int[] {STAGED_8K, PathTrials.DIRECT}, 1, 0, 0, 9_000);
        assertTrue(t.timing());
        assertEquals(PathTrials.DIRECT, t.next(), "the model's path has its sample already");
        t.record(PathTrials.DIRECT, 3_000);
        assertEquals(PathTrials.DIRECT, t.chosen());
    }

    @Test
    void shouldAttributeASampleToThePathTakenNotThePathAskedFor()
    {
        // The receiver asked for the direct copy as offered (packed) but the sender had not packed: the sample is
        // the unpacked copy's.
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, PathTrials.UNPACKED}, 1, 0, 0, -1);
        assertEquals(PathTrials.DIRECT, t.next());
        t.record(PathTrials.UNPACKED, 4_000);
        assertEquals(PathTrials.DIRECT, t.next(), "still owed");
        t.record(PathTrials.DIRECT, 8_000);
        assertEquals(PathTrials.UNPACKED, t.chosen());
    }

    @Test
    void shouldDecideOnWhatCameWhenACandidateNeverComes()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, PathTrials.UNPACKED, STAGED_4K}, 2, 0, 0, -1);
        for (int i = 0; i < 40 && t.timing(); i++)
        {
            final int asked = t.next();
            // The sender never packs: every direct copy is the unpacked one.
            final int taken = asked == PathTrials.DIRECT ? PathTrials.UNPACKED : asked;
            if (t.timing())
            {
                t.record(taken, taken == STAGED_4K ? 9_000 : 2_000);
            }
        }
        assertFalse(t.timing(), "the round ended");
        assertEquals(PathTrials.UNPACKED, t.chosen());
    }

    @Test
    void shouldRecheckAfterAnIntervalThatDoublesWhileTheChoiceHolds()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, STAGED_4K}, 1, 10, 40, -1);
        message(t, 1_000, 2_000);
        message(t, 1_000, 2_000);
        assertEquals(PathTrials.DIRECT, t.chosen());
        assertEquals(10, t.recheckAfter());
        int quiet = 0;
        while (t.next() == PathTrials.DIRECT && !t.timing())
        {
            quiet++;
        }
        assertEquals(9, quiet, "the 10th message after the choice opens a round");
        t.record(PathTrials.DIRECT, 1_000);
        message(t, 1_000, 2_000);
        assertEquals(2, t.rounds());
        assertEquals(20, t.recheckAfter(), "the choice held: twice the interval");
        // A phase change: staged is now faster; the next round catches it and the interval starts over.
        for (int i = 0; i < 20; i++)
        {
            t.next();
        }
        assertTrue(t.timing());
        t.record(PathTrials.DIRECT, 5_000);
        message(t, 5_000, 2_000);
        assertEquals(STAGED_4K, t.chosen());
        assertEquals(10, t.recheckAfter());
        assertEquals(1, t.changes());
    }

    @Test
    void shouldCapTheIntervalAndNeverRecheckWhenOff()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, STAGED_4K}, 1, 4, 8, -1);
        for (int round = 0; round < 4; round++)
        {
            message(t, 1_000, 2_000);
            message(t, 1_000, 2_000);
            while (!t.timing())
            {
                t.next();
            }
            t.record(PathTrials.DIRECT, 1_000);
        }
        assertEquals(8, t.recheckAfter());
        final PathTrials off = new PathTrials(new int[] {PathTrials.DIRECT}, 3, 0, 0, -1);
        assertFalse(off.timing(), "one candidate: nothing to try");
        assertEquals(PathTrials.DIRECT, off.next());
    }

    @Test
    void shouldRejectNoCandidates()
    {
        assertThrows(IllegalArgumentException.class, () -> new PathTrials(new int[0], 3, 0, 0, -1));
        assertEquals("staged-4096", PathTrials.name(STAGED_4K));
        assertEquals("direct-unpacked", PathTrials.name(PathTrials.UNPACKED));
    }
}
