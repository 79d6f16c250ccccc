package org.jmpi.internal.rma;

/**
 * What a peer needs to reach a region: its id on the owner, the peer-memory handle (0: none), its length, whether
 * it is 8-byte aligned (counters), and the transport's remote-memory key (both 0: none). Travels as
 * {@link #LONGS} longs.
 *
 * @param id          the region's id on its owner.
 * @param handle      the owner's peer-memory handle, or 0.
 * @param lengthBytes the region's length.
 * @param longAligned whether byte 0 of the region is 8-byte aligned.
 * @param remote0     first long of the remote-memory key ({@link org.jmpi.spi.RemoteMemory#remoteKey}), or 0.
 * @param remote1     second long of it, or 0.
 */
public record RegionKey(int id, long handle, long lengthBytes, boolean longAligned, long remote0, long remote1)
{
    /** Longs per key in {@link #toLongs}. */
    public static final int LONGS = 6;

    /** A key naming no region. */
    public static final RegionKey NONE = new RegionKey(0, 0, 0, false, 0, 0);

    /** Whether the owner registered the region with its transport's remote memory. */
    public boolean hasRemoteKey()
    {
        return remote0 != 0 || remote1 != 0;
    }

    /** Writes the key at {@code at}. */
    public void toLongs(final long[] out, final int at)
    {
        out[at] = id;
        out[at + 1] = handle;
        out[at + 2] = lengthBytes;
        out[at + 3] = longAligned ? 1 : 0;
        out[at + 4] = remote0;
        out[at + 5] = remote1;
    }

    /** Reads a key {@link #toLongs} wrote. */
    public static RegionKey fromLongs(final long[] in, final int at)
    {
        return new RegionKey((int)in[at], in[at + 1], in[at + 2], in[at + 3] != 0, in[at + 4], in[at + 5]);
    }
}
