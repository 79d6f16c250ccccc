package org.jmpi.internal.rma;

import java.lang.invoke.VarHandle;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * The epochs one rank has open on a {@link Window}, and their transitions (MPI 4.1 §12.5): the fence epoch, PSCW's
 * access (start/complete) and exposure (post/wait) epochs, and the passive-target locks (lock/unlock, lockAll/
 * unlockAll). The synchronisation itself goes through the window's {@link Control} memory:
 * <ol>
 * <li><b>PSCW</b>: post adds 1 to each origin's post counter for this rank; start waits until its counter for each
 * target has grown; complete waits for the operations to those targets, then adds 1 to each target's complete counter
 * for this rank; wait and test read those counters. Counters are cumulative, so epochs never mix.</li>
 * <li><b>Locks</b>: a lock word at the target, changed only by remote atomics ({@link Control#acquire}); unlock waits
 * for the operations to the target, then releases.</li>
 * </ol>
 * {@link #open} and {@link #passive} are what the operations' hot paths test: small, so that they inline.
 *
 * <p>Threading: the window's thread (one at a time, as MPI requires for epochs). The window owns it; it completes the
 * window's operations through the window.
 */
final class Epochs
{
    private final Window window;
    private final Control control;
    private final ProgressEngine engine;
    private final int size;
    /** Per target: 0, or the lock type held (negative under MODE_NOCHECK: no lock taken at the target). */
    private final int[] lockHeld;
    private boolean lockAll;
    private boolean lockAllChecked;
    private boolean fenceOpen;
    private int[] startGroup;
    private boolean[] inStart;
    private int[] postGroup;

    Epochs(final Window window, final Control control, final ProgressEngine engine, final int size)
    {
        this.window = window;
        this.control = control;
        this.engine = engine;
        this.size = size;
        this.lockHeld = new int[size];
    }

    /** Whether an access epoch to {@code target} (a valid rank) is open: fence, start, lock or lockAll. */
    boolean open(final int target)
    {
        return lockAll || lockHeld[target] != 0 || fenceOpen || (inStart != null && inStart[target]);
    }

    /** Whether a passive-target epoch to {@code target} (a valid rank) is open: lock or lockAll. */
    boolean passive(final int target)
    {
        return lockAll || lockHeld[target] != 0;
    }

    /** Whether a lockAll epoch is open. */
    boolean lockAll()
    {
        return lockAll;
    }

    /** Whether any passive-target epoch is open. */
    boolean anyPassive()
    {
        return lockAll || anyLock();
    }

    /** What is open that a fence or free must not meet, or null: "a lock", "start without complete", "post without wait". */
    String openEpoch()
    {
        return lockAll || anyLock() ? "a lock" : startGroup != null ? "start without complete" : postGroup != null ? "post without wait" : null;
    }

    /** Opens (or with {@code succeed} false, closes) the fence epoch; the window checked {@link #openEpoch()} and completed. */
    void fence(final boolean succeed)
    {
        fenceOpen = succeed;
    }

    private boolean anyLock()
    {
        for (final int held : lockHeld)
        {
            if (held != 0)
            {
                return true;
            }
        }
        return false;
    }

    /** MPI_Win_post: exposes this rank's window to the ranks of {@code group} (window ranks). */
    void post(final String call, final int[] group)
    {
        if (postGroup != null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": an exposure epoch (post) is already open; call waitEpoch first");
        }
        checkGroup(call, group);
        postGroup = group.clone();
        final Completion[] signals = control.post(group);
        for (int i = 0; i < group.length; i++)
        {
            window.track(group[i], signals[i]);
        }
    }

    /** MPI_Win_start: waits until every target of {@code group} has posted, then opens access to them. */
    void start(final String call, final int[] group)
    {
        if (startGroup != null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": an access epoch (start) is already open; call complete first");
        }
        fenceOpen = false;
        checkGroup(call, group);
        control.awaitPosts(group);
        startGroup = group.clone();
        inStart = new boolean[size];
        window.forget();
        for (final int t : group)
        {
            inStart[t] = true;
        }
    }

    /** MPI_Win_complete: completes the operations of the access epoch and tells its targets. */
    void complete(final String call)
    {
        if (startGroup == null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": no access epoch (start) is open");
        }
        final int[] group = startGroup;
        startGroup = null;
        inStart = null;
        for (final int t : group)
        {
            window.complete(t);
        }
        final Completion[] signals = control.complete(group);
        for (int i = 0; i < group.length; i++)
        {
            window.track(group[i], signals[i]);
        }
    }

    /** MPI_Win_wait ({@code block}) or MPI_Win_test: whether every origin of the exposure epoch has completed. */
    boolean waitEpoch(final String call, final boolean block)
    {
        if (postGroup == null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": no exposure epoch (post) is open");
        }
        final int[] group = postGroup;
        if (block)
        {
            engine.await(() -> control.completed(group));
        }
        else if (!control.completed(group))
        {
            engine.pollOnce();
            if (!control.completed(group))
            {
                return false;
            }
        }
        control.consumeCompletes(group);
        postGroup = null;
        for (final int o : group)
        {
            window.complete(o);
        }
        VarHandle.fullFence();
        return true;
    }

    /**
     * Signals each rank of {@code group} once through the post counters and waits for one signal of each (coarrays'
     * {@code sync images}: pairwise, without the rest of PSCW's epoch). The signal is the one {@link #post} sends, so a
     * rank's k-th signal to a partner matches the partner's k-th post or signal to it; the signals are complete (at
     * their targets) on return. Not while this rank has a PSCW epoch open on the window.
     */
    void signalAndWait(final String call, final int[] group)
    {
        if (startGroup != null || postGroup != null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": a PSCW epoch (" + openEpoch() + ") is open on this window");
        }
        final Completion[] signals = control.post(group);
        control.awaitPosts(group);
        for (int i = 0; i < group.length; i++)
        {
            window.track(group[i], signals[i]);
            window.complete(group[i]);
        }
    }

    private void checkGroup(final String call, final int[] group)
    {
        final boolean[] seen = new boolean[size];
        for (final int r : group)
        {
            if (r < 0 || r >= size || seen[r])
            {
                throw new MpiException(ErrorClass.ERR_GROUP, call + ": rank " + r + " is not a distinct rank of the window's group of " + size);
            }
            seen[r] = true;
        }
    }

    /** MPI_Win_lock. {@code noCheck}: MPI_MODE_NOCHECK, no lock is taken at the target. */
    void lock(final String call, final int lockType, final int target, final boolean noCheck)
    {
        if (lockType != Window.LOCK_EXCLUSIVE && lockType != Window.LOCK_SHARED)
        {
            throw new MpiException(ErrorClass.ERR_LOCKTYPE, call + ": lock type " + lockType + " is neither exclusive nor shared");
        }
        if (target < 0 || target >= size)
        {
            throw new MpiException(ErrorClass.ERR_RANK, call + ": target rank " + target + " outside the window's group of " + size);
        }
        if (lockHeld[target] != 0 || lockAll)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": rank " + target + " is already locked by this rank on this window");
        }
        if (!noCheck)
        {
            control.acquire(target, lockType == Window.LOCK_EXCLUSIVE);
        }
        lockHeld[target] = noCheck ? -lockType : lockType;
        window.forget();
    }

    /** MPI_Win_unlock: completes the operations to {@code target} and releases its lock. */
    void unlock(final String call, final int target)
    {
        if (target < 0 || target >= size || lockHeld[target] == 0)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": rank " + target + " is not locked by this rank on this window");
        }
        final int held = lockHeld[target];
        lockHeld[target] = 0;
        window.complete(target);
        if (held > 0)
        {
            control.release(target, held == Window.LOCK_EXCLUSIVE);
        }
    }

    /** MPI_Win_lock_all: a shared lock on every rank. */
    void lockAll(final String call, final boolean noCheck)
    {
        if (lockAll || anyLock())
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": a lock epoch is already open on this window");
        }
        if (!noCheck)
        {
            for (int t = 0; t < size; t++)
            {
                control.acquire(t, false);
            }
        }
        lockAll = true;
        lockAllChecked = !noCheck;
        window.forget();
    }

    /** MPI_Win_unlock_all. */
    void unlockAll(final String call)
    {
        if (!lockAll)
        {
            throw new MpiException(ErrorClass.ERR_RMA_SYNC, call + ": no lockAll epoch is open on this window");
        }
        lockAll = false;
        window.completeAll();
        if (lockAllChecked)
        {
            for (int t = 0; t < size; t++)
            {
                control.release(t, false);
            }
        }
    }
}
