package org.jmpi.internal.datatype;

import static org.jmpi.internal.datatype.ConvertorRandomTest.BYTE_BASE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;

/** Argument checks, the units rule, overlap detection, guard bytes, layout statistics and compiled shapes. */
class ConvertorTest
{
    private static MpiException fails(final ErrorClass expected, final Runnable r)
    {
        final MpiException ex = assertThrows(MpiException.class, r::run);
        assertEquals(expected, ex.errorClass(), ex.getMessage());
        return ex;
    }

    @Test
    void shouldRejectBadBuffers()
    {
        assertTrue(fails(ErrorClass.ERR_BUFFER, () -> BufferView.of(null, "send buffer")).getMessage()
            .contains("send buffer: buffer is null"));
        assertTrue(fails(ErrorClass.ERR_BUFFER, () -> BufferView.of("text", "receive buffer")).getMessage()
            .contains("unsupported buffer type java.lang.String"));
        final BufferView ro = BufferView.of(ByteBuffer.allocate(8).asReadOnlyBuffer(), "receive buffer");
        assertTrue(ro.readOnly());
        fails(ErrorClass.ERR_BUFFER, () -> Convertor.createForReceive(ro, 0, 1, Datatype.INT));
        Convertor.create(ro, 0, 2, Datatype.INT);
    }

    @Test
    void shouldResolveBufferViews()
    {
        final BufferView ints = BufferView.of(new int[10], "b");
        assertEquals(40, ints.capacityBytes());
        assertEquals(4, ints.elementSize());
        assertEquals(Datatype.INT, ints.elementType());
        final ByteBuffer direct = ByteBuffer.allocateDirect(64).order(ByteOrder.BIG_ENDIAN);
        direct.position(7);
        final BufferView d = BufferView.of(direct, "b");
        assertTrue(d.byteAddressed());
        assertEquals(ByteOrder.nativeOrder() != ByteOrder.BIG_ENDIAN, d.swapBytes());
        assertEquals(64, d.capacityBytes());
        final BufferView di = BufferView.of(direct.order(ByteOrder.nativeOrder()).asIntBuffer(), "b");
        assertEquals(org.agrona.BufferUtil.address(direct) + 7, di.address());
        assertEquals(7, direct.position());
        assertEquals(null, BufferView.of(ByteBuffer.allocate(16).asIntBuffer(), "b").base());
        assertNotNull(BufferView.of(ByteBuffer.allocate(16).asIntBuffer(), "b").indirect());
    }

    @Test
    void shouldRejectUncommittedTypesAndBadCounts()
    {
        final BufferView v = BufferView.of(new int[16], "send buffer");
        final Datatype t = Datatype.vector(2, 1, 2, Datatype.INT);
        assertTrue(fails(ErrorClass.ERR_TYPE, () -> Convertor.create(v, 0, 1, t)).getMessage().contains("not committed"));
        t.commit();
        fails(ErrorClass.ERR_COUNT, () -> Convertor.create(v, 0, -1, t));
        fails(ErrorClass.ERR_ARG, () -> Convertor.create(v, -1, 1, t));
    }

    @Test
    void shouldApplyUnitsRuleToArrays()
    {
        final BufferView ints = BufferView.of(new int[16], "send buffer");
        final MpiException wrong = fails(ErrorClass.ERR_TYPE, () -> Convertor.create(ints, 0, 1, Datatype.DOUBLE));
        assertTrue(wrong.getMessage().contains("DOUBLE") && wrong.getMessage().contains("INT"), wrong.getMessage());
        final Datatype mixed = Datatype.struct(new int[]{1, 1}, new long[]{0, 4},
            new Datatype[]{Datatype.INT, Datatype.FLOAT}).commit();
        assertTrue(fails(ErrorClass.ERR_TYPE, () -> Convertor.create(ints, 0, 1, mixed)).getMessage().contains("mixed"));
        fails(ErrorClass.ERR_TYPE, () -> Convertor.create(ints, 0, 1, Datatype.BYTE));
        fails(ErrorClass.ERR_TYPE, () -> Convertor.create(ints, 0, 2,
            Datatype.hvector(2, 1, 6, Datatype.INT).commit()));
        fails(ErrorClass.ERR_TYPE, () -> Convertor.create(BufferView.of(new double[4], "b"), 0, 1, Datatype.DOUBLE_INT));
        Convertor.create(ints, 0, 4, Datatype.INT2);
        Convertor.create(BufferView.of(new double[4], "b"), 0, 2, Datatype.DOUBLE2);
        Convertor.create(BufferView.of(new byte[4], "b"), 0, 4, Datatype.PACKED);
        Convertor.create(BufferView.of(ByteBuffer.allocate(32), "b"), 0, 1, mixed);
        Convertor.create(ints, 0, 1, Datatype.contiguous(0, Datatype.DOUBLE).commit());
    }

