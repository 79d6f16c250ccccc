package org.jmpi.internal.datatype;

import java.util.Arrays;

/**
 * One node of a compiled type program: a contiguous BLOCK of bytes, a LOOP that repeats its body at
 * a byte stride, or a SEQ of children at their own offsets with prefix sums of their packed sizes
 * (so a cursor finds the child holding a stream position by binary search).
 * <p>
 * Every offset is relative to the parent's origin (for a LOOP body: the origin of the current
 * iteration). Nodes are never empty: a zero-size subtree compiles to {@code null}.
 * Immutable; shared by every cursor of a committed type, from any thread.
 */
final class Op
{
    static final int BLOCK = 0;
    static final int LOOP = 1;
    static final int SEQ = 2;

    final int kind;
    final long offset;
    /** Packed bytes of the whole node. */
    final long size;
    /** BLOCK: the basic type code of every element in it (typed programs), or 0 (mixed / untyped). */
    final int code;

    /** LOOP: iterations, byte stride between them, and the repeated body. */
    final long count;
    final long stride;
    final Op body;

    /** SEQ: children in stream order; prefix[i] = packed bytes before child i (length n + 1). */
    final Op[] children;
    final long[] prefix;
    /** SEQ: every child is a BLOCK, so the cursor treats the whole SEQ as one leaf. */
    final boolean allBlocks;
    /** SEQ of blocks: the children's offsets and lengths, for the gather/scatter loops. */
    final long[] blockOffsets;
    final long[] blockLengths;
    /** SEQ of blocks: the common block length if all are equal, else 0. */
    final long uniformLength;

    /** Contiguous runs in one instance of this node, saturating at Long.MAX_VALUE. */
    final long blocks;
    final long minRun;
    /** Frames a cursor needs to stand inside this node. */
    final int depth;
    /** OR of every offset and stride below this node (alignment check for typed arrays). */
    final long innerBits;

    private Op(final int kind, final long offset, final long size, final int code, final long count, final long stride,
        final Op body, final Op[] children, final long[] prefix, final boolean allBlocks, final long blocks,
        final long minRun, final int depth, final long innerBits)
    {
        this.kind = kind;
        this.offset = offset;
        this.size = size;
        this.code = code;
        this.count = count;
        this.stride = stride;
        this.body = body;
        this.children = children;
        this.prefix = prefix;
        this.allBlocks = allBlocks;
        long uniform = 0;
        if (allBlocks)
        {
            blockOffsets = new long[children.length];
            blockLengths = new long[children.length];
            uniform = children[0].size;
            for (int i = 0; i < children.length; i++)
            {
                blockOffsets[i] = children[i].offset;
                blockLengths[i] = children[i].size;
                uniform = blockLengths[i] == uniform ? uniform : 0;
            }
        }
        else
        {
            blockOffsets = null;
            blockLengths = null;
        }
        this.uniformLength = uniform;
        this.blocks = blocks;
        this.minRun = minRun;
        this.depth = depth;
        this.innerBits = innerBits;
    }

    static Op block(final long offset, final long size, final int code)
    {
        assert size > 0;
        return new Op(BLOCK, offset, size, code, 1, 0, null, null, null, false, 1, size, 1, 0);
    }

    static Op loop(final long offset, final long count, final long stride, final Op body)
    {
        assert count > 1 && body != null;
        final long blocks = saturatingMultiply(count, body.blocks);
        final int depth = body.kind == BLOCK ? 1 : 1 + body.depth;
        return new Op(LOOP, offset, Math.multiplyExact(count, body.size), 0, count, stride, body, null, null, false,
            blocks, body.minRun, depth, stride | body.bits());
    }

    static Op seq(final long offset, final Op[] children)
    {
        assert children.length > 1;
        final long[] prefix = new long[children.length + 1];
        boolean allBlocks = true;
        long blocks = 0;
        long minRun = Long.MAX_VALUE;
        int depth = 0;
        long bits = 0;
        for (int i = 0; i < children.length; i++)
        {
            final Op c = children[i];
            prefix[i + 1] = Math.addExact(prefix[i], c.size);
            allBlocks &= c.kind == BLOCK;
            blocks = saturatingAdd(blocks, c.blocks);
            minRun = Math.min(minRun, c.minRun);
            depth = Math.max(depth, c.depth);
            bits |= c.bits();
        }
        return new Op(SEQ, offset, prefix[children.length], 0, children.length, 0, null, children, prefix, allBlocks,
            blocks, minRun, allBlocks ? 1 : 1 + depth, bits);
    }

    /** The same node at another offset. */
    Op shifted(final long delta)
    {
        if (delta == 0)
        {
            return this;
        }
        return new Op(kind, Math.addExact(offset, delta), size, code, count, stride, body, children, prefix, allBlocks,
            blocks, minRun, depth, innerBits);
    }

    long bits()
    {
        return innerBits | offset;
    }

    /** SEQ: index of the child holding stream offset p (0 &lt;= p &lt; size). */
    int find(final long p)
    {
        int i = Arrays.binarySearch(prefix, 0, children.length, p);
        if (i < 0)
        {
            i = -i - 2;
        }
        return i;
    }

    static long saturatingMultiply(final long a, final long b)
    {
        final long hi = Math.multiplyHigh(a, b);
        final long lo = a * b;
        return (hi == 0 && lo >= 0) ? lo : Long.MAX_VALUE;
    }

    static long saturatingAdd(final long a, final long b)
    {
        final long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    @Override
    public String toString()
    {
        return switch (kind)
        {
            case BLOCK -> "block(@" + offset + ", " + size + (code != 0 ? ", code " + code : "") + ")";
            case LOOP -> "loop(@" + offset + ", " + count + " x stride " + stride + ", " + body + ")";
            default -> "seq(@" + offset + ", " + Arrays.toString(children) + ")";
        };
    }
}
