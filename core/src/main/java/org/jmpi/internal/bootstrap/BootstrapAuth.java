package org.jmpi.internal.bootstrap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The bootstrap handshake's proof: HMAC-SHA256 keyed by the job's secret over the server's nonce, the
 * job id (UTF-8) and the rank (4 bytes, big-endian). The secret itself never crosses the socket.
 *
 * <p>Stateless; any thread.
 */
public final class BootstrapAuth
{
    /** Bytes of a job secret (256 bits); {@link BootstrapEnv#SECRET_ENV_NAME} holds it as hex. */
    public static final int SECRET_LENGTH = 32;

    private static final String ALGORITHM = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private BootstrapAuth()
    {
    }

    /** A fresh random secret of {@link #SECRET_LENGTH} bytes. */
    public static byte[] newSecret()
    {
        return randomBytes(SECRET_LENGTH);
    }

    /** A fresh random nonce for a challenge. */
    public static byte[] newNonce()
    {
        return randomBytes(BootstrapProtocolDescriptor.NONCE_LENGTH);
    }

    /** The proof a rank sends in its hello. */
    public static byte[] proof(final byte[] secret, final byte[] nonce, final String jobId, final int rank)
    {
        try
        {
            final Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
            mac.update(nonce);
            mac.update(jobId.getBytes(StandardCharsets.UTF_8));
            mac.update(ByteBuffer.allocate(Integer.BYTES).order(BootstrapProtocolDescriptor.BYTE_ORDER).putInt(0, rank).array());
            return mac.doFinal();
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 unavailable in this JDK", ex);
        }
    }

    /** Constant-time check of a hello's proof. */
    public static boolean verify(final byte[] secret, final byte[] nonce, final String jobId, final int rank, final byte[] proof)
    {
        return MessageDigest.isEqual(proof(secret, nonce, jobId, rank), proof);
    }

    /** The secret as the environment carries it. */
    public static String encodeSecret(final byte[] secret)
    {
        return HexFormat.of().formatHex(secret);
    }

    /** @throws IllegalArgumentException unless {@code hex} is {@link #SECRET_LENGTH} bytes of hex. */
    public static byte[] decodeSecret(final String hex)
    {
        final byte[] secret = HexFormat.of().parseHex(hex.trim());
        if (secret.length != SECRET_LENGTH)
        {
            throw new IllegalArgumentException("secret must be " + SECRET_LENGTH + " bytes, got " + secret.length);
        }
        return secret;
    }

    private static byte[] randomBytes(final int count)
    {
        final byte[] bytes = new byte[count];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
