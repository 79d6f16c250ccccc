package org.jmpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.jmpi.internal.datatype.testing.ReferencePacker;
import org.jmpi.internal.datatype.testing.TypeGenerator;
import org.junit.jupiter.api.Test;

/** Queries against values worked out by hand, including the examples of MPI 4.1 chapter 5. */
class DatatypeTest
{
    /** MPI's running example: {(double,0),(char,8)}, extent 16 (C pads the struct); here char is BYTE. */
    private static final Datatype DOUBLE_CHAR = Datatype.struct(new int[]{1, 1}, new long[]{0, 8},
        new Datatype[]{Datatype.DOUBLE, Datatype.BYTE});

    private static void assertQueries(final Datatype t, final long size, final long lb, final long extent,
        final long trueLb, final long trueExtent)
    {
        assertEquals(size, t.size(), "size of " + t);
        assertEquals(lb, t.lb(), "lb of " + t);
        assertEquals(extent, t.extent(), "extent of " + t);
        assertEquals(lb + extent, t.ub(), "ub of " + t);
        assertEquals(trueLb, t.trueLb(), "trueLb of " + t);
        assertEquals(trueExtent, t.trueExtent(), "trueExtent of " + t);
    }

    private static void assertTypemap(final Datatype t, final Object... dispAndType)
    {
        final ReferencePacker.Typemap map = ReferencePacker.typemap(t);
        assertEquals(dispAndType.length / 2, map.basics().length, "entries of " + t);
        for (int i = 0; i < dispAndType.length / 2; i++)
        {
            assertEquals(((Number)dispAndType[2 * i]).longValue(), map.displacements()[i], "displacement " + i);
            assertSame(dispAndType[2 * i + 1], map.basics()[i], "type " + i);
        }
    }

    @Test
    void shouldDescribePredefinedTypes()
    {
        assertQueries(Datatype.INT, 4, 0, 4, 0, 4);
        assertQueries(Datatype.CHAR, 2, 0, 2, 0, 2);
        assertQueries(Datatype.BOOLEAN, 1, 0, 1, 0, 1);
        assertQueries(Datatype.DOUBLE_INT, 12, 0, 16, 0, 12);
        assertQueries(Datatype.SHORT_INT, 6, 0, 8, 0, 6);
        assertQueries(Datatype.LONG2, 16, 0, 16, 0, 16);
        assertTrue(Datatype.INT.isCommitted());
        assertTrue(Datatype.INT.isPredefined());
        assertTrue(Datatype.INT.isContiguous());
        assertFalse(Datatype.DOUBLE_INT.isContiguous());
        assertEquals("INT", Datatype.INT.name());
        assertSame(Datatype.INT2, Datatype.INT2.basicType());
        assertEquals(Datatype.Combiner.NAMED, Datatype.INT.combiner());
    }

    @Test
    void shouldPadStructExtentToAlignmentAsMpiStandardExample()
    {
        assertQueries(DOUBLE_CHAR, 9, 0, 16, 0, 9);
        assertNull(DOUBLE_CHAR.basicType());
        assertFalse(DOUBLE_CHAR.isContiguous());
    }

    @Test
    void shouldBuildContiguousAsMpiStandardExample()
    {
        final Datatype t = Datatype.contiguous(3, DOUBLE_CHAR);
        assertTypemap(t, 0, Datatype.DOUBLE, 8, Datatype.BYTE, 16, Datatype.DOUBLE, 24, Datatype.BYTE, 32, Datatype.DOUBLE,
            40, Datatype.BYTE);
        assertQueries(t, 27, 0, 48, 0, 41);
    }

    @Test
    void shouldBuildVectorAsMpiStandardExamples()
    {
        final Datatype t = Datatype.vector(2, 3, 4, DOUBLE_CHAR);
        assertTypemap(t, 0, Datatype.DOUBLE, 8, Datatype.BYTE, 16, Datatype.DOUBLE, 24, Datatype.BYTE, 32, Datatype.DOUBLE,
            40, Datatype.BYTE, 64, Datatype.DOUBLE, 72, Datatype.BYTE, 80, Datatype.DOUBLE, 88, Datatype.BYTE, 96,
            Datatype.DOUBLE, 104, Datatype.BYTE);
        assertQueries(t, 54, 0, 112, 0, 105);

        final Datatype negative = Datatype.vector(3, 1, -2, DOUBLE_CHAR);
        assertTypemap(negative, 0, Datatype.DOUBLE, 8, Datatype.BYTE, -32, Datatype.DOUBLE, -24, Datatype.BYTE, -64,
            Datatype.DOUBLE, -56, Datatype.BYTE);
        assertQueries(negative, 27, -64, 80, -64, 73);
    }

