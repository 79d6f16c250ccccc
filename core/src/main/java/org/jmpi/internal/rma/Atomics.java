package org.jmpi.internal.rma;

import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.internal.reduce.Kernels;

/**
 * Element-wise atomic accumulate on window memory (MPI 4.1 §12.7.1: accumulates with the same basic type on the
 * same location are atomic with respect to each other, whatever their ops). The arithmetic is the reduction
 * kernels' ({@link Kernels#reduce}, one implementation for collectives and windows); this class only makes each
 * element's read-modify-write atomic:
 * <ol>
 * <li>An element of 1, 2, 4 or 8 bytes at an address aligned to its size: read it, compute {@code in op old} with the
 * kernel on an 8-byte scratch, and compare-and-exchange, retrying on a race. A SUM on an int or a long is one
 * hardware fetch-and-add.</li>
 * <li>Any other element (the MINLOC/MAXLOC pairs, an unaligned address): under one of {@link #STRIPES} monitors
 * chosen by the memory object and address, so every accessor of that element takes the same one.</li>
 * </ol>
 * Every path (the origin writing through peer memory, the target applying an active message, a rank on its own
 * window) goes through here, so they are atomic with respect to each other within a JVM.
 *
 * <p>Stateless apart from the stripe monitors; any thread. Memory is raw: {@code base} and {@code address} as
 * Unsafe takes them.
 */
final class Atomics
{
    private static final int STRIPES = 64;
    private static final Object[] LOCKS = new Object[STRIPES];
    private static final long BYTES = UnsafeApi.arrayBaseOffset(byte[].class);

    static
    {
        for (int i = 0; i < STRIPES; i++)
        {
            LOCKS[i] = new Object();
        }
    }

    private Atomics()
    {
    }

    /**
     * {@code target[i] = in[i] op target[i]} for the {@code bytes / unit} elements of one contiguous run, each atomic;
     * when {@code fetch} is not null the old elements are written there first.
     *
     * @param basic the basic type (its size is the unit).
     */
    static void accumulate(final Op op, final Datatype basic, final byte[] in, final int inOff, final Object base, final long address,
        final int bytes, final byte[] fetch, final int fetchOff, final byte[] scratch)
    {
        final int unit = (int)basic.size();
        final int code = op.code();
        for (int at = 0; at < bytes; at += unit)
        {
            final long addr = address + at;
            final int fetchAt = fetch == null ? -1 : fetchOff + at;
            if (code == Op.CODE_NO_OP)
            {
                read(base, addr, unit, fetch, fetchAt);
                continue;
            }
            if (unit == 8 && (addr & 7) == 0 && basic == Datatype.LONG && (code == Op.CODE_SUM || code == Op.CODE_REPLACE))
            {
                final long v = UnsafeApi.getLong(in, BYTES + inOff + at);
                final long old = code == Op.CODE_SUM ? UnsafeApi.getAndAddLong(base, addr, v) : UnsafeApi.getAndSetLong(base, addr, v);
                putFetched(fetch, fetchAt, old);
                continue;
            }
            if (unit == 4 && (addr & 3) == 0 && basic == Datatype.INT && (code == Op.CODE_SUM || code == Op.CODE_REPLACE))
            {
                final int v = UnsafeApi.getInt(in, BYTES + inOff + at);
                final int old = code == Op.CODE_SUM ? UnsafeApi.getAndAddInt(base, addr, v) : UnsafeApi.getAndSetInt(base, addr, v);
                if (fetch != null)
                {
                    UnsafeApi.putInt(fetch, BYTES + fetchAt, old);
                }
                continue;
            }
            if (casable(unit, addr))
            {
                while (true)
                {
                    final long old = loadRaw(base, addr, unit);
                    storeRaw(scratch, BYTES, unit, old);
                    Kernels.reduce(op, basic, in, inOff + at, scratch, 0, 1);
                    final long next = loadRaw(scratch, BYTES, unit);
                    if (exchange(base, addr, unit, old, next) == old)
                    {
                        if (fetch != null)
                        {
                            storeRaw(fetch, BYTES + fetchAt, unit, old);
                        }
                        break;
                    }
                }
                continue;
            }
            synchronized (lock(base, addr))
            {
                if (fetch != null)
                {
                    UnsafeApi.copyMemory(base, addr, fetch, BYTES + fetchAt, unit);
                }
                UnsafeApi.copyMemory(base, addr, scratch, BYTES, unit);
                Kernels.reduce(op, basic, in, inOff + at, scratch, 0, 1);
                UnsafeApi.copyMemory(scratch, BYTES, base, addr, unit);
            }
        }
    }

