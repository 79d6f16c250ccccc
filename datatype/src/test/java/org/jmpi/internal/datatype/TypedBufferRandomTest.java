package org.jmpi.internal.datatype;

import static org.jmpi.internal.datatype.ConvertorRandomTest.BYTE_BASE;
import static org.jmpi.internal.datatype.ConvertorRandomTest.hasDuplicates;
import static org.jmpi.internal.datatype.ConvertorRandomTest.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.internal.datatype.testing.ReferencePacker;
import org.jmpi.internal.datatype.testing.TypeGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Generated homogeneous types over every array kind and typed nio buffer kind (array-backed, direct in
 * either byte order, heap views reached element by element, read-only): pack in fragments that split
 * elements, unpack, and copy between kinds, against the reference packer. Seeds printed on failure.
 */
class TypedBufferRandomTest
{
    private static final int TYPES_PER_KIND = Integer.getInteger("jmpi.test.typedTypes", 120);

    enum Element
    {
        BYTE(Datatype.BYTE, byte[].class, null),
        BOOLEAN(Datatype.BOOLEAN, boolean[].class, null),
        CHAR(Datatype.CHAR, char[].class, ByteBuffer::asCharBuffer),
        SHORT(Datatype.SHORT, short[].class, ByteBuffer::asShortBuffer),
        INT(Datatype.INT, int[].class, ByteBuffer::asIntBuffer),
        INT2(Datatype.INT2, int[].class, ByteBuffer::asIntBuffer),
        LONG(Datatype.LONG, long[].class, ByteBuffer::asLongBuffer),
        LONG2(Datatype.LONG2, long[].class, ByteBuffer::asLongBuffer),
        FLOAT(Datatype.FLOAT, float[].class, ByteBuffer::asFloatBuffer),
        FLOAT2(Datatype.FLOAT2, float[].class, ByteBuffer::asFloatBuffer),
        DOUBLE(Datatype.DOUBLE, double[].class, ByteBuffer::asDoubleBuffer),
        DOUBLE2(Datatype.DOUBLE2, double[].class, ByteBuffer::asDoubleBuffer);

        final Datatype basic;
        final Class<?> arrayClass;
        final Function<ByteBuffer, Buffer> view;

        Element(final Datatype basic, final Class<?> arrayClass, final Function<ByteBuffer, Buffer> view)
        {
            this.basic = basic;
            this.arrayClass = arrayClass;
            this.view = view;
        }

        int elementSize()
        {
            return arrayClass == byte[].class || arrayClass == boolean[].class ? 1 :
                arrayClass == char[].class || arrayClass == short[].class ? 2 :
                arrayClass == int[].class || arrayClass == float[].class ? 4 : 8;
        }
    }

    /** A buffer of some kind holding a byte image; reads its memory back as bytes. */
    record Made(Object buffer, boolean swap, boolean writable, java.util.function.Supplier<byte[]> image)
    {
    }

    private static List<Function<byte[], Made>> kinds(final Element e)
    {
        final List<Function<byte[], Made>> kinds = new ArrayList<>();
        kinds.add(img ->
        {
            final Object array = java.lang.reflect.Array.newInstance(e.arrayClass.getComponentType(), img.length / e.elementSize());
            final long base = UnsafeApi.arrayBaseOffset(e.arrayClass);
            UnsafeApi.copyMemory(img, BYTE_BASE, array, base, img.length);
            return new Made(array, false, true, () ->
            {
                final byte[] out = new byte[img.length];
                UnsafeApi.copyMemory(array, base, out, BYTE_BASE, img.length);
                return out;
            });
        });
        if (e.view == null)
        {
            return kinds;
        }
        final ByteOrder nat = ByteOrder.nativeOrder();
        final ByteOrder other = ConvertorRandomTest.opposite(nat);
        for (final boolean direct : new boolean[]{true, false})
        {
            for (final ByteOrder order : new ByteOrder[]{nat, other})
            {
                kinds.add(img ->
                {
                    final ByteBuffer bb = ConvertorRandomTest.buffer(img.length, direct, order, img);
                    return new Made(e.view.apply(bb), order != nat, true, () -> ConvertorRandomTest.image(bb));
                });
            }
        }
        kinds.add(img ->
        {
            final ByteBuffer bb = ConvertorRandomTest.buffer(img.length, false, nat, img);
            return new Made(e.view.apply(bb.asReadOnlyBuffer().order(nat)), false, false, () -> ConvertorRandomTest.image(bb));
        });
        kinds.add(img ->
        {
            final Made array = kinds.get(0).apply(img);
            final Buffer wrapped = switch (array.buffer())
            {
                case char[] a -> java.nio.CharBuffer.wrap(a);
                case short[] a -> java.nio.ShortBuffer.wrap(a);
                case int[] a -> java.nio.IntBuffer.wrap(a);
                case long[] a -> java.nio.LongBuffer.wrap(a);
                case float[] a -> java.nio.FloatBuffer.wrap(a);
                case double[] a -> java.nio.DoubleBuffer.wrap(a);
                default -> throw new IllegalStateException();
            };
            return new Made(wrapped, false, true, array.image());
        });
        return kinds;
    }