    @Test
    void shouldBuildHvectorAsMpiStandardExample()
    {
        final Datatype t = Datatype.hvector(2, 3, 4, DOUBLE_CHAR);
        assertTypemap(t, 0, Datatype.DOUBLE, 8, Datatype.BYTE, 16, Datatype.DOUBLE, 24, Datatype.BYTE, 32, Datatype.DOUBLE,
            40, Datatype.BYTE, 4, Datatype.DOUBLE, 12, Datatype.BYTE, 20, Datatype.DOUBLE, 28, Datatype.BYTE, 36,
            Datatype.DOUBLE, 44, Datatype.BYTE);
        assertQueries(t, 54, 0, 52, 0, 45);
    }

    @Test
    void shouldBuildIndexedAsMpiStandardExample()
    {
        final Datatype t = Datatype.indexed(new int[]{3, 1}, new int[]{4, 0}, DOUBLE_CHAR);
        assertTypemap(t, 64, Datatype.DOUBLE, 72, Datatype.BYTE, 80, Datatype.DOUBLE, 88, Datatype.BYTE, 96,
            Datatype.DOUBLE, 104, Datatype.BYTE, 0, Datatype.DOUBLE, 8, Datatype.BYTE);
        assertQueries(t, 36, 0, 112, 0, 105);
        final Datatype h = Datatype.hindexed(new int[]{3, 1}, new long[]{64, 0}, DOUBLE_CHAR);
        assertQueries(h, 36, 0, 112, 0, 105);
        assertQueries(Datatype.indexedBlock(2, new int[]{5, -1}, Datatype.INT), 16, -4, 32, -4, 32);
        assertQueries(Datatype.hindexedBlock(2, new long[]{20, -4}, Datatype.INT), 16, -4, 32, -4, 32);
    }

    @Test
    void shouldBuildStructAsMpiStandardExample()
    {
        final Datatype t = Datatype.struct(new int[]{2, 1, 3}, new long[]{0, 16, 26},
            new Datatype[]{Datatype.FLOAT, DOUBLE_CHAR, Datatype.BYTE});
        assertTypemap(t, 0, Datatype.FLOAT, 4, Datatype.FLOAT, 16, Datatype.DOUBLE, 24, Datatype.BYTE, 26, Datatype.BYTE,
            27, Datatype.BYTE, 28, Datatype.BYTE);
        assertQueries(t, 20, 0, 32, 0, 29);
        assertEquals(7, t.elementCount());
    }

    @Test
    void shouldNotPadStructWhenMemberHasExplicitBounds()
    {
        final Datatype t = Datatype.struct(new int[]{1, 1}, new long[]{0, 8},
            new Datatype[]{Datatype.resized(Datatype.DOUBLE, 0, 8), Datatype.BYTE});
        assertQueries(t, 9, 0, 9, 0, 9);
        assertTrue(t.commit().isContiguous() == false || t.extent() == 9);
    }

    @Test
    void shouldResizeBoundsButNotData()
    {
        final Datatype t = Datatype.resized(Datatype.INT, -4, 12);
        assertQueries(t, 4, -4, 12, 0, 4);
        assertFalse(t.isContiguous());
        final Datatype c = Datatype.contiguous(3, t);
        assertTypemap(c, 0, Datatype.INT, 12, Datatype.INT, 24, Datatype.INT);
        assertQueries(c, 12, -4, 36, 0, 28);
        assertSame(Datatype.INT, c.basicType());
    }

