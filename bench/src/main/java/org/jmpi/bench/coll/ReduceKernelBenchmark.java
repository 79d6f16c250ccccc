package org.jmpi.bench.coll;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.internal.reduce.Kernels;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 16, item 3: the reduction kernels ({@link Kernels#reduce}: {@code inout = in op inout} over packed
 * native-order byte arrays, what every reduction path runs) against the plain loop a Java programmer would write
 * over typed arrays ({@code io[i] = in[i] + io[i]}), which C2 vectorises: the target is the kernel at the plain
 * loop's speed (memory bandwidth for the large sizes).
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ReduceKernelBenchmark} (docs/collectives.md, "Reduction
 * kernels", has the figures); both methods report operations per microsecond, so their ratio is kernel / plain.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class ReduceKernelBenchmark
{
    @Param({"INT", "LONG", "FLOAT", "DOUBLE"})
    public String type;

    @Param({"SUM", "MAX"})
    public String op;

    @Param({"1024", "65536", "1048576"})
    public int bytes;

    private Datatype datatype;
    private Op reduction;
    private int units;
    private byte[] in;
    private byte[] io;
    private int[] intIn;
    private int[] intIo;
    private long[] longIn;
    private long[] longIo;
    private float[] floatIn;
    private float[] floatIo;
    private double[] doubleIn;
    private double[] doubleIo;

    @Setup
    public void setup()
    {
        datatype = switch (type)
        {
            case "INT" -> Datatype.INT;
            case "LONG" -> Datatype.LONG;
            case "FLOAT" -> Datatype.FLOAT;
            default -> Datatype.DOUBLE;
        };
        reduction = op.equals("SUM") ? Op.SUM : Op.MAX;
        units = bytes / (int)datatype.size();
        intIn = new int[bytes / 4];
        intIo = new int[bytes / 4];
        longIn = new long[bytes / 8];
        longIo = new long[bytes / 8];
        floatIn = new float[bytes / 4];
        floatIo = new float[bytes / 4];
        doubleIn = new double[bytes / 8];
        doubleIo = new double[bytes / 8];
        for (int i = 0; i < bytes / 8; i++)
        {
            longIn[i] = i;
            doubleIn[i] = i;
        }
        for (int i = 0; i < bytes / 4; i++)
        {
            intIn[i] = i;
            floatIn[i] = i;
        }
        // The kernel's operands hold the same numbers as the plain loop's (no NaNs or denormals from raw bits).
        in = new byte[bytes];
        io = new byte[bytes];
        final ByteBuffer view = ByteBuffer.wrap(in).order(ByteOrder.nativeOrder());
        switch (type)
        {
            case "INT" -> view.asIntBuffer().put(intIn);
            case "LONG" -> view.asLongBuffer().put(longIn);
            case "FLOAT" -> view.asFloatBuffer().put(floatIn);
            default -> view.asDoubleBuffer().put(doubleIn);
        }
    }

    @Benchmark
    public byte[] kernel()
    {
        Kernels.reduce(reduction, datatype, in, 0, io, 0, units);
        return io;
    }

    @Benchmark
    public Object plain()
    {
        final boolean sum = reduction == Op.SUM;
        switch (type)
        {
            case "INT" ->
            {
                final int[] a = intIn;
                final int[] b = intIo;
                if (sum)
                {
                    for (int i = 0; i < a.length; i++)
                    {
                        b[i] = a[i] + b[i];
                    }
                }
                else
                {
                    for (int i = 0; i < a.length; i++)
                    {
                        b[i] = Math.max(a[i], b[i]);
                    }
                }
                return b;
            }
            case "LONG" ->
            {
                final long[] a = longIn;
                final long[] b = longIo;
                if (sum)
                {
                    for (int i = 0; i < a.length; i++)
                    {
                        b[i] = a[i] + b[i];
                    }
                }
                else
                {
                    for (int i = 0; i < a.length; i++)
                    {
                        b[i] = Math.max(a[i], b[i]);
                    }
                }
                return b;
            }
            case "FLOAT" ->
            {
                final float[] a = floatIn;
                final float[] b = floatIo;
                if (sum)
                {
                    for (int i = 0; i < a.length; i++)
                    {
                        b[i] = a[i] + b[i];
                    }
                }
                else
                {
                    for (int i = 0; i < a.length; i++)
                    {
                        b[i] = Math.max(a[i], b[i]);
                    }
                }
                return b;
            }
            default ->
            {
                final double[] a = doubleIn;
                final double[] b = doubleIo;
                if (sum)
                {
                    for (int i = 0; i < a.length; i++)
                    {
                        b[i] = a[i] + b[i];
                    }
                }
                else
                {
                    for (int i = 0; i < a.length; i++)
                    {
                        b[i] = Math.max(a[i], b[i]);
                    }
                }
                return b;
            }
        }
    }
}