    @Test
    void shouldRejectTypeLargerThanBufferNamingTheValues()
    {
        final BufferView v = BufferView.of(new int[10], "send buffer");
        final MpiException ex = fails(ErrorClass.ERR_BUFFER, () -> Convertor.create(v, 2, 3, Datatype.contiguous(3,
            Datatype.INT).commit()));
        assertTrue(ex.getMessage().contains("offset=2") && ex.getMessage().contains("count=3") &&
            ex.getMessage().contains("capacity=40"), ex.getMessage());
        fails(ErrorClass.ERR_BUFFER, () -> Convertor.create(v, 0, 1, Datatype.hindexedBlock(1, new long[]{-4},
            Datatype.INT).commit()));
        Convertor.create(v, 1, 1, Datatype.hindexedBlock(1, new long[]{-4}, Datatype.INT).commit());
        Convertor.create(v, 1, 3, Datatype.contiguous(3, Datatype.INT).commit());
    }

    @Test
    void shouldRejectOverlappingReceiveTypesAndAcceptInterleavedOnes()
    {
        final BufferView v = BufferView.of(new double[64], "receive buffer");
        final Datatype overlapping = Datatype.indexed(new int[]{2, 1}, new int[]{0, 1}, Datatype.DOUBLE).commit();
        assertTrue(fails(ErrorClass.ERR_TYPE, () -> Convertor.createForReceive(v, 0, 1, overlapping)).getMessage()
            .contains("overlaps"));
        Convertor.create(v, 0, 1, overlapping);
        final Datatype zeroExtent = Datatype.resized(Datatype.DOUBLE, 0, 0).commit();
        Convertor.createForReceive(v, 0, 1, zeroExtent);
        fails(ErrorClass.ERR_TYPE, () -> Convertor.createForReceive(v, 0, 2, zeroExtent));
        final Datatype column = Datatype.resized(Datatype.vector(8, 1, 8, Datatype.DOUBLE), 0, 8).commit();
        Convertor.createForReceive(v, 0, 8, column);
        Convertor.createForReceive(v, 0, 3, column);
        final Datatype shifted = Datatype.resized(Datatype.vector(2, 1, 2, Datatype.DOUBLE), 0, 16).commit();
        fails(ErrorClass.ERR_TYPE, () -> Convertor.createForReceive(v, 0, 2, shifted));
    }

