package org.jmpi.internal.transport.jvm;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeapExposuresTest
{
    @Test
    void shouldMapAHandleToTheExposedObject()
    {
        final HeapExposures exposures = new HeapExposures();
        final double[] a = new double[4];
        final long handle = exposures.expose(a);
        assertTrue(handle > 0, "handle " + handle);
        assertSame(a, exposures.map(0, handle));
    }

    @Test
    void shouldRefuseAStaleHandleWhenItsSlotIsReused()
    {
        final HeapExposures exposures = new HeapExposures();
        final long first = exposures.expose(new int[1]);
        exposures.withdraw(first);
        final int[] second = new int[2];
        final long again = exposures.expose(second);
        assertNotEquals(first, again);
        assertSame(second, exposures.map(3, again));
        final MpiException ex = assertThrows(MpiException.class, () -> exposures.map(3, first));
        assertEquals(ErrorClass.ERR_INTERN, ex.errorClass());
        assertThrows(MpiException.class, () -> exposures.map(3, 0));
        assertThrows(MpiException.class, () -> exposures.withdraw(first));
    }

    @Test
    void shouldReturnZeroWhenEverySlotIsTakenAndReuseAWithdrawnSlot()
    {
        final HeapExposures exposures = new HeapExposures();
        final long[] handles = new long[HeapExposures.CAPACITY];
        for (int i = 0; i < handles.length; i++)
        {
            handles[i] = exposures.expose(new byte[1]);
            assertTrue(handles[i] > 0);
        }
        assertEquals(0, exposures.expose(new byte[1]));
        exposures.withdraw(handles[17]);
        final byte[] b = new byte[3];
        final long handle = exposures.expose(b);
        assertSame(b, exposures.map(1, handle));
    }
}
