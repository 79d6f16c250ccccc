package org.jmpi.transport.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.MpiException;
import org.jmpi.spi.Params;
import org.jmpi.spi.Transport;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.jmpi.transport.shm.ShmTwoProcessTest.ORDER;

/**
 * Rank 0 of {@link ShmCorruptionTest}, in its own JVM: echoes every frame rank 1 sends (same length, so
 * large ones come back through its fragment pool), and on a {@link #SLEEP} frame acknowledges and stops
 * reading for the given time. Polls without pause. When the transport raises an {@link MpiException} it
 * prints {@link #FAILED} and the message and exits with {@link #EXIT_MPI_EXCEPTION}; on anything else 1.
 * Arguments: bootstrap directory, job id, shm directory, {@code jmpi.shm.checksum}.
 */
public final class ShmVictimMain
{
    static final long SLEEP = -1;
    static final long SLEEPING = -2;
    static final int SLEEP_LENGTH = 2 * Long.BYTES;
    static final String FAILED = "victim: MpiException after ";
    static final int EXIT_MPI_EXCEPTION = 42;
    private static final long WATCHDOG_MS = TimeUnit.SECONDS.toMillis(90);

    private ShmVictimMain()
    {
    }

    public static void main(final String[] args)
    {
        Thread.ofPlatform().daemon().start(() ->
        {
            try
            {
                Thread.sleep(WATCHDOG_MS);
                System.err.println("victim: watchdog expired, exiting");
                System.exit(3);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        try
        {
            run(Path.of(args[0]), args[1], Path.of(args[2]), args[3]);
        }
        catch (final Throwable ex)
        {
            ex.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(final Path bootstrapDir, final String jobId, final Path shmDir, final String checksum)
    {
        final FileBootstrap bootstrap = new FileBootstrap(bootstrapDir, 0, 2, jobId);
        final FixedTransportContext context = new FixedTransportContext(0, 2, jobId, bootstrap,
            new Params(Map.of(ShmParams.DIR.name(), shmDir.toString(), ShmParams.CHECKSUM.name(), checksum)));
        final ArrayDeque<byte[]> pending = new ArrayDeque<>();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[0]);
        long frames = 0;
        try (Transport transport = new ShmTransportProvider().open(context))
        {
            System.out.println("victim: open");
            while (true)
            {
                transport.progress((src, buffer, index, length) ->
                {
                    final byte[] copy = new byte[length];
                    buffer.getBytes(index, copy);
                    pending.add(copy);
                });
                while (!pending.isEmpty())
                {
                    final byte[] frame = pending.peek();
                    final boolean sleep = frame.length == SLEEP_LENGTH && new UnsafeBuffer(frame).getLong(0, ORDER) == SLEEP;
                    if (sleep)
                    {
                        out.wrap(new byte[Long.BYTES]);
                        out.putLong(0, SLEEPING, ORDER);
                    }
                    else
                    {
                        out.wrap(frame);
                    }
                    if (!transport.offer(1, out.capacity(), (buffer, index, length) -> buffer.putBytes(index, out, 0, length)))
                    {
                        break;
                    }
                    pending.poll();
                    frames++;
                    if (sleep)
                    {
                        Thread.sleep(new UnsafeBuffer(frame).getLong(Long.BYTES, ORDER));
                    }
                }
            }
        }
        catch (final MpiException ex)
        {
            System.out.println(FAILED + frames + " frames: " + ex.getMessage());
            System.out.flush();
            System.exit(EXIT_MPI_EXCEPTION);
        }
        catch (final InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
