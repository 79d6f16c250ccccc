package org.jmpi.internal.datatype;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.jmpi.Datatype;

/**
 * Compiles a type tree into a flat {@link Op} program.
 * <ol>
 *   <li>Each layout node becomes loops and sequences over its children's programs (built once per
 *       distinct child type).</li>
 *   <li>A loop of one iteration becomes its shifted body; a loop over a block whose stride equals the
 *       block length becomes one longer block; a loop over a loop that tiles it exactly becomes one
 *       loop.</li>
 *   <li>Sequences flatten nested sequences, merge blocks that touch (of the same basic type when
 *       typed) unless that would turn many small equal blocks into a few of mixed lengths, turn equal
 *       blocks at a constant stride into a loop, split blocks of mixed lengths into uniform segments
 *       when the segments are long, and record prefix sums.</li>
 *   <li>Zero-size subtrees vanish.</li>
 * </ol>
 * Stateless apart from one memo table per call; callable from any thread.
 */
public final class Compiler
{
    /** Largest block kept apart from touching neighbours of the same length ({@link #keepUnmerged}). */
    static final long UNMERGED_MAX_BYTES = 32;
    /**
     * Most nodes a sequence takes over from the sequences among its parts; a part beyond stays one nested node.
     * Flattening nested sequences multiplies their lengths: a type wire form of 63 bytes (indexed types of indexed
     * types) asked for billions of nodes and ran the decoding JVM out of memory (TypeWireFormFuzzTest).
     */
    static final int FLATTEN_MAX = 1 << 16;

    /** Fewest blocks per uniform segment, on average, for {@link #segmented} to split a sequence. */
    static final int SEGMENT_MIN_BLOCKS = 8;

    private final boolean typed;
    private final Map<Datatype, Op> memo = new IdentityHashMap<>();

    private Compiler(final boolean typed)
    {
        this.typed = typed;
    }

    /** The program for one item of {@code type}. */
    public static Program compile(final Datatype type, final boolean typed)
    {
        return new Program(new Compiler(typed).build(type));
    }

    private Op build(final Datatype type)
    {
        if (memo.containsKey(type))
        {
            return memo.get(type);
        }
        final Op op = switch (TypeAccess.get().layout(type))
        {
            case Layout.Basic b -> Op.block(0, b.type().size(), typed ? b.type().code() : 0);
            case Layout.Contiguous c -> loop(0, c.count(), c.old().extent(), build(c.old()));
            case Layout.HVector h -> loop(0, h.count(), h.strideBytes(),
                loop(0, h.blockLength(), h.old().extent(), build(h.old())));
            case Layout.HIndexedBlock h ->
            {
                final Op inner = loop(0, h.blockLength(), h.old().extent(), build(h.old()));
                final Op[] parts = new Op[h.displacements().length];
                for (int i = 0; i < parts.length; i++)
                {
                    parts[i] = inner == null ? null : inner.shifted(h.displacements()[i]);
                }
                yield seq(parts);
            }
            case Layout.HIndexed h ->
            {
                final Op inner = build(h.old());
                final Op[] parts = new Op[h.displacements().length];
                for (int i = 0; i < parts.length; i++)
                {
                    parts[i] = loop(h.displacements()[i], h.blockLengths()[i], h.old().extent(), inner);
                }
                yield seq(parts);
            }
            case Layout.Struct s ->
            {
                final Op[] parts = new Op[s.displacements().length];
                for (int i = 0; i < parts.length; i++)
                {
                    parts[i] = loop(s.displacements()[i], s.blockLengths()[i], s.types()[i].extent(), build(s.types()[i]));
                }
                yield seq(parts);
            }
            case Layout.Resized r -> build(r.old());
        };
        memo.put(type, op);
        return op;
    }

    /** {@code count} copies of {@code body} at {@code offset + i * stride}, simplified. */
    static Op loop(final long offset, final long count, final long stride, final Op body)
    {
        if (body == null || count == 0)
        {
            return null;
        }
        if (count == 1)
        {
            return body.shifted(offset);
        }
        if (body.kind == Op.BLOCK && stride == body.size)
        {
            return Op.block(Math.addExact(offset, body.offset), Math.multiplyExact(count, body.size), body.code);
        }
        if (body.kind == Op.LOOP && body.count * body.stride == stride)
        {
            return loop(Math.addExact(offset, body.offset), Math.multiplyExact(count, body.count), body.stride, body.body);
        }
        return Op.loop(offset, count, stride, body);
    }

