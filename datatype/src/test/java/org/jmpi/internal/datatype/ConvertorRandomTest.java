package org.jmpi.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;

import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.testing.ReferencePacker;
import org.jmpi.internal.datatype.testing.TypeGenerator;
import org.junit.jupiter.api.Test;

/**
 * Generated types on ByteBuffers of every kind, each path against the naive reference packer: whole,
 * every fragment size, fragments in reverse and random order, unpack in random fragments, type-to-type
 * copy over random split points, external32. Seeds come from {@code -Djmpi.test.seed} or the clock
 * and are printed on failure.
 */
class ConvertorRandomTest
{
    static final long BASE_SEED = Long.getLong("jmpi.test.seed", System.nanoTime());
    static final long BYTE_BASE = UnsafeApi.arrayBaseOffset(byte[].class);
    static final int TYPES = Integer.getInteger("jmpi.test.types", 3000);
    static final int GUARD = 16;

    @Test
    void shouldMatchReferenceWhenPackingUnpackingAndCopyingGeneratedTypesOnByteBuffers()
    {
        for (int i = 0; i < TYPES; i++)
        {
            final long seed = BASE_SEED + i;
            Datatype type = null;
            try
            {
                final TypeGenerator generator = TypeGenerator.mixed(seed);
                type = generator.next();
                checkType(type, generator.random());
            }
            catch (final Throwable t)
            {
                throw new AssertionError("failed with seed=" + seed + " (rerun with -Djmpi.test.seed=" + seed +
                    " -Djmpi.test.types=1) type=" + type + " contents=" + (type == null ? null : type.contents()), t);
            }
        }
    }

    /** A buffer image laid out for a type: where the data goes, and how big the whole buffer is. */
    record Placement(long byteOffset, int capacity)
    {
        static Placement of(final Datatype type, final long count)
        {
            long lo = 0;
            long hi = 0;
            if (count > 0 && type.size() > 0)
            {
                final long span = (count - 1) * type.extent();
                lo = type.trueLb() + Math.min(0, span);
                hi = type.trueUb() + Math.max(0, span);
            }
            final long offset = Math.max(0, GUARD - lo);
            return new Placement(offset, (int)(offset + Math.max(0, hi) + GUARD));
        }
    }