    @Test
    void shouldNotWriteOutsideFootprintWhenUnpackingPartially()
    {
        final Datatype t = Datatype.vector(3, 2, 4, Datatype.INT).commit();
        final ByteBuffer buf = ByteBuffer.allocateDirect(128).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 128; i++)
        {
            buf.put(i, (byte)0x5A);
        }
        final Convertor c = Convertor.createForReceive(BufferView.of(buf, "receive buffer"), 32, 2, t);
        final byte[] stream = new byte[(int)c.totalBytes()];
        Arrays.fill(stream, (byte)-1);
        assertEquals(7, c.unpack(stream, BYTE_BASE, 7));
        assertEquals(7, c.position());
        assertEquals(-1, buf.getInt(32));
        assertEquals(0x5A, buf.get(39));
        assertEquals((byte)0xFF, buf.get(38));
        c.seek(0);
        c.unpack(stream, BYTE_BASE, stream.length);
        for (int i = 0; i < 128; i++)
        {
            final int rel = i - 32;
            final boolean inside = rel >= 0 && rel < 2 * 40 && ((rel % 40) / 4 % 4) < 2 && (rel % 40) < 40 &&
                rel % 40 < 40 && ((rel % 40) / 16) < 3 && (rel % 40) % 16 < 8;
            assertEquals(inside ? (byte)-1 : (byte)0x5A, buf.get(i), "byte " + i);
        }
    }

    @Test
    void shouldReportLayoutStats()
    {
        final BufferView v = BufferView.of(new double[200], "b");
        final LayoutStats vec = Convertor.create(v, 0, 3, Datatype.vector(10, 2, 5, Datatype.DOUBLE).commit()).stats();
        assertEquals(30, vec.blockCount());
        assertEquals(16, vec.minRunBytes());
        assertEquals(16.0, vec.meanRunBytes());
        final LayoutStats contiguous = Convertor.create(v, 0, 3, Datatype.contiguous(20, Datatype.DOUBLE).commit()).stats();
        assertEquals(1, contiguous.blockCount());
        assertEquals(480, contiguous.minRunBytes());
        assertEquals(0, Convertor.create(v, 0, 0, Datatype.DOUBLE).stats().blockCount());
    }

    @Test
    void shouldCompileToMergedLoopsAndSequences()
    {
        assertEquals("block(@0, 80)", program(Datatype.vector(5, 2, 2, Datatype.DOUBLE)));
        assertEquals("loop(@0, 5 x stride 32, block(@0, 16))", program(Datatype.vector(5, 2, 4, Datatype.DOUBLE)));
        assertEquals("loop(@8, 3 x stride 24, block(@0, 8))",
            program(Datatype.indexed(new int[]{1, 1, 1}, new int[]{1, 4, 7}, Datatype.DOUBLE)));
        assertEquals("block(@0, 12)", program(Datatype.struct(new int[]{1, 1}, new long[]{0, 4},
            new Datatype[]{Datatype.INT, Datatype.DOUBLE})));
        assertEquals("loop(@0, 12 x stride 24, block(@0, 8))",
            program(Datatype.hvector(3, 1, 96, Datatype.vector(4, 1, 3, Datatype.DOUBLE))));
        final Datatype sub = Datatype.subarray(new int[]{4, 6, 8}, new int[]{2, 3, 8}, new int[]{1, 1, 0},
            Datatype.Order.C, Datatype.DOUBLE);
        assertEquals("loop(@448, 2 x stride 384, block(@0, 192))", program(sub));
        assertEquals(null, TypeAccess.get().program(Datatype.contiguous(0, Datatype.INT).commit(), false).root);
    }

    private static String program(final Datatype t)
    {
        return TypeAccess.get().program(t.commit(), false).toString();
    }

    @Test
    void shouldPackThroughAgronaBuffers()
    {
        final int[] data = {1, 2, 3, 4, 5, 6};
        final Convertor c = Convertor.create(BufferView.of(data, "send buffer"), 0, 3,
            Datatype.resized(Datatype.INT, 0, 8).commit());
        final UnsafeBuffer out = new UnsafeBuffer(ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder()));
        assertEquals(5, c.pack(out, 4, 5));
        assertEquals(7, c.pack(out, 9, 100));
        assertEquals(1, out.getInt(4, ByteOrder.nativeOrder()));
        assertEquals(3, out.getInt(8, ByteOrder.nativeOrder()));
        assertEquals(5, out.getInt(12, ByteOrder.nativeOrder()));
        final int[] back = new int[6];
        final Convertor d = Convertor.createForReceive(BufferView.of(back, "receive buffer"), 0, 3,
            Datatype.resized(Datatype.INT, 0, 8).commit());
        assertEquals(12, d.unpack(out, 4, 100));
        assertArrayEquals(new int[]{1, 0, 3, 0, 5, 0}, back);
    }

    @Test
    void shouldSwapBytesForNonNativeTypedBuffersSplittingElements()
    {
        final ByteBuffer bb = ByteBuffer.allocateDirect(16).order(ByteOrder.BIG_ENDIAN);
        final IntBuffer ib = bb.asIntBuffer();
        ib.put(0, 0x01020304).put(1, 0x05060708);
        final Convertor c = Convertor.create(BufferView.of(ib, "send buffer"), 0, 2, Datatype.INT);
        final byte[] out = new byte[8];
        for (int i = 0; i < 8; i += 3)
        {
            c.pack(out, BYTE_BASE + i, 3);
        }
        final ByteBuffer nat = ByteBuffer.wrap(out).order(ByteOrder.nativeOrder());
        assertEquals(0x01020304, nat.getInt(0));
        assertEquals(0x05060708, nat.getInt(4));
    }

    @Test
    void shouldSeekIntoLargeIndexedTypes()
    {
        final int blocks = 10_000;
        final int[] lengths = new int[blocks];
        final int[] displs = new int[blocks];
        for (int i = 0; i < blocks; i++)
        {
            lengths[i] = 1 + i % 3;
            displs[i] = 5 * i;
        }
        final Datatype t = Datatype.indexed(lengths, displs, Datatype.INT).commit();
        final int[] data = new int[5 * blocks];
        Arrays.setAll(data, i -> i);
        final Convertor c = Convertor.create(BufferView.of(data, "send buffer"), 0, 1, t);
        final int[] one = new int[1];
        final long intBase = org.agrona.UnsafeApi.arrayBaseOffset(int[].class);
        long position = 0;
        for (int i = 0; i < blocks; i++)
        {
            if (i == 9_999)
            {
                c.seek(position);
                c.pack(one, intBase, 4);
                assertEquals(5 * i, one[0]);
            }
            position += 4L * lengths[i];
        }
        c.seek(t.size() - 4);
        c.pack(one, intBase, 4);
        assertEquals(5 * (blocks - 1) + (blocks - 1) % 3, one[0]);
    }

    @Test
    void shouldGatherAndScatterUniformIndexedBlocks()
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        for (final int blockLength : new int[]{1, 2, 3, 5})
        {
            final int[] displs = new int[300];
            for (int i = 0; i < displs.length; i++)
            {
                displs[i] = 6 * i;
            }
            for (int i = displs.length - 1; i > 0; i--)
            {
                final int j = random.nextInt(i + 1);
                final int tmp = displs[i];
                displs[i] = displs[j];
                displs[j] = tmp;
            }
            final Datatype t = Datatype.indexedBlock(blockLength, displs, Datatype.DOUBLE).commit();
            final double[] data = new double[6000];
            Arrays.setAll(data, i -> i);
            final Convertor c = Convertor.create(BufferView.of(data, "send buffer"), 0, 1, t);
            final double[] packed = new double[(int)(t.size() / 8)];
            final long doubleBase = org.agrona.UnsafeApi.arrayBaseOffset(double[].class);
            c.pack(packed, doubleBase, t.size());
            for (int i = 0; i < displs.length; i++)
            {
                for (int j = 0; j < blockLength; j++)
                {
                    assertEquals(displs[i] + j, packed[i * blockLength + j], "block " + i + " of length " + blockLength);
                }
            }
            final double[] back = new double[6000];
            Convertor.createForReceive(BufferView.of(back, "receive buffer"), 0, 1, t).unpack(packed, doubleBase, t.size());
            for (int i = 0; i < back.length; i++)
            {
                assertEquals(i % 6 < blockLength && i < 6 * displs.length ? i : 0.0, back[i], "element " + i);
            }
        }
    }

    @Test
    void shouldUseIndexZeroOfSlicedAndReadOnlyByteBuffers()
    {
        final byte[] backing = new byte[32];
        for (int i = 0; i < backing.length; i++)
        {
            backing[i] = (byte)i;
        }
        final ByteBuffer slice = ByteBuffer.wrap(backing, 5, 20).slice().asReadOnlyBuffer();
        slice.position(3);
        final Datatype pairs = Datatype.vector(3, 2, 4, Datatype.BYTE).commit();
        final Convertor c = Convertor.create(BufferView.of(slice, "send buffer"), 1, 1, pairs);
        final byte[] out = new byte[6];
        c.pack(out, BYTE_BASE, 6);
        assertArrayEquals(new byte[]{6, 7, 10, 11, 14, 15}, out);
        assertEquals(3, slice.position());
        final ByteBuffer direct = ByteBuffer.allocateDirect(32);
        direct.put(0, backing);
        final Convertor d = Convertor.create(BufferView.of(direct.slice(5, 20).asReadOnlyBuffer(), "send buffer"), 1, 1,
            pairs);
        d.pack(out, BYTE_BASE, 6);
        assertArrayEquals(new byte[]{6, 7, 10, 11, 14, 15}, out);
    }

    @Test
    void shouldCopyEveryCountOfFixedSizeStridedBlocksOnEveryBaseKind()
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (final Datatype block : new Datatype[]{Datatype.INT, Datatype.DOUBLE, Datatype.DOUBLE2, Datatype.contiguous(3,
            Datatype.LONG), Datatype.contiguous(9, Datatype.DOUBLE)})
        {
            for (int count = 1; count <= 11; count++)
            {
                for (final int items : new int[]{1, 3})
                {
                    final Datatype t = Datatype.vector(count, 1, 3, block).commit();
                    final ConvertorRandomTest.Placement place = ConvertorRandomTest.Placement.of(t, items);
                    final byte[] image = ConvertorRandomTest.randomBytes(random, place.capacity() + 16);
                    final long[] map = org.jmpi.internal.datatype.testing.ReferencePacker.byteMap(t, items,
                        place.byteOffset() + 16, false);
                    final byte[] expected = org.jmpi.internal.datatype.testing.ReferencePacker.pack(image, map);
                    for (final boolean direct : new boolean[]{false, true})
                    {
                        final ByteBuffer buf = ConvertorRandomTest.buffer(image.length, direct, ByteOrder.nativeOrder(),
                            image);
                        final Convertor c = Convertor.create(BufferView.of(buf, "send buffer"), place.byteOffset() + 16,
                            items, t);
                        final ByteBuffer stream = direct ? ByteBuffer.allocateDirect(expected.length) :
                            ByteBuffer.allocate(expected.length);
                        final BufferView sv = BufferView.of(stream, "stream");
                        assertEquals(expected.length, c.pack(sv.base(), sv.address(), expected.length));
                        assertArrayEquals(expected, ConvertorRandomTest.image(stream), t + " x " + items);
                        final ByteBuffer back = ConvertorRandomTest.buffer(image.length, !direct, ByteOrder.nativeOrder(),
                            new byte[image.length]);
                        final Convertor d = Convertor.createForReceive(BufferView.of(back, "receive buffer"),
                            place.byteOffset() + 16, items, t);
                        d.unpack(sv.base(), sv.address(), expected.length);
                        final byte[] want = new byte[image.length];
                        org.jmpi.internal.datatype.testing.ReferencePacker.unpack(expected, map, want, 0, expected.length);
                        assertArrayEquals(want, ConvertorRandomTest.image(back), t + " x " + items);
                    }
                }
            }
        }
    }

    /**
     * Single floats at a sorted index list with neighbours stay 4-byte blocks (uniform gather), and a struct of
     * indexed blocks of two lengths becomes uniform segments; both pack, unpack and resume like the reference.
     */
    @Test
    void shouldKeepSmallIndexedBlocksUniformAndSegmentMixedOnes()
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        final int n = 400;
        final int[] list = new int[n];
        int at = 0;
        for (int i = 0; i < n; i++)
        {
            at += random.nextInt(4) == 0 ? 1 : 2 + random.nextInt(5);
            list[i] = at;
        }
        final Datatype floats = Datatype.indexedBlock(1, list, Datatype.FLOAT).commit();
        final Datatype triples = Datatype.indexedBlock(3, Arrays.stream(list).map(i -> 3 * i).toArray(), Datatype.FLOAT);
        final long scalars = 3L * 4 * (at + 1);
        final Datatype mixed = Datatype.struct(new int[] {1, 1, 1}, new long[] {0, scalars, scalars + 4L * (at + 1)},
            new Datatype[] {triples, floats, floats}).commit();
        assertEquals(n, Convertor.create(BufferView.of(new float[at + 1], "b"), 0, 1, floats).stats().blockCount(),
            "touching 4-byte blocks must stay apart");
        assertTrue(TypeAccess.get().program(mixed, false).root.kind == Op.SEQ &&
            !TypeAccess.get().program(mixed, false).root.allBlocks, "a struct of 12- and 4-byte blocks must be segmented");
        for (final Datatype t : new Datatype[] {floats, mixed})
        {
            final byte[] buffer = new byte[(int)(t.trueLb() + t.trueExtent())];
            random.nextBytes(buffer);
            final long[] map = org.jmpi.internal.datatype.testing.ReferencePacker.byteMap(t, 1, 0, false);
            final byte[] expected = org.jmpi.internal.datatype.testing.ReferencePacker.pack(buffer, map);
            final BufferView view = BufferView.of(ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder()), "b");
            for (final int fragment : new int[] {(int)t.size(), 7, 12, 36, 64, 1000})
            {
                final byte[] stream = new byte[(int)t.size()];
                final Convertor c = Convertor.create(view, 0, 1, t);
                for (int p = 0; p < stream.length; p += fragment)
                {
                    c.seek(p);
                    c.pack(stream, BYTE_BASE + p, Math.min(fragment, stream.length - p));
                }
                assertArrayEquals(expected, stream, "pack in fragments of " + fragment);
                final byte[] back = new byte[buffer.length];
                final Convertor r = Convertor.createForReceive(BufferView.of(ByteBuffer.wrap(back).order(ByteOrder.nativeOrder()), "r"), 0, 1, t);
                for (int p = stream.length; p > 0; p -= Math.min(fragment, p))
                {
                    final int from = Math.max(0, p - fragment);
                    r.seek(from);
                    r.unpack(stream, BYTE_BASE + from, p - from);
                }
                final byte[] again = org.jmpi.internal.datatype.testing.ReferencePacker.pack(back, map);
                assertArrayEquals(expected, again, "unpack in reverse fragments of " + fragment);
            }
        }
    }
}