    private static Op seq(final Op[] parts)
    {
        // The parts' nodes unmerged, and with touching blocks merged; a child sequence's own blocks were
        // merged (or deliberately kept apart) when it was compiled, so only its first may merge here.
        final List<Op> flat = new ArrayList<>(parts.length);
        final List<Op> merged = new ArrayList<>(parts.length);
        for (final Op p : parts)
        {
            if (p == null)
            {
                continue;
            }
            if (p.kind == Op.SEQ && flat.size() + p.children.length <= FLATTEN_MAX)
            {
                for (int i = 0; i < p.children.length; i++)
                {
                    final Op c = p.children[i].shifted(p.offset);
                    flat.add(c);
                    if (i == 0)
                    {
                        append(merged, c);
                    }
                    else
                    {
                        merged.add(c);
                    }
                }
            }
            else
            {
                flat.add(p);
                append(merged, p);
            }
        }
        if (flat.isEmpty())
        {
            return null;
        }
        final List<Op> out = keepUnmerged(flat, merged) ? flat : merged;
        if (out.size() == 1)
        {
            return out.get(0);
        }
        final Op strided = asLoop(out);
        if (strided != null)
        {
            return strided;
        }
        final Op segmented = segmented(out);
        return segmented != null ? segmented : Op.seq(0, out.toArray(new Op[0]));
    }

    /**
     * Whether to keep touching small blocks apart: when every block is small and of one length (an indexed
     * block of single values) and merging the touching ones would leave blocks of mixed lengths without
     * halving their number. The gather loops then move each block with one fixed-size load and store and read
     * only its offset, where mixed lengths cost an offset, a length and a length test per block
     * (SPECFEM3D_oc: 4-byte blocks at a sorted random index list, DdtBenchmark).
     */
    private static boolean keepUnmerged(final List<Op> flat, final List<Op> merged)
    {
        if (merged.size() == flat.size() || 2 * merged.size() <= flat.size() || uniformBlocks(merged, 0, merged.size()))
        {
            return false;
        }
        return uniformBlocks(flat, 0, flat.size()) && flat.get(0).size <= UNMERGED_MAX_BYTES;
    }

    /**
     * A sequence of blocks of mixed lengths as a sequence of uniform segments (maximal runs of blocks of one
     * length and type), when they are few: a struct of indexed blocks (LAMMPS: one 24-byte and three 8-byte
     * gathers per atom) then runs one fixed-size gather loop per segment instead of the mixed-length loop.
     * Null when the blocks are not all plain blocks, are already uniform, or the segments would average fewer than
     * {@link #SEGMENT_MIN_BLOCKS} blocks.
     */
    private static Op segmented(final List<Op> ops)
    {
        final List<Op> segments = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= ops.size(); i++)
        {
            if (ops.get(i - 1).kind != Op.BLOCK)
            {
                return null;
            }
            if (i == ops.size() || !sameBlock(ops.get(i), ops.get(start)))
            {
                final List<Op> run = ops.subList(start, i);
                if (run.size() == 1)
                {
                    segments.add(run.get(0));
                }
                else
                {
                    final Op loop = asLoop(run);
                    segments.add(loop != null ? loop : Op.seq(0, run.toArray(new Op[0])));
                }
                start = i;
            }
        }
        if (segments.size() < 2 || (long)segments.size() * SEGMENT_MIN_BLOCKS > ops.size())
        {
            return null;
        }
        return Op.seq(0, segments.toArray(new Op[0]));
    }

    private static boolean uniformBlocks(final List<Op> ops, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            if (ops.get(i).kind != Op.BLOCK || !sameBlock(ops.get(i), ops.get(from)))
            {
                return false;
            }
        }
        return true;
    }

    private static boolean sameBlock(final Op a, final Op b)
    {
        return a.kind == Op.BLOCK && b.kind == Op.BLOCK && a.size == b.size && a.code == b.code;
    }

    /** Appends {@code op}, merged into the last block if it continues it (same type when typed). */
    private static void append(final List<Op> out, final Op op)
    {
        if (op.kind == Op.BLOCK && !out.isEmpty())
        {
            final Op last = out.get(out.size() - 1);
            if (last.kind == Op.BLOCK && last.code == op.code && last.offset + last.size == op.offset)
            {
                out.set(out.size() - 1, Op.block(last.offset, last.size + op.size, op.code));
                return;
            }
        }
        out.add(op);
    }

    /** Equal blocks at a constant stride, as one loop; null if the sequence is not that regular. */
    private static Op asLoop(final List<Op> ops)
    {
        final Op first = ops.get(0);
        if (first.kind != Op.BLOCK)
        {
            return null;
        }
        final long stride = ops.get(1).offset - first.offset;
        for (int i = 1; i < ops.size(); i++)
        {
            final Op op = ops.get(i);
            if (op.kind != Op.BLOCK || op.size != first.size || op.code != first.code ||
                op.offset - ops.get(i - 1).offset != stride)
            {
                return null;
            }
        }
        return Op.loop(first.offset, ops.size(), stride, Op.block(0, first.size, first.code));
    }
}
