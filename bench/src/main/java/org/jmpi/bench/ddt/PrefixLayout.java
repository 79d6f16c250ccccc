package org.jmpi.bench.ddt;

import org.jmpi.Datatype;
import org.jmpi.examples.ddt.DdtPattern;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;

import java.util.ArrayList;
import java.util.List;

/**
 * A DDTBench pattern's layout cut to its first {@code bytes} of packed stream, as a datatype: what the sweeps of
 * Figures 5 and 15 (1 KiB to 1 MiB per pattern) send. The runs the pattern's cursor walks up to that point are
 * grouped into pieces of equal length at a constant stride (an {@code hvector} each, a contiguous block for a
 * single run) and the pieces joined by a {@code struct}, so a regular layout stays a short type (its description
 * fits the RTS as the pattern's own type does) while an irregular one keeps its index list.
 *
 * <p>Displacements are relative to the pattern's element offset; the type is used with count 1 at that offset.
 * Stateless; any thread.
 */
final class PrefixLayout
{
    private PrefixLayout()
    {
    }

    /**
     * The first {@code bytes} of {@code count} items of {@code type} at {@code elementOffset} of {@code p}'s buffer.
     *
     * @throws IllegalArgumentException when the message is shorter than {@code bytes} or {@code bytes} is not a
     *                                  multiple of the element size
     */
    static Datatype of(final DdtPattern p, final long elementOffset, final int count, final Datatype type, final long bytes)
    {
        final Datatype element = p.element();
        final long elementBytes = element.size();
        if (bytes % elementBytes != 0 || bytes > type.size() * count)
        {
            throw new IllegalArgumentException(p.name() + ": cannot cut " + type.size() * count + " bytes to " + bytes);
        }
        final BufferView view = BufferView.of(p.buffer(), "pattern buffer");
        final Convertor c = Convertor.create(view, elementOffset, count, type);
        final long origin = view.address() + elementOffset * elementBytes;
        final List<long[]> runs = new ArrayList<>();
        long left = bytes;
        while (left > 0)
        {
            final long length = Math.min(left, c.runLength());
            runs.add(new long[] {c.runAddress() - origin, length});
            c.skip(length);
            left -= length;
        }
        final List<Datatype> pieces = new ArrayList<>();
        final List<Long> displacements = new ArrayList<>();
        int i = 0;
        while (i < runs.size())
        {
            final long length = runs.get(i)[1];
            int j = i + 1;
            final long stride = j < runs.size() ? runs.get(j)[0] - runs.get(i)[0] : 0;
            while (j < runs.size() && runs.get(j)[1] == length && runs.get(j)[0] - runs.get(j - 1)[0] == stride)
            {
                j++;
            }
            final int block = (int)(length / elementBytes);
            pieces.add(j - i == 1 ? Datatype.contiguous(block, element) : Datatype.hvector(j - i, block, stride, element));
            displacements.add(runs.get(i)[0]);
            i = j;
        }
        final int[] ones = new int[pieces.size()];
        final long[] disp = new long[pieces.size()];
        for (int k = 0; k < ones.length; k++)
        {
            ones[k] = 1;
            disp[k] = displacements.get(k);
        }
        return Datatype.struct(ones, disp, pieces.toArray(new Datatype[0])).commit();
    }
}
