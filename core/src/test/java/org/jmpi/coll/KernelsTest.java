package org.jmpi.coll;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The reduction kernels on every pair type and the op/type rules, through MPI_Reduce_local. */
class KernelsTest
{
    private static ByteBuffer buf(final int bytes)
    {
        return ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder());
    }

    @Test
    void shouldPickTheBetterValueOrTheLowerIndexOnEveryPairType()
    {
        // {value, index}: in = (5, 7), inout = (5, 3) -> tie, index 3; then in = (9, 1) wins MAXLOC, loses MINLOC.
        final ByteBuffer in = buf(8 * 16);
        final ByteBuffer io = buf(8 * 16);
        in.putShort(0, (short)5).putInt(2, 7);
        io.putShort(0, (short)5).putInt(2, 3);
        Comm.reduceLocal(in, 0, io, 0, 1, Datatype.SHORT_INT, Op.MAXLOC);
        assertEquals(3, io.getInt(2));
        in.putLong(0, 9).putInt(8, 1);
        io.putLong(0, 4).putInt(8, 2);
        Comm.reduceLocal(in, 0, io, 0, 1, Datatype.LONG_INT, Op.MAXLOC);
        assertEquals(9, io.getLong(0));
        assertEquals(1, io.getInt(8));
        in.putFloat(0, 9).putInt(4, 1);
        io.putFloat(0, 4).putInt(4, 2);
        Comm.reduceLocal(in, 0, io, 0, 1, Datatype.FLOAT_INT, Op.MINLOC);
        assertEquals(4f, io.getFloat(0));
        assertEquals(2, io.getInt(4));
        final long[] l2in = {3, 8};
        final long[] l2io = {3, 6};
        Comm.reduceLocal(l2in, 0, l2io, 0, 1, Datatype.LONG2, Op.MINLOC);
        assertEquals(6, l2io[1]);
        final float[] f2in = {-1, 4};
        final float[] f2io = {2, 0};
        Comm.reduceLocal(f2in, 0, f2io, 0, 1, Datatype.FLOAT2, Op.MINLOC);
        assertEquals(-1f, f2io[0]);
        assertEquals(4f, f2io[1]);
        final double[] d2in = {1, 1, 7, 2};
        final double[] d2io = {1, 0, 6, 5};
        Comm.reduceLocal(d2in, 0, d2io, 0, 2, Datatype.DOUBLE2, Op.MAXLOC);
        assertEquals(0d, d2io[1]);
        assertEquals(7d, d2io[2]);
        assertEquals(2d, d2io[3]);
    }

    @Test
    void shouldRejectOpsOnTypesTheyDoNotApplyTo()
    {
        final MpiException sumOnPair = assertThrows(MpiException.class,
            () -> Comm.reduceLocal(new int[2], 0, new int[2], 0, 1, Datatype.INT2, Op.SUM));
        assertEquals(ErrorClass.ERR_OP, sumOnPair.errorClass());
        assertThrows(MpiException.class, () -> Comm.reduceLocal(new double[1], 0, new double[1], 0, 1, Datatype.DOUBLE, Op.BAND));
        assertThrows(MpiException.class, () -> Comm.reduceLocal(new int[1], 0, new int[1], 0, 1, Datatype.INT, Op.MAXLOC));
        final Datatype mixed = Datatype.struct(new int[] {1, 1}, new long[] {0, 8}, new Datatype[] {Datatype.INT, Datatype.DOUBLE}).commit();
        assertThrows(MpiException.class, () -> Comm.reduceLocal(buf(16), 0, buf(16), 0, 1, mixed, Op.SUM));
        // A user op accepts any type, mixed ones included, and sees the packed items.
        final Op firstPlusFirst = Op.create((a, b, count, type) -> b.putInt(0, a.getInt(0) + b.getInt(0)), true);
        final ByteBuffer x = buf(16).putInt(0, 4);
        final ByteBuffer y = buf(16).putInt(0, 5);
        Comm.reduceLocal(x, 0, y, 0, 1, mixed, firstPlusFirst);
        assertEquals(9, y.getInt(0));
    }

    @Test
    void shouldWrapIntegersAndKeepShortsAndBytesNarrow()
    {
        final short[] s = {Short.MAX_VALUE, 3};
        final short[] t = {1, -5};
        Comm.reduceLocal(s, 0, t, 0, 2, Datatype.SHORT, Op.SUM);
        assertEquals(Short.MIN_VALUE, t[0]);
        assertEquals(-2, t[1]);
        final byte[] b = {(byte)0xF0};
        final byte[] c = {(byte)0x3C};
        Comm.reduceLocal(b, 0, c, 0, 1, Datatype.BYTE, Op.BXOR);
        assertEquals((byte)0xCC, c[0]);
        final int[] i = {Integer.MAX_VALUE};
        final int[] j = {1};
        Comm.reduceLocal(i, 0, j, 0, 1, Datatype.INT, Op.SUM);
        assertEquals(Integer.MIN_VALUE, j[0]);
    }
}