    static ByteBuffer buffer(final int capacity, final boolean direct, final ByteOrder order, final byte[] image)
    {
        final ByteBuffer b = (direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity)).order(order);
        b.put(0, image);
        return b;
    }

    static byte[] image(final ByteBuffer b)
    {
        final byte[] out = new byte[b.capacity()];
        b.get(0, out);
        return out;
    }

    static byte[] randomBytes(final SplittableRandom random, final int n)
    {
        final byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
        {
            b[i] = (byte)random.nextInt(256);
        }
        return b;
    }

    static ByteOrder opposite(final ByteOrder o)
    {
        return o == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    }

    private static void checkType(final Datatype type, final SplittableRandom random)
    {
        final long count = random.nextInt(4);
        final Placement place = Placement.of(type, count);
        final boolean direct = random.nextBoolean();
        final ByteOrder order = random.nextBoolean() ? ByteOrder.nativeOrder() : opposite(ByteOrder.nativeOrder());
        final byte[] initial = randomBytes(random, place.capacity());
        final ByteBuffer buf = buffer(place.capacity(), direct, order, initial);
        final boolean swap = order != ByteOrder.nativeOrder();
        final long[] map = ReferencePacker.byteMap(type, count, place.byteOffset(), swap);
        final byte[] expected = ReferencePacker.pack(initial, map);

        final Convertor c = Convertor.create(BufferView.of(buf, "send buffer"), place.byteOffset(), count, type);
        assertEquals(expected.length, c.totalBytes(), "totalBytes");
        assertEquals(type.size() * count, c.totalBytes());

        final int total = expected.length;
        final byte[] out = new byte[total];
        assertEquals(total, c.pack(out, BYTE_BASE, total + 5));
        assertArrayEquals(expected, out, "whole");
        assertEquals(0, c.pack(out, BYTE_BASE, 10));

        final int maxFragment = Math.min(total, total > 600 ? 24 : 64);
        for (int f = 1; f <= maxFragment; f++)
        {
            packInOrder(c, f, expected);
        }
        if (total > 0)
        {
            packInOrder(c, 1 + random.nextInt(total), expected);
            packReverse(c, 1 + random.nextInt(Math.min(total, 40)), expected);
            packRandomOrder(c, random, expected);
        }
        checkUnpack(type, count, place, map, random);
        checkCopy(type, count, place, random, initial, map, order, direct);
        checkExternal32(type, count, place, buf, initial);
        assertEquals(initial.length, image(buf).length);
        assertArrayEquals(initial, image(buf), "pack must not modify the send buffer");
    }

    private static void packInOrder(final Convertor c, final int fragment, final byte[] expected)
    {
        c.seek(0);
        final byte[] out = new byte[expected.length];
        int p = 0;
        while (p < expected.length)
        {
            final long n = c.pack(out, BYTE_BASE + p, fragment);
            assertEquals(Math.min(fragment, expected.length - p), n);
            p += (int)n;
            assertEquals(p, c.position());
        }
        assertArrayEquals(expected, out, "fragment size " + fragment);
    }

    private static void packReverse(final Convertor c, final int fragment, final byte[] expected)
    {
        final byte[] out = new byte[expected.length];
        for (int p = (expected.length - 1) / fragment * fragment; p >= 0; p -= fragment)
        {
            c.seek(p);
            c.pack(out, BYTE_BASE + p, fragment);
        }
        assertArrayEquals(expected, out, "reverse fragments of " + fragment);
    }

    private static List<long[]> randomCuts(final SplittableRandom random, final int total)
    {
        final List<long[]> pieces = new ArrayList<>();
        int p = 0;
        while (p < total)
        {
            final int n = 1 + random.nextInt(Math.max(1, Math.min(total - p, random.nextBoolean() ? 7 : 200)));
            pieces.add(new long[]{p, Math.min(total, p + n)});
            p += n;
        }
        Collections.shuffle(pieces, new Random(random.nextLong()));
        return pieces;
    }

    private static void packRandomOrder(final Convertor c, final SplittableRandom random, final byte[] expected)
    {
        final byte[] out = new byte[expected.length];
        for (final long[] piece : randomCuts(random, expected.length))
        {
            c.seek(piece[0]);
            assertEquals(piece[1] - piece[0], c.pack(out, BYTE_BASE + piece[0], piece[1] - piece[0]));
        }
        assertArrayEquals(expected, out, "random order");
    }

    static boolean hasDuplicates(final long[] map)
    {
        final Set<Long> seen = new HashSet<>();
        for (final long m : map)
        {
            if (!seen.add(m))
            {
                return true;
            }
        }
        return false;
    }

    private static void checkUnpack(final Datatype type, final long count, final Placement place, final long[] map,
        final SplittableRandom random)
    {
        final boolean direct = random.nextBoolean();
        final ByteOrder order = random.nextBoolean() ? ByteOrder.nativeOrder() : opposite(ByteOrder.nativeOrder());
        final long[] recvMap = ReferencePacker.byteMap(type, count, place.byteOffset(), order != ByteOrder.nativeOrder());
        final byte[] initial = randomBytes(random, place.capacity());
        final ByteBuffer buf = buffer(place.capacity(), direct, order, initial);
        final Convertor c;
        try
        {
            c = Convertor.createForReceive(BufferView.of(buf, "receive buffer"), place.byteOffset(), count, type);
        }
        catch (final MpiException ex)
        {
            assertEquals(ErrorClass.ERR_TYPE, ex.errorClass(), ex.getMessage());
            assertTrue(hasDuplicates(map), "overlap reported for a type without overlap: " + ex.getMessage());
            return;
        }
        assertTrue(!hasDuplicates(map), "overlapping receive type accepted");
        final byte[] stream = randomBytes(random, recvMap.length);
        for (final long[] piece : randomCuts(random, stream.length))
        {
            c.seek(piece[0]);
            assertEquals(piece[1] - piece[0], c.unpack(stream, BYTE_BASE + piece[0], piece[1] - piece[0]));
        }
        final byte[] expected = initial.clone();
        ReferencePacker.unpack(stream, recvMap, expected, 0, stream.length);
        assertArrayEquals(expected, image(buf), "unpack in random fragments (guards and holes untouched)");
    }

    private static void checkCopy(final Datatype type, final long count, final Placement place,
        final SplittableRandom random, final byte[] srcImage, final long[] srcMap, final ByteOrder srcOrder,
        final boolean srcDirect)
    {
        final TypeGenerator other = TypeGenerator.mixed(random.nextLong());
        Datatype dstType = other.next();
        long dstCount = dstType.size() == 0 ? 0 : (type.size() * count + dstType.size() - 1) / dstType.size();
        if (dstType.size() * dstCount > 4 * 4096 || random.nextInt(3) == 0)
        {
            dstType = type;
            dstCount = count;
        }
        final Placement dstPlace = Placement.of(dstType, dstCount);
        final boolean direct = random.nextBoolean();
        final ByteOrder order = random.nextBoolean() ? ByteOrder.nativeOrder() : opposite(ByteOrder.nativeOrder());
        final long[] dstMap = ReferencePacker.byteMap(dstType, dstCount, dstPlace.byteOffset(), order != ByteOrder.nativeOrder());
        if (hasDuplicates(dstMap))
        {
            return;
        }
        final byte[] initial = randomBytes(random, dstPlace.capacity());
        final ByteBuffer dst = buffer(dstPlace.capacity(), direct, order, initial);
        final ByteBuffer src = buffer(srcImage.length, srcDirect, srcOrder, srcImage);
        final Convertor s = Convertor.create(BufferView.of(src, "send buffer"), place.byteOffset(), count, type);
        final Convertor d = Convertor.createForReceive(BufferView.of(dst, "receive buffer"), dstPlace.byteOffset(), dstCount,
            dstType);
        final int length = (int)Math.min(s.totalBytes(), d.totalBytes());
        final byte[] stream = ReferencePacker.pack(srcImage, srcMap);
        final byte[] expected = initial.clone();
        for (final long[] piece : randomCuts(random, length))
        {
            Convertor.copy(s, d, piece[0], piece[1]);
            assertEquals(piece[1], s.position());
            assertEquals(piece[1], d.position());
            ReferencePacker.unpack(stream, dstMap, expected, (int)piece[0], (int)piece[1]);
        }
        assertArrayEquals(expected, image(dst), "type-to-type copy to " + dstType + " x " + dstCount);
    }

    private static void checkExternal32(final Datatype type, final long count, final Placement place, final ByteBuffer buf,
        final byte[] initial)
    {
        final boolean swap = (buf.order() != ByteOrder.nativeOrder()) ^ (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN);
        final byte[] expected = ReferencePacker.pack(initial, ReferencePacker.byteMap(type, count, place.byteOffset(), swap));
        final byte[] out = new byte[expected.length + 3];
        final long end = type.packExternal32(buf, place.byteOffset(), count, out, 3);
        assertEquals(3 + expected.length, end);
        final byte[] got = java.util.Arrays.copyOfRange(out, 3, out.length);
        if (!java.util.Arrays.equals(expected, got))
        {
            fail("external32 differs");
        }
    }
}
