package org.jmpi.transport.verbs;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.transport.verbs.ibv.MemoryRegion;
import org.jmpi.transport.verbs.ibv.NativeBlock;
import org.jmpi.transport.verbs.ibv.QueuePair;

/**
 * One peer of a {@link VerbsTransport}: its pair's queue pair, buffers, credits and state. The connection fields are
 * written by the {@link Connector}'s helper threads before they set
 * {@link #state} CONNECTED (volatile), and read by the rank's thread only after it has seen that.
 */
final class Peer
{
    static final int NONE = 0;
    static final int CONNECTING = 1;
    static final int CONNECTED = 2;
    static final int FAILED = 3;

    final int rank;
    volatile int state;
    /** Why the connection failed (FAILED). */
    volatile String failure;
    /** The rank's thread: has seen CONNECTED; has asked the connector. */
    boolean connected;
    boolean requested;
    QueuePair qp;
    int psn;
    NativeBlock sendBlock;
    NativeBlock recvBlock;
    MemoryRegion sendMr;
    MemoryRegion recvMr;
    UnsafeBuffer sendView;
    UnsafeBuffer recvView;
    /** Frames offered before the pair connected (the rank's thread). */
    PendingFrames pending;
    long remoteCreditAddress;
    int remoteCreditRkey;
    long sent;
    long sendCompleted;
    long consumed;
    long creditWritten;
    boolean creditInFlight;
    boolean byeReceived;
    boolean byeAcked;
    boolean failed;
    int rmaInFlight;

    Peer(final int rank)
    {
        this.rank = rank;
    }
}
