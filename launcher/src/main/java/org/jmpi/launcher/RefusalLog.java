package org.jmpi.launcher;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Consumer;

/**
 * What the bootstrap server turned away (refused and timed-out handshakes, connections over the cap,
 * connections closed by the client before completing, accept errors), reported as one line at most once
 * per interval, with a count per kind and per peer address. The first event after a quiet interval is
 * reported at once; what follows within the interval is summed into the next report.
 *
 * <p>Threading: one thread (the server's selector thread). The clock is passed in, so tests need no
 * sleeps. Memory: a fixed number of peer addresses ({@link #MAX_PEERS}); the others are counted together.
 */
final class RefusalLog
{
    /** Why a connection was turned away. */
    enum Kind
    {
        REFUSED("refused"),
        TIMED_OUT("timed out"),
        OVER_CAP("over the cap"),
        CLOSED_EARLY("closed by the client before completing"),
        ACCEPT_FAILED("accept failures");

        private final String text;

        Kind(final String text)
        {
            this.text = text;
        }
    }

    static final int MAX_PEERS = 4;

    private final long intervalNs;
    private final Consumer<String> sink;
    private final long[] counts = new long[Kind.values().length];
    private final Map<String, Long> peers = new LinkedHashMap<>();
    private long otherPeers;
    private String lastAcceptError;
    private long pending;
    private long lastReportNs;
    private boolean reported;
    private long totalReported;

    RefusalLog(final long intervalNs, final Consumer<String> sink)
    {
        if (intervalNs < 0)
        {
            throw new IllegalArgumentException("log interval must not be negative: intervalNs=" + intervalNs);
        }
        this.intervalNs = intervalNs;
        this.sink = sink;
    }

    /** Counts one connection turned away for {@code kind}; {@code peer} is its address, or null. */
    void record(final Kind kind, final String peer)
    {
        counts[kind.ordinal()]++;
        pending++;
        if (peer != null)
        {
            final Long count = peers.get(peer);
            if (count != null)
            {
                peers.put(peer, count + 1);
            }
            else if (peers.size() < MAX_PEERS)
            {
                peers.put(peer, 1L);
            }
            else
            {
                otherPeers++;
            }
        }
    }

    /** Counts one failed {@code accept} (for example EMFILE: "Too many open files"). */
    void acceptFailed(final String error)
    {
        counts[Kind.ACCEPT_FAILED.ordinal()]++;
        pending++;
        lastAcceptError = error;
    }

    /**
     * Reports what is pending if the interval since the last report has passed.
     *
     * @return nanoseconds until a report is due, or {@code Long.MAX_VALUE} when nothing is pending.
     */
    long poll(final long nowNs)
    {
        if (pending == 0)
        {
            return Long.MAX_VALUE;
        }
        final long dueNs = reported ? lastReportNs + intervalNs : nowNs;
        if (nowNs - dueNs < 0)
        {
            return dueNs - nowNs;
        }
        report(nowNs);
        return Long.MAX_VALUE;
    }

    /** Reports whatever is pending now, interval or not (the server is closing). */
    void flush(final long nowNs)
    {
        if (pending > 0)
        {
            report(nowNs);
        }
    }

    /** Events reported so far (for tests and the hostile-client IT's sanity checks). */
    long totalReported()
    {
        return totalReported;
    }

    private void report(final long nowNs)
    {
        final StringBuilder line = new StringBuilder("jmpirun: bootstrap: ");
        final long connections = pending - counts[Kind.ACCEPT_FAILED.ordinal()];
        if (connections > 0)
        {
            line.append("turned away ").append(connections).append(" connection(s)");
        }
        else
        {
            line.append("accept failing");
        }
        if (reported)
        {
            line.append(" in the last ").append(String.format(Locale.ROOT, "%.1f", (nowNs - lastReportNs) / 1e9)).append(" s");
        }
        final StringJoiner kinds = new StringJoiner(", ", ": ", "");
        for (final Kind kind : Kind.values())
        {
            if (counts[kind.ordinal()] > 0)
            {
                kinds.add(counts[kind.ordinal()] + " " + kind.text +
                    (kind == Kind.ACCEPT_FAILED ? " (last: " + lastAcceptError + "; backing off and retrying)" : ""));
            }
        }
        line.append(kinds);
        if (!peers.isEmpty() || otherPeers > 0)
        {
            final StringJoiner from = new StringJoiner(", ", "; from ", "");
            peers.forEach((peer, count) -> from.add(peer + " (" + count + ")"));
            if (otherPeers > 0)
            {
                from.add("other addresses (" + otherPeers + ")");
            }
            line.append(from);
        }
        sink.accept(line.toString());
        totalReported += pending;
        pending = 0;
        java.util.Arrays.fill(counts, 0);
        peers.clear();
        otherPeers = 0;
        lastAcceptError = null;
        lastReportNs = nowNs;
        reported = true;
    }
}
