package org.jmpi.transport.shm;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

import java.lang.invoke.VarHandle;

/**
 * Linux futexes on a word of a shared file mapping, and expedited global memory barriers (membarrier(2)), through
 * JNA's direct mapping of libc's {@code syscall}: a rank sleeps on its doorbell's sequence word and a peer in
 * another process wakes it. The operations are the
 * shared (not {@code _PRIVATE}) ones, so the kernel keys the wait by the file page, not the address space.
 *
 * <p>Threading: any thread; {@link Timeout} is one thread's.
 */
final class Futex
{
    private static final long FUTEX_WAIT = 0;
    private static final long FUTEX_WAKE = 1;
    private static final long SYS_FUTEX = sysFutex();
    private static final String UNAVAILABLE = load();
    /** membarrier(2) commands: what the kernel offers, the barrier, and the registration a process needs first. */
    private static final long MEMBARRIER_CMD_QUERY = 0;
    private static final long MEMBARRIER_CMD_GLOBAL_EXPEDITED = 1 << 1;
    private static final long MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED = 1 << 2;
    /**
     * Whether this process registered for expedited global membarriers, so that a rank going to sleep can make every
     * running thread of every registered process pass a full barrier ({@link #heavyBarrier}): senders then need no
     * fence of their own per frame ({@link ShmDoorbell#ring}).
     */
    static final boolean MEMBARRIER = registerMembarrier();

    private Futex()
    {
    }

    private static native long syscall(long number, long address, long op, long value, long timeout, long address2, long value3);

    private static long sysFutex()
    {
        return switch (System.getProperty("os.arch"))
        {
            case "amd64", "x86_64" -> 202;
            case "aarch64" -> 98;
            default -> -1;
        };
    }

    private static long sysMembarrier()
    {
        return switch (System.getProperty("os.arch"))
        {
            case "amd64", "x86_64" -> 324;
            case "aarch64" -> 283;
            default -> -1;
        };
    }

    /**
     * Registers this process for {@code MEMBARRIER_CMD_GLOBAL_EXPEDITED} (Linux 4.16 and later) when futexes work and
     * the kernel offers it; false otherwise (then every ring fences).
     */
    private static boolean registerMembarrier()
    {
        final long sys = sysMembarrier();
        if (UNAVAILABLE != null || sys < 0)
        {
            return false;
        }
        final long offered = syscall(sys, MEMBARRIER_CMD_QUERY, 0, 0, 0, 0, 0);
        final long needed = MEMBARRIER_CMD_GLOBAL_EXPEDITED | MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED;
        return offered >= 0 && (offered & needed) == needed && syscall(sys, MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED, 0, 0, 0, 0, 0) == 0;
    }

    /**
     * The heavy side of an asymmetric Dekker: returns once every thread of every registered process that runs on a
     * CPU has passed a full memory barrier (an IPI each; about a microsecond). Only when {@link #MEMBARRIER}.
     */
    static void heavyBarrier()
    {
        if (syscall(sysMembarrier(), MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0, 0, 0, 0) != 0)
        {
            VarHandle.fullFence(); // cannot fail once registered; a fence at least orders this thread
        }
    }

    private static String load()
    {
        if (!System.getProperty("os.name").startsWith("Linux") || SYS_FUTEX < 0)
        {
            return "futexes need Linux on x86_64 or aarch64, not " + System.getProperty("os.name") + " on " + System.getProperty("os.arch");
        }
        try
        {
            Native.register(Futex.class, NativeLibrary.getInstance("c"));
            return null;
        }
        catch (final Throwable ex)
        {
            return "JNA could not bind libc's syscall: " + ex;
        }
    }

    /** Null when futexes work here, else why not. */
    static String unavailable()
    {
        return UNAVAILABLE;
    }

    /** Sleeps while the int at {@code address} still holds {@code expected}, at most the timeout's period. */
    static void await(final long address, final int expected, final Timeout timeout, final long timeoutNs)
    {
        syscall(SYS_FUTEX, address, FUTEX_WAIT, expected, timeout.set(timeoutNs), 0, 0);
    }

    /** Wakes one sleeper on the int at {@code address}. */
    static void wakeOne(final long address)
    {
        syscall(SYS_FUTEX, address, FUTEX_WAKE, 1, 0, 0, 0);
    }

    /** A {@code struct timespec} in native memory, reused by one thread for every wait. */
    static final class Timeout
    {
        private final Memory timespec = new Memory(16);
        private final long address = Pointer.nativeValue(timespec);

        long set(final long ns)
        {
            timespec.setLong(0, ns / 1_000_000_000L);
            timespec.setLong(8, ns % 1_000_000_000L);
            return address;
        }
    }
}
