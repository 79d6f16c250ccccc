package org.jmpi.internal.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ViewMapTest
{
    private static List<long[]> runs(final ViewMap view, final long from, final long length) throws IOException
    {
        final List<long[]> runs = new ArrayList<>();
        final long done = view.walk(from, length, (fileOffset, streamOffset, lengthBytes) ->
        {
            runs.add(new long[] {fileOffset, streamOffset, lengthBytes});
            return lengthBytes;
        });
        assertEquals(length, done);
        return runs;
    }

    @Test
    void shouldMapAVectorFiletypeTileAfterTile() throws IOException
    {
        // 2 blocks of 4 bytes, stride 8: data at [0,4) and [8,12); extent 12, resized to 16.
        final Datatype vector = Datatype.resized(Datatype.vector(2, 1, 2, Datatype.INT), 0, 16).commit();
        final ViewMap view = ViewMap.of("test", 100, Datatype.INT, vector, "native");
        final List<long[]> got = runs(view, 2, 14);
        assertEquals(List.of("102+0x2", "108+2x4", "116+6x4", "124+10x4"),
            got.stream().map(r -> r[0] + "+" + r[1] + "x" + r[2]).toList());
        assertEquals(100 + 16 + 8, view.fileOffset(12));
        assertEquals(0, view.viewBytesBelow(100));
        assertEquals(2, view.viewBytesBelow(102));
        assertEquals(4, view.viewBytesBelow(107));
        assertEquals(6, view.viewBytesBelow(110));
        assertEquals(8, view.viewBytesBelow(116));
        assertEquals(16, view.viewBytesBelow(132));
    }

    @Test
    void shouldMapAFiletypeWhoseDataStartsAfterItsOrigin() throws IOException
    {
        // Data at [8, 16) of a 8-byte extent: tile k's data is [8k + 8, 8k + 16).
        final Datatype shifted = Datatype.resized(Datatype.hindexed(new int[] {2}, new long[] {8}, Datatype.INT), 0, 8).commit();
        final ViewMap view = ViewMap.of("test", 0, Datatype.INT, shifted, "native");
        assertEquals(List.of("8+0x8", "16+8x8"), runs(view, 0, 16).stream().map(r -> r[0] + "+" + r[1] + "x" + r[2]).toList());
        assertEquals(4, view.viewBytesBelow(12));
        assertEquals(8, view.viewBytesBelow(16));
        assertEquals(12, view.viewBytesBelow(20));
    }

    @Test
    void shouldMapContiguousViewsByAddition() throws IOException
    {
        final ViewMap view = ViewMap.of("test", 7, Datatype.LONG, Datatype.LONG, "external32");
        assertEquals(1, runs(view, 5, 1000).size());
        assertEquals(12, view.fileOffset(5));
        assertEquals(993, view.viewBytesBelow(1000));
        assertEquals(true, view.external32());
    }

    @Test
    void shouldRefuseFiletypesThatOverlapTheNextTile()
    {
        final Datatype tooShort = Datatype.resized(Datatype.contiguous(2, Datatype.INT), 0, 4).commit();
        final MpiException ex = assertThrows(MpiException.class, () -> ViewMap.of("test", 0, Datatype.INT, tooShort, "native"));
        assertEquals(ErrorClass.ERR_TYPE, ex.errorClass());
    }
}
