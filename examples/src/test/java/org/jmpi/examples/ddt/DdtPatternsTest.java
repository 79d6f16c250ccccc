package org.jmpi.examples.ddt;

import org.jmpi.Datatype;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every DDTBench pattern at both sizes: the datatype path gives byte for byte what the manual loops give. */
class DdtPatternsTest
{
    /** Message sizes of DDTBench's middle and largest runs (baseline/README.md, DDTBench table). */
    private static final Map<String, long[]> BYTES = Map.ofEntries(
        Map.entry("WRF_x_vec", new long[] {102648, 173712}),
        Map.entry("WRF_y_vec", new long[] {63168, 90804}),
        Map.entry("WRF_x_sa", new long[] {102648, 173712}),
        Map.entry("WRF_y_sa", new long[] {63168, 90804}),
        Map.entry("MILC_su3_zd", new long[] {49152, 98304}),
        Map.entry("NAS_MG_x", new long[] {131072, 524288}),
        Map.entry("NAS_MG_y", new long[] {262144, 1048576}),
        Map.entry("NAS_MG_z", new long[] {262144, 1048576}),
        Map.entry("NAS_LU_x", new long[] {4080, 40800}),
        Map.entry("NAS_LU_y", new long[] {4080, 40800}),
        Map.entry("FFT", new long[] {4718592, 18874368}),
        Map.entry("SPECFEM3D_mt", new long[] {76800, 91200}),
        Map.entry("LAMMPS_full", new long[] {143552, 195968}),
        Map.entry("LAMMPS_atomic", new long[] {6960, 11664}),
        Map.entry("SPECFEM3D_oc", new long[] {7588, 12900}),
        Map.entry("SPECFEM3D_cm", new long[] {106248, 177672}));

    static Stream<Arguments> patterns()
    {
        return DdtPatterns.NAMES.stream().flatMap(n -> Stream.of(Arguments.of(n, DdtSize.MIDDLE),
            Arguments.of(n, DdtSize.LARGEST)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("patterns")
    void shouldHaveDdtBenchMessageSize(final String name, final DdtSize size)
    {
        final DdtPattern p = DdtPatterns.create(name, size);
        assertEquals(BYTES.get(name)[size.ordinal()], p.bytes(), name);
        assertEquals(p.bytes(), p.recvType().size() * p.recvCount(), "receive side size");
    }

    /** Both sizes, but NAS_MG only at the middle size: its largest grid is 273 MB and the same layout. */
    static Stream<Arguments> packPatterns()
    {
        return patterns().filter(a -> !(a.get()[0].toString().startsWith("NAS_MG") && a.get()[1] == DdtSize.LARGEST));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("packPatterns")
    void shouldPackLikeTheManualLoop(final String name, final DdtSize size)
    {
        final DdtPattern p = DdtPatterns.create(name, size);
        p.fill(7);
        final Object manual = p.newPackBuffer();
        p.packManual(manual);
        final byte[] expected = DdtPattern.toBytes(manual);

        final byte[] packed = new byte[(int)p.bytes()];
        final long end = p.sendType().pack(p.buffer(), p.sendOffset(), p.sendCount(), packed, 0);
        assertEquals(p.bytes(), end);
        assertArrayEquals(expected, packed, "pack from the array");

        // The same data in a direct native-order ByteBuffer (byte-addressed, off-heap): the same stream.
        final ByteBuffer direct = ByteBuffer.allocateDirect(p.bufferLength() * (int)p.element().size())
            .order(ByteOrder.nativeOrder());
        direct.put(p.bufferBytes()).clear();
        final byte[] fromDirect = new byte[(int)p.bytes()];
        p.sendType().pack(direct, p.sendOffset() * p.element().size(), p.sendCount(), fromDirect, 0);
        assertArrayEquals(expected, fromDirect, "pack from a direct ByteBuffer");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("packPatterns")
    void shouldUnpackLikeTheManualLoop(final String name, final DdtSize size)
    {
        final DdtPattern sender = DdtPatterns.create(name, size);
        sender.fill(7);
        final Object manual = sender.newPackBuffer();
        sender.packManual(manual);
        final byte[] stream = DdtPattern.toBytes(manual);

        final DdtPattern byHand = DdtPatterns.create(name, size);
        byHand.fill(1 << 22);
        byHand.unpackManual(manual);

        final DdtPattern byType = DdtPatterns.create(name, size);
        byType.fill(1 << 22);
        final Datatype recv = byType.recvType();
        final long end = recv.unpack(stream, 0, byType.buffer(), byType.recvOffset(), byType.recvCount());
        assertEquals(byType.bytes(), end);
        assertArrayEquals(byHand.bufferBytes(), byType.bufferBytes(), "whole buffer after unpack");

        // And back: packing the receive region with the receive type returns the stream.
        final byte[] again = new byte[stream.length];
        recv.pack(byType.buffer(), byType.recvOffset(), byType.recvCount(), again, 0);
        assertArrayEquals(stream, again, "round trip");
    }
}
