package org.jmpi.internal.bootstrap;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BootstrapAuthTest
{
    @Test
    void shouldVerifyProofOfTheSameSecretNonceJobAndRank()
    {
        final byte[] secret = BootstrapAuth.newSecret();
        final byte[] nonce = BootstrapAuth.newNonce();
        final byte[] proof = BootstrapAuth.proof(secret, nonce, "job1", 2);
        assertTrue(BootstrapAuth.verify(secret, nonce, "job1", 2, proof));
        assertFalse(BootstrapAuth.verify(BootstrapAuth.newSecret(), nonce, "job1", 2, proof));
        assertFalse(BootstrapAuth.verify(secret, BootstrapAuth.newNonce(), "job1", 2, proof));
        assertFalse(BootstrapAuth.verify(secret, nonce, "job2", 2, proof));
        assertFalse(BootstrapAuth.verify(secret, nonce, "job1", 3, proof));
        assertFalse(BootstrapAuth.verify(secret, nonce, "job1", 2, new byte[0]));
    }

    @Test
    void shouldUnwrapTheRankKeyOnlyWithTheTicketNonceJobAndRankItWasWrappedWith()
    {
        final byte[] rankKey = BootstrapAuth.newSecret();
        final byte[] ticket = BootstrapAuth.newSecret();
        final byte[] nonce = BootstrapAuth.newNonce();
        final byte[] wrapped = BootstrapAuth.wrapRankKey(rankKey, ticket, nonce, "job1", 3);
        assertFalse(Arrays.equals(rankKey, wrapped));
        assertArrayEquals(rankKey, BootstrapAuth.unwrapRankKey(wrapped, ticket, nonce, "job1", 3));
        assertFalse(Arrays.equals(rankKey, BootstrapAuth.unwrapRankKey(wrapped, BootstrapAuth.newSecret(), nonce, "job1", 3)));
        assertFalse(Arrays.equals(rankKey, BootstrapAuth.unwrapRankKey(wrapped, ticket, BootstrapAuth.newNonce(), "job1", 3)));
        assertFalse(Arrays.equals(rankKey, BootstrapAuth.unwrapRankKey(wrapped, ticket, nonce, "job1", 2)));
        assertFalse(Arrays.equals(wrapped, BootstrapAuth.wrapRankKey(rankKey, ticket, BootstrapAuth.newNonce(), "job1", 3)));
        assertThrows(IllegalArgumentException.class, () -> BootstrapAuth.wrapRankKey(new byte[5], ticket, nonce, "job1", 3));
    }

    @Test
    void shouldEncodeSecretsAsHexOfAtLeast128Bits()
    {
        final byte[] secret = BootstrapAuth.newSecret();
        assertTrue(secret.length * 8 >= 128);
        final String hex = BootstrapAuth.encodeSecret(secret);
        assertEquals(2 * BootstrapAuth.SECRET_LENGTH, hex.length());
        assertArrayEquals(secret, BootstrapAuth.decodeSecret(hex));
        assertThrows(IllegalArgumentException.class, () -> BootstrapAuth.decodeSecret("abcd"));
        assertThrows(IllegalArgumentException.class, () -> BootstrapAuth.decodeSecret("zz".repeat(BootstrapAuth.SECRET_LENGTH)));
    }

    @Test
    void shouldMakeRandomJobIdsSafeForFileNames()
    {
        final String jobId = BootstrapEnv.newJobId();
        assertTrue(BootstrapEnv.JOB_ID_PATTERN.matcher(jobId).matches(), jobId);
        assertEquals(16, jobId.length());
        assertFalse(jobId.equals(BootstrapEnv.newJobId()));
    }

    @Test
    void shouldComputeTheHmacTheJdkComputes() throws Exception
    {
        final java.util.Random random = new java.util.Random(42);
        for (final int keyLength : new int[] {0, 1, 32, 63, 64, 65, 200})
        {
            final byte[] key = new byte[keyLength];
            random.nextBytes(key);
            final byte[] a = new byte[random.nextInt(100)];
            final byte[] b = new byte[random.nextInt(100)];
            random.nextBytes(a);
            random.nextBytes(b);
            final javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key.length == 0 ? new byte[1] : key, "HmacSHA256"));
            if (key.length == 0)
            {
                // SecretKeySpec refuses an empty key; a one-byte zero key pads to the same block.
                assertArrayEquals(mac.doFinal(concat(a, b)), BootstrapAuth.hmacSha256(key, a, b), "empty key");
                continue;
            }
            mac.update(a);
            mac.update(b);
            assertArrayEquals(mac.doFinal(), BootstrapAuth.hmacSha256(key, a, b), "key of " + keyLength + " bytes");
        }
    }

    private static byte[] concat(final byte[] a, final byte[] b)
    {
        final byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
