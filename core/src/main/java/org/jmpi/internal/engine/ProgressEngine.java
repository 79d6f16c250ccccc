package org.jmpi.internal.engine;

import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Doorbell;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One rank's progress engine: it owns the protocol state and the transports, and is driven by
 * exactly one thread at a time, so the protocol needs no locks.
 *
 * <p>Two modes:
 * <ol>
 * <li><b>Direct</b> (SINGLE, FUNNELED, SERIALIZED without async progress): the calling application
 * thread runs commands inline and polls the transports while it waits. A second thread calling in
 * concurrently is rejected with ERR_OTHER rather than corrupting state.</li>
 * <li><b>Offload</b> (MULTIPLE, or async progress on): a progress thread owns the engine. Callers on
 * any thread, virtual threads included, enqueue commands and park until their request completes;
 * the progress thread unparks them. A parked virtual thread unmounts from its carrier.</li>
 * </ol>
 * Idling is spin, then yield, then park with exponential back-off ({@link Idler}), so several ranks
 * on few cores still progress; threads of this JVM that deliver frames call {@link #wakeup()}, which
 * unparks the engine's thread only while it is actually parked.
 */
public final class ProgressEngine
{
    /** What the engine polls: the protocol over all transports. */
    public interface Pollable
    {
        /** Polls once; returns the work done (0 = idle). Engine thread only. */
        int poll();
    }

    /**
     * Long-running work the engine advances on every poll, such as a nonblocking collective's schedule or
     * a persistent put/get collective's run. Engine thread only; must never block.
     */
    public interface Activity
    {
        /** Advances; returns true once finished (it is then dropped). */
        boolean progress();
    }

    /**
     * Polls between two yields while spinning when the ranks on a node outnumber its processors (a power of
     * two). 64 polls of an idle in-JVM engine take a few microseconds. Chosen by timing persistent put bcast
     * and allreduce starts and an in-JVM send/recv round trip at 2 ranks with bursts of 64, 1024 and 8192 on
     * the 2-vCPU shared machine at load 12 (docs/collectives.md, "Waiting"): 64 was the fastest per start;
     * without the yields a put bcast start took about 800 us. Without oversubscription the yields only add a
     * system call to the spin (8-byte ping-pong between 2 JVMs on 2 vCPUs: 0.85 us with them, bench/latency-vs-c.sh).
     */
    public static final long OVERSUBSCRIBED_SPIN_BURST = 64;
    /**
     * A JIT-aware idler asks {@link JitActivity} after {@link #JIT_FIRST_CHECK} idle polls of a wait, then once every
     * this many + 1: a wait shorter than that (a warm ping-pong's) pays nothing.
     */
    static final long JIT_CHECK_MASK = 1023;
    static final long JIT_FIRST_CHECK = 64;

    /** Offload mode: a blocked caller's first re-check of its request (a guard: completion unparks it). */
    static final long OFFLOAD_RECHECK_MIN_NS = 1_000_000L;
    /** Offload mode: the longest re-check period; also how soon a blocked caller sees an abort. */
    static final long OFFLOAD_RECHECK_MAX_NS = 50_000_000L;

    private final Pollable pollable;
    private final boolean offload;
    private final IdleSpec idleSpec;
    private final ArrayList<Activity> activities = new ArrayList<>();
    private final ManyToOneConcurrentLinkedQueue<Runnable> commands = new ManyToOneConcurrentLinkedQueue<>();
    /** Direct mode: the thread driving the engine now (null when none); re-entrant for that thread. */
    private final AtomicReference<Thread> directOwner = new AtomicReference<>();
    private int directDepth;
    private final Thread progressThread;
    private volatile Thread idleThread;
    private volatile boolean parked;
    private volatile boolean running = true;
    private volatile Runnable abortCheck = () -> { };
    private volatile Throwable progressFailure;
    /** A transport's doorbell, which peers in other processes can ring; null: park with {@code LockSupport}. */
    private volatile Doorbell doorbell;
    /** The idler of direct-mode waits: one thread drives the engine at a time, so one is enough (no garbage per wait). */
    private final Idler directIdler;

    /**
     * Idle tuning: spins (yielding once every {@code spinBurst} of them; 0: never), yields, then parks from min
     * to max nanoseconds. {@code jitWindowNs}: for this long after the engine is made, while spinning, also
     * yield once every {@link #OVERSUBSCRIBED_SPIN_BURST} polls while the JIT compiler is at work
     * ({@link JitActivity}); 0: never.
     */
    public record IdleSpec(long spins, long yields, long spinBurst, long minParkNs, long maxParkNs, long jitWindowNs)
    {
        public IdleSpec
        {
            if (spinBurst < 0 || (spinBurst & (spinBurst - 1)) != 0)
            {
                throw new IllegalArgumentException("spin burst must be 0 or a power of two: " + spinBurst);
            }
        }

        /** Without the JIT-aware yields. */
        public IdleSpec(final long spins, final long yields, final long spinBurst, final long minParkNs, final long maxParkNs)
        {
            this(spins, yields, spinBurst, minParkNs, maxParkNs, 0);
        }
    }

    /**
     * Spin, yield, then park with doubling periods; resets on work. Like Agrona's BackoffIdleStrategy, with two
     * changes for ranks that outnumber the cores (ranks as threads of one JVM, or a shared machine):
     * <ol>
     * <li>Spin: poll, and when ranks outnumber cores every {@link IdleSpec#spinBurst()} polls yield once, so a
     * spinning rank hands its core to a runnable peer (often the one it waits for) instead of burning its whole
     * time slice ({@link #OVERSUBSCRIBED_SPIN_BURST}).</li>
     * <li>Yield: poll and yield.</li>
     * <li>Park: flag the engine as parked, poll once more, and only then park. A peer that bumps a counter or
     * delivers a frame calls {@link #wakeup()} after its write: either this last poll sees the write, or the
     * peer sees the flag and its unpark cuts the park short (both flag and data are volatile). Without the
     * second poll a write landing between the poll and the flag would leave the rank asleep for a whole park
     * period (a lost wake-up), on the critical path of every synchronisation. The park period still doubles up
     * to the maximum, for transports that cannot wake the engine (other JVMs).</li>
     * </ol>
     * {@link #wakeup()} skips the unpark (a mutex and a signal in HotSpot) while the engine is not parked.
     */
    private final class Idler
    {
        private final long spinMask = idleSpec.spinBurst() - 1;
        private long count;
        private long parkNs;
        /** While spinning: the yield mask in force, refreshed as {@link #JIT_CHECK_MASK} says. */
        private long yieldMask = spinMask;
        /** Until when the JIT-aware yields apply; after it they are off for good. */
        private final long jitUntilNs = System.nanoTime() + idleSpec.jitWindowNs();
        private boolean jitWatch = idleSpec.jitWindowNs() > 0 && spinMask < 0;

        /** Back to the start of the spin phase, as a new wait begins. */
        void reset()
        {
            count = 0;
            parkNs = 0;
        }

        void idle(final int work)
        {
            if (work > 0)
            {
                count = 0;
                parkNs = idleSpec.minParkNs();
                return;
            }
            if (count < idleSpec.spins())
            {
                count++;
                if (jitWatch && (count & JIT_CHECK_MASK) == JIT_FIRST_CHECK)
                {
                    final long now = System.nanoTime();
                    jitWatch = now - jitUntilNs < 0;
                    yieldMask = jitWatch && JitActivity.busy(now) ? OVERSUBSCRIBED_SPIN_BURST - 1 : spinMask;
                }
                if (yieldMask >= 0 && (count & yieldMask) == 0)
                {
                    Thread.yield();
                }
                else
                {
                    Thread.onSpinWait();
                }
            }
            else if (count < idleSpec.spins() + idleSpec.yields())
            {
                count++;
                Thread.yield();
            }
            else
            {
                park();
            }
        }

        /** Flags the engine parked, polls once more, and parks (on the doorbell when a transport has one). */
        private void park()
        {
            final Doorbell bell = doorbell;
            final int token = bell == null ? 0 : bell.arm();
            parked = true;
            final int work = poll() + (offload && !commands.isEmpty() ? 1 : 0);
            if (work == 0)
            {
                if (bell == null)
                {
                    LockSupport.parkNanos(Math.max(1, parkNs));
                }
                else
                {
                    bell.await(token, Math.max(1, parkNs));
                }
            }
            parked = false;
            if (bell != null)
            {
                bell.disarm();
            }
            if (work > 0)
            {
                count = 0;
                parkNs = idleSpec.minParkNs();
            }
            else
            {
                parkNs = Math.min(Math.max(1, parkNs) * 2, idleSpec.maxParkNs());
            }
        }
    }

    private static final VarHandle PARKED;

    static
    {
        try
        {
            PARKED = MethodHandles.lookup().findVarHandle(ProgressEngine.class, "parked", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    public ProgressEngine(final Pollable pollable, final boolean offload, final IdleSpec idleSpec, final String name)
    {
        this.pollable = pollable;
        this.offload = offload;
        this.idleSpec = idleSpec;
        this.directIdler = new Idler();
        if (offload)
        {
            progressThread = Thread.ofPlatform().daemon(true).name(name).unstarted(this::runProgressLoop);
        }
        else
        {
            progressThread = null;
        }
    }

    /** Starts the progress thread (offload mode); the protocol must be ready. */
    public void start()
    {
        if (progressThread != null)
        {
            progressThread.start();
        }
    }

    /** Hosts {@code activity}: it is advanced on every poll until it reports finished. Engine thread. */
    public void addActivity(final Activity activity)
    {
        activities.add(activity);
    }

    /** One poll: the protocol, then the activities. Engine thread. */
    private int poll()
    {
        int work = pollable.poll();
        if (!activities.isEmpty())
        {
            work += progressActivities();
        }
        return work;
    }

    private int progressActivities()
    {
        int finished = 0;
        for (int i = 0; i < activities.size(); i++)
        {
            if (activities.get(i).progress())
            {
                activities.remove(i--);
                finished++;
            }
        }
        return finished;
    }

    /**
     * Parks through {@code bell} from now on (a transport whose peers in other processes can wake this rank).
     * Before traffic.
     */
    public void doorbell(final Doorbell bell)
    {
        this.doorbell = bell;
    }

    /** Sets what is checked while waiting: it throws when the job was aborted. */
    public void abortCheck(final Runnable check)
    {
        this.abortCheck = check;
    }

    /** The idle tuning this engine waits with (the put/get cost model calibrates its wake-ups with it). */
    public IdleSpec idleSpec()
    {
        return idleSpec;
    }

    public boolean offload()
    {
        return offload;
    }

    /** Whether the calling thread is the one driving the engine right now. */
    public boolean onEngineThread()
    {
        return offload ? Thread.currentThread() == progressThread : directOwner.get() == Thread.currentThread();
    }

    /**
     * Runs {@code command} on the engine: inline in direct mode, else on the progress thread.
     * Returns once the command ran (direct) or was queued (offload).
     */
    public void execute(final Runnable command)
    {
        if (offload)
        {
            if (Thread.currentThread() == progressThread)
            {
                command.run();
                return;
            }
            checkProgressThread();
            commands.offer(command);
            final Doorbell bell = doorbell;
            if (bell != null)
            {
                bell.ring();
            }
            else
            {
                LockSupport.unpark(progressThread);
            }
        }
        else
        {
            enterDirect();
            try
            {
                command.run();
            }
            finally
            {
                exitDirect();
            }
        }
    }

    /**
     * Runs {@code command} on the engine and returns its result once it ran, in either mode (offload: the
     * caller waits for the progress thread). A runtime exception it throws is rethrown here.
     */
    public <T> T call(final Supplier<T> command)
    {
        if (!offload || Thread.currentThread() == progressThread)
        {
            final Object[] out = new Object[1];
            execute(() -> out[0] = command.get());
            @SuppressWarnings("unchecked")
            final T result = (T)out[0];
            return result;
        }
        final AtomicReference<Object> out = new AtomicReference<>();
        final AtomicReference<RuntimeException> failure = new AtomicReference<>();
        final java.util.concurrent.atomic.AtomicBoolean ran = new java.util.concurrent.atomic.AtomicBoolean();
        final Thread caller = Thread.currentThread();
        execute(() ->
        {
            try
            {
                out.set(command.get());
            }
            catch (final RuntimeException ex)
            {
                failure.set(ex);
            }
            finally
            {
                ran.set(true);
                LockSupport.unpark(caller);
            }
        });
        await(ran::get);
        if (failure.get() != null)
        {
            throw failure.get();
        }
        @SuppressWarnings("unchecked")
        final T result = (T)out.get();
        return result;
    }

    /**
     * Waits until {@code done} holds. In direct mode the caller polls the engine, idling between
     * polls; in offload mode it parks and relies on whoever completes its work to unpark it (the
     * condition's owner registers the waiting thread), re-checking (and checking for an abort) after a
     * period that doubles from {@link #OFFLOAD_RECHECK_MIN_NS} to {@link #OFFLOAD_RECHECK_MAX_NS}, so that many
     * blocked threads do not wake the machine a thousand times a second each.
     */
    public void await(final BooleanSupplier done)
    {
        if (offload)
        {
            long recheckNs = OFFLOAD_RECHECK_MIN_NS;
            while (!done.getAsBoolean())
            {
                abortCheck.run();
                checkProgressThread();
                LockSupport.parkNanos(recheckNs);
                recheckNs = Math.min(recheckNs * 2, OFFLOAD_RECHECK_MAX_NS);
            }
            return;
        }
        enterDirect();
        if (done.getAsBoolean() || (poll() > 0 && done.getAsBoolean()))
        {
            exitDirect();
            return;
        }
        final Idler idle = directIdler;
        idle.reset();
        idleThread = Thread.currentThread();
        try
        {
            int checks = 0;
            while (!done.getAsBoolean())
            {
                final int work = poll();
                if (work == 0 && (++checks & 0x3F) == 0)
                {
                    abortCheck.run();
                }
                idle.idle(work);
            }
        }
        finally
        {
            idleThread = null;
            exitDirect();
        }
    }

    /**
     * Direct mode: lets the calling thread drive the engine (re-entrant; ERR_OTHER if another thread drives it)
     * and returns true, so that the caller runs engine work inline, without a command object; pair with
     * {@link #exit()}. Offload mode: returns false and enters nothing (use {@link #execute}).
     */
    public boolean enter()
    {
        if (offload)
        {
            return false;
        }
        enterDirect();
        return true;
    }

    /** Leaves the engine after {@link #enter()} returned true. */
    public void exit()
    {
        exitDirect();
    }

    /** Polls once if the engine is driven by the caller (direct mode); otherwise nothing. */
    public void pollOnce()
    {
        if (offload)
        {
            checkProgressThread();
            return;
        }
        enterDirect();
        try
        {
            poll();
        }
        finally
        {
            exitDirect();
        }
    }

    /** Polls once from within the engine (a command already running on the engine). */
    public int pollFromEngine()
    {
        return poll();
    }

    /**
     * Cuts short an idle park of the engine's thread. Any thread. Only the caller that clears the parked flag
     * (compare-and-set) wakes the thread: one unpark per park, not one per frame delivered while it sleeps or wakes
     * (issue 12, message rate: a window of 64 sends to a parked rank made 64). A caller that loses the race wrote its
     * work before it read the flag set, and the winner's wake makes the engine poll after that.
     */
    public void wakeup()
    {
        final Thread t = idleThread;
        if (t != null && parked && PARKED.compareAndSet(this, true, false))
        {
            final Doorbell bell = doorbell;
            if (bell != null)
            {
                bell.ring();
            }
            else
            {
                LockSupport.unpark(t);
            }
        }
    }

    /** Stops the progress thread after it has drained its queue. */
    public void close()
    {
        running = false;
        if (progressThread != null && progressThread.isAlive())
        {
            LockSupport.unpark(progressThread);
            try
            {
                progressThread.join(5_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void enterDirect()
    {
        final Thread me = Thread.currentThread();
        if (directOwner.get() == me)
        {
            directDepth++;
            return;
        }
        if (!directOwner.compareAndSet(null, me))
        {
            throw new MpiException(ErrorClass.ERR_OTHER,
                "concurrent MPI calls on one rank: initialise with ThreadLevel.MULTIPLE to call from several threads at once");
        }
        directDepth = 1;
    }

    /**
     * Leaves direct mode: a release store, as a lock's exit is (the entry's compare-and-set is the fence); a volatile
     * store here cost a full fence per isend and irecv (issue 12, message rate).
     */
    private void exitDirect()
    {
        if (--directDepth == 0)
        {
            directOwner.setRelease(null);
        }
    }

    private void checkProgressThread()
    {
        final Throwable failure = progressFailure;
        if (failure != null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "progress thread failed: " + failure, failure);
        }
    }

    private void runProgressLoop()
    {
        final Idler idle = new Idler();
        idleThread = progressThread;
        try
        {
            while (running || !commands.isEmpty())
            {
                int work = 0;
                Runnable command;
                while ((command = commands.poll()) != null)
                {
                    command.run();
                    work++;
                }
                work += poll();
                idle.idle(work);
            }
        }
        catch (final Throwable ex)
        {
            progressFailure = ex;
            System.err.println("jmpi: progress thread failed: " + ex);
            ex.printStackTrace();
        }
    }
}
