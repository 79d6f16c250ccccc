package org.jmpi.bench.ddt;

import org.jmpi.examples.ddt.DdtPattern;
import org.jmpi.examples.ddt.DdtPatterns;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Runs each benchmark method of {@link DdtBenchmark} once per pattern (middle size) outside JMH and checks
 * that the datatype and the manual variants move the same bytes, so the benchmark compares equal work.
 */
class DdtBenchmarkTest
{
    static List<String> patterns()
    {
        return DdtPatterns.NAMES;
    }

    private static DdtBenchmark state(final String pattern)
    {
        final DdtBenchmark b = new DdtBenchmark();
        b.pattern = pattern;
        b.size = "MIDDLE";
        b.setup();
        return b;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("patterns")
    void shouldPackTheSameBytesBothWays(final String pattern)
    {
        final DdtBenchmark b = state(pattern);
        b.p.fill(11);
        b.packDatatype();
        b.packManual();
        assertArrayEquals(DdtPattern.toBytes(b.manual), b.stream.byteArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("patterns")
    void shouldUnpackTheSameBytesBothWays(final String pattern)
    {
        final DdtBenchmark byType = state(pattern);
        final DdtBenchmark byHand = state(pattern);
        byType.p.fill(5);
        byHand.p.fill(5);
        byType.unpackDatatype();
        byHand.unpackManual();
        assertArrayEquals(byHand.p.bufferBytes(), byType.p.bufferBytes());
    }
}
