package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.BootstrapMessage;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;

/**
 * Who may connect to a {@link BootstrapServer}: each rank's single-use ticket and its rank key (see
 * {@code BootstrapAuth}), and at most {@link BootstrapServer#MAX_CONNECTIONS_PER_RANK} authenticated
 * connections per rank.
 *
 * <p>Threading: {@link #verify} runs on the server's selector thread only (it owns the tickets' spent
 * flags); {@link #release} on any thread; the secrets never change after construction.
 */
final class BootstrapCredentials
{
    private final int size;
    private final String jobId;
    private final byte[][] tickets;
    private final byte[][] rankKeys;
    private final BitSet ticketsSpent = new BitSet();
    private final byte[] decoyKey = BootstrapAuth.newSecret();
    private final AtomicIntegerArray connectionsPerRank;

    /** Fresh rank keys; the tickets given ({@code givenTickets[rank]}, copied) or, when null, fresh ones. */
    BootstrapCredentials(final int size, final String jobId, final byte[][] givenTickets)
    {
        this.size = size;
        this.jobId = jobId;
        this.tickets = new byte[size][];
        this.rankKeys = new byte[size][];
        for (int rank = 0; rank < size; rank++)
        {
            tickets[rank] = givenTickets != null ? givenTickets[rank].clone() : BootstrapAuth.newSecret();
            rankKeys[rank] = BootstrapAuth.newSecret();
        }
        this.connectionsPerRank = new AtomicIntegerArray(size);
    }

    /** Rank {@code rank}'s ticket (a copy). */
    byte[] ticket(final int rank)
    {
        return tickets[rank].clone();
    }

    /** Rank {@code rank}'s ticket as it goes in the rank's environment. */
    String encodedTicket(final int rank)
    {
        return BootstrapAuth.encodeSecret(tickets[rank]);
    }

    /**
     * Checks a complete HELLO. Every check runs whatever the earlier ones found (the proof is computed,
     * with a decoy key if need be), and every failure gets the same answer, so a client learns nothing
     * but "refused". A HELLO accepted counts one connection of its rank until {@link #release}.
     *
     * @return the OK frame to send (with the wrapped rank key for a ticket), or null to refuse.
     */
    byte[] verify(final BootstrapMessage hello, final byte[] nonce)
    {
        final int rank = hello.rank();
        final boolean rankValid = rank >= 0 && rank < size;
        final boolean ticket = hello.code() == CREDENTIAL_TICKET;
        final byte[] key = !rankValid ? decoyKey : ticket ? tickets[rank] : rankKeys[rank];
        final boolean proofValid = BootstrapAuth.verify(key, nonce, jobId, rank, hello.value());
        boolean ok = proofValid & rankValid & hello.version() == VERSION & hello.type() == TYPE_HELLO &
            jobId.equals(hello.key()) & (ticket || hello.code() == CREDENTIAL_RANK_KEY);
        ok = ok && (ticket ? !ticketsSpent.get(rank) : true);
        ok = ok && connectionsPerRank.get(rank) < BootstrapServer.MAX_CONNECTIONS_PER_RANK;
        if (!ok)
        {
            return null;
        }
        connectionsPerRank.incrementAndGet(rank);
        if (ticket)
        {
            ticketsSpent.set(rank);
            return BootstrapMessage.response(STATUS_OK, BootstrapAuth.wrapRankKey(rankKeys[rank], tickets[rank], nonce, jobId, rank)).encode();
        }
        return BootstrapMessage.response(STATUS_OK, null).encode();
    }

    /** An authenticated connection of {@code rank} ended. */
    void release(final int rank)
    {
        connectionsPerRank.decrementAndGet(rank);
    }
}
