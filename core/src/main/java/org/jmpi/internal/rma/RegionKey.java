package org.jmpi.internal.rma;

/**
 * What an origin needs to reach a region a target registered: the target's region id (for active
 * messages), its peer-memory handle (0 when the target's memory is not exposed) and its length, so the
 * origin checks ranges before anything is sent. Ranks exchange keys as four longs ({@link #toLongs}).
 *
 * @param id          the region's id in the target's table.
 * @param handle      the exposure of the region on the target's peer-memory transport, or 0.
 * @param lengthBytes the region's length.
 * @param longAligned whether the region starts 8-byte aligned in memory, so its longs can be updated
 *                    atomically (counters); origins refuse atomics on regions that are not.
 */
public record RegionKey(int id, long handle, long lengthBytes, boolean longAligned)
{
    /** Longs per key in {@link #toLongs}. */
    public static final int LONGS = 4;

    /** Writes the key at {@code at}. */
    public void toLongs(final long[] out, final int at)
    {
        out[at] = id;
        out[at + 1] = handle;
        out[at + 2] = lengthBytes;
        out[at + 3] = longAligned ? 1 : 0;
    }

    /** Reads a key {@link #toLongs} wrote. */
    public static RegionKey fromLongs(final long[] in, final int at)
    {
        return new RegionKey((int)in[at], in[at + 1], in[at + 2], in[at + 3] != 0);
    }
}
