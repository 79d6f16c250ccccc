package org.jmpi.internal.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.util.concurrent.locks.LockSupport;

/**
 * Byte-range locks on a file that hold between JVMs (POSIX record locks through {@link FileChannel#lock}) and between
 * ranks that are threads of one JVM. The JDK keeps one lock table per JVM and refuses an overlapping request from a
 * second channel with {@link OverlappingFileLockException} instead of waiting; this retries it, spinning, then yielding,
 * then parking up to 1 ms, so ranks on 2 cores still progress. Across hosts the locks hold where the shared file
 * system implements POSIX locks (NFS with lockd, Lustre with flock). Stateless; any thread.
 */
public final class RangeLocks
{
    private static final int SPINS = 100;
    private static final int YIELDS = 100;
    private static final long MAX_PARK_NS = 1_000_000;

    private RangeLocks()
    {
    }

    /** Locks {@code [position, position + length)} of {@code channel}, shared (readers) or exclusive. Blocks. */
    public static FileLock lock(final FileChannel channel, final long position, final long length, final boolean shared)
        throws IOException
    {
        long parkNs = 1_000;
        for (int attempt = 0; ; attempt++)
        {
            try
            {
                return channel.lock(position, Math.max(1, length), shared);
            }
            catch (final OverlappingFileLockException held)
            {
                if (attempt < SPINS)
                {
                    Thread.onSpinWait();
                }
                else if (attempt < SPINS + YIELDS)
                {
                    Thread.yield();
                }
                else
                {
                    LockSupport.parkNanos(parkNs);
                    parkNs = Math.min(MAX_PARK_NS, parkNs * 2);
                }
            }
        }
    }
}
