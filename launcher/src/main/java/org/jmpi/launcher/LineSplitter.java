package org.jmpi.launcher;

import java.util.Arrays;

/**
 * Cuts a byte stream into lines for a {@link LineSink}: bytes are accumulated until a newline, which is
 * dropped (the sink writes its own). A line longer than {@link #MAX_LINE_BYTES} is passed on in pieces
 * of that size so a program printing without newlines cannot exhaust the launcher's memory.
 *
 * <p>Threading: confined to the thread that feeds it.
 */
final class LineSplitter
{
    static final int MAX_LINE_BYTES = 64 * 1024;

    private final LineSink sink;
    private final byte[] prefix;
    private byte[] line = new byte[256];
    private int length;

    LineSplitter(final LineSink sink, final byte[] prefix)
    {
        this.sink = sink;
        this.prefix = prefix;
    }

    void write(final byte[] bytes, final int offset, final int count)
    {
        for (int i = offset; i < offset + count; i++)
        {
            final byte b = bytes[i];
            if (b == '\n')
            {
                emit();
            }
            else
            {
                if (length == line.length)
                {
                    if (length == MAX_LINE_BYTES)
                    {
                        emit();
                    }
                    else
                    {
                        line = Arrays.copyOf(line, Math.min(MAX_LINE_BYTES, length * 2));
                    }
                }
                line[length++] = b;
            }
        }
    }

    /** Emits a last line that had no newline. */
    void finish()
    {
        if (length > 0)
        {
            emit();
        }
    }

    private void emit()
    {
        final int end = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
        sink.writeLine(prefix, line, end);
        length = 0;
    }
}
