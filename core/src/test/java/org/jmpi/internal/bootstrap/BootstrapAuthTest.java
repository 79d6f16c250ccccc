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
}
