package org.jmpi.transport.verbs;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What a rank publishes on the bootstrap under {@code verbs.<rank>} at open, so every peer can connect a queue pair
 * to it later (lazily, or at open): one line of ASCII, fields separated by a space (docs/verbs.md, "Connection"):
 *
 * <pre>
 * verbs2 &lt;lid&gt; &lt;gid, 32 hex digits&gt; &lt;active MTU enum&gt; &lt;credit words' address, hex&gt; &lt;their rkey, hex&gt; &lt;host&gt;:&lt;port&gt; &lt;secret, 32 hex digits&gt;
 * </pre>
 *
 * The queue pair numbers and PSNs are not here: a pair's two queue pairs are created when it connects and their
 * numbers travel in the connection exchange ({@link ConnectDescriptor}) to {@code host:port}, which must carry the
 * secret. The peer's credit word for this rank is at {@code address + 8 * peerRank}.
 *
 * @param lid           the port's LID (0 on RoCE).
 * @param gid           the port's GID at the chosen index.
 * @param mtu           the port's active MTU ({@code enum ibv_mtu}); a pair uses the smaller of its two.
 * @param creditAddress where this rank's credit words are (peers RDMA-write their consumed counts there).
 * @param creditRkey    the key of the credit words.
 * @param host          the IPv4 address of this rank's connection listener.
 * @param port          its TCP port.
 * @param secret        16 random bytes a connection request to this rank must carry.
 */
record ConnectionRecord(int lid, byte[] gid, int mtu, long creditAddress, int creditRkey, String host, int port, byte[] secret)
{
    static final String VERSION = "verbs2";

    byte[] encode()
    {
        final HexFormat hex = HexFormat.of();
        return (VERSION + ' ' + lid + ' ' + hex.formatHex(gid) + ' ' + mtu + ' ' + Long.toHexString(creditAddress) + ' ' +
            Integer.toHexString(creditRkey) + ' ' + host + ':' + port + ' ' + hex.formatHex(secret)).getBytes(StandardCharsets.US_ASCII);
    }

    /** @throws MpiException ERR_OTHER naming the rank when the record is malformed or of another version. */
    static ConnectionRecord decode(final int ofRank, final byte[] bytes)
    {
        final String text = new String(bytes, StandardCharsets.US_ASCII);
        try
        {
            final String[] f = text.split(" ");
            if (f.length != 8 || !VERSION.equals(f[0]))
            {
                throw new IllegalArgumentException("expected 8 fields starting " + VERSION);
            }
            final byte[] gid = HexFormat.of().parseHex(f[2]);
            final byte[] secret = HexFormat.of().parseHex(f[7]);
            if (gid.length != 16 || secret.length != ConnectDescriptor.SECRET_LENGTH)
            {
                throw new IllegalArgumentException("gid of " + gid.length + " bytes, secret of " + secret.length);
            }
            final int colon = f[6].lastIndexOf(':');
            final int port = Integer.parseInt(f[6].substring(colon + 1));
            if (colon < 1 || port < 1 || port > 65535)
            {
                throw new IllegalArgumentException("connection address " + f[6]);
            }
            return new ConnectionRecord(Integer.parseInt(f[1]), gid, Integer.parseInt(f[3]), Long.parseUnsignedLong(f[4], 16),
                Integer.parseUnsignedInt(f[5], 16), f[6].substring(0, colon), port, secret);
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
            c.creditAddress == creditAddress && c.creditRkey == creditRkey && c.host.equals(host) && c.port == port &&
            Arrays.equals(c.secret, secret);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(gid) * 31 + host.hashCode() + port + lid;
    }

    @Override
    public String toString()
    {
        return new String(encode(), StandardCharsets.US_ASCII).replaceFirst(" [0-9a-f]+$", " <secret>");
    }
}
