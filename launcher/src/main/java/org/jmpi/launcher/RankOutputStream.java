package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.RankContext;

import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * Installed as System.out or System.err in {@code --threads} mode with {@code --tag-output}: bytes are
 * cut into lines per rank (found by {@link RankContext#current()}, inherited by the threads a rank
 * starts) and each line is written with that rank's tag. Threads outside any rank write untagged.
 *
 * <p>Threading: any thread; one lock guards the per-rank partial lines.
 */
final class RankOutputStream extends OutputStream
{
    private static final int NO_RANK = -1;

    private final LineSink sink;
    private final Map<Integer, LineSplitter> splitters = new HashMap<>();

    RankOutputStream(final LineSink sink)
    {
        this.sink = sink;
    }

    @Override
    public void write(final int b)
    {
        write(new byte[] {(byte)b}, 0, 1);
    }

    @Override
    public synchronized void write(final byte[] bytes, final int offset, final int length)
    {
        final RankContext context = RankContext.current();
        final int rank = context == null ? NO_RANK : context.rank();
        splitters.computeIfAbsent(rank, r -> new LineSplitter(sink, r == NO_RANK ? new byte[0] : LineSink.tag(r)))
            .write(bytes, offset, length);
    }

    /** Emits every rank's unfinished last line. */
    @Override
    public synchronized void close()
    {
        splitters.values().forEach(LineSplitter::finish);
    }
}
