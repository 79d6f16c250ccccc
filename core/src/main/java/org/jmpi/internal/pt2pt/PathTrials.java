package org.jmpi.internal.pt2pt;

import java.util.Arrays;

/**
 * The on-line check of the cost model's choice (issue 11, point 5; docs/pvas.md, "Session 12: the on-line choice"):
 * for one repeated message (a key of the receiver's, {@link PathSelector}), the candidate paths are tried in turn on
 * the first messages and the fastest by the median of its samples is kept; after a number of messages that doubles
 * while the choice holds, the candidates are tried again, so a phase change is caught. This is what a tuned
 * collective does with its algorithms, applied to the model's direct-versus-staged choice, which no static
 * calibration of this machine has got right (docs/pvas.md, sessions 8-11).
 *
 * <p>Pure logic: the caller reads the clock when a timed message completes and reports it ({@link #completed}); nothing
 * here reads a clock. Once decided, {@link #next} costs a counter increment and a comparison, and {@link #timing} is
 * false: no clock read, no allocation per message.
 *
 * <p>Candidates are path codes: {@link #DIRECT} (the direct copy as offered, packed at send or not), {@link #UNPACKED}
 * (the direct copy of a sender asked not to pack at send) and a positive fragment payload (the staged pipeline with
 * that fragment size). The first is the model's choice, which the first message of the key took.
 *
 * <p>Threading: not thread-safe; the receiver's engine thread.
 */
final class PathTrials
{
    /** Candidate code: the direct copy of what the sender offered. */
    static final int DIRECT = 0;
    /** Candidate code: the direct copy, the sender asked not to pack at send. */
    static final int UNPACKED = -1;
    /** Messages per turn of a candidate: the first starts the period the second's completion ends. */
    static final int HOLD = 2;

    private final int samples;
    private final long firstRecheck;
    private final long maxRecheck;
    private final int[] candidates;
    /** Per candidate, its samples of the current round (ns), {@link #samples} slots each. */
    private final long[] durations;
    private final int[] counts;
    private final long[] scratch;
    private boolean trying;
    private int chosen;
    private long sinceChoice;
    private long recheckAfter;
    private int rounds;
    private int changes;
    private long roundMessages;
    /** During a round: the candidate whose turn is next (round robin over those that still owe samples). */
    private int turn;
    /** During a round: the candidate of the current turn, and how many of the turn's {@link #HOLD} messages were given. */
    private int block;
    private int held;
    /** The path and completion time of the key's previous timed message (0: none). */
    private int lastPath = Integer.MIN_VALUE;
    private long lastNs;
    private boolean handedOver;

    /**
     * @param candidates   the paths to try, the model's choice first (distinct codes)
     * @param samples      samples per candidate per round (at least 1; the median decides, so 3 or more bear an outlier)
     * @param firstRecheck messages after a choice before the first re-check (0: never re-check)
     * @param maxRecheck   the longest interval between re-checks (the interval doubles while the choice holds)
     * @param delay        messages on the model's path before the first round (0: the first message starts it)
     */
    PathTrials(final int[] candidates, final int samples, final long firstRecheck, final long maxRecheck, final long delay)
    {
        if (candidates.length == 0 || samples < 1)
        {
            throw new IllegalArgumentException("candidates " + Arrays.toString(candidates) + ", samples " + samples);
        }
        this.candidates = candidates.clone();
        this.samples = samples;
        this.firstRecheck = firstRecheck;
        this.maxRecheck = Math.max(firstRecheck, maxRecheck);
        this.durations = new long[candidates.length * samples];
        this.counts = new int[candidates.length];
        this.scratch = new long[samples];
        this.chosen = candidates[0];
        // The message after the delay's last opens the round.
        this.recheckAfter = candidates.length > 1 && delay > 0 ? delay + 1 : 0;
        this.trying = candidates.length > 1 && delay == 0;
    }

    /**
     * The path for the next message: during a round, the candidates in turn (the model's first), {@link #HOLD} messages
     * each, while they owe samples; else the one chosen. Counts the message towards the next re-check.
     */
    int next()
    {
        if (!trying)
        {
            if (recheckAfter > 0 && ++sinceChoice >= recheckAfter)
            {
                startRound();
            }
            else
            {
                return chosen;
            }
        }
        if (++roundMessages > 2L * HOLD * samples * candidates.length)
        {
            // A candidate that never came (a sender that could not pack at send, say): decide on what was measured.
            decide();
            return chosen;
        }
        if (held == 0)
        {
            block = counts[turn] < samples ? turn : advance(turn);
            turn = advance(block);
        }
        held = (held + 1) % HOLD;
        return candidates[block];
    }

