package org.jmpi.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One of the launcher's output streams (its stdout or stderr) shared by every rank: each line is
 * written with one {@code write} under a lock, so lines of different ranks never interleave.
 *
 * <p>Threading: any thread. Write errors (a closed pipe) are dropped: the launcher keeps supervising
 * the job when nobody reads its output.
 */
final class LineSink
{
    private final OutputStream out;

    LineSink(final OutputStream out)
    {
        this.out = out;
    }

    /** Writes {@code prefix}, {@code length} bytes of {@code line} and a newline. */
    void writeLine(final byte[] prefix, final byte[] line, final int length)
    {
        final byte[] whole = new byte[prefix.length + length + 1];
        System.arraycopy(prefix, 0, whole, 0, prefix.length);
        System.arraycopy(line, 0, whole, prefix.length, length);
        whole[whole.length - 1] = '\n';
        synchronized (this)
        {
            try
            {
                out.write(whole);
                out.flush();
            }
            catch (final IOException ex)
            {
                // Nobody is reading; the job goes on.
            }
        }
    }

    /** Writes one line of text (the launcher's own messages). */
    void println(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        writeLine(new byte[0], bytes, bytes.length);
    }

    /** The prefix for rank {@code rank} with {@code --tag-output}. */
    static byte[] tag(final int rank)
    {
        return ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
    }
}