    @ParameterizedTest
    @EnumSource(Element.class)
    void shouldMatchReferenceWhenGeneratedTypesRunOverArraysAndTypedBuffers(final Element element)
    {
        final List<Function<byte[], Made>> kinds = kinds(element);
        for (int i = 0; i < TYPES_PER_KIND; i++)
        {
            final long seed = ConvertorRandomTest.BASE_SEED + 7919L * i + element.ordinal();
            Datatype type = null;
            try
            {
                final TypeGenerator g = TypeGenerator.homogeneous(seed, element.basic, element.elementSize());
                type = g.next();
                check(element, type, g.random(), kinds);
            }
            catch (final Throwable t)
            {
                throw new AssertionError("failed with seed=" + seed + " element=" + element + " type=" + type + " contents=" +
                    (type == null ? null : type.contents()), t);
            }
        }
    }

    private static void check(final Element element, final Datatype type, final SplittableRandom random,
        final List<Function<byte[], Made>> kinds)
    {
        final int e = element.elementSize();
        final long count = random.nextInt(4);
        final ConvertorRandomTest.Placement p = ConvertorRandomTest.Placement.of(type, count);
        final long byteOffset = (p.byteOffset() + e - 1) / e * e;
        final int capacity = (int)((p.capacity() + (byteOffset - p.byteOffset()) + e - 1) / e * e);
        final byte[] initial = randomBytes(random, capacity);
        final Made src = kinds.get(random.nextInt(kinds.size())).apply(initial);
        final long[] map = ReferencePacker.byteMap(type, count, byteOffset, src.swap());
        final byte[] expected = ReferencePacker.pack(initial, map);

        final Convertor c = Convertor.create(BufferView.of(src.buffer(), "send buffer"), byteOffset / e, count, type);
        for (final int fragment : new int[]{expected.length + 1, 1, 3, 5, 7, 1 + random.nextInt(64)})
        {
            c.seek(0);
            final byte[] out = new byte[expected.length];
            int at = 0;
            while (at < out.length)
            {
                at += (int)c.pack(out, BYTE_BASE + at, fragment);
            }
            assertArrayEquals(expected, out, "fragment " + fragment + " on " + src.buffer().getClass().getSimpleName());
        }
        assertArrayEquals(initial, src.image().get(), "pack changed the buffer");

        Made dst = kinds.get(random.nextInt(kinds.size())).apply(randomBytes(random, capacity));
        while (!dst.writable())
        {
            dst = kinds.get(random.nextInt(kinds.size())).apply(randomBytes(random, capacity));
        }
        final long[] dstMap = ReferencePacker.byteMap(type, count, byteOffset, dst.swap());
        if (hasDuplicates(dstMap))
        {
            return;
        }
        final byte[] dstExpected = dst.image().get();
        ReferencePacker.unpack(expected, dstMap, dstExpected, 0, expected.length);
        final Convertor d = Convertor.createForReceive(BufferView.of(dst.buffer(), "receive buffer"), byteOffset / e, count,
            type);
        if (random.nextBoolean())
        {
            final long cut = expected.length == 0 ? 0 : random.nextInt(expected.length + 1);
            Convertor.copy(c, d, cut, expected.length);
            Convertor.copy(c, d, 0, cut);
        }
        else
        {
            int at = 0;
            final int fragment = 1 + random.nextInt(9);
            while (at < expected.length)
            {
                at += (int)d.unpack(expected, BYTE_BASE + at, fragment);
            }
        }
        assertArrayEquals(dstExpected, dst.image().get(), "unpack/copy into " + dst.buffer().getClass().getSimpleName());
    }
}
