package org.jmpi.internal.engine;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Whether this JVM's JIT compiler has been at work lately, for waiting ranks that would otherwise spin
 * through its compile threads' time.
 *
 * <p>Why: in a job's first second every rank spins on its core while the compiler threads, which
 * have to turn the hot paths into machine code, wait for one. A rank whose peer was taken off its core
 * by a compile thread then spins a whole time slice for a message that cannot come (a 128-double halo
 * exchange between 2 JVMs on 2 cores: p99 about 700 us over the first 20,000 exchanges, docs/performance.md).
 * A spinning rank that yields once every few dozen polls while the compiler is busy gives it the core.
 *
 * <p>How: the JVM's accumulated compilation time ({@link CompilationMXBean}, a performance counter,
 * about 20 ns a read) is sampled at most once per {@link #SAMPLE_NS}; the compiler counts as busy for
 * {@link #BUSY_NS} after the counter last moved. One per JVM, shared by all its ranks; the races between
 * samplers are benign (a late or repeated sample).
 */
public final class JitActivity
{
    /** Least time between two reads of the compilation counter. */
    static final long SAMPLE_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long after the counter last moved the compiler counts as busy. */
    static final long BUSY_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final JitActivity THIS_JVM = new JitActivity(compileTimeCounter());

    /** The accumulated compilation time in ms; null where the JVM does not report it (never busy). */
    private final LongSupplier compileMs;
    private volatile boolean sampled;
    private volatile long lastSampleNs;
    private volatile long lastCompileMs;
    private volatile long lastChangeNs;

    JitActivity(final LongSupplier compileMs)
    {
        this.compileMs = compileMs;
    }

    /** Loads the management classes this needs (about 10 ms once), so that a rank can do it off its critical path. */
    public static void prepare()
    {
        busy(System.nanoTime());
    }

    /** Whether this JVM's compiler finished some work within {@link #BUSY_NS} before {@code nowNs}. */
    public static boolean busy(final long nowNs)
    {
        return THIS_JVM.busyAt(nowNs);
    }

    /**
     * Whether the counter moved within {@link #BUSY_NS} before {@code nowNs}, reading it when the last read is at
     * least {@link #SAMPLE_NS} old. The first read counts as a move: a JVM that just started is compiling.
     */
    boolean busyAt(final long nowNs)
    {
        if (compileMs == null)
        {
            return false;
        }
        if (!sampled || nowNs - lastSampleNs >= SAMPLE_NS)
        {
            final long ms = compileMs.getAsLong();
            if (!sampled || ms != lastCompileMs)
            {
                lastCompileMs = ms;
                lastChangeNs = nowNs;
            }
            lastSampleNs = nowNs;
            sampled = true;
        }
        return nowNs - lastChangeNs < BUSY_NS;
    }

    private static LongSupplier compileTimeCounter()
    {
        try
        {
            final CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
            return bean != null && bean.isCompilationTimeMonitoringSupported() ? bean::getTotalCompilationTime : null;
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return null; // no java.management (a jlinked runtime without it): spin as before
        }
    }
}
