package org.jmpi.internal.pt2pt;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The on-line check's selection logic, driven by a fake clock. */
class PathTrialsTest
{
    private static final int STAGED_4K = 4096;
    private static final int STAGED_8K = 8160;

    /** A fake clock: each message of a path takes that path's period. */
    private long now = 1_000_000;

    /** Runs one message: the path the trials give, taking {@code periodNs[index of the path]}; its completion reported. */
    private int message(final PathTrials t, final long... periodNs)
    {
        final int path = t.next();
        now += periodNs[index(t, path)];
        if (t.timing())
        {
            t.completed(path, now);
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
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, STAGED_4K, STAGED_8K}, 3, 0, 0, 0);
        final int[] order = new int[18];
        for (int i = 0; i < order.length; i++)
        {
            assertTrue(t.timing(), "message " + i + " is timed");
            order[i] = message(t, 15_000, 6_000, 6_400);
        }
        // Interleaved, two messages a turn (the second's period is the sample), the model's choice first.
        final int[] expected = {PathTrials.DIRECT, PathTrials.DIRECT, STAGED_4K, STAGED_4K, STAGED_8K, STAGED_8K};
        for (int i = 0; i < order.length; i++)
        {
            assertEquals(expected[i % expected.length], order[i], "message " + i);
        }
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
    void shouldTakeThePeriodWithinATurnOnly()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, STAGED_4K}, 1, 0, 0, 0);
        assertEquals(PathTrials.DIRECT, t.next());
        t.completed(PathTrials.DIRECT, 100);
        assertEquals(PathTrials.DIRECT, t.next());
        t.completed(PathTrials.DIRECT, 150);
        assertEquals(STAGED_4K, t.next());
        // A long gap before the staged turn's first message is not its sample: only the period within the turn.
        t.completed(STAGED_4K, 10_000);
        assertEquals(STAGED_4K, t.next());
        t.completed(STAGED_4K, 10_040);
        assertEquals(STAGED_4K, t.chosen());
    }

    @Test
    void shouldBearOneOutlierPerCandidate()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, STAGED_4K}, 3, 0, 0, 0);
        // direct: 5, 5, 900 (a stall); staged: 7, 1 (a fast fluke), 7: medians 5 and 7.
        final long[][] samples = {{5_000, 7_000}, {5_000, 1_000}, {900_000, 7_000}};
        for (final long[] round : samples)
        {
            for (int k = 0; k < 2 * PathTrials.HOLD; k++)
            {
                message(t, round);
            }
        }
        assertFalse(t.timing());
        assertEquals(PathTrials.DIRECT, t.chosen());
        assertEquals(0, t.changes(), "the model's choice held");
    }

    @Test
    void shouldAttributeASampleToThePathTakenNotThePathAskedFor()
    {
        // The receiver asked for the direct copy as offered (packed) but the sender had not packed: the message is the
        // unpacked copy's, and a period spanning the two paths is nobody's sample.
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, PathTrials.UNPACKED}, 1, 0, 0, 0);
        assertEquals(PathTrials.DIRECT, t.next());
        t.completed(PathTrials.UNPACKED, 100);
        assertEquals(PathTrials.DIRECT, t.next());
        t.completed(PathTrials.DIRECT, 200);
        assertTrue(t.timing(), "no sample yet");
        assertEquals(PathTrials.UNPACKED, t.next());
        t.completed(PathTrials.UNPACKED, 300);
        assertEquals(PathTrials.UNPACKED, t.next());
        t.completed(PathTrials.UNPACKED, 340);
        assertEquals(PathTrials.DIRECT, t.next(), "still owed");
        t.completed(PathTrials.DIRECT, 400);
        t.next();
        t.completed(PathTrials.DIRECT, 480);
        assertFalse(t.timing());
        assertEquals(PathTrials.UNPACKED, t.chosen());
    }

    @Test
    void shouldDecideOnWhatCameWhenACandidateNeverComes()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, PathTrials.UNPACKED, STAGED_4K}, 2, 0, 0, 0);
        for (int i = 0; i < 100 && t.timing(); i++)
        {
            final int asked = t.next();
            // The sender never packs: every direct copy is the unpacked one.
            final int taken = asked == PathTrials.DIRECT ? PathTrials.UNPACKED : asked;
            now += taken == STAGED_4K ? 9_000 : 2_000;
            if (t.timing())
            {
                t.completed(taken, now);
            }
        }
        assertFalse(t.timing(), "the round ended");
        assertEquals(PathTrials.UNPACKED, t.chosen());
    }

    @Test
    void shouldRecheckAfterAnIntervalThatDoublesWhileTheChoiceHolds()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, STAGED_4K}, 1, 10, 40, 0);
        for (int i = 0; i < 2 * PathTrials.HOLD; i++)
        {
            message(t, 1_000, 2_000);
        }
        assertEquals(PathTrials.DIRECT, t.chosen());
        assertEquals(10, t.recheckAfter());
        int quiet = 0;
        while (t.next() == PathTrials.DIRECT && !t.timing())
        {
            quiet++;
        }
        assertEquals(9, quiet, "the 10th message after the choice opens a round");
        t.completed(PathTrials.DIRECT, now += 1_000);
        for (int i = 1; i < 2 * PathTrials.HOLD; i++)
        {
            message(t, 1_000, 2_000);
        }
        assertEquals(2, t.rounds());
        assertEquals(20, t.recheckAfter(), "the choice held: twice the interval");
        // A phase change: staged is now faster; the next round catches it and the interval starts over.
        for (int i = 0; i < 20; i++)
        {
            t.next();
        }
        assertTrue(t.timing());
        t.completed(PathTrials.DIRECT, now += 5_000);
        for (int i = 1; i < 2 * PathTrials.HOLD; i++)
        {
            message(t, 5_000, 2_000);
        }
        assertEquals(STAGED_4K, t.chosen());
        assertEquals(10, t.recheckAfter());
        assertEquals(1, t.changes());
    }

    @Test
    void shouldCapTheIntervalAndNotTryASingleCandidate()
    {
        final PathTrials t = new PathTrials(new int[] {PathTrials.DIRECT, STAGED_4K}, 1, 4, 8, 0);
        for (int round = 0; round < 4; round++)
        {
            do
            {
                message(t, 1_000, 2_000);
            }
            while (t.timing());
            while (!t.timing())
            {
                t.next();
            }
            t.completed(PathTrials.DIRECT, now += 1_000);
        }
        assertEquals(8, t.recheckAfter());
        final PathTrials one = new PathTrials(new int[] {PathTrials.DIRECT}, 3, 0, 0, 0);
        assertFalse(one.timing(), "one candidate: nothing to try");
        assertEquals(PathTrials.DIRECT, one.next());
    }

    @Test
    void shouldKeepTheModelsPathUntilTheFirstRoundIsDue()
    {
        final PathTrials t = new PathTrials(new int[] {STAGED_4K, PathTrials.DIRECT}, 1, 0, 0, 16);
        for (int i = 0; i < 16; i++)
        {
            assertEquals(STAGED_4K, t.next());
            assertFalse(t.timing(), "message " + i + " is not timed");
        }
        assertEquals(STAGED_4K, t.next(), "the 17th message opens the round with the model's path");
        assertTrue(t.timing());
        t.completed(STAGED_4K, now += 9_000);
        for (int i = 1; i < 2 * PathTrials.HOLD; i++)
        {
            message(t, 9_000, 2_000);
        }
        assertEquals(PathTrials.DIRECT, t.chosen());
        assertEquals(0, t.recheckAfter(), "no re-check asked for");
    }

    @Test
    void shouldRejectNoCandidates()
    {
        assertThrows(IllegalArgumentException.class, () -> new PathTrials(new int[0], 3, 0, 0, 0));
        assertEquals("staged-4096", PathTrials.name(STAGED_4K));
        assertEquals("direct-unpacked", PathTrials.name(PathTrials.UNPACKED));
    }
}
