package org.jmpi.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.testing.ReferencePacker;
import org.jmpi.internal.datatype.testing.TypeGenerator;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TypeWireFormTest
{
    private static UnsafeBuffer encode(final Datatype type)
    {
        final int length = TypeWireForm.encodedLength(type);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length + 16]);
        assertEquals(length, TypeWireForm.encode(type, buffer, 16), "bytes written");
        return buffer;
    }

    @Test
    void shouldRebuildTheSameTypeMapWhenRoundTrippingRandomTypes()
    {
        final long seed = System.nanoTime();
        final TypeGenerator generator = TypeGenerator.mixed(seed);
        for (int i = 0; i < 500; i++)
        {
            final Datatype type = generator.next();
            final UnsafeBuffer buffer = encode(type);
            final Datatype back = TypeWireForm.decode(buffer, 16, TypeWireForm.encodedLength(type));
            final String what = "seed " + seed + ", type " + i + ": " + type;
            assertTrue(back.isCommitted(), what);
            assertEquals(type.size(), back.size(), what);
            assertEquals(type.lb(), back.lb(), what);
            assertEquals(type.extent(), back.extent(), what);
            final ReferencePacker.Typemap expected = ReferencePacker.typemap(type);
            final ReferencePacker.Typemap actual = ReferencePacker.typemap(back);
            assertArrayEquals(expected.displacements(), actual.displacements(), what);
            assertArrayEquals(expected.basics(), actual.basics(), what);
        }
    }

    @Test
    void shouldRefuseADarrayOfMoreCyclicBlocksThanTheBoundAndSayItIsNotDecodable()
    {
        final int n = (int)(2 * TypeWireForm.MAX_DARRAY_BLOCKS + 2);
        final Datatype big = Datatype.darray(2, 0, new int[] {n}, new Datatype.Distribution[] {Datatype.Distribution.CYCLIC},
            new int[] {1}, new int[] {2}, Datatype.Order.C, Datatype.INT).commit();
        final Datatype small = Datatype.darray(2, 0, new int[] {64}, new Datatype.Distribution[] {Datatype.Distribution.CYCLIC},
            new int[] {1}, new int[] {2}, Datatype.Order.C, Datatype.INT).commit();
        assertFalse(TypeWireForm.decodable(big));
        assertFalse(TypeWireForm.decodable(Datatype.contiguous(2, big).commit()), "found inside another type");
        assertTrue(TypeWireForm.decodable(small));
        final byte[] form = new byte[TypeWireForm.encodedLength(big)];
        TypeWireForm.encode(big, new UnsafeBuffer(form), 0);
        final MpiException ex = assertThrows(MpiException.class, () -> TypeWireForm.decode(new UnsafeBuffer(form), 0, form.length));
        assertEquals(ErrorClass.ERR_TYPE, ex.errorClass());
    }

    @Test
    void shouldReturnThePredefinedTypeItselfWhenNamed()
    {
        for (final Datatype t : TypeWireForm.PREDEFINED)
        {
            assertSame(t, TypeWireForm.decode(encode(t), 16, 2));
        }
    }

    @Test
    void shouldRaiseErrTypeWhenBytesAreTruncatedOrTrailing()
    {
        final Datatype type = Datatype.vector(3, 2, 5, Datatype.DOUBLE).commit();
        final int length = TypeWireForm.encodedLength(type);
        final UnsafeBuffer buffer = encode(type);
        for (int cut = 0; cut < length; cut++)
        {
            final int n = cut;
            assertEquals(ErrorClass.ERR_TYPE,
                assertThrows(MpiException.class, () -> TypeWireForm.decode(buffer, 16, n)).errorClass());
        }
        final UnsafeBuffer longer = new UnsafeBuffer(new byte[length + 17]);
        TypeWireForm.encode(type, longer, 16);
        assertEquals(ErrorClass.ERR_TYPE,
            assertThrows(MpiException.class, () -> TypeWireForm.decode(longer, 16, length + 1)).errorClass());
    }

    @Test
    void shouldRaiseOnlyErrTypeWhenBytesAreRandom()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        final TypeGenerator generator = TypeGenerator.mixed(seed);
        for (int i = 0; i < 2000; i++)
        {
            final Datatype type = generator.next();
            final UnsafeBuffer buffer = encode(type);
            final int length = TypeWireForm.encodedLength(type);
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--)
            {
                buffer.putByte(16 + random.nextInt(length), (byte)random.nextInt(256));
            }
            try
            {
                TypeWireForm.decode(buffer, 16, length);
            }
            catch (final MpiException ex)
            {
                assertEquals(ErrorClass.ERR_TYPE, ex.errorClass(), "seed " + seed + ": " + ex.getMessage());
            }
        }
    }
}
