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
 *       typed), turn equal blocks at a constant stride into a loop, and record prefix sums.</li>
 *   <li>Zero-size subtrees vanish.</li>
 * </ol>
 * Stateless apart from one memo table per call; callable from any thread.
 */
public final class Compiler
{
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
        final List<Op> out = new ArrayList<>(parts.length);
        for (final Op p : parts)
        {
            if (p == null)
            {
                continue;
            }
            if (p.kind == Op.SEQ)
            {
                for (final Op c : p.children)
                {
                    append(out, c.shifted(p.offset));
                }
            }
            else
            {
                append(out, p);
            }
        }
        if (out.isEmpty())
        {
            return null;
        }
        if (out.size() == 1)
        {
            return out.get(0);
        }
        final Op strided = asLoop(out);
        return strided != null ? strided : Op.seq(0, out.toArray(new Op[0]));
    }

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
