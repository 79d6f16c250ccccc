package org.jmpi.launcher;

import java.io.IOException;
import java.io.InputStream;

/**
 * Copies one rank's stdout or stderr pipe to the launcher's, line by line, on its own daemon thread,
 * until the pipe ends.
 *
 * <p>Threading: owns its thread; {@link #await} from any thread.
 */
final class StreamForwarder
{
    private final Thread thread;

    private StreamForwarder(final InputStream in, final LineSplitter splitter, final String name)
    {
        this.thread = Thread.ofPlatform().daemon().name(name).stackSize(256 * 1024).unstarted(() -> pump(in, splitter));
    }

    static StreamForwarder start(final InputStream in, final LineSink sink, final byte[] prefix, final String name)
    {
        final StreamForwarder forwarder = new StreamForwarder(in, new LineSplitter(sink, prefix), name);
        forwarder.thread.start();
        return forwarder;
    }

    /** Waits until the pipe has ended and every line is written, up to {@code timeoutMs}. */
    void await(final long timeoutMs) throws InterruptedException
    {
        thread.join(Math.max(1, timeoutMs));
    }

    private static void pump(final InputStream in, final LineSplitter splitter)
    {
        final byte[] buffer = new byte[8192];
        try (in)
        {
            int read;
            while ((read = in.read(buffer)) >= 0)
            {
                splitter.write(buffer, 0, read);
            }
        }
        catch (final IOException ex)
        {
            // The pipe broke: the rank is gone; what was read is written below.
        }
        finally
        {
            splitter.finish();
        }
    }
}
