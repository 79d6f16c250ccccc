package org.jmpi.internal.reduce;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The element loops of {@link Kernels}: {@code io[i] = in[i] op io[i]} over native-order views of packed byte
 * arrays, one method per op and type (int, long, float, double). One method per loop, not one per type with a
 * switch over the op: C2 inlines each view access (a chain of VarHandle methods) only while the method being
 * compiled stays within its inlining budget, and a method holding seven such loops ran out of it, so the accesses
 * stayed calls and the loops ran at a tenth of a plain array loop (bench's {@code ReduceKernelBenchmark},
 * docs/collectives.md, "Reduction kernels"). A small method with one loop is inlined whole and C2's SuperWord
 * vectorises it.
 *
 * <p>Stateless; any thread.
 */
final class TypedLoops
{
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, NATIVE);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, NATIVE);
    private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, NATIVE);
    private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, NATIVE);

    private TypedLoops()
    {
    }

    static void intSum(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            INT.set(io, b + (i << 2), (int)INT.get(in, a + (i << 2)) + (int)INT.get(io, b + (i << 2)));
        }
    }

    static void intProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            INT.set(io, b + (i << 2), (int)INT.get(in, a + (i << 2)) * (int)INT.get(io, b + (i << 2)));
        }
    }

    static void intMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            INT.set(io, b + (i << 2), Math.min((int)INT.get(in, a + (i << 2)), (int)INT.get(io, b + (i << 2))));
        }
    }

    static void intMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            INT.set(io, b + (i << 2), Math.max((int)INT.get(in, a + (i << 2)), (int)INT.get(io, b + (i << 2))));
        }
    }

    static void intAnd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            INT.set(io, b + (i << 2), (int)INT.get(in, a + (i << 2)) & (int)INT.get(io, b + (i << 2)));
        }
    }

    static void intOr(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            INT.set(io, b + (i << 2), (int)INT.get(in, a + (i << 2)) | (int)INT.get(io, b + (i << 2)));
        }
    }

    static void intXor(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            INT.set(io, b + (i << 2), (int)INT.get(in, a + (i << 2)) ^ (int)INT.get(io, b + (i << 2)));
        }
    }

    static void longSum(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            LONG.set(io, b + (i << 3), (long)LONG.get(in, a + (i << 3)) + (long)LONG.get(io, b + (i << 3)));
        }
    }

    static void longProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            LONG.set(io, b + (i << 3), (long)LONG.get(in, a + (i << 3)) * (long)LONG.get(io, b + (i << 3)));
        }
    }

    static void longMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            LONG.set(io, b + (i << 3), Math.min((long)LONG.get(in, a + (i << 3)), (long)LONG.get(io, b + (i << 3))));
        }
    }

    static void longMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            LONG.set(io, b + (i << 3), Math.max((long)LONG.get(in, a + (i << 3)), (long)LONG.get(io, b + (i << 3))));
        }
    }

    static void longAnd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            LONG.set(io, b + (i << 3), (long)LONG.get(in, a + (i << 3)) & (long)LONG.get(io, b + (i << 3)));
        }
    }

    static void longOr(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            LONG.set(io, b + (i << 3), (long)LONG.get(in, a + (i << 3)) | (long)LONG.get(io, b + (i << 3)));
        }
    }

    static void longXor(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            LONG.set(io, b + (i << 3), (long)LONG.get(in, a + (i << 3)) ^ (long)LONG.get(io, b + (i << 3)));
        }
    }

    static void floatSum(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            FLOAT.set(io, b + (i << 2), (float)FLOAT.get(in, a + (i << 2)) + (float)FLOAT.get(io, b + (i << 2)));
        }
    }

    static void floatProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            FLOAT.set(io, b + (i << 2), (float)FLOAT.get(in, a + (i << 2)) * (float)FLOAT.get(io, b + (i << 2)));
        }
    }

    static void floatMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            FLOAT.set(io, b + (i << 2), Math.min((float)FLOAT.get(in, a + (i << 2)), (float)FLOAT.get(io, b + (i << 2))));
        }
    }

    static void floatMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            FLOAT.set(io, b + (i << 2), Math.max((float)FLOAT.get(in, a + (i << 2)), (float)FLOAT.get(io, b + (i << 2))));
        }
    }

    static void doubleSum(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            DOUBLE.set(io, b + (i << 3), (double)DOUBLE.get(in, a + (i << 3)) + (double)DOUBLE.get(io, b + (i << 3)));
        }
    }

    static void doubleProd(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            DOUBLE.set(io, b + (i << 3), (double)DOUBLE.get(in, a + (i << 3)) * (double)DOUBLE.get(io, b + (i << 3)));
        }
    }

    static void doubleMin(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            DOUBLE.set(io, b + (i << 3), Math.min((double)DOUBLE.get(in, a + (i << 3)), (double)DOUBLE.get(io, b + (i << 3))));
        }
    }

    static void doubleMax(final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            DOUBLE.set(io, b + (i << 3), Math.max((double)DOUBLE.get(in, a + (i << 3)), (double)DOUBLE.get(io, b + (i << 3))));
        }
    }
}
