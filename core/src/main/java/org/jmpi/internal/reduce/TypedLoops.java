package org.jmpi.internal.reduce;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

import org.agrona.UnsafeApi;

/**
 * The element loops of {@link Kernels}: {@code io[i] = in[i] op io[i]} over packed native-order byte arrays,
 * one method per op and type (int, long, float, double). Each copies {@code in} chunk by chunk into a typed
 * scratch array of the calling thread (one memory copy) and runs the loop over that array and a view of
 * {@code io}: C2's SuperWord vectorises a loop whose second operand is a typed array, where the same loop over
 * views of two byte arrays (which may be one array) stays scalar. Measured (loaded machine, JDK 25, 64 KiB,
 * alternated in one JVM, best of 12 rounds): INT SUM 48-54 GB/s this way against 8-10 through two views, a plain
 * {@code int[]} loop 89-92 (docs/collectives.md, "Reduction kernels"). The ranges of {@code in} and
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
        final float[] x = FLOAT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, FLOAT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                FLOAT.set(io, at + (i << 2), x[i] + (float)FLOAT.get(io, at + (i << 2)));
            }
        }
    }

    static void floatProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final float[] x = FLOAT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, FLOAT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                FLOAT.set(io, at + (i << 2), x[i] * (float)FLOAT.get(io, at + (i << 2)));
            }
        }
    }

    static void floatMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final float[] x = FLOAT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, FLOAT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                FLOAT.set(io, at + (i << 2), Math.min(x[i], (float)FLOAT.get(io, at + (i << 2))));
            }
        }
    }

    static void floatMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 2, in.length);
        final float[] x = FLOAT_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 2);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 2), x, FLOAT_BASE, (long)m << 2);
            for (int i = 0; i < m; i++)
            {
                FLOAT.set(io, at + (i << 2), Math.max(x[i], (float)FLOAT.get(io, at + (i << 2))));
            }
        }
    }

    static void doubleSum(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final double[] x = DOUBLE_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, DOUBLE_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                DOUBLE.set(io, at + (i << 3), x[i] + (double)DOUBLE.get(io, at + (i << 3)));
            }
        }
    }

    static void doubleProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final double[] x = DOUBLE_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, DOUBLE_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                DOUBLE.set(io, at + (i << 3), x[i] * (double)DOUBLE.get(io, at + (i << 3)));
            }
        }
    }

    static void doubleMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final double[] x = DOUBLE_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, DOUBLE_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                DOUBLE.set(io, at + (i << 3), Math.min(x[i], (double)DOUBLE.get(io, at + (i << 3))));
            }
        }
    }

    static void doubleMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        Objects.checkFromIndexSize(a, (long)n << 3, in.length);
        final double[] x = DOUBLE_SCRATCH.get();
        for (int done = 0; done < n; done += CHUNK)
        {
            final int m = Math.min(CHUNK, n - done);
            final int at = b + (done << 3);
            UnsafeApi.copyMemory(in, BYTE_BASE + a + ((long)done << 3), x, DOUBLE_BASE, (long)m << 3);
            for (int i = 0; i < m; i++)
            {
                DOUBLE.set(io, at + (i << 3), Math.max(x[i], (double)DOUBLE.get(io, at + (i << 3))));
            }
        }
    }
}
