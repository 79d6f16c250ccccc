package org.jmpi.internal.reduce;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

import org.agrona.UnsafeApi;

/**
 * The element loops of {@link Kernels}: {@code io[i] = in[i] op io[i]} over packed native-order byte arrays,
 * one method per op and type (int, long, float, double). The integer ones copy {@code in} chunk by chunk into a
 * typed scratch array of the calling thread (one memory copy) and run the loop over that array and a view of
 * {@code io}: C2's SuperWord vectorises a loop whose second operand is a typed array, where the same loop over
 * views of two byte arrays (which may be one array) stays scalar. A floating view (an int read reinterpreted as a
 * float) kept even that loop scalar, so the floating ones copy both operands into typed arrays and the result
 * back (three memory copies and a plain loop). Measured (loaded machine, JDK 25, 64 KiB, alternated in one JVM,
 * best of 12 rounds; docs/collectives.md, "Reduction kernels"): INT SUM 48-54 GB/s against 8-10 through two views,
 * DOUBLE SUM 28-40 against 6-19, a plain typed loop 86-96. The ranges of {@code in} and
 * {@code io} must not overlap (they may lie in one array). The copy is not bounds-checked: each method checks the
 * range of {@code in} once ({@code io}'s view checks every access).
 *
 * <p>Stateless but for the per-thread scratch arrays ({@value #CHUNK} elements of each type a thread reduces);
 * any thread.
 */
