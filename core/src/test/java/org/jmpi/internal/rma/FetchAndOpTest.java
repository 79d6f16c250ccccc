package org.jmpi.internal.rma;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Win;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MPI_Fetch_and_op's hot path ({@link DirectTargets}: primitive arrays, a target reached directly) against the general
 * path (the same operations with nio buffers as origin and result) on every basic array type and predefined op, the
 * errors the hot path must still raise, and that it allocates nothing. On the shm, tcp and pvas axes (ranks reached by
 * frames) both sides take the general path and must agree all the same.
 */
@Timeout(120)
class FetchAndOpTest
{
    private static final Op[] OPS = {Op.SUM, Op.PROD, Op.MIN, Op.MAX, Op.LAND, Op.LOR, Op.LXOR, Op.BAND, Op.BOR, Op.BXOR, Op.REPLACE,
        Op.NO_OP};
    private static final Datatype[] TYPES = {Datatype.LONG, Datatype.INT, Datatype.SHORT, Datatype.CHAR, Datatype.BYTE, Datatype.DOUBLE,
        Datatype.FLOAT};

    private static boolean isolated()
    {
        return Boolean.getBoolean("jmpi.jvm.isolate") || "remote".equals(System.getProperty("jmpi.jvm.memory"));
    }

    private static Object array(final Datatype type, final int length)
    {
        if (type == Datatype.LONG)
        {
            return new long[length];
        }
        if (type == Datatype.INT)
        {
            return new int[length];
        }
        if (type == Datatype.SHORT)
        {
            return new short[length];
        }
        if (type == Datatype.CHAR)
        {
            return new char[length];
        }
        if (type == Datatype.BYTE)
        {
            return new byte[length];
        }
        return type == Datatype.DOUBLE ? new double[length] : new float[length];
    }

    private static void set(final Object array, final int i, final long v)
    {
        switch (array)
        {
            case long[] a -> a[i] = v;
            case int[] a -> a[i] = (int)v;
            case short[] a -> a[i] = (short)v;
            case char[] a -> a[i] = (char)v;
            case byte[] a -> a[i] = (byte)v;
            case double[] a -> a[i] = v;
            case float[] a -> a[i] = v;
            default -> throw new IllegalArgumentException(array.toString());
        }
    }

    private static double get(final Object array, final int i)
    {
        return switch (array)
        {
            case long[] a -> a[i];
            case int[] a -> a[i];
            case short[] a -> a[i];
            case char[] a -> a[i];
            case byte[] a -> a[i];
            case double[] a -> a[i];
            case float[] a -> a[i];
            default -> throw new IllegalArgumentException(array.toString());
        };
    }

    private static void put(final ByteBuffer b, final Datatype type, final long v)
    {
        if (type == Datatype.LONG)
        {
            b.putLong(0, v);
        }
        else if (type == Datatype.INT)
        {
            b.putInt(0, (int)v);
        }
        else if (type == Datatype.SHORT)
        {
            b.putShort(0, (short)v);
        }
        else if (type == Datatype.CHAR)
        {
            b.putChar(0, (char)v);
        }
        else if (type == Datatype.BYTE)
        {
            b.put(0, (byte)v);
        }
        else if (type == Datatype.DOUBLE)
        {
            b.putDouble(0, v);
        }
        else
        {
            b.putFloat(0, v);
        }
    }

