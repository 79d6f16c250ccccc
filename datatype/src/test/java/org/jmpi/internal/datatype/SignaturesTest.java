package org.jmpi.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jmpi.Datatype;
import org.junit.jupiter.api.Test;

/** MPI type matching. */
class SignaturesTest
{
    private static final Datatype INT_DOUBLE = Datatype.struct(new int[]{1, 1}, new long[]{0, 8},
        new Datatype[]{Datatype.INT, Datatype.DOUBLE}).commit();

    @Test
    void shouldGiveStableHomogeneousCodes()
    {
        assertEquals(4, Signatures.homogeneousCode(Datatype.INT));
        assertEquals(4, Signatures.homogeneousCode(Datatype.vector(3, 1, 2, Datatype.INT)));
        assertEquals(0, Signatures.homogeneousCode(INT_DOUBLE));
        assertEquals(0, Signatures.homogeneousCode(Datatype.contiguous(0, Datatype.INT)));
        assertEquals(Signatures.homogeneousCode(Datatype.INT2), Signatures.homogeneousCode(Datatype.contiguous(2,
            Datatype.INT2)));
        for (final BasicType b : BasicType.values())
        {
            assertTrue(b.code() > 0 && b.code() < 128);
        }
    }

    @Test
    void shouldTreatByteAndPackedAsCompatibleWithAnything()
    {
        final int i = Signatures.homogeneousCode(Datatype.INT);
        final int d = Signatures.homogeneousCode(Datatype.DOUBLE);
        assertTrue(Signatures.compatible(i, i));
        assertFalse(Signatures.compatible(i, d));
        assertTrue(Signatures.compatible(0, d));
        assertTrue(Signatures.compatible(Signatures.homogeneousCode(Datatype.PACKED), d));
        assertTrue(Signatures.compatible(i, Signatures.homogeneousCode(Datatype.BYTE)));
    }

    @Test
    void shouldMatchEqualSignaturesOfDifferentLayouts()
    {
        final Datatype other = Datatype.struct(new int[]{1, 1}, new long[]{16, 0},
            new Datatype[]{Datatype.INT, Datatype.DOUBLE}).commit();
        final Datatype rev = Datatype.struct(new int[]{1, 1}, new long[]{8, 0},
            new Datatype[]{Datatype.DOUBLE, Datatype.INT}).commit();
        assertNull(Signatures.firstMismatch(INT_DOUBLE, 3, other, 3));
        assertNull(Signatures.firstMismatch(INT_DOUBLE, 2, Datatype.contiguous(2, INT_DOUBLE).commit(), 1));
        final String m = Signatures.firstMismatch(INT_DOUBLE, 2, rev, 2);
        assertTrue(m.contains("basic element 0") && m.contains("send INT") && m.contains("receive DOUBLE"), m);
        final Datatype three = Datatype.struct(new int[]{1, 1, 1}, new long[]{0, 8, 16},
            new Datatype[]{Datatype.INT, Datatype.DOUBLE, Datatype.FLOAT}).commit();
        final String late = Signatures.firstMismatch(INT_DOUBLE, 2, three, 2);
        assertTrue(late.contains("basic element 2") && late.contains("send INT") && late.contains("receive FLOAT"), late);
        assertNull(Signatures.firstMismatch(Datatype.INT, 4, Datatype.vector(2, 2, 3, Datatype.INT).commit(), 1));
        assertTrue(Signatures.firstMismatch(Datatype.INT, 4, Datatype.FLOAT, 4).contains("send INT"));
        assertNull(Signatures.firstMismatch(INT_DOUBLE, 1, Datatype.BYTE, 12));
        assertNull(Signatures.firstMismatch(Datatype.PACKED, 12, INT_DOUBLE, 1));
    }

    @Test
    void shouldThrowTypeErrorWhenSignaturesDiffer()
    {
        final org.jmpi.MpiException ex = org.junit.jupiter.api.Assertions.assertThrows(org.jmpi.MpiException.class,
            () -> Signatures.requireMatch(Datatype.INT, 2, Datatype.DOUBLE, 1));
        assertEquals(org.jmpi.ErrorClass.ERR_TYPE, ex.errorClass());
        assertTrue(ex.getMessage().contains("basic element 0"), ex.getMessage());
        Signatures.requireMatch(INT_DOUBLE, 1, INT_DOUBLE, 1);
    }
}
