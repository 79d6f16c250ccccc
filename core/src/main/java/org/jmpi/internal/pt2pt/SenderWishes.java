package org.jmpi.internal.pt2pt;

import org.jmpi.Datatype;

import java.util.Arrays;

/**
 * The sender's copy of what the receiver's on-line path check ({@link PathTrials}) asked about its next messages of one
 * layout, from the flags of its CTS or FIN (docs/pvas.md, "Session 12: the on-line choice"): not to pack at send
 * ({@link FrameDescriptor#FLAG_PACK_OFF}), to pack again as the model says ({@link FrameDescriptor#FLAG_PACK_ON}), or to
 * send staged at once in fragments of a given size ({@link FrameDescriptor#FLAG_STAGE}): the receiver chose the staged
 * pipeline, so the direct offer (exposure, the type in the RTS, its withdrawal on the CTS) is skipped, for an interval
 * that starts at {@code jmpi.pvas.online.recheck} messages and doubles, up to 64 times that, each time the receiver
 * confirms it; then the sender offers the direct copy again and the receiver's check runs a round.
 *
 * <p>A few layouts per peer (communicator, tag, send type and count), replaced in turn: lookups compare fields and
 * allocate nothing.
 *
 * <p>Threading: engine thread only.
 */
final class SenderWishes
{
    /** Layouts remembered per peer. */
    static final int SLOTS = 4;

    /** One layout's wish. */
    private static final class Wish
    {
        int contextId;
        int tag;
        Datatype type;
        long count;
        boolean packOff;
        boolean stage;
        int fragment;
        long interval;
        long stagedLeft;
    }

    private final long recheck;
    private Wish[][] byPeer = new Wish[0][];
    private int[] nextSlot = new int[0];

    /** @param recheck the first interval of staged sends before the direct copy is offered again (0: never offered again) */
    SenderWishes(final long recheck)
    {
        this.recheck = recheck;
    }

    /** The receiver's reply to {@code s} carried {@code flags} and, with FLAG_STAGE, the fragment size {@code fragment}. */
    void replied(final SendRequestImpl s, final int peer, final byte flags, final int fragment)
    {
        replied(s.contextId, s.tag, s.type, s.count, peer, flags, fragment);
    }

    /** {@link #replied(SendRequestImpl, int, byte, int)} for the layout ({@code contextId}, {@code tag}, {@code type}, {@code count}). */
    void replied(final int contextId, final int tag, final Datatype type, final long count, final int peer, final byte flags,
        final int fragment)
    {
        if ((flags & (FrameDescriptor.FLAG_PACK_OFF | FrameDescriptor.FLAG_PACK_ON | FrameDescriptor.FLAG_STAGE)) == 0)
        {
            return;
        }
        Wish w = find(contextId, tag, type, count, peer);
        if (w == null)
        {
            w = slot(peer);
            w.contextId = contextId;
            w.tag = tag;
            w.type = type;
            w.count = count;
            w.stage = false;
            w.interval = 0;
        }
        w.packOff = (flags & FrameDescriptor.FLAG_PACK_OFF) != 0;
        if ((flags & FrameDescriptor.FLAG_STAGE) != 0)
        {
            w.interval = w.interval == 0 ? Math.max(1, recheck) : Math.min(64 * Math.max(1, recheck), 2 * w.interval);
            w.stagedLeft = recheck == 0 ? Long.MAX_VALUE : w.interval;
            w.stage = true;
            w.fragment = fragment;
        }
    }

    /** Whether the receiver asked not to pack {@code s} at send. */
    boolean packRefused(final SendRequestImpl s, final int peer)
    {
        final Wish w = find(s.contextId, s.tag, s.type, s.count, peer);
        return w != null && w.packOff;
    }

    /**
     * The fragment size to send {@code s} staged in at once, without a direct offer, counting it; 0 when it is to be
     * offered (no such wish, or the interval is over: this send is the re-check's offer).
     */
    int stageAtOnce(final SendRequestImpl s, final int peer)
    {
        return stageAtOnce(s.contextId, s.tag, s.type, s.count, peer);
    }

    /** {@link #stageAtOnce(SendRequestImpl, int)} for the layout ({@code contextId}, {@code tag}, {@code type}, {@code count}). */
    int stageAtOnce(final int contextId, final int tag, final Datatype type, final long count, final int peer)
    {
        final Wish w = find(contextId, tag, type, count, peer);
        if (w == null || !w.stage)
        {
            return 0;
        }
        if (w.stagedLeft-- <= 0)
        {
            w.stage = false;
            return 0;
        }
        return Math.max(1, w.fragment);
    }

    /** The fragment size the receiver asked for {@code s}'s layout, or 0. */
    int fragment(final SendRequestImpl s, final int peer)
    {
        final Wish w = find(s.contextId, s.tag, s.type, s.count, peer);
        return w == null || !w.stage ? 0 : w.fragment;
    }

    private Wish find(final int contextId, final int tag, final Datatype type, final long count, final int peer)
    {
        if (peer >= byPeer.length || byPeer[peer] == null)
        {
            return null;
        }
        for (final Wish w : byPeer[peer])
        {
            if (w != null && w.type == type && w.count == count && w.tag == tag && w.contextId == contextId)
            {
                return w;
            }
        }
        return null;
    }

    private Wish slot(final int peer)
    {
        if (peer >= byPeer.length)
        {
            byPeer = Arrays.copyOf(byPeer, peer + 1);
            nextSlot = Arrays.copyOf(nextSlot, peer + 1);
        }
        if (byPeer[peer] == null)
        {
            byPeer[peer] = new Wish[SLOTS];
        }
        final int i = nextSlot[peer];
        nextSlot[peer] = (i + 1) % SLOTS;
        if (byPeer[peer][i] == null)
        {
            byPeer[peer][i] = new Wish();
        }
        return byPeer[peer][i];
    }
}
