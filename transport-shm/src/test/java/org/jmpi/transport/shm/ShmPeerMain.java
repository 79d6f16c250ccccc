package org.jmpi.transport.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.testkit.transport.FramePattern;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.jmpi.transport.shm.ShmTwoProcessTest.DONE_LENGTH;
import static org.jmpi.transport.shm.ShmTwoProcessTest.ORDER;
import static org.jmpi.transport.shm.ShmTwoProcessTest.PING_LENGTH;
import static org.jmpi.transport.shm.ShmTwoProcessTest.PING_PONGS;
import static org.jmpi.transport.shm.ShmTwoProcessTest.STREAM_BYTES;
import static org.jmpi.transport.shm.ShmTwoProcessTest.STREAM_HEADER_LENGTH;
import static org.jmpi.transport.shm.ShmTwoProcessTest.STREAM_PAYLOAD_LENGTH;

/**
 * Rank 0 of {@link ShmTwoProcessTest}, in its own JVM: creates the node's file, echoes the pings,
 * streams {@code STREAM_BYTES} through the fragment pool, and waits for the test's receipt.
 * Arguments: bootstrap directory, job id, shm directory. Exit code 0 on success.
 */
public final class ShmPeerMain
{
    private static final long WATCHDOG_MS = TimeUnit.SECONDS.toMillis(120);

    private ShmPeerMain()
    {
    }

    public static void main(final String[] args)
    {
        final Thread watchdog = Thread.ofPlatform().daemon().start(() ->
        {
            try
            {
                Thread.sleep(WATCHDOG_MS);
                System.err.println("shm peer: watchdog expired, exiting");
                System.exit(3);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        try
        {
            run(Path.of(args[0]), args[1], Path.of(args[2]));
            System.out.println("shm peer: done");
            System.exit(0);
        }
        catch (final Throwable ex)
        {
            ex.printStackTrace();
            System.exit(1);
        }
        finally
        {
            watchdog.interrupt();
        }
    }

    private static void run(final Path bootstrapDir, final String jobId, final Path shmDir)
    {
        final FileBootstrap bootstrap = new FileBootstrap(bootstrapDir, 0, 2, jobId);
        final TransportContext context = FixedTransportContext.of(bootstrap, shmDir);
        final ShmTransportProvider provider = new ShmTransportProvider();
        final String refused = provider.probe(context);
        if (refused != null)
        {
            throw new IllegalStateException("probe refused: " + refused);
        }
        try (Transport transport = provider.open(context))
        {
            final UnsafeBuffer last = new UnsafeBuffer(new byte[DONE_LENGTH]);
            final int[] lastLength = {-1};
            final FrameHandler keep = (src, buffer, index, length) ->
            {
                if (src != 1 || lastLength[0] != -1 || length > last.capacity())
                {
                    throw new IllegalStateException("unexpected frame: source=" + src + ", length=" + length);
                }
                last.putBytes(0, buffer, index, length);
                lastLength[0] = length;
            };

            final FrameWriter echo = (buffer, index, length) -> buffer.putBytes(index, last, 0, length);
            for (int i = 0; i < PING_PONGS; i++)
            {
                while (lastLength[0] < 0)
                {
                    transport.progress(keep);
                }
                if (lastLength[0] != PING_LENGTH || last.getLong(0, ORDER) != i)
                {
                    throw new IllegalStateException("ping " + i + ": length=" + lastLength[0] + ", value=" + last.getLong(0, ORDER));
                }
                lastLength[0] = -1;
                while (!transport.offer(1, PING_LENGTH, echo))
                {
                    Thread.onSpinWait();
                }
            }

            for (long position = 0; position < STREAM_BYTES; position += STREAM_PAYLOAD_LENGTH)
            {
                final long framePosition = position;
                final int payload = (int)Math.min(STREAM_PAYLOAD_LENGTH, STREAM_BYTES - position);
                while (!transport.offer(1, STREAM_HEADER_LENGTH + payload, (buffer, index, length) ->
                {
                    buffer.putLong(index, framePosition, ORDER);
                    FramePattern.write(buffer, index + STREAM_HEADER_LENGTH, length - STREAM_HEADER_LENGTH, framePosition);
                }))
                {
                    transport.progress(keep);
                }
            }

            while (lastLength[0] < 0)
            {
                transport.progress(keep);
            }
            if (lastLength[0] != DONE_LENGTH || last.getLong(0, ORDER) != STREAM_BYTES)
            {
                throw new IllegalStateException("receipt: length=" + lastLength[0] + ", bytes=" + last.getLong(0, ORDER));
            }
        }
    }
}
