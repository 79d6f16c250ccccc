package org.jmpi.internal.bootstrap;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The bootstrap handshake's credentials and proof. Each rank has two 32-byte credentials: a single-use
 * ticket, which the launcher puts in the rank's environment, and a rank key, which the launcher hands
 * over on the rank's first connection, wrapped ({@link #wrapRankKey}), once that connection has proved
 * the ticket; later connections prove the rank key. The ticket is then spent, so what processes the rank
 * starts inherit opens nothing. A proof is HMAC-SHA256 keyed by the credential over the server's nonce,
 * the job id (UTF-8) and the rank (4 bytes, big-endian); no credential ever crosses the socket in the
 * clear.
 *
 * <p>Stateless; any thread.
 */
public final class BootstrapAuth
{
    /** Bytes of a credential, ticket or rank key (256 bits); {@link BootstrapEnv#TICKET_ENV_NAME} holds a ticket as hex. */
    public static final int SECRET_LENGTH = 32;
    private static final byte[] WRAP_LABEL = "jmpi rank key wrap".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DERIVE_LABEL = "jmpi slurm ticket".getBytes(StandardCharsets.US_ASCII);

    /** SHA-256's block length in bytes (HMAC's pad length). */
    private static final int HMAC_BLOCK = 64;
    /** Made at first use: a rank, which only proves and unwraps, never pays for it (about 25 ms of its start-up). */
    private static final class Random
    {
        static final SecureRandom INSTANCE = new SecureRandom();
    }

    private BootstrapAuth()
    {
    }

    /** A fresh random credential (ticket or rank key) of {@link #SECRET_LENGTH} bytes. */
    public static byte[] newSecret()
    {
        return randomBytes(SECRET_LENGTH);
    }

    /** A fresh random nonce for a challenge. */
    public static byte[] newNonce()
    {
        return randomBytes(BootstrapProtocolDescriptor.NONCE_LENGTH);
    }

    /** The proof a rank sends in its hello, keyed by its credential {@code secret}. */
    public static byte[] proof(final byte[] secret, final byte[] nonce, final String jobId, final int rank)
    {
        return mac(secret, null, nonce, jobId, rank);
    }

    /**
     * The rank key as the launcher sends it in answer to a hello proved by {@code ticket}: XOR with
     * HMAC-SHA256(ticket; label, nonce, job id, rank), a pad used once (the nonce is fresh per connection).
     * Whoever sees the frame without the ticket learns nothing of the key.
     */
    public static byte[] wrapRankKey(final byte[] rankKey, final byte[] ticket, final byte[] nonce, final String jobId, final int rank)
    {
        final byte[] pad = mac(ticket, WRAP_LABEL, nonce, jobId, rank);
        if (rankKey.length != pad.length)
        {
            throw new IllegalArgumentException("rank key must be " + pad.length + " bytes, got " + rankKey.length);
        }
        for (int i = 0; i < pad.length; i++)
        {
            pad[i] ^= rankKey[i];
        }
        return pad;
    }

    /** The inverse of {@link #wrapRankKey} (XOR is its own inverse). */
    public static byte[] unwrapRankKey(final byte[] wrapped, final byte[] ticket, final byte[] nonce, final String jobId, final int rank)
    {
        return wrapRankKey(wrapped, ticket, nonce, jobId, rank);
    }

    /**
     * Rank {@code rank}'s ticket in a job whose ranks share {@code stepKey} instead of receiving tickets
     * from a launcher (ranks started by srun, {@code SlurmBootstrap}): HMAC-SHA256(step key; label, job id, rank).
     */
    public static byte[] derivedTicket(final byte[] stepKey, final String jobId, final int rank)
    {
        return mac(stepKey, DERIVE_LABEL, new byte[0], jobId, rank);
    }

    private static byte[] mac(final byte[] secret, final byte[] label, final byte[] nonce, final String jobId, final int rank)
    {
        final byte[] jobBytes = jobId.getBytes(StandardCharsets.UTF_8);
        final byte[] rankBytes = ByteBuffer.allocate(Integer.BYTES).order(BootstrapProtocolDescriptor.BYTE_ORDER).putInt(0, rank).array();
        return label == null ? hmacSha256(secret, nonce, jobBytes, rankBytes) : hmacSha256(secret, label, nonce, jobBytes, rankBytes);
    }

    /**
     * HMAC-SHA256 (RFC 2104) of the concatenated {@code parts}, over {@code MessageDigest}: the JDK's first provider
     * has SHA-256, where {@code Mac.getInstance} walks the provider list to SunJCE and instantiates SunEC on the way,
     * whose curve table (parsed into BigIntegers) cost a rank 10-20 ms of its start-up and an early C2 compile.
     * {@code BootstrapAuthTest} checks it against {@code javax.crypto.Mac}.
     */
    static byte[] hmacSha256(final byte[] key, final byte[]... parts)
    {
        final MessageDigest sha = sha256();
        final byte[] block = new byte[HMAC_BLOCK];
        final byte[] k = key.length > HMAC_BLOCK ? sha.digest(key) : key;
        System.arraycopy(k, 0, block, 0, k.length);
        final byte[] pad = new byte[HMAC_BLOCK];
        for (int i = 0; i < HMAC_BLOCK; i++)
        {
            pad[i] = (byte)(block[i] ^ 0x36);
        }
        sha.update(pad);
        for (final byte[] part : parts)
        {
            sha.update(part);
        }
        final byte[] inner = sha.digest();
        for (int i = 0; i < HMAC_BLOCK; i++)
        {
            pad[i] = (byte)(block[i] ^ 0x5c);
        }
        sha.update(pad);
        return sha.digest(inner);
    }

    private static MessageDigest sha256()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("SHA-256 unavailable in this JDK", ex);
        }
    }

    /** Constant-time check of a hello's proof. */
    public static boolean verify(final byte[] secret, final byte[] nonce, final String jobId, final int rank, final byte[] proof)
    {
        return MessageDigest.isEqual(proof(secret, nonce, jobId, rank), proof);
    }

    /** A credential as the environment carries it. */
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
            throw new IllegalArgumentException("credential must be " + SECRET_LENGTH + " bytes, got " + secret.length);
        }
        return secret;
    }

    static byte[] randomBytes(final int count)
    {
        final byte[] bytes = new byte[count];
        Random.INSTANCE.nextBytes(bytes);
        return bytes;
    }

    /**
     * Loads and initialises the random source and the MAC (some 50 ms the first time in a JVM) on a daemon
     * thread, for a launcher that will soon answer handshakes.
     */
    public static void prepareInBackground()
    {
        Thread.ofPlatform().daemon(true).name("jmpi-auth-prepare").start(() -> proof(randomBytes(SECRET_LENGTH), randomBytes(16), "prepare", 0));
    }
}
