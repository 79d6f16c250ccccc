package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A typed struct laid out in a {@code ByteBuffer} (Open MPI Java API). A subclass adds its fields in its
 * constructor ({@link #addInt()}... each returns the field's byte offset) and implements {@link #newData()};
 * {@link #getType()} is the struct's datatype (made and committed on first use, after which no field may be
 * added), and {@link #getData(ByteBuffer, int)} gives a {@link Data} accessor over element {@code index} of
 * an array of such structs in a buffer. Fields are packed in the order added (use {@link #setOffset} to
 * align); the extent is padded as C pads a struct (the largest member's alignment).
 */
public abstract class Struct
{
    private final List<Field> fields = new ArrayList<>();
    private int extent;
    private Datatype datatype;

    private record Field(Object type, int offset, int length)
    {
    }

    /** A struct with no fields yet. */
    protected Struct()
    {
    }

    /** The predefined type of a pair struct ({@link Int2}...), else {@code null}: then the fields make the type. */
    Datatype predefinedType()
    {
        return null;
    }

    private synchronized void commit() throws MPIException
    {
        if (datatype != null)
        {
            return;
        }
        final Datatype predefined = predefinedType();
        if (predefined != null)
        {
            datatype = predefined;
            extent = predefined.getExtent();
            return;
        }
        final int n = fields.size();
        final Datatype[] types = new Datatype[n];
        final int[] offsets = new int[n];
        final int[] lengths = new int[n];
        for (int i = 0; i < n; i++)
        {
            final Field f = fields.get(i);
            types[i] = f.type() instanceof Struct s ? s.getType() : (Datatype)f.type();
            offsets[i] = f.offset();
            lengths[i] = f.length();
        }
        final Datatype t = Datatype.createStruct(lengths, offsets, types);
        t.commit();
        extent = t.getExtent();
        datatype = t;
    }

    /** The struct's extent in bytes. */
    public final int getExtent() throws MPIException
    {
        commit();
        return extent;
    }

    /** The struct's datatype (committed). */
    public final Datatype getType() throws MPIException
    {
        commit();
        return datatype;
    }

    /** A new, unattached accessor of this struct's kind. */
    protected abstract Data newData();

    @SuppressWarnings("unchecked")
    private <T extends Data> T newData(final ByteBuffer buffer, final int offset)
    {
        final Data d = newData();
        d.buffer = buffer;
        d.offset = offset;
        return (T)d;
    }

    /** An accessor over the struct at the start of {@code buffer}. */
    public final <T extends Data> T getData(final ByteBuffer buffer) throws MPIException
    {
        commit();
        return newData(buffer, 0);
    }

    /** An accessor over element {@code index} of an array of structs in {@code buffer}. */
    public final <T extends Data> T getData(final ByteBuffer buffer, final int index) throws MPIException
    {
        commit();
        return newData(buffer, Math.multiplyExact(index, extent));
    }

    /** An accessor over the struct at the start of {@code array} (native byte order). */
    public final <T extends Data> T getData(final byte[] array) throws MPIException
    {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()));
    }

    /** An accessor over element {@code index} of an array of structs in {@code array} (native byte order). */
    public final <T extends Data> T getData(final byte[] array, final int index) throws MPIException
    {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    private synchronized int addField(final Object type, final int typeExtent, final int length)
    {
        if (datatype != null)
        {
            throw new IllegalStateException("the struct's datatype was already made: add every field first");
        }
        if (length < 0)
        {
            throw new IllegalArgumentException("field length " + length + " is negative");
        }
        final int offset = extent;
        extent = Math.addExact(extent, Math.multiplyExact(typeExtent, length));
        fields.add(new Field(type, offset, length));
        return offset;
    }

    /** Moves the next field to byte {@code offset} (not before the fields added so far). */
    public final Struct setOffset(final int offset)
    {
        if (datatype != null)
        {
            throw new IllegalStateException("the struct's datatype was already made");
        }
        if (offset < extent)
        {
            throw new IllegalArgumentException("offset " + offset + " is before the end of the fields added so far (" + extent + ")");
        }
        extent = offset;
        return this;
    }

    /** A byte field; its offset. */
    public final int addByte()
    {
        return addByte(1);
    }

    /** A byte array field; its offset. */
    public final int addByte(final int length)
    {
        return addField(MPI.BYTE, 1, length);
    }

    /** A char field; its offset. */
    public final int addChar()
    {
        return addChar(1);
    }

    /** A char array field; its offset. */
    public final int addChar(final int length)
    {
        return addField(MPI.CHAR, 2, length);
    }

    /** A short field; its offset. */
    public final int addShort()
    {
        return addShort(1);
    }

    /** A short array field; its offset. */
    public final int addShort(final int length)
    {
        return addField(MPI.SHORT, 2, length);
    }

    /** An int field; its offset. */
    public final int addInt()
    {
        return addInt(1);
    }

    /** An int array field; its offset. */
    public final int addInt(final int length)
    {
        return addField(MPI.INT, 4, length);
    }

    /** A long field; its offset. */
    public final int addLong()
    {
        return addLong(1);
    }

    /** A long array field; its offset. */
    public final int addLong(final int length)
    {
        return addField(MPI.LONG, 8, length);
    }

    /** A float field; its offset. */
    public final int addFloat()
    {
        return addFloat(1);
    }

    /** A float array field; its offset. */
    public final int addFloat(final int length)
    {
        return addField(MPI.FLOAT, 4, length);
    }

    /** A double field; its offset. */
    public final int addDouble()
    {
        return addDouble(1);
    }

    /** A double array field; its offset. */
    public final int addDouble(final int length)
    {
        return addField(MPI.DOUBLE, 8, length);
    }

    /** A boolean field (one byte); its offset. */
    public final int addBoolean()
    {
        return addBoolean(1);
    }

    /** A boolean array field (one byte each); its offset. */
    public final int addBoolean(final int length)
    {
        return addField(MPI.BOOLEAN, 1, length);
    }

    /** A nested struct field; its offset. */
    public final int addStruct(final Struct struct) throws MPIException
    {
        return addStruct(struct, 1);
    }

    /** An array of nested structs; its offset. */
    public final int addStruct(final Struct struct, final int length) throws MPIException
    {
        return addField(struct, struct.getExtent(), length);
    }

    /** A field of any datatype; its offset. */
    public final int addData(final Datatype type) throws MPIException
    {
        return addData(type, 1);
    }

    /** An array field of any datatype; its offset. */
    public final int addData(final Datatype type, final int length) throws MPIException
    {
        return addField(type, type.getExtent() * type.baseSize, length);
    }

    /** Reads and writes one struct in a buffer: subclasses expose typed getters and setters over the protected accessors. */
    public abstract class Data
    {
        private ByteBuffer buffer;
        private int offset;

        /** The buffer from this struct on (for send and recv). */
        public final ByteBuffer getBuffer()
        {
            return offset == 0 ? buffer : MPI.slice(buffer, offset);
        }

        /** The byte at {@code field}. */
        protected final byte getByte(final int field)
        {
            return buffer.get(offset + field);
        }

        /** Element {@code index} of the byte array at {@code field}. */
        protected final byte getByte(final int field, final int index)
        {
            return buffer.get(offset + field + index);
        }

        /** Sets the byte at {@code field}. */
        protected final void putByte(final int field, final byte v)
        {
            buffer.put(offset + field, v);
        }

        /** Sets element {@code index} of the byte array at {@code field}. */
        protected final void putByte(final int field, final int index, final byte v)
        {
            buffer.put(offset + field + index, v);
        }

        /** The char at {@code field}. */
        protected final char getChar(final int field)
        {
            return buffer.getChar(offset + field);
        }

        /** Element {@code index} of the char array at {@code field}. */
        protected final char getChar(final int field, final int index)
        {
            return buffer.getChar(offset + field + index * 2);
        }

        /** Sets the char at {@code field}. */
        protected final void putChar(final int field, final char v)
        {
            buffer.putChar(offset + field, v);
        }

        /** Sets element {@code index} of the char array at {@code field}. */
        protected final void putChar(final int field, final int index, final char v)
        {
            buffer.putChar(offset + field + index * 2, v);
        }

        /** The short at {@code field}. */
        protected final short getShort(final int field)
        {
            return buffer.getShort(offset + field);
        }

        /** Element {@code index} of the short array at {@code field}. */
        protected final short getShort(final int field, final int index)
        {
            return buffer.getShort(offset + field + index * 2);
        }

        /** Sets the short at {@code field}. */
        protected final void putShort(final int field, final short v)
        {
            buffer.putShort(offset + field, v);
        }

        /** Sets element {@code index} of the short array at {@code field}. */
        protected final void putShort(final int field, final int index, final short v)
        {
            buffer.putShort(offset + field + index * 2, v);
        }

        /** The int at {@code field}. */
        protected final int getInt(final int field)
        {
            return buffer.getInt(offset + field);
        }

        /** Element {@code index} of the int array at {@code field}. */
        protected final int getInt(final int field, final int index)
        {
            return buffer.getInt(offset + field + index * 4);
        }

        /** Sets the int at {@code field}. */
        protected final void putInt(final int field, final int v)
        {
            buffer.putInt(offset + field, v);
        }

        /** Sets element {@code index} of the int array at {@code field}. */
        protected final void putInt(final int field, final int index, final int v)
        {
            buffer.putInt(offset + field + index * 4, v);
        }

        /** The long at {@code field}. */
        protected final long getLong(final int field)
        {
            return buffer.getLong(offset + field);
        }

        /** Element {@code index} of the long array at {@code field}. */
        protected final long getLong(final int field, final int index)
        {
            return buffer.getLong(offset + field + index * 8);
        }

        /** Sets the long at {@code field}. */
        protected final void putLong(final int field, final long v)
        {
            buffer.putLong(offset + field, v);
        }

        /** Sets element {@code index} of the long array at {@code field}. */
        protected final void putLong(final int field, final int index, final long v)
        {
            buffer.putLong(offset + field + index * 8, v);
        }

        /** The float at {@code field}. */
        protected final float getFloat(final int field)
        {
            return buffer.getFloat(offset + field);
        }

        /** Element {@code index} of the float array at {@code field}. */
        protected final float getFloat(final int field, final int index)
        {
            return buffer.getFloat(offset + field + index * 4);
        }

        /** Sets the float at {@code field}. */
        protected final void putFloat(final int field, final float v)
        {
            buffer.putFloat(offset + field, v);
        }

        /** Sets element {@code index} of the float array at {@code field}. */
        protected final void putFloat(final int field, final int index, final float v)
        {
            buffer.putFloat(offset + field + index * 4, v);
        }

        /** The double at {@code field}. */
        protected final double getDouble(final int field)
        {
            return buffer.getDouble(offset + field);
        }

        /** Element {@code index} of the double array at {@code field}. */
        protected final double getDouble(final int field, final int index)
        {
            return buffer.getDouble(offset + field + index * 8);
        }

        /** Sets the double at {@code field}. */
        protected final void putDouble(final int field, final double v)
        {
            buffer.putDouble(offset + field, v);
        }

        /** Sets element {@code index} of the double array at {@code field}. */
        protected final void putDouble(final int field, final int index, final double v)
        {
            buffer.putDouble(offset + field + index * 8, v);
        }

        /** The boolean at {@code field}. */
        protected final boolean getBoolean(final int field)
        {
            return buffer.get(offset + field) != 0;
        }

        /** Element {@code index} of the boolean array at {@code field}. */
        protected final boolean getBoolean(final int field, final int index)
        {
            return buffer.get(offset + field + index) != 0;
        }

        /** Sets the boolean at {@code field}. */
        protected final void putBoolean(final int field, final boolean v)
        {
            buffer.put(offset + field, (byte)(v ? 1 : 0));
        }

        /** Sets element {@code index} of the boolean array at {@code field}. */
        protected final void putBoolean(final int field, final int index, final boolean v)
        {
            buffer.put(offset + field + index, (byte)(v ? 1 : 0));
        }

        /** An accessor over the nested struct at {@code field}. */
        protected final <D extends Struct.Data> D getData(final Struct struct, final int field)
        {
            return struct.newData(buffer, offset + field);
        }

        /** An accessor over element {@code index} of the nested struct array at {@code field}. */
        protected final <D extends Struct.Data> D getData(final Struct struct, final int field, final int index) throws MPIException
        {
            return struct.newData(buffer, offset + field + index * struct.getExtent());
        }
    }
}
