package org.jmpi.launcher;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LineSplitterTest
{
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final LineSink sink = new LineSink(written);

    @Test
    void shouldPrefixEachLineAndJoinPiecesSplitAcrossWrites()
    {
        final LineSplitter splitter = new LineSplitter(sink, LineSink.tag(3));
        write(splitter, "hel");
        write(splitter, "lo\nwor");
        write(splitter, "ld\r\n\nlast");
        assertEquals("[3] hello\n[3] world\n[3] \n", text());
        splitter.finish();
        assertEquals("[3] hello\n[3] world\n[3] \n[3] last\n", text());
    }

    @Test
    void shouldCutOverlongLinesIntoBoundedPieces()
    {
        final LineSplitter splitter = new LineSplitter(sink, new byte[0]);
        write(splitter, "x".repeat(LineSplitter.MAX_LINE_BYTES + 10) + "\n");
        assertEquals("x".repeat(LineSplitter.MAX_LINE_BYTES) + "\n" + "x".repeat(10) + "\n", text());
    }

    @Test
    void shouldWriteNothingForEmptyInput()
    {
        final LineSplitter splitter = new LineSplitter(sink, LineSink.tag(0));
        splitter.finish();
        assertEquals("", text());
    }

    private static void write(final LineSplitter splitter, final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        splitter.write(bytes, 0, bytes.length);
    }

    private String text()
    {
        return written.toString(StandardCharsets.UTF_8);
    }
}
