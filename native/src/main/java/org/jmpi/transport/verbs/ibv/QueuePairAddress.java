package org.jmpi.transport.verbs.ibv;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * What a peer needs to connect a reliable-connected queue pair to this one, exchanged out of band
 * (jmpi: through the bootstrap).
 *
 * @param qpNumber the queue pair's number.
 * @param lid      the port's LID (InfiniBand; 0 on RoCE).
 * @param gid      the port's GID at the chosen index (16 bytes; RoCE and routed InfiniBand use it).
 * @param psn      the first packet sequence number this side sends (24 bits).
 */
public record QueuePairAddress(int qpNumber, int lid, byte[] gid, int psn)
{
    public QueuePairAddress
    {
        if (gid.length != ControlDescriptor.GID_LENGTH)
        {
            throw new IllegalArgumentException("gid of " + gid.length + " bytes (16 expected)");
        }
        if ((psn & ~0xFF_FFFF) != 0)
        {
            throw new IllegalArgumentException("psn " + psn + " exceeds 24 bits");
        }
        gid = gid.clone();
    }

    @Override
    public byte[] gid()
    {
        return gid.clone();
    }

    /** Whether the GID is all zero (an InfiniBand port addressed by LID only). */
    public boolean gidZero()
    {
        for (final byte b : gid)
        {
            if (b != 0)
            {
                return false;
            }
        }
        return true;
    }

    /** {@code qpn:lid:psn:gid-hex}, for logs and bootstrap values. */
    public String format()
    {
        return Integer.toUnsignedString(qpNumber) + ":" + lid + ":" + psn + ":" + HexFormat.of().formatHex(gid);
    }

    /** The inverse of {@link #format}. @throws IllegalArgumentException when malformed. */
    public static QueuePairAddress parse(final String text)
    {
        final String[] parts = text.split(":");
        if (parts.length != 4)
        {
            throw new IllegalArgumentException("not qpn:lid:psn:gid: " + text);
        }
        return new QueuePairAddress(Integer.parseUnsignedInt(parts[0]), Integer.parseInt(parts[1]), HexFormat.of().parseHex(parts[3]),
            Integer.parseInt(parts[2]));
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof QueuePairAddress a && a.qpNumber == qpNumber && a.lid == lid && a.psn == psn && Arrays.equals(a.gid, gid);
    }

    @Override
    public int hashCode()
    {
        return (qpNumber * 31 + lid) * 31 + psn + Arrays.hashCode(gid);
    }

    @Override
    public String toString()
    {
        return format();
    }
}
