package org.jmpi.internal.pt2pt;

import org.jmpi.Datatype;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sender's side of the on-line check: staged at once for an interval that doubles, then offered again. */
class SenderWishesTest
{
    private static final byte STAGE = FrameDescriptor.FLAG_PACK_OFF | FrameDescriptor.FLAG_STAGE;

    @Test
    void shouldSendStagedAtOnceForTheIntervalThenOfferAgain()
    {
        final SenderWishes w = new SenderWishes(3);
        final Datatype t = Datatype.DOUBLE;
        assertEquals(0, w.stageAtOnce(1, 7, t, 100, 2), "no wish: offer");
        w.replied(1, 7, t, 100, 2, STAGE, 4096);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(4096, w.stageAtOnce(1, 7, t, 100, 2), "staged send " + i);
        }
        assertEquals(0, w.stageAtOnce(1, 7, t, 100, 2), "the re-check's offer");
        assertEquals(0, w.stageAtOnce(1, 7, t, 100, 2), "offers until the receiver answers");
        // Confirmed: twice the interval.
        w.replied(1, 7, t, 100, 2, STAGE, 8160);
        for (int i = 0; i < 6; i++)
        {
            assertEquals(8160, w.stageAtOnce(1, 7, t, 100, 2), "staged send " + i + " of the doubled interval");
        }
        assertEquals(0, w.stageAtOnce(1, 7, t, 100, 2));
        // The receiver's round chose the direct copy: offers from now on.
        w.replied(1, 7, t, 100, 2, FrameDescriptor.FLAG_PACK_ON, 0);
        assertEquals(0, w.stageAtOnce(1, 7, t, 100, 2));
    }

    @Test
    void shouldKeepLayoutsApartAndForgetTheOldestBeyondItsSlots()
    {
        final SenderWishes w = new SenderWishes(1000);
        final Datatype t = Datatype.DOUBLE;
        for (int tag = 0; tag < SenderWishes.SLOTS; tag++)
        {
            w.replied(1, tag, t, 100, 0, STAGE, 4096 + tag * 32);
        }
        for (int tag = 0; tag < SenderWishes.SLOTS; tag++)
        {
            assertEquals(4096 + tag * 32, w.stageAtOnce(1, tag, t, 100, 0), "tag " + tag);
        }
        assertEquals(0, w.stageAtOnce(1, 0, t, 101, 0), "another count");
        assertEquals(0, w.stageAtOnce(1, 0, t, 100, 1), "another peer");
        w.replied(1, 99, t, 100, 0, STAGE, 4096);
        assertEquals(0, w.stageAtOnce(1, 0, t, 100, 0), "the oldest slot was taken");
        assertEquals(4096, w.stageAtOnce(1, 99, t, 100, 0));
    }
}
