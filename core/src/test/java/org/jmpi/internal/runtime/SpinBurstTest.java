package org.jmpi.internal.runtime;

import org.jmpi.internal.engine.ProgressEngine;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The idler yields while spinning only when the ranks on a node outnumber its processors, unless configured. */
class SpinBurstTest
{
    @Test
    void shouldYieldWhileSpinningOnlyWhenRanksOutnumberProcessors()
    {
        final String[] twoOnA = {"a", "a", "b", "b", "b"};
        assertEquals(0, RankRuntime.spinBurst(-1, twoOnA, 0, 2, false), "2 ranks on 2 processors");
        assertEquals(ProgressEngine.OVERSUBSCRIBED_SPIN_BURST, RankRuntime.spinBurst(-1, twoOnA, 2, 2, false), "3 ranks on 2 processors");
        assertEquals(0, RankRuntime.spinBurst(-1, twoOnA, 2, 3, false), "3 ranks on 3 processors");
        assertEquals(1024, RankRuntime.spinBurst(1024, twoOnA, 2, 2, true), "configured");
        assertEquals(0, RankRuntime.spinBurst(0, twoOnA, 2, 2, true), "configured never");
        assertEquals(ProgressEngine.OVERSUBSCRIBED_SPIN_BURST, RankRuntime.spinBurst(-1, twoOnA, 0, 2, true),
            "a progress thread beside the application's threads");
    }

    @Test
    void shouldRejectABurstThatIsNotAPowerOfTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> new ProgressEngine.IdleSpec(10, 10, 48, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> new ProgressEngine.IdleSpec(10, 10, -2, 1, 2));
    }
}