    @Test
    void shouldBuildSubarrayInBothOrders()
    {
        final Datatype c = Datatype.subarray(new int[]{4, 5}, new int[]{2, 3}, new int[]{1, 2}, Datatype.Order.C,
            Datatype.INT);
        assertTypemap(c, 28, Datatype.INT, 32, Datatype.INT, 36, Datatype.INT, 48, Datatype.INT, 52, Datatype.INT, 56,
            Datatype.INT);
        assertQueries(c, 24, 0, 80, 28, 32);
        final Datatype f = Datatype.subarray(new int[]{4, 5}, new int[]{2, 3}, new int[]{1, 2}, Datatype.Order.FORTRAN,
            Datatype.INT);
        assertTypemap(f, 36, Datatype.INT, 40, Datatype.INT, 52, Datatype.INT, 56, Datatype.INT, 68, Datatype.INT, 72,
            Datatype.INT);
        assertQueries(f, 24, 0, 80, 36, 40);
        assertEquals(Datatype.Combiner.SUBARRAY, f.combiner());
    }

    @Test
    void shouldBuildDarrayBlockAndCyclic()
    {
        final Datatype.Distribution[] block = {Datatype.Distribution.BLOCK};
        final Datatype b1 = Datatype.darray(3, 1, new int[]{8}, block, new int[]{Datatype.DFLT_DARG}, new int[]{3},
            Datatype.Order.C, Datatype.INT);
        assertTypemap(b1, 12, Datatype.INT, 16, Datatype.INT, 20, Datatype.INT);
        assertQueries(b1, 12, 0, 32, 12, 12);
        final Datatype b2 = Datatype.darray(3, 2, new int[]{8}, block, new int[]{Datatype.DFLT_DARG}, new int[]{3},
            Datatype.Order.C, Datatype.INT);
        assertTypemap(b2, 24, Datatype.INT, 28, Datatype.INT);
        final Datatype cyc = Datatype.darray(3, 1, new int[]{10}, new Datatype.Distribution[]{Datatype.Distribution.CYCLIC},
            new int[]{2}, new int[]{3}, Datatype.Order.C, Datatype.INT);
        assertTypemap(cyc, 8, Datatype.INT, 12, Datatype.INT, 32, Datatype.INT, 36, Datatype.INT);
        final Datatype grid = Datatype.darray(6, 4, new int[]{4, 6},
            new Datatype.Distribution[]{Datatype.Distribution.BLOCK, Datatype.Distribution.CYCLIC},
            new int[]{Datatype.DFLT_DARG, Datatype.DFLT_DARG}, new int[]{2, 3}, Datatype.Order.C, Datatype.INT);
        assertTypemap(grid, 52, Datatype.INT, 64, Datatype.INT, 76, Datatype.INT, 88, Datatype.INT);
        assertQueries(grid, 16, 0, 96, 52, 40);
    }

    @Test
    void shouldHandleZeroCountsAndEmptyTypes()
    {
        final Datatype empty = Datatype.contiguous(0, Datatype.INT).commit();
        assertQueries(empty, 0, 0, 0, 0, 0);
        assertTrue(empty.isContiguous());
        assertNull(empty.basicType());
        assertEquals(0, empty.elementsIn(0));
        assertEquals(Datatype.UNDEFINED, empty.elementsIn(4));
        final Datatype spaced = Datatype.resized(empty, 0, 8);
        assertQueries(spaced, 0, 0, 8, 0, 0);
        final Datatype s = Datatype.struct(new int[]{0, 2}, new long[]{100, 4}, new Datatype[]{Datatype.DOUBLE, Datatype.INT});
        assertQueries(s, 8, 4, 8, 4, 8);
        assertSame(Datatype.INT, s.basicType());
    }

    @Test
    void shouldReportContiguityOnlyForDenseLayouts()
    {
        assertTrue(Datatype.contiguous(5, Datatype.INT).isContiguous());
        assertTrue(Datatype.vector(3, 2, 2, Datatype.INT).isContiguous());
        assertFalse(Datatype.vector(3, 2, 3, Datatype.INT).isContiguous());
        assertFalse(Datatype.indexed(new int[]{1, 1}, new int[]{1, 0}, Datatype.INT).isContiguous());
        assertTrue(Datatype.indexed(new int[]{1, 2}, new int[]{0, 1}, Datatype.INT).isContiguous());
        assertTrue(Datatype.struct(new int[]{1, 1}, new long[]{0, 4}, new Datatype[]{Datatype.INT, Datatype.FLOAT})
            .isContiguous());
        assertFalse(Datatype.struct(new int[]{1, 1}, new long[]{0, 8}, new Datatype[]{Datatype.DOUBLE, Datatype.INT})
            .isContiguous());
    }

