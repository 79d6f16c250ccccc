package org.jmpi.bench.ddt;

import org.jmpi.Datatype;
import org.jmpi.examples.ddt.DdtPattern;
import org.jmpi.examples.ddt.DdtPatterns;
import org.jmpi.examples.ddt.DdtSize;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrefixLayoutTest
{
    @Test
    void shouldPackTheFirstBytesOfEveryPatternsSendAndReceiveLayout()
    {
        for (final String name : DdtPatterns.NAMES)
        {
            final DdtPattern p = DdtPatterns.create(name, DdtSize.MIDDLE);
            p.fill(7);
            for (final long bytes : new long[] {1024, 8192, 4096 + 1024})
            {
                if (bytes > p.bytes())
                {
                    continue;
                }
                assertPrefix(p, p.sendOffset(), p.sendCount(), p.sendType(), bytes);
                assertPrefix(p, p.recvOffset(), p.recvCount(), p.recvType(), bytes);
            }
        }
    }

    @Test
    void shouldKeepARegularLayoutShort()
    {
        final DdtPattern p = DdtPatterns.create("NAS_MG_x", DdtSize.MIDDLE);
        final Datatype cut = PrefixLayout.of(p, p.sendOffset(), p.sendCount(), p.sendType(), 65536);
        assertEquals(65536, cut.size());
        assertTrue(org.jmpi.internal.datatype.TypeWireForm.encodedLength(cut) < 4096,
            "8192 single doubles at a few strides: " + org.jmpi.internal.datatype.TypeWireForm.encodedLength(cut) + " bytes of wire form");
    }

    @Test
    void shouldRefuseToCutBeyondTheMessage()
    {
        final DdtPattern p = DdtPatterns.create("LAMMPS_atomic", DdtSize.MIDDLE);
        assertThrows(IllegalArgumentException.class, () -> PrefixLayout.of(p, p.sendOffset(), p.sendCount(), p.sendType(), p.bytes() + 8));
    }

    private static void assertPrefix(final DdtPattern p, final long offset, final int count, final Datatype type, final long bytes)
    {
        final Datatype cut = PrefixLayout.of(p, offset, count, type, bytes);
        assertEquals(bytes, cut.size(), p.name());
        final byte[] whole = pack(p, offset, count, type, bytes);
        final byte[] prefix = pack(p, offset, 1, cut, bytes);
        assertArrayEquals(whole, prefix, p.name() + " cut to " + bytes);
    }

    private static byte[] pack(final DdtPattern p, final long offset, final int count, final Datatype type, final long bytes)
    {
        final Convertor c = Convertor.create(BufferView.of(p.buffer(), "test"), offset, count, type);
        final byte[] out = new byte[(int)bytes];
        final long base = org.agrona.UnsafeApi.arrayBaseOffset(byte[].class);
        assertEquals(bytes, c.pack(out, base, bytes));
        return out;
    }
}