    /**
     * A timed message that took {@code candidate} completed at {@code nowNs}: the time since the key's previous
     * message completed is a sample of {@code candidate} when that one took the same path. Within a turn both messages
     * took it, so the sample is one period of the repeated message: in an exchange, the whole round trip, the reply
     * included (which the peer's own check chooses; for a symmetric exchange the two ranks' checks run in step, so the
     * reply took the same candidate). What the receiver alone sees (from the match to its completion) missed the costs a
     * direct copy leaves to the other side: the cache lines it took from the peer's core.
     */
    void completed(final int candidate, final long nowNs)
    {
        if (trying && candidate == lastPath && lastNs != 0)
        {
            record(candidate, nowNs - lastNs);
        }
        lastPath = candidate;
        lastNs = trying ? nowNs : 0;
    }

    /** The next candidate after {@code from}, in turn, that still owes samples ({@code from} when none does). */
    private int advance(final int from)
    {
        for (int k = 1; k <= candidates.length; k++)
        {
            final int i = (from + k) % candidates.length;
            if (counts[i] < samples)
            {
                return i;
            }
        }
        return from;
    }

    /** The path {@link #next} would give now, without counting a message. */
    int upcoming()
    {
        return !trying ? chosen : held > 0 ? candidates[block] : candidates[counts[turn] < samples ? turn : advance(turn)];
    }

    /** Whether messages are being timed now (a round is on): only then does the caller read the clock. */
    boolean timing()
    {
        return trying;
    }

    /**
     * A sample of {@code ns} for {@code candidate} (which may differ from what {@link #next} said: a sender that had
     * already packed). Ends the round once every candidate has its samples.
     */
    void record(final int candidate, final long ns)
    {
        if (!trying)
        {
            return;
        }
        final int i = indexOf(candidate);
        if (i < 0 || counts[i] >= samples)
        {
            return;
        }
        durations[i * samples + counts[i]++] = ns;
        for (final int c : counts)
        {
            if (c < samples)
            {
                return;
            }
        }
        decide();
    }

    private void decide()
    {
        int best = 0;
        long bestNs = Long.MAX_VALUE;
        for (int i = 0; i < candidates.length; i++)
        {
            if (counts[i] == 0)
            {
                continue;
            }
            final long m = median(i);
            if (m < bestNs)
            {
                bestNs = m;
                best = i;
            }
        }
        final int previous = chosen;
        if (bestNs != Long.MAX_VALUE)
        {
            chosen = candidates[best];
        }
        if (rounds > 0 && chosen == previous)
        {
            recheckAfter = Math.min(maxRecheck, recheckAfter * 2);
        }
        else
        {
            recheckAfter = firstRecheck;
        }
        if (chosen != previous)
        {
            changes++;
        }
        rounds++;
        trying = false;
        sinceChoice = 0;
    }

    private void startRound()
    {
        Arrays.fill(counts, 0);
        roundMessages = 0;
        turn = 0;
        held = 0;
        lastNs = 0;
        handedOver = false;
        trying = true;
        sinceChoice = 0;
    }

    /** The median of candidate {@code i}'s samples (the lower middle for an even count). */
    private long median(final int i)
    {
        final int n = counts[i];
        System.arraycopy(durations, i * samples, scratch, 0, n);
        Arrays.sort(scratch, 0, n);
        return scratch[(n - 1) / 2];
    }

    private int indexOf(final int candidate)
    {
        for (int i = 0; i < candidates.length; i++)
        {
            if (candidates[i] == candidate)
            {
                return i;
            }
        }
        return -1;
    }

    /** Whether the receiver asked the sender to send this key staged at once (no offers until the sender re-checks). */
    boolean handedOver()
    {
        return handedOver;
    }

    void handedOver(final boolean value)
    {
        handedOver = value;
    }

    /** Starts a round now (the sender's re-check offer of a key it was sending staged at once). */
    void recheckNow()
    {
        if (!trying && candidates.length > 1)
        {
            startRound();
        }
    }

    /** Whether {@code candidate} is among this key's candidates. */
    boolean has(final int candidate)
    {
        return indexOf(candidate) >= 0;
    }

    /** The path chosen by the last round (the model's before any round ended). */
    int chosen()
    {
        return chosen;
    }

    /** Rounds of trials ended. */
    int rounds()
    {
        return rounds;
    }

    /** Rounds that changed the path chosen before them (the first one: when it overruled the model). */
    int changes()
    {
        return changes;
    }

    /** Messages until the next re-check once decided (before the first round: until it; 0: never). */
    long recheckAfter()
    {
        return recheckAfter;
    }

    /** The candidates, the model's first. */
    int[] candidates()
    {
        return candidates.clone();
    }

    /** A candidate code as text: direct, direct-unpacked, staged-N. */
    static String name(final int candidate)
    {
        return candidate == DIRECT ? "direct" : candidate == UNPACKED ? "direct-unpacked" : "staged-" + candidate;
    }
}