    /**
     * Atomically: the element at {@code address} is read into {@code fetch}; if it equals {@code compare} (bit for
     * bit) it is replaced by {@code in}.
     */
    static void compareAndSwap(final Datatype basic, final byte[] in, final int inOff, final byte[] compare, final int compareOff,
        final Object base, final long address, final byte[] fetch, final int fetchOff)
    {
        final int unit = (int)basic.size();
        if (casable(unit, address))
        {
            final long expected = loadRaw(compare, BYTES + compareOff, unit);
            final long old = exchange(base, address, unit, expected, loadRaw(in, BYTES + inOff, unit));
            storeRaw(fetch, BYTES + fetchOff, unit, old);
            return;
        }
        synchronized (lock(base, address))
        {
            UnsafeApi.copyMemory(base, address, fetch, BYTES + fetchOff, unit);
            boolean same = true;
            for (int i = 0; i < unit && same; i++)
            {
                same = fetch[fetchOff + i] == compare[compareOff + i];
            }
            if (same)
            {
                UnsafeApi.copyMemory(in, BYTES + inOff, base, address, unit);
            }
        }
    }

    private static void read(final Object base, final long addr, final int unit, final byte[] fetch, final int fetchAt)
    {
        if (fetch == null)
        {
            return;
        }
        if (casable(unit, addr))
        {
            storeRaw(fetch, BYTES + fetchAt, unit, loadRaw(base, addr, unit));
            return;
        }
        synchronized (lock(base, addr))
        {
            UnsafeApi.copyMemory(base, addr, fetch, BYTES + fetchAt, unit);
        }
    }

    private static void putFetched(final byte[] fetch, final int fetchAt, final long old)
    {
        if (fetch != null)
        {
            UnsafeApi.putLong(fetch, BYTES + fetchAt, old);
        }
    }

    private static boolean casable(final int unit, final long addr)
    {
        return (unit == 1 || unit == 2 || unit == 4 || unit == 8) && (addr & (unit - 1)) == 0;
    }

    private static Object lock(final Object base, final long addr)
    {
        return LOCKS[(System.identityHashCode(base) * 31 + (int)(addr >>> 3)) & (STRIPES - 1)];
    }

    /** The element's bits, read volatile, zero-extended. */
    private static long loadRaw(final Object base, final long addr, final int unit)
    {
        return switch (unit)
        {
            case 1 -> UnsafeApi.getByteVolatile(base, addr) & 0xFFL;
            case 2 -> UnsafeApi.getShortVolatile(base, addr) & 0xFFFFL;
            case 4 -> UnsafeApi.getIntVolatile(base, addr) & 0xFFFF_FFFFL;
            default -> UnsafeApi.getLongVolatile(base, addr);
        };
    }

    private static void storeRaw(final Object base, final long addr, final int unit, final long bits)
    {
        switch (unit)
        {
            case 1 -> UnsafeApi.putByte(base, addr, (byte)bits);
            case 2 -> UnsafeApi.putShort(base, addr, (short)bits);
            case 4 -> UnsafeApi.putInt(base, addr, (int)bits);
            default -> UnsafeApi.putLong(base, addr, bits);
        }
    }

    /** Compare-and-exchange on the element; returns the witness value, zero-extended. */
    private static long exchange(final Object base, final long addr, final int unit, final long expected, final long next)
    {
        return switch (unit)
        {
            case 1 -> UnsafeApi.compareAndExchangeByte(base, addr, (byte)expected, (byte)next) & 0xFFL;
            case 2 -> UnsafeApi.compareAndExchangeShort(base, addr, (short)expected, (short)next) & 0xFFFFL;
            case 4 -> UnsafeApi.compareAndExchangeInt(base, addr, (int)expected, (int)next) & 0xFFFF_FFFFL;
            default -> UnsafeApi.compareAndExchangeLong(base, addr, expected, next);
        };
    }
}
