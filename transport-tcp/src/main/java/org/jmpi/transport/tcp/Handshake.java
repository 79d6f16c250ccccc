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
    private static final byte[] WELCOME_LABEL = "WELCOME".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HELLO_LABEL = new byte[0];

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

    /**
     * The acceptor's WELCOME for a HELLO carrying {@code nonce}: it proves the acceptor holds the connector's
     * token, so the connector can take frames back over the connection it opened.
     */
    static ByteBuffer welcome(final int acceptorRank, final int connectorRank, final byte[] nonce, final byte[] connectorToken,
        final String jobId)
    {
        final ByteBuffer b = ByteBuffer.allocate(WELCOME_LENGTH).order(BYTE_ORDER);
        b.put(WELCOME_MAC_OFFSET, welcomeMac(acceptorRank, connectorRank, nonce, connectorToken, jobId));
        return b;
    }

    /** Whether the {@link #WELCOME_LENGTH} bytes at {@code offset} of {@code b} are the right WELCOME. */
    static boolean checkWelcome(final org.agrona.DirectBuffer b, final int offset, final int acceptorRank, final int connectorRank,
        final byte[] nonce, final byte[] connectorToken, final String jobId)
    {
        final byte[] got = new byte[MAC_LENGTH];
        b.getBytes(offset + WELCOME_MAC_OFFSET, got);
        return MessageDigest.isEqual(got, welcomeMac(acceptorRank, connectorRank, nonce, connectorToken, jobId));
    }

    private static byte[] welcomeMac(final int acceptorRank, final int connectorRank, final byte[] nonce, final byte[] connectorToken,
        final String jobId)
    {
        return mac(connectorToken, WELCOME_LABEL, nonce, acceptorRank, connectorRank, jobId);
    }

    private static byte[] mac(final byte[] key, final byte[] nonce, final int connectorRank, final int acceptorRank, final String jobId)
    {
        return mac(key, HELLO_LABEL, nonce, connectorRank, acceptorRank, jobId);
    }

    private static byte[] mac(final byte[] key, final byte[] label, final byte[] nonce, final int firstRank, final int secondRank,
        final String jobId)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(label);
            mac.update(nonce);
            mac.update(ByteBuffer.allocate(8).order(BYTE_ORDER).putInt(firstRank).putInt(secondRank).array());
            mac.update(jobId.getBytes(StandardCharsets.UTF_8));
            return mac.doFinal();
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 is required of every JDK", ex);
        }
    }
}
