package org.jmpi.transport.shm;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * Linux futexes on a word of a shared file mapping, through JNA's direct mapping of libc's {@code syscall}: a
 * rank sleeps on its doorbell's sequence word and a peer in another process wakes it. The operations are the
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