final class TypedLoops
{
    /** Elements per chunk: the chunk and its stretch of {@code io} stay in L1 (4 or 8 KiB of scratch per type). */
    static final int CHUNK = 1024;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, NATIVE);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, NATIVE);
    private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, NATIVE);
    private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, NATIVE);
    private static final long BYTE_BASE = UnsafeApi.arrayBaseOffset(byte[].class);
    private static final long INT_BASE = UnsafeApi.arrayBaseOffset(int[].class);
    private static final long LONG_BASE = UnsafeApi.arrayBaseOffset(long[].class);
    private static final long FLOAT_BASE = UnsafeApi.arrayBaseOffset(float[].class);
    private static final long DOUBLE_BASE = UnsafeApi.arrayBaseOffset(double[].class);
    private static final ThreadLocal<int[]> INT_SCRATCH = ThreadLocal.withInitial(() -> new int[CHUNK]);
    private static final ThreadLocal<long[]> LONG_SCRATCH = ThreadLocal.withInitial(() -> new long[CHUNK]);
    private static final ThreadLocal<float[]> FLOAT_SCRATCH = ThreadLocal.withInitial(() -> new float[CHUNK]);
    private static final ThreadLocal<double[]> DOUBLE_SCRATCH = ThreadLocal.withInitial(() -> new double[CHUNK]);
    private static final ThreadLocal<float[]> FLOAT_ACC = ThreadLocal.withInitial(() -> new float[CHUNK]);
    private static final ThreadLocal<double[]> DOUBLE_ACC = ThreadLocal.withInitial(() -> new double[CHUNK]);

    private TypedLoops()
    {
    }

    static void intSum(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final int[] x = INT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, INT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                INT.set(io, at + (i << 2), x[i] + (int)INT.get(io, at + (i << 2)));
            }
        }
    }

    static void intProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final int[] x = INT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, INT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                INT.set(io, at + (i << 2), x[i] * (int)INT.get(io, at + (i << 2)));
            }
        }
    }

    static void intMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final int[] x = INT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, INT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                INT.set(io, at + (i << 2), Math.min(x[i], (int)INT.get(io, at + (i << 2))));
            }
        }
    }

    static void intMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final int[] x = INT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, INT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                INT.set(io, at + (i << 2), Math.max(x[i], (int)INT.get(io, at + (i << 2))));
            }
        }
    }

    static void intAnd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final int[] x = INT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, INT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                INT.set(io, at + (i << 2), x[i] & (int)INT.get(io, at + (i << 2)));
            }
        }
    }

    static void intOr(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final int[] x = INT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, INT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                INT.set(io, at + (i << 2), x[i] | (int)INT.get(io, at + (i << 2)));
            }
        }
    }

    static void intXor(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final int[] x = INT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, INT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                INT.set(io, at + (i << 2), x[i] ^ (int)INT.get(io, at + (i << 2)));
            }
        }
    }

    static void longSum(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final long[] x = LONG_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, LONG_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                LONG.set(io, at + (i << 3), x[i] + (long)LONG.get(io, at + (i << 3)));
            }
        }
    }

    static void longProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final long[] x = LONG_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, LONG_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                LONG.set(io, at + (i << 3), x[i] * (long)LONG.get(io, at + (i << 3)));
            }
        }
    }

    static void longMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final long[] x = LONG_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, LONG_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                LONG.set(io, at + (i << 3), Math.min(x[i], (long)LONG.get(io, at + (i << 3))));
            }
        }
    }

    static void longMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final long[] x = LONG_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, LONG_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                LONG.set(io, at + (i << 3), Math.max(x[i], (long)LONG.get(io, at + (i << 3))));
            }
        }
    }

    static void longAnd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final long[] x = LONG_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, LONG_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                LONG.set(io, at + (i << 3), x[i] & (long)LONG.get(io, at + (i << 3)));
            }
        }
    }

    static void longOr(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final long[] x = LONG_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, LONG_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                LONG.set(io, at + (i << 3), x[i] | (long)LONG.get(io, at + (i << 3)));
            }
        }
    }

    static void longXor(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final long[] x = LONG_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, LONG_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                LONG.set(io, at + (i << 3), x[i] ^ (long)LONG.get(io, at + (i << 3)));
            }
        }
    }

    static void floatSum(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        Objects.checkFromIndexSize(b, (long)n << 2, io.length);
        final float[] x = FLOAT_SCRATCH.get();
        final float[] y = FLOAT_ACC.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final long bytes = (long)m << 2;
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, FLOAT_BASE, bytes);
            UnsafeApi.copyMemory(io, BYTE_BASE + b + ((long)done << 2), y, FLOAT_BASE, bytes);
            for (int i = 0; i < m; i++)
            {
                y[i] = x[i] + y[i];
            }
            UnsafeApi.copyMemory(y, FLOAT_BASE, io, BYTE_BASE + b + ((long)done << 2), bytes);
        }
    }

    static void floatProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        Objects.checkFromIndexSize(b, (long)n << 2, io.length);
        final float[] x = FLOAT_SCRATCH.get();
        final float[] y = FLOAT_ACC.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final long bytes = (long)m << 2;
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, FLOAT_BASE, bytes);
            UnsafeApi.copyMemory(io, BYTE_BASE + b + ((long)done << 2), y, FLOAT_BASE, bytes);
            for (int i = 0; i < m; i++)
            {
                y[i] = x[i] * y[i];
            }
            UnsafeApi.copyMemory(y, FLOAT_BASE, io, BYTE_BASE + b + ((long)done << 2), bytes);
        }
    }

    static void floatMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        Objects.checkFromIndexSize(b, (long)n << 2, io.length);
        final float[] x = FLOAT_SCRATCH.get();
        final float[] y = FLOAT_ACC.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final long bytes = (long)m << 2;
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, FLOAT_BASE, bytes);
            UnsafeApi.copyMemory(io, BYTE_BASE + b + ((long)done << 2), y, FLOAT_BASE, bytes);
            for (int i = 0; i < m; i++)
            {
                y[i] = Math.min(x[i], y[i]);
            }
            UnsafeApi.copyMemory(y, FLOAT_BASE, io, BYTE_BASE + b + ((long)done << 2), bytes);
        }
    }

    static void floatMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        Objects.checkFromIndexSize(b, (long)n << 2, io.length);
        final float[] x = FLOAT_SCRATCH.get();
        final float[] y = FLOAT_ACC.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final long bytes = (long)m << 2;
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, FLOAT_BASE, bytes);
            UnsafeApi.copyMemory(io, BYTE_BASE + b + ((long)done << 2), y, FLOAT_BASE, bytes);
            for (int i = 0; i < m; i++)
            {
                y[i] = Math.max(x[i], y[i]);
            }
            UnsafeApi.copyMemory(y, FLOAT_BASE, io, BYTE_BASE + b + ((long)done << 2), bytes);
        }
    }

    static void doubleSum(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        Objects.checkFromIndexSize(b, (long)n << 3, io.length);
        final double[] x = DOUBLE_SCRATCH.get();
        final double[] y = DOUBLE_ACC.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final long bytes = (long)m << 3;
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, DOUBLE_BASE, bytes);
            UnsafeApi.copyMemory(io, BYTE_BASE + b + ((long)done << 3), y, DOUBLE_BASE, bytes);
            for (int i = 0; i < m; i++)
            {
                y[i] = x[i] + y[i];
            }
            UnsafeApi.copyMemory(y, DOUBLE_BASE, io, BYTE_BASE + b + ((long)done << 3), bytes);
        }
    }

    static void doubleProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        Objects.checkFromIndexSize(b, (long)n << 3, io.length);
        final double[] x = DOUBLE_SCRATCH.get();
        final double[] y = DOUBLE_ACC.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final long bytes = (long)m << 3;
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, DOUBLE_BASE, bytes);
            UnsafeApi.copyMemory(io, BYTE_BASE + b + ((long)done << 3), y, DOUBLE_BASE, bytes);
            for (int i = 0; i < m; i++)
            {
                y[i] = x[i] * y[i];
            }
            UnsafeApi.copyMemory(y, DOUBLE_BASE, io, BYTE_BASE + b + ((long)done << 3), bytes);
        }
    }

    static void doubleMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        Objects.checkFromIndexSize(b, (long)n << 3, io.length);
        final double[] x = DOUBLE_SCRATCH.get();
        final double[] y = DOUBLE_ACC.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final long bytes = (long)m << 3;
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, DOUBLE_BASE, bytes);
            UnsafeApi.copyMemory(io, BYTE_BASE + b + ((long)done << 3), y, DOUBLE_BASE, bytes);
            for (int i = 0; i < m; i++)
            {
                y[i] = Math.min(x[i], y[i]);
            }
            UnsafeApi.copyMemory(y, DOUBLE_BASE, io, BYTE_BASE + b + ((long)done << 3), bytes);
        }
    }

    static void doubleMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        Objects.checkFromIndexSize(b, (long)n << 3, io.length);
        final double[] x = DOUBLE_SCRATCH.get();
        final double[] y = DOUBLE_ACC.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final long bytes = (long)m << 3;
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, DOUBLE_BASE, bytes);
            UnsafeApi.copyMemory(io, BYTE_BASE + b + ((long)done << 3), y, DOUBLE_BASE, bytes);
            for (int i = 0; i < m; i++)
            {
                y[i] = Math.max(x[i], y[i]);
            }
            UnsafeApi.copyMemory(y, DOUBLE_BASE, io, BYTE_BASE + b + ((long)done << 3), bytes);
        }
    }
}
