package org.jmpi.spi;

/**
 * A transport feature: a way to wake this rank's engine that peers in other processes can ring (the shm
 * transport's futex word in the node's file). When a transport offers one, the engine parks through it instead of
 * {@code LockSupport}, and its own {@code wakeup} rings it, so a park ends as soon as a frame arrives from any
 * peer, in this JVM or another, instead of when its period runs out.
 *
 * <p>The engine's park: {@code token = arm()}, one more poll of every transport (a frame written before the
 * sender saw the arming is found here), then {@code await(token, ns)} only if that poll found nothing, then
 * {@link #disarm()}. A sender that sees the bell armed after writing its frame rings it.
 *
 * <p>Threading: {@link #arm}, {@link #await} and {@link #disarm} on the thread driving the engine, one at a time;
 * {@link #ring} from any thread.
 */
public interface Doorbell
{
    /** Marks the rank as about to sleep; returns the token {@link #await} compares against. */
    int arm();

    /** Sleeps until the bell is rung after {@code token} was taken, or {@code timeoutNs} passes (spurious wake-ups allowed). */
    void await(int token, long timeoutNs);

    /** Marks the rank as awake again. */
    void disarm();

    /** Wakes the rank if it sleeps on this bell. Any thread. */
    void ring();
}
