package org.jmpi.bench.ddt;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.examples.ddt.DdtPattern;
import org.jmpi.examples.ddt.DdtPatterns;
import org.jmpi.examples.ddt.DdtSize;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * DDTBench patterns (issue 3, item 7): pack and unpack of one message, the datatype path against the
 * hand-written loop, for each of the 16 patterns at DDTBench's middle and largest size.
 * <ul>
 *   <li>{@code packDatatype}: what a transport does per message: a {@link Convertor} over the user buffer
 *       with the send type, packing the whole message into a {@code byte[]} (through an Agrona buffer).</li>
 *   <li>{@code packManual}: DDTBench's manual variant: the hand loop packing into an array of the buffer's
 *       element type.</li>
 *   <li>{@code unpackDatatype} / {@code unpackManual}: the same in reverse with the receive type.</li>
 * </ul>
 * Ratio = datatype throughput / manual throughput; docs/ddtbench.md has the command and the results.
 * Each benchmark method and parameter pair runs in its own JVM (JMH fork), so the JIT sees one pattern. The forks
 * get a fixed, pre-touched heap: otherwise the datatype variant, which allocates its cursor, pays the page faults of
 * first touching the growing young generation (docs/ddtbench.md, "Heap").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xms1g", "-Xmx1g",
    "-XX:+AlwaysPreTouch"})
public class DdtBenchmark
{
    @Param({"WRF_x_vec", "WRF_y_vec", "WRF_x_sa", "WRF_y_sa", "MILC_su3_zd", "NAS_MG_x", "NAS_MG_y", "NAS_MG_z",
        "NAS_LU_x", "NAS_LU_y", "FFT", "SPECFEM3D_mt", "LAMMPS_full", "LAMMPS_atomic", "SPECFEM3D_oc", "SPECFEM3D_cm"})
    public String pattern;

    @Param({"MIDDLE", "LARGEST"})
    public String size;

    DdtPattern p;
    BufferView view;
    UnsafeBuffer stream;
    Object manual;
    int bytes;

    @Setup
    public void setup()
    {
        p = DdtPatterns.create(pattern, DdtSize.valueOf(size));
        p.fill(1);
        view = BufferView.of(p.buffer(), "user buffer");
        bytes = (int)p.bytes();
        stream = new UnsafeBuffer(new byte[bytes]);
        manual = p.newPackBuffer();
        p.packManual(manual);
        packDatatype();
    }

    @Benchmark
    public Object packDatatype()
    {
        final Convertor c = Convertor.create(view, p.sendOffset(), p.sendCount(), p.sendType());
        c.pack(stream, 0, bytes);
        return stream;
    }

    @Benchmark
    public Object packManual()
    {
        p.packManual(manual);
        return manual;
    }

    @Benchmark
    public Object unpackDatatype()
    {
        final Convertor c = Convertor.createForReceive(view, p.recvOffset(), p.recvCount(), p.recvType());
        c.unpack(stream, 0, bytes);
        return p.buffer();
    }

    @Benchmark
    public Object unpackManual()
    {
        p.unpackManual(manual);
        return p.buffer();
    }
}
