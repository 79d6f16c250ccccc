package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.RankContext;

import java.io.IOException;
import java.io.InputStream;

/**
 * Installed as System.in in {@code --threads} mode: rank 0 (and threads outside any rank) read the
 * launcher's stdin; every other rank sees end of input, as it would in its own JVM under jmpirun.
 *
 * <p>Threading: any thread; reads are the delegate's.
 */
final class RankInputStream extends InputStream
{
    private final InputStream delegate;

    RankInputStream(final InputStream delegate)
    {
        this.delegate = delegate;
    }

    @Override
    public int read() throws IOException
    {
        return forThisRank() ? delegate.read() : -1;
    }

    @Override
    public int read(final byte[] bytes, final int offset, final int length) throws IOException
    {
        return forThisRank() ? delegate.read(bytes, offset, length) : -1;
    }

    @Override
    public int available() throws IOException
    {
        return forThisRank() ? delegate.available() : 0;
    }

    private static boolean forThisRank()
    {
        final RankContext context = RankContext.current();
        return context == null || context.rank() == 0;
    }
}
