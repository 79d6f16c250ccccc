package org.jmpi.transport.verbs;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What a rank publishes on the bootstrap under {@code verbs.<rank>} so every peer can connect its queue
 * pair: one line of ASCII, fields separated by a space (docs/verbs.md, "Connection record"):
 *
 * <pre>
 * verbs1 &lt;lid&gt; &lt;gid, 32 hex digits&gt; &lt;active MTU enum&gt; &lt;credit words' address, hex&gt; &lt;their rkey, hex&gt; &lt;qpn:psn&gt;,&lt;qpn:psn&gt;,...
 * </pre>
 *
 * Entry {@code r} of the last field is the queue pair this rank created for rank {@code r} (its own entry
 * is {@code 0:0}); the peer's credit word for this rank is at {@code address + 8 * peerRank}.
 *
 * @param lid           the port's LID (0 on RoCE).
 * @param gid           the port's GID at the chosen index.
 * @param mtu           the port's active MTU ({@code enum ibv_mtu}); a pair uses the smaller of its two.
 * @param creditAddress where this rank's credit words are (peers RDMA-write their consumed counts there).
 * @param creditRkey    the key of the credit words.
 * @param qpNumbers     per peer rank, the number of this rank's queue pair to it.
 * @param psns          per peer rank, the first PSN that queue pair sends.
 */
record ConnectionRecord(int lid, byte[] gid, int mtu, long creditAddress, int creditRkey, int[] qpNumbers, int[] psns)
{
    static final String VERSION = "verbs1";

    byte[] encode()
    {
        final StringBuilder s = new StringBuilder(VERSION).append(' ').append(lid).append(' ').append(HexFormat.of().formatHex(gid))
            .append(' ').append(mtu).append(' ').append(Long.toHexString(creditAddress)).append(' ').append(Integer.toHexString(creditRkey))
            .append(' ');
        for (int r = 0; r < qpNumbers.length; r++)
        {
            s.append(r == 0 ? "" : ",").append(Integer.toUnsignedString(qpNumbers[r])).append(':').append(psns[r]);
        }
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** @throws MpiException ERR_OTHER naming the rank when the record is malformed or of another version. */
    static ConnectionRecord decode(final int ofRank, final int size, final byte[] bytes)
    {
        final String text = new String(bytes, StandardCharsets.US_ASCII);
        try
        {
            final String[] f = text.split(" ");
            if (f.length != 7 || !VERSION.equals(f[0]))
            {
                throw new IllegalArgumentException("expected 7 fields starting " + VERSION);
            }
            final byte[] gid = HexFormat.of().parseHex(f[2]);
            if (gid.length != 16)
            {
                throw new IllegalArgumentException("gid of " + gid.length + " bytes");
            }
            final String[] entries = f[6].split(",");
            if (entries.length != size)
            {
                throw new IllegalArgumentException(entries.length + " queue pairs for " + size + " ranks");
            }
            final int[] qpns = new int[size];
            final int[] psns = new int[size];
            for (int r = 0; r < size; r++)
            {
                final String[] e = entries[r].split(":");
                qpns[r] = Integer.parseUnsignedInt(e[0]);
                psns[r] = Integer.parseInt(e[1]);
            }
            return new ConnectionRecord(Integer.parseInt(f[1]), gid, Integer.parseInt(f[3]), Long.parseUnsignedLong(f[4], 16),
                Integer.parseUnsignedInt(f[5], 16), qpns, psns);
        }
        catch (final RuntimeException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + ofRank + " published a bad connection record (" +
                ex.getMessage() + "): " + text);
        }
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof ConnectionRecord c && c.lid == lid && Arrays.equals(c.gid, gid) && c.mtu == mtu &&
            c.creditAddress == creditAddress && c.creditRkey == creditRkey && Arrays.equals(c.qpNumbers, qpNumbers) &&
            Arrays.equals(c.psns, psns);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(gid) * 31 + Arrays.hashCode(qpNumbers) + lid;
    }
}
