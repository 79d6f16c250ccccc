package org.jmpi.coarray;

import java.nio.ByteBuffer;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Win;

/**
 * What every coarray shares: the window over each image's memory, in one lock-all epoch (MODE_NOCHECK: no lock
 * traffic) from allocation to {@link #close()}. A blocking transfer is an RMA operation and a flush of that image; a
 * nonblocking put skips the flush and is completed by the team's next synchronisation (or {@link #close()}).
 *
 * <p>Where the memory is, chosen once per team ({@link Team}): a Java array (ranks that are threads of one JVM, or JVMs
 * without the PVAS arena), or, when every image has the arena ({@code jmpi.pvas.partition.size}), direct memory in the
 * image's arena partition ({@code Win.allocate}), which images in other JVMs copy to and from directly. The local view
 * is then a buffer ({@code localBuffer()}), not an array ({@code hasArray()} says which).
 *
 * <p>Threading: as {@link Team}. The coarray owns its local memory (the window's memory).
 */
public abstract sealed class Coarray implements AutoCloseable permits DoubleCoarray, IntCoarray, LongCoarray
{
    private final Team team;
    private final Win win;
    private final int length;
    private final Datatype element;
    private boolean pendingPuts;
    private boolean closed;

    /**
     * @param heap the image's array (its memory on the heap), or null: {@code length} elements of the team's arena
     *             memory ({@link #memory()}).
     */
    Coarray(final Team team, final Object heap, final int length, final Datatype element)
    {
        this.team = team;
        this.length = length;
        this.element = element;
        final int elementBytes = (int)element.size();
        this.win = heap != null ? Win.create(heap, elementBytes, null, team.comm()) :
            Win.allocate((long)length * elementBytes, elementBytes, null, team.comm());
        win.setName("coarray of " + length + " " + element.name());
        win.lockAll(Win.MODE_NOCHECK);
        team.opened(this);
    }

    static void checkLength(final String call, final Team team, final int length)
    {
        if (team == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": team is null");
        }
        if (length < 0)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, call + ": length " + length + " must be >= 0");
        }
    }

    /** Elements of the coarray on each image. */
    public final int length()
    {
        return length;
    }

    /** The team the coarray was allocated on. */
    public final Team team()
    {
        return team;
    }

    /** Whether the local view is a Java array ({@code local()}); else only a buffer ({@code localBuffer()}). */
    public abstract boolean hasArray();

    /** Where the memory is not an array: the window's memory, native order. */
    final ByteBuffer memory()
    {
        return (ByteBuffer)win.base();
    }

    final UnsupportedOperationException noArray(final String call)
    {
        return new UnsupportedOperationException(call + ": this coarray's memory is in the PVAS arena (its team spans JVMs " +
            "with jmpi.pvas.partition.size set, so other images copy to and from it directly), not a Java array; use " +
            "localBuffer(), get(i) and set(i, v), or hasArray() to choose (docs/rma.md, \"Coarrays\")");
    }

    /** The window beneath (for RMA calls beside the coarray API; it stays in its lock-all epoch). */
    public final Win win()
    {
        return win;
    }

    final void put(final int image, final long offset, final Object src, final int srcOffset, final int count, final boolean block)
    {
        check(image);
        win.put(src, srcOffset, count, element, image, offset, count, element);
        done(image, block);
    }

    final void get(final int image, final long offset, final Object dst, final int dstOffset, final int count)
    {
        check(image);
        win.get(dst, dstOffset, count, element, image, offset, count, element);
        win.flush(image);
    }

    final void put(final int image, final Section target, final Object src, final Section source, final boolean block)
    {
        check(image);
        sameCount(target, source);
        win.put(src, (int)source.offset(), 1, source.type(element), image, target.offset(), 1, target.type(element));
        done(image, block);
    }

    final void get(final int image, final Section target, final Object dst, final Section dest)
    {
        check(image);
        sameCount(target, dest);
        win.get(dst, (int)dest.offset(), 1, dest.type(element), image, target.offset(), 1, target.type(element));
        win.flush(image);
    }

    private static void sameCount(final Section target, final Section local)
    {
        if (target.count() != local.count())
        {
            throw new MpiException(ErrorClass.ERR_COUNT, "coarray section of " + target.count() + " elements and local section of " +
                local.count() + " elements differ");
        }
    }

    private void done(final int image, final boolean block)
    {
        if (block)
        {
            win.flush(image);
        }
        else
        {
            pendingPuts = true;
        }
    }

    final void check(final int image)
    {
        if (closed)
        {
            throw new MpiException(ErrorClass.ERR_WIN, "coarray: closed");
        }
        if (image < 0 || image >= team.numImages())
        {
            throw new MpiException(ErrorClass.ERR_RANK, "coarray: image " + image + " outside [0, " + team.numImages() + ")");
        }
    }

    /** Completes this image's nonblocking puts (the team's synchronisation statements call it). */
    final void completePuts()
    {
        if (pendingPuts)
        {
            pendingPuts = false;
            win.flushAll();
        }
    }

    /**
     * Frees the coarray on every image (collective): completes this image's puts and waits until no image uses it.
     */
    @Override
    public final void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        team.closed(this);
        win.unlockAll();
        win.free();
    }
}
