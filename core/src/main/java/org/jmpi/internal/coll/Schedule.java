package org.jmpi.internal.coll;

import java.util.ArrayList;
import java.util.List;

import org.jmpi.Datatype;
import org.jmpi.MpiException;

/**
 * A collective operation as data: rounds of transfers and local steps, built once by an algorithm and
 * then executed by a {@link CollRequest} (blocking, nonblocking and persistent calls all run schedules).
 * <ol>
 * <li>A round starts when the previous one has finished: its local steps run first, in order (reductions
 * of data received in the previous round, packing for this one), then its receives and sends are posted
 * at once.</li>
 * <li>The round finishes when every one of its transfers has completed; a receive that brought fewer bytes
 * than expected fails the operation (ranks disagree on counts).</li>
 * </ol>
 * All transfers of one operation carry the same tag on the communicator's collective context; per-pair
 * message order (MPI's non-overtaking rule) lines up sends and receives, since both sides of a pair post
 * them in the same order.
 *
 * <p>Threading: built by one thread, then immutable; executed on the engine thread.
 */
public final class Schedule
{
    /**
     * Thrown by a local step to end the schedule at once (not merely record a failure and go on): only for
     * failures every rank detects alike, such as the mismatch check, so that no peer is left waiting.
     */
    static final class Stop extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        final MpiException error;

        Stop(final MpiException error)
        {
            super(error.getMessage(), null, false, false);
            this.error = error;
        }
    }

    /** One send or receive of a round. */
    record Transfer(boolean send, int peer, Object buf, int offset, int count, Datatype type, long expectedBytes)
    {
    }

    /** The steps of one round. */
    static final class Round
    {
        final List<Runnable> locals = new ArrayList<>(2);
        final List<Transfer> transfers = new ArrayList<>(4);
    }

    private final ArrayList<Round> rounds = new ArrayList<>();
    private Round current;

    public Schedule()
    {
        current = new Round();
        rounds.add(current);
    }

    /** Ends the current round: what is added next waits for every transfer added so far. */
    public Schedule next()
    {
        if (!current.locals.isEmpty() || !current.transfers.isEmpty())
        {
            current = new Round();
            rounds.add(current);
        }
        return this;
    }

    /** Sends {@code count} items of {@code type} at element {@code offset} of {@code buf} to {@code peer}. */
    public Schedule send(final int peer, final Object buf, final int offset, final int count, final Datatype type)
    {
        current.transfers.add(new Transfer(true, peer, buf, offset, count, type, -1));
        return this;
    }

    /** Receives exactly {@code count} items of {@code type} from {@code peer}. */
    public Schedule recv(final int peer, final Object buf, final int offset, final int count, final Datatype type)
    {
        current.transfers.add(new Transfer(false, peer, buf, offset, count, type, type.size() * (long)count));
        return this;
    }

    /** Sends bytes {@code [offset, offset + length)} of a scratch array. */
    public Schedule sendBytes(final int peer, final byte[] buf, final int offset, final int length)
    {
        return send(peer, buf, offset, length, Datatype.BYTE);
    }

    /** Receives exactly {@code length} bytes into a scratch array at {@code offset}. */
    public Schedule recvBytes(final int peer, final byte[] buf, final int offset, final int length)
    {
        return recv(peer, buf, offset, length, Datatype.BYTE);
    }

    /** A local step of the current round, run on the engine thread before the round's transfers are posted. */
    public Schedule local(final Runnable step)
    {
        current.locals.add(step);
        return this;
    }

    /** Appends the rounds of {@code other} after this schedule's (which must end with {@link #next()}). */
    public Schedule append(final Schedule other)
    {
        next();
        if (current.locals.isEmpty() && current.transfers.isEmpty())
        {
            rounds.remove(rounds.size() - 1);
        }
        rounds.addAll(other.rounds);
        current = new Round();
        rounds.add(current);
        return this;
    }

    List<Round> rounds()
    {
        return rounds;
    }

    /** Number of transfers in all rounds (for tests and benchmarks). */
    public int transferCount()
    {
        int n = 0;
        for (final Round r : rounds)
        {
            n += r.transfers.size();
        }
        return n;
    }
}
