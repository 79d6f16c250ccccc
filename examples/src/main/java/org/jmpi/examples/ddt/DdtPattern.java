package org.jmpi.examples.ddt;

import org.jmpi.Datatype;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One DDTBench communication pattern at one size: the user buffer, the derived datatypes the original
 * application builds (send side, and receive side where it differs), and DDTBench's "manual" variant: a
 * hand-written loop that packs the same elements into a contiguous array of the buffer's element type,
 * and one that unpacks such an array into the receive region.
 * <p>
 * All of a pattern's arrays live in one Java array ({@code float[]} or {@code double[]}); where the C code
 * combines separate arrays with {@code MPI_Get_address} and {@code MPI_BOTTOM}, the struct displacements
 * here are the byte offsets of those arrays inside the one Java array (the units rule: a type on a
 * {@code double[]} is made only of DOUBLE, displacements in bytes). The manual loops produce exactly the
 * datatype's packed stream (where DDTBench's manual loop interleaves differently, e.g. LAMMPS packs atom by
 * atom, ours follows the type's order: the same work, a comparable stream).
 * <p>
 * Not thread-safe: one instance per rank or per benchmark thread. The instance owns its buffer.
 */
public abstract class DdtPattern
{
    private final String name;
    private final DdtSize size;

    protected DdtPattern(final String name, final DdtSize size)
    {
        this.name = name;
        this.size = size;
    }

    /** DDTBench's name of the pattern, e.g. {@code NAS_MG_x}. */
    public final String name()
    {
        return name;
    }

    public final DdtSize size()
    {
        return size;
    }

    /** The user buffer: a {@code float[]} or a {@code double[]}, sent from and received into. */
    public abstract Object buffer();

    /** {@link Datatype#FLOAT} or {@link Datatype#DOUBLE}: the buffer's element type. */
    public abstract Datatype element();

    /** Elements in {@link #buffer()}. */
    public abstract int bufferLength();

    /** The committed send type. */
    public abstract Datatype sendType();

    /** Offset of the send region in elements of {@link #buffer()}. */
    public long sendOffset()
    {
        return 0;
    }

    public int sendCount()
    {
        return 1;
    }

    /** The committed receive type; the send type unless the application uses a different one. */
    public Datatype recvType()
    {
        return sendType();
    }

    /** Offset of the receive region in elements of {@link #buffer()}. */
    public long recvOffset()
    {
        return sendOffset();
    }

    public int recvCount()
    {
        return sendCount();
    }

    /** Bytes in one message. */
    public final long bytes()
    {
        return sendType().size() * sendCount();
    }

    /** A new contiguous array of the buffer's element type that holds one packed message. */
    public abstract Object newPackBuffer();

    /** The manual variant: packs the send region into {@code packed} (from {@link #newPackBuffer()}). */
    public abstract void packManual(Object packed);

    /** The manual variant: unpacks {@code packed} into the receive region. */
    public abstract void unpackManual(Object packed);

    /** Sets element {@code i} of the buffer to {@code base + i}, so that every element is distinct. */
    public abstract void fill(long base);

    /** A copy of the buffer's bytes in native order. */
    public final byte[] bufferBytes()
    {
        return toBytes(buffer());
    }

    /** The bytes of a {@code float[]} or {@code double[]} in native order. */
    public static byte[] toBytes(final Object array)
    {
        if (array instanceof double[] d)
        {
            final ByteBuffer b = ByteBuffer.allocate(d.length * Double.BYTES).order(ByteOrder.nativeOrder());
            b.asDoubleBuffer().put(d);
            return b.array();
        }
        final float[] f = (float[])array;
        final ByteBuffer b = ByteBuffer.allocate(f.length * Float.BYTES).order(ByteOrder.nativeOrder());
        b.asFloatBuffer().put(f);
        return b.array();
    }

    @Override
    public String toString()
    {
        return name + "/" + size + " (" + bytes() + " bytes)";
    }

    /** A pattern over a {@code float[]}. */
    abstract static class OfFloat extends DdtPattern
    {
        final float[] a;

        OfFloat(final String name, final DdtSize size, final int length)
        {
            super(name, size);
            a = new float[length];
        }

        @Override
        public final Object buffer()
        {
            return a;
        }

        @Override
        public final Datatype element()
        {
            return Datatype.FLOAT;
        }

        @Override
        public final int bufferLength()
        {
            return a.length;
        }

        @Override
        public final Object newPackBuffer()
        {
            return new float[(int)(bytes() / Float.BYTES)];
        }

        @Override
        public final void packManual(final Object packed)
        {
            pack((float[])packed);
        }

        @Override
        public final void unpackManual(final Object packed)
        {
            unpack((float[])packed);
        }

        @Override
        public final void fill(final long base)
        {
            for (int i = 0; i < a.length; i++)
            {
                a[i] = (float)(base + i);
            }
        }

        abstract void pack(float[] out);

        abstract void unpack(float[] in);
    }

    /** A pattern over a {@code double[]}. */
    abstract static class OfDouble extends DdtPattern
    {
        final double[] a;

        OfDouble(final String name, final DdtSize size, final int length)
        {
            super(name, size);
            a = new double[length];
        }

        @Override
        public final Object buffer()
        {
            return a;
        }

        @Override
        public final Datatype element()
        {
            return Datatype.DOUBLE;
        }

        @Override
        public final int bufferLength()
        {
            return a.length;
        }

        @Override
        public final Object newPackBuffer()
        {
            return new double[(int)(bytes() / Double.BYTES)];
        }

        @Override
        public final void packManual(final Object packed)
        {
            pack((double[])packed);
        }

        @Override
        public final void unpackManual(final Object packed)
        {
            unpack((double[])packed);
        }

        @Override
        public final void fill(final long base)
        {
            for (int i = 0; i < a.length; i++)
            {
                a[i] = base + i;
            }
        }

        abstract void pack(double[] out);

        abstract void unpack(double[] in);
    }
}
