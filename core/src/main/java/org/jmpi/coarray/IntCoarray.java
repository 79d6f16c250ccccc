package org.jmpi.coarray;

import java.nio.IntBuffer;

import org.jmpi.Datatype;

/**
 * A coarray of {@code int}s: {@link #length()} elements on every image of a {@link Team}. Local elements are read
 * and written with {@link #get(int)} and {@link #set(int, int)}, or for tight loops through {@link #local()} (the array
 * itself, where {@link #hasArray()}) or {@link #localBuffer()} (always; over arena memory when the team spans JVMs with
 * the PVAS arena);
 * remote ones with {@code put} and {@code get} to an image, complete on return, or {@code putAsync}, complete at the
 * team's next synchronisation. Another image sees local writes after a synchronisation that orders them
 * ({@link Team#syncAll()}, {@link Team#syncImages(int...)}).
 *
 * <pre>
 *   Fortran                                 jmpi
 *   integer(4) :: a(n)[*]                       IntCoarray a = IntCoarray.allocate(team, n);
 *   a(i) = x                                 a.set(i, x);
 *   a(lo:lo+k-1)[p] = b(1:k)                 a.put(p, lo, b, 0, k);
 *   b(1:k) = a(lo:lo+k-1)[p]                 a.get(p, lo, b, 0, k);
 *   a(lo:hi:s)[p] = b(...)                   a.put(p, Section.of(lo, len, s), b, Section.range(0, len));
 *   sync all                                 team.syncAll();
 * </pre>
 *
 * <p>Threading: as {@link Team}. The coarray owns its local memory.
 */
public final class IntCoarray extends Coarray
{
    /** The memory where it is an array, else null. */
    private final int[] local;
    /** The memory as a buffer (over the array, or over the arena memory); absolute indices only. */
    private final IntBuffer buffer;
    private final int[] one = new int[1];
    /** fetchAndAdd's operand (no allocation per call). */
    private final int[] operand = new int[1];

    private IntCoarray(final Team team, final int length, final int[] local)
    {
        super(team, local, length, Datatype.INT);
        this.local = local;
        this.buffer = local != null ? IntBuffer.wrap(local) : memory().asIntBuffer();
    }

    /** Allocates {@code length} elements (zeros) on every image of {@code team}. Collective; the same length on every image. */
    public static IntCoarray allocate(final Team team, final int length)
    {
        checkLength("IntCoarray.allocate", team, length);
        return new IntCoarray(team, length, team.inArena() ? null : new int[length]);
    }

    /** This image's element {@code i}. */
    public int get(final int i)
    {
        return local != null ? local[i] : buffer.get(i);
    }

    /** Sets this image's element {@code i}. */
    public void set(final int i, final int value)
    {
        if (local != null)
        {
            local[i] = value;
        }
        else
        {
            buffer.put(i, value);
        }
    }

    /**
     * This image's elements as the array itself (the local view: reads and writes go straight to the coarray).
     *
     * @throws UnsupportedOperationException where the memory is in the PVAS arena ({@link #hasArray()} false): use
     *                                       {@link #localBuffer()}.
     */
    public int[] local()
    {
        if (local == null)
        {
            throw noArray("IntCoarray.local");
        }
        return local;
    }

    /**
     * This image's elements as a buffer of {@link #length()} elements (a new view each call, position 0; reads and
     * writes by absolute index go straight to the coarray): over the array, or over the arena memory.
     */
    public IntBuffer localBuffer()
    {
        return buffer.duplicate();
    }

    @Override
    public boolean hasArray()
    {
        return local != null;
    }

    /** {@code a(offset : offset + count - 1)[image] = src(srcOffset : ...)}, complete on return. */
    public void put(final int image, final int offset, final int[] src, final int srcOffset, final int count)
    {
        put(image, offset, src, srcOffset, count, true);
    }

    /** As {@link #put(int, int, int[], int, int)}, completed at the team's next synchronisation; {@code src} must not change until then. */
    public void putAsync(final int image, final int offset, final int[] src, final int srcOffset, final int count)
    {
        put(image, offset, src, srcOffset, count, false);
    }

    /** {@code dst(dstOffset : ...) = a(offset : offset + count - 1)[image]}, complete on return. */
    public void get(final int image, final int offset, final int[] dst, final int dstOffset, final int count)
    {
        get(image, (long)offset, dst, dstOffset, count);
    }

    /** Element {@code i} of {@code image}'s copy. */
    public int get(final int image, final int i)
    {
        get(image, (long)i, one, 0, 1);
        return one[0];
    }

    /** Sets element {@code i} of {@code image}'s copy, complete on return. */
    public void put(final int image, final int i, final int value)
    {
        one[0] = value;
        put(image, i, one, 0, 1, true);
    }

    /** A strided section: {@code a(target)[image] = src(source)}, complete on return. */
    public void put(final int image, final Section target, final int[] src, final Section source)
    {
        put(image, target, src, source, true);
    }

    /** As {@link #put(int, Section, int[], Section)}, completed at the team's next synchronisation. */
    public void putAsync(final int image, final Section target, final int[] src, final Section source)
    {
        put(image, target, src, source, false);
    }

    /** A strided section: {@code dst(dest) = a(target)[image]}, complete on return. */
    public void get(final int image, final Section target, final int[] dst, final Section dest)
    {
        get(image, target, (Object)dst, dest);
    }

    /**
     * Atomically adds {@code delta} to element {@code i} of {@code image}'s copy and returns the value before (an RMA
     * fetch-and-op: atomic with respect to every other image's), complete on return.
     */
    public int fetchAndAdd(final int image, final int i, final int delta)
    {
        check(image);
        operand[0] = delta;
        win().fetchAndOp(operand, 0, one, 0, Datatype.INT, image, i, org.jmpi.Op.SUM);
        win().flush(image);
        return one[0];
    }
}
