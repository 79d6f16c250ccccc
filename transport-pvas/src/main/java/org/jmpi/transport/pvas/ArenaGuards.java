package org.jmpi.transport.pvas;

import org.agrona.UnsafeApi;

/**
 * The checking mode's guard zones ({@code jmpi.pvas.check}): {@link #BYTES} bytes of a canary pattern before and
 * after each allocation, written at allocation and verified at free and at finalize, so a rank that wrote outside
 * its buffer is named with the buffer and the first offset it changed.
 *
 * <p>Stateless; the caller owns the memory and synchronises.
 */
final class ArenaGuards
{
    /** Guard bytes on each side of an allocation: a cache line. */
    static final int BYTES = 64;

    private ArenaGuards()
    {
    }

    /** The canary byte at {@code address}: varies with the address so a shifted copy of a guard does not pass. */
    static byte canary(final long address)
    {
        return (byte)(0xA5 ^ (address * 0x9E37_79B9L >>> 24));
    }

    /** Writes the canary over {@code [from, to)}. */
    static void fill(final long from, final long to)
    {
        for (long a = from; a < to; a++)
        {
            UnsafeApi.putByte(null, a, canary(a));
        }
    }

    /** The first address in {@code [from, to)} whose byte is not its canary, or -1. */
    static long firstChanged(final long from, final long to)
    {
        for (long a = from; a < to; a++)
        {
            if (UnsafeApi.getByte(null, a) != canary(a))
            {
                return a;
            }
        }
        return -1;
    }
}