    private static double get(final ByteBuffer b, final Datatype type)
    {
        if (type == Datatype.LONG)
        {
            return b.getLong(0);
        }
        if (type == Datatype.INT)
        {
            return b.getInt(0);
        }
        if (type == Datatype.SHORT)
        {
            return b.getShort(0);
        }
        if (type == Datatype.CHAR)
        {
            return b.getChar(0);
        }
        if (type == Datatype.BYTE)
        {
            return b.get(0);
        }
        return type == Datatype.DOUBLE ? b.getDouble(0) : b.getFloat(0);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldFetchAndOpAlikeOnTheHotAndTheGeneralPath(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int target = (world.rank() + 1) % size;
            for (final Datatype type : TYPES)
            {
                // element 0 takes the hot path (arrays), element 1 the general one (nio buffers); only this rank's left
                // neighbour operates on this rank's window, so the sequence is the same on both
                final Object memory = array(type, 2);
                set(memory, 0, 7);
                set(memory, 1, 7);
                try (Win win = Win.create(memory, (int)type.size(), null, world))
                {
                    win.lockAll(0);
                    for (int k = 0; k < 3 * OPS.length; k++)
                    {
                        final Op op = OPS[k % OPS.length];
                        final long operand = 2 + k % 5;
                        final Object hotOrigin = array(type, 1);
                        final Object hotResult = array(type, 1);
                        set(hotOrigin, 0, operand);
                        final ByteBuffer origin = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
                        final ByteBuffer result = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
                        put(origin, type, operand);
                        ErrorClass hotError = null;
                        ErrorClass generalError = null;
                        try
                        {
                            win.fetchAndOp(hotOrigin, 0, hotResult, 0, type, target, 0, op);
                            win.flush(target);
                        }
                        catch (final MpiException ex)
                        {
                            hotError = ex.errorClass();
                        }
                        try
                        {
                            win.fetchAndOp(origin, 0, result, 0, type, target, 1, op);
                            win.flush(target);
                        }
                        catch (final MpiException ex)
                        {
                            generalError = ex.errorClass();
                        }
                        assertEquals(generalError, hotError, type.name() + " " + op.name() + ": the same error");
                        if (hotError == null)
                        {
                            assertEquals(get(result, type), get(hotResult, 0), type.name() + " " + op.name() + " " + operand + ": fetched");
                        }
                    }
                    win.unlockAll();
                    world.barrier();
                    assertEquals(get(memory, 1), get(memory, 0), type.name() + ": the element after every op on both paths");
                    world.barrier();
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldStillRaiseTheErrorsOnTheHotPath(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int target = (world.rank() + 1) % size;
            final long[] one = {1};
            final long[] old = new long[1];
            final Win win = Win.create(new long[4], 8, null, world);
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class,
                () -> win.fetchAndOp(one, 0, old, 0, Datatype.LONG, target, 0, Op.SUM)).errorClass(), "outside an epoch");
            win.lockAll(0);
            assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class,
                () -> win.fetchAndOp(one, 0, old, 0, Datatype.LONG, target, 4, Op.SUM)).errorClass(), "past the window");
            assertEquals(ErrorClass.ERR_DISP, assertThrows(MpiException.class,
                () -> win.fetchAndOp(one, 0, old, 0, Datatype.LONG, target, -1, Op.SUM)).errorClass(), "negative displacement");
            assertEquals(ErrorClass.ERR_TYPE, assertThrows(MpiException.class,
                () -> win.fetchAndOp(new int[] {1}, 0, new int[1], 0, Datatype.INT, target, 0, Op.SUM)).errorClass(),
                "an int on a long[] window");
            assertEquals(ErrorClass.ERR_OP, assertThrows(MpiException.class,
                () -> win.fetchAndOp(new double[] {1}, 0, new double[1], 0, Datatype.DOUBLE, target, 0, Op.BAND)).errorClass(),
                "BAND on a double");
            assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class,
                () -> win.fetchAndOp(one, 0, old, 0, Datatype.LONG, size, 0, Op.SUM)).errorClass(), "a rank outside the window");
            win.fetchAndOp(one, 0, old, 0, Datatype.LONG, target, 3, Op.SUM);
            win.unlockAll();
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class, () -> win.flush(target)).errorClass(),
                "flush after unlockAll");
            win.free();
            assertEquals(ErrorClass.ERR_WIN, assertThrows(MpiException.class,
                () -> win.fetchAndOp(one, 0, old, 0, Datatype.LONG, target, 0, Op.SUM)).errorClass(), "a freed window");
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldTakeIntsAndLongsAtAnyDisplacementUnitAndLeaveTheTargetAloneOnBadArrays(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int target = (world.rank() + 1) % size;
            final ByteBuffer memory = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
            try (Win win = Win.create(memory, 4, null, world))
            {
                win.lockAll(0);
                final int[] oldInt = new int[1];
                final long[] oldLong = new long[1];
                win.fetchAndOp(new int[] {5}, 0, oldInt, 0, Datatype.INT, target, 1, Op.SUM);
                win.flush(target);
                win.fetchAndOp(new int[] {9}, 0, oldInt, 0, Datatype.INT, target, 1, Op.REPLACE);
                win.flush(target);
                assertEquals(5, oldInt[0], "int REPLACE fetches the SUM's result");
                win.fetchAndOp(null, 0, oldInt, 0, Datatype.INT, target, 1, Op.NO_OP);
                win.flush(target);
                assertEquals(9, oldInt[0], "int NO_OP");
                // displacement 2 of 4 bytes: byte 8, a long's boundary; displacement 1: byte 4, not one
                win.fetchAndOp(new long[] {1L << 40}, 0, oldLong, 0, Datatype.LONG, target, 2, Op.SUM);
                win.flush(target);
                win.fetchAndOp(new long[] {3}, 0, oldLong, 0, Datatype.LONG, target, 2, Op.REPLACE);
                win.flush(target);
                assertEquals(1L << 40, oldLong[0], "long REPLACE fetches the SUM's result");
                win.fetchAndOp(null, 0, oldLong, 0, Datatype.LONG, target, 2, Op.NO_OP);
                win.flush(target);
                assertEquals(3, oldLong[0], "long NO_OP");
                win.fetchAndOp(new long[] {2}, 0, oldLong, 0, Datatype.LONG, target, 2, Op.MAX);
                win.flush(target);
                assertEquals(3, oldLong[0], "long MAX fetches");
                // arrays too short for the offsets: an error and the target untouched
                assertThrows(MpiException.class, () -> win.fetchAndOp(new long[] {1}, 0, new long[1], 1, Datatype.LONG, target, 2, Op.SUM));
                assertThrows(MpiException.class, () -> win.fetchAndOp(new long[] {1}, 1, new long[1], 0, Datatype.LONG, target, 2, Op.SUM));
                assertThrows(MpiException.class, () -> win.fetchAndOp(new int[] {1}, 0, new int[1], -1, Datatype.INT, target, 1, Op.SUM));
                // the last long of the window, and one past it
                win.fetchAndOp(new long[] {4}, 0, oldLong, 0, Datatype.LONG, target, 6, Op.SUM);
                win.flush(target);
                assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class,
                    () -> win.fetchAndOp(new long[] {4}, 0, new long[1], 0, Datatype.LONG, target, 7, Op.SUM)).errorClass(), "past the end");
                win.unlockAll();
                world.barrier();
                assertEquals(9, memory.getInt(4), "the int");
                assertEquals(3, memory.getLong(8), "the long");
                assertEquals(4, memory.getLong(24), "the last long");
                world.barrier();
            }
        });
    }

    @Test
    void shouldAllocateNothingOnTheHotPath()
    {
        Assumptions.assumeFalse(isolated(), "ranks reached by frames take the general path");
        Ranks.run(2, (mpi, world) ->
        {
            final long[] counter = new long[1];
            try (Win win = Win.create(counter, 8, null, world))
            {
                win.lockAll(0);
                final long[] one = {1};
                final long[] old = new long[1];
                final int target = 1 - world.rank();
                for (int i = 0; i < 50_000; i++)
                {
                    win.fetchAndOp(one, 0, old, 0, Datatype.LONG, target, 0, Op.SUM);
                    win.flush(target);
                }
                final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
                final long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 10_000; i++)
                {
                    win.fetchAndOp(one, 0, old, 0, Datatype.LONG, target, 0, Op.SUM);
                    win.flush(target);
                }
                final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                win.unlockAll();
                world.barrier();
                assertTrue(allocated < 1_000, "10 000 fetch_and_op + flush allocated " + allocated + " bytes");
                assertEquals(60_000, counter[0]);
            }
        });
    }
}
