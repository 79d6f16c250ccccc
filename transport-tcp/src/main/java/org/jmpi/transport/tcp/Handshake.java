package org.jmpi.transport.tcp;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;

import static org.jmpi.transport.tcp.HandshakeDescriptor.*;

/**
 * Builds and checks the handshake messages of {@link HandshakeDescriptor}.
 *
 * <p>Stateless; any thread.
 */
final class Handshake
{
    private Handshake()
    {
    }

    static ByteBuffer hello(final int connectorRank, final int acceptorRank, final byte[] nonce, final byte[] acceptorToken,
        final String jobId)
    {
        final ByteBuffer b = ByteBuffer.allocate(HELLO_LENGTH).order(BYTE_ORDER);
        b.putInt(MAGIC_OFFSET, MAGIC).putInt(VERSION_OFFSET, VERSION).putInt(RANK_OFFSET, connectorRank).putInt(PADDING_OFFSET, 0);
        b.put(NONCE_OFFSET, nonce);
        b.put(MAC_OFFSET, mac(acceptorToken, nonce, connectorRank, acceptorRank, jobId));
        return b;
    }

    /** The nonce of a HELLO (checked by {@link #checkHello}). */
    static byte[] nonce(final ByteBuffer hello)
    {
        final byte[] nonce = new byte[NONCE_LENGTH];
        hello.get(NONCE_OFFSET, nonce);
        return nonce;
    }

    /**
     * The connector's rank if {@code b} is a valid HELLO to this acceptor with this acceptor's token; -1
     * otherwise (the caller only says "refused").
     */
    static int checkHello(final ByteBuffer b, final int acceptorRank, final byte[] acceptorToken, final String jobId, final int size)
    {
        if (b.getInt(MAGIC_OFFSET) != MAGIC || b.getInt(VERSION_OFFSET) != VERSION || b.getInt(PADDING_OFFSET) != 0)
        {
            return -1;
        }
        final int rank = b.getInt(RANK_OFFSET);
        if (rank < 0 || rank >= size)
        {
            return -1;
        }
        final byte[] got = new byte[MAC_LENGTH];
        b.get(MAC_OFFSET, got);
        return MessageDigest.isEqual(got, mac(acceptorToken, nonce(b), rank, acceptorRank, jobId)) ? rank : -1;
    }

    private static byte[] mac(final byte[] key, final byte[] nonce, final int connectorRank, final int acceptorRank, final String jobId)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(nonce);
            mac.update(ByteBuffer.allocate(8).order(BYTE_ORDER).putInt(connectorRank).putInt(acceptorRank).array());
            mac.update(jobId.getBytes(StandardCharsets.UTF_8));
            return mac.doFinal();
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 is required of every JDK", ex);
        }
    }
}