    @Test
    void shouldCountElementsOfPartialReceives()
    {
        final Datatype s = Datatype.struct(new int[]{1, 1}, new long[]{0, 4}, new Datatype[]{Datatype.INT, Datatype.DOUBLE})
            .commit();
        assertEquals(12, s.size());
        assertEquals(0, s.elementsIn(0));
        assertEquals(0, s.elementsIn(3));
        assertEquals(1, s.elementsIn(4));
        assertEquals(1, s.elementsIn(11));
        assertEquals(2, s.elementsIn(12));
        assertEquals(3, s.elementsIn(16));
        assertEquals(3, s.elementsIn(23));
        assertEquals(4, s.elementsIn(24));
        assertEquals(2, Datatype.vector(3, 1, 2, Datatype.INT).elementsIn(10));
        assertEquals(Datatype.UNDEFINED, s.countIn(13));
        assertEquals(2, s.countIn(24));
        assertEquals(1, Datatype.DOUBLE_INT.elementsIn(12));
    }

    @Test
    void shouldRejectBadConstructorArguments()
    {
        assertEquals(ErrorClass.ERR_COUNT, assertThrows(MpiException.class, () -> Datatype.contiguous(-1, Datatype.INT))
            .errorClass());
        assertEquals(ErrorClass.ERR_COUNT, assertThrows(MpiException.class, () -> Datatype.vector(-2, 1, 1, Datatype.INT))
            .errorClass());
        assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> Datatype.vector(2, -1, 1, Datatype.INT))
            .errorClass());
        assertEquals(ErrorClass.ERR_TYPE, assertThrows(MpiException.class, () -> Datatype.contiguous(1, null)).errorClass());
        final MpiException lengths = assertThrows(MpiException.class,
            () -> Datatype.indexed(new int[]{1, 2}, new int[]{0}, Datatype.INT));
        assertTrue(lengths.getMessage().contains("blockLengths has length 2, displacements has length 1"),
            lengths.getMessage());
        assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> Datatype.subarray(new int[]{4},
            new int[]{3}, new int[]{2}, Datatype.Order.C, Datatype.INT)).errorClass());
        assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> Datatype.darray(4, 0, new int[]{8},
            new Datatype.Distribution[]{Datatype.Distribution.BLOCK}, new int[]{Datatype.DFLT_DARG}, new int[]{3},
            Datatype.Order.C, Datatype.INT)).errorClass());
        final MpiException overflow = assertThrows(MpiException.class, () -> Datatype.contiguous(Integer.MAX_VALUE,
            Datatype.contiguous(Integer.MAX_VALUE, Datatype.contiguous(Integer.MAX_VALUE, Datatype.DOUBLE))));
        assertTrue(overflow.getMessage().contains("overflow"), overflow.getMessage());
    }

    @Test
    void shouldKeepSizesAbove2GiBInLongs()
    {
        final Datatype big = Datatype.contiguous(1 << 20, Datatype.contiguous(1 << 12, Datatype.DOUBLE)).commit();
        assertEquals(1L << 35, big.size());
        assertEquals(1L << 35, big.extent());
        assertTrue(big.isContiguous());
        assertEquals(3L << 35, big.packSize(3));
        assertEquals((1L << 32) + 1, big.elementsIn((1L << 35) + 8));
    }

    @Test
    void shouldRebuildEveryGeneratedTypeFromItsContents()
    {
        for (int i = 0; i < 500; i++)
        {
            final Datatype t = TypeGenerator.mixed(i).next();
            if (t.isPredefined())
            {
                continue;
            }
            final Datatype r = t.contents().rebuild();
            assertEquals(t.combiner(), r.combiner(), "seed " + i);
            assertQueries(r, t.size(), t.lb(), t.extent(), t.trueLb(), t.trueExtent());
            final ReferencePacker.Typemap a = ReferencePacker.typemap(t);
            final ReferencePacker.Typemap b = ReferencePacker.typemap(r);
            assertArrayEquals(a.displacements(), b.displacements(), "seed " + i);
            assertArrayEquals(a.basics(), b.basics(), "seed " + i);
        }
    }

    @Test
    void shouldExposeContentsAsMpiLaysThemOut()
    {
        final Datatype v = Datatype.vector(2, 3, 4, Datatype.INT);
        assertEquals(Datatype.Combiner.VECTOR, v.combiner());
        assertArrayEquals(new int[]{2, 3, 4}, v.contents().integers());
        assertArrayEquals(new Datatype[]{Datatype.INT}, v.contents().datatypes());
        final Datatype s = Datatype.struct(new int[]{1, 2}, new long[]{0, 8}, new Datatype[]{Datatype.INT, Datatype.DOUBLE});
        assertArrayEquals(new int[]{2, 1, 2}, s.contents().integers());
        assertArrayEquals(new long[]{0, 8}, s.contents().addresses());
        final Datatype r = Datatype.resized(Datatype.INT, -4, 16);
        assertArrayEquals(new long[]{-4, 16}, r.contents().addresses());
        final Datatype d = Datatype.INT.dup();
        assertEquals(Datatype.Combiner.DUP, d.combiner());
        assertTrue(d.isCommitted());
        assertFalse(d.isPredefined());
        assertSame(Datatype.INT, d.basicType());
    }

    @Test
    void shouldCommitIdempotentlyAndReturnSameType()
    {
        final Datatype t = Datatype.vector(2, 1, 2, Datatype.INT);
        assertFalse(t.isCommitted());
        assertSame(t, t.commit());
        assertSame(t, t.commit());
        assertTrue(t.isCommitted());
    }

    @Test
    void shouldPackAndUnpackThroughUserApi()
    {
        final Datatype column = Datatype.resized(Datatype.vector(3, 1, 4, Datatype.INT), 0, 4).commit();
        final int[] matrix = new int[12];
        Arrays.setAll(matrix, i -> i);
        final byte[] packed = new byte[(int)column.packSize(2) + 4];
        final long end = column.pack(matrix, 1, 2, packed, 4);
        assertEquals(4 + 24, end);
        final ByteBuffer view = ByteBuffer.wrap(packed).order(ByteOrder.nativeOrder());
        assertEquals(1, view.getInt(4));
        assertEquals(5, view.getInt(8));
        assertEquals(9, view.getInt(12));
        assertEquals(2, view.getInt(16));
        final int[] back = new int[12];
        assertEquals(28, column.unpack(packed, 4, back, 1, 2));
        assertArrayEquals(new int[]{0, 1, 2, 0, 0, 5, 6, 0, 0, 9, 10, 0}, back);

        final MpiException small = assertThrows(MpiException.class, () -> column.pack(matrix, 1, 2, new byte[10], 0));
        assertEquals(ErrorClass.ERR_BUFFER, small.errorClass());
        final MpiException shortInput = assertThrows(MpiException.class, () -> column.unpack(new byte[10], 0, back, 0, 1));
        assertEquals(ErrorClass.ERR_TRUNCATE, shortInput.errorClass());
    }

    @Test
    void shouldWriteExternal32BigEndian()
    {
        final byte[] out = new byte[12];
        Datatype.INT.packExternal32(new int[]{0x01020304}, 0, 1, out, 0);
        assertArrayEquals(new byte[]{1, 2, 3, 4}, Arrays.copyOf(out, 4));
        final ByteBuffer pair = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
        pair.putDouble(0, 1.5).putInt(8, 7);
        assertEquals(12, Datatype.DOUBLE_INT.packExternal32(pair, 0, 1, out, 0));
        final ByteBuffer be = ByteBuffer.wrap(out);
        assertEquals(1.5, be.getDouble(0));
        assertEquals(7, be.getInt(8));
        final ByteBuffer back = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
        Datatype.DOUBLE_INT.unpackExternal32(out, 0, back, 0, 1);
        assertEquals(1.5, back.getDouble(0));
        assertEquals(7, back.getInt(8));
        assertEquals(0, back.getInt(12));
    }
}
