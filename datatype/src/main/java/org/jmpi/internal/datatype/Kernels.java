package org.jmpi.internal.datatype;

import org.agrona.UnsafeApi;

import static org.jmpi.internal.datatype.KernelLoops.copySmall;
import static org.jmpi.internal.datatype.KernelLoops.gatherLoop;
import static org.jmpi.internal.datatype.KernelLoops.scatterLoop;
import static org.jmpi.internal.datatype.KernelLoops.stridedPasses;

/**
 * The copy entry points of the convertor. Each one dispatches on the concrete classes of its two base
 * objects (null for off-heap memory, or the array kind) and calls one small loop with statically typed
 * arguments; once the JIT inlines the loop into a branch it sees array-typed or raw accesses, with exact
 * aliasing and no memory barriers. With an {@code Object} base that may be null, HotSpot treats every
 * Unsafe access as possibly off-heap and fences it: that cost 1.5x on 24-byte gathers (ad-hoc timing
 * loop, JDK 25, the 2-core CI box: 9.4 us untyped, 6.4 us typed or dispatched, per 4000 blocks).
 * Arrays other than those listed fall through to the untyped loop. The dispatch trees are regular by
 * construction: four cases on the stream side (byte[] or off-heap, as destination or as source) times
 * the buffer kinds. The loops themselves are in {@link KernelLoops}.
 * <p>
 * Stateless; any thread. Callers own the memory and guarantee every address lies inside its base.
 */
final class Kernels
{
    /**
     * Runs at or above this length use Unsafe.copyMemory; shorter ones use 8-byte moves. Not yet tuned by
     * measurement (the shared CI box was too loaded to time it): chosen as the point where a copyMemory
     * call's fixed cost stops dominating. To be set from the bench/ DDTBench JMH runs.
     */
    static final long SMALL_COPY_BYTES = 64;

    private Kernels()
    {
    }

    /**
     * {@code passes} passes of {@code blocks} copies of {@code length} bytes, source and destination advancing
     * by their strides within a pass and by their pass strides between passes (a 2-D face in one call).
     */
    static void strided(final Object srcBase, final long src, final long srcStride, final long srcPassStride,
        final Object dstBase, final long dst, final long dstStride, final long dstPassStride, final long length,
        final long blocks, final long passes)
    {
        if (dstBase instanceof byte[] b)
        {
            if (srcBase instanceof double[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, b, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase == null)
            {
                stridedPasses(null, src, srcStride, srcPassStride, b, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase instanceof byte[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, b, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase instanceof int[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, b, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase instanceof long[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, b, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase instanceof float[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, b, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else
            {
                stridedPasses(srcBase, src, srcStride, srcPassStride, b, dst, dstStride, dstPassStride, length, blocks, passes);
            }
        }
        else if (dstBase == null)
        {
            if (srcBase instanceof double[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, null, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase == null)
            {
                stridedPasses(null, src, srcStride, srcPassStride, null, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase instanceof byte[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, null, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase instanceof int[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, null, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase instanceof long[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, null, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (srcBase instanceof float[] a)
            {
                stridedPasses(a, src, srcStride, srcPassStride, null, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else
            {
                stridedPasses(srcBase, src, srcStride, srcPassStride, null, dst, dstStride, dstPassStride, length, blocks, passes);
            }
        }
        else if (srcBase instanceof byte[] b)
        {
            if (dstBase instanceof double[] a)
            {
                stridedPasses(b, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase == null)
            {
                stridedPasses(b, src, srcStride, srcPassStride, null, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase instanceof byte[] a)
            {
                stridedPasses(b, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase instanceof int[] a)
            {
                stridedPasses(b, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase instanceof long[] a)
            {
                stridedPasses(b, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase instanceof float[] a)
            {
                stridedPasses(b, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else
            {
                stridedPasses(b, src, srcStride, srcPassStride, dstBase, dst, dstStride, dstPassStride, length, blocks, passes);
            }
        }
        else if (srcBase == null)
        {
            if (dstBase instanceof double[] a)
            {
                stridedPasses(null, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase == null)
            {
                stridedPasses(null, src, srcStride, srcPassStride, null, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase instanceof byte[] a)
            {
                stridedPasses(null, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase instanceof int[] a)
            {
                stridedPasses(null, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase instanceof long[] a)
            {
                stridedPasses(null, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else if (dstBase instanceof float[] a)
            {
                stridedPasses(null, src, srcStride, srcPassStride, a, dst, dstStride, dstPassStride, length, blocks, passes);
            }
            else
            {
                stridedPasses(null, src, srcStride, srcPassStride, dstBase, dst, dstStride, dstPassStride, length, blocks, passes);
            }
        }
        else
        {
            stridedPasses(srcBase, src, srcStride, srcPassStride, dstBase, dst, dstStride, dstPassStride, length, blocks, passes);
        }
    }

    /** Blocks {@code [from, to)} at {@code origin + offsets[i]} into consecutive bytes at {@code dst}. */
    static void gather(final Object srcBase, final long origin, final long[] offsets, final long[] lengths,
        final long uniformLength, final int from, final int to, final Object dstBase, final long dst)
    {
        if (dstBase instanceof byte[] b)
        {
            if (srcBase instanceof double[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, b, dst);
            }
            else if (srcBase == null)
            {
                gatherLoop(null, origin, offsets, lengths, uniformLength, from, to, b, dst);
            }
            else if (srcBase instanceof byte[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, b, dst);
            }
            else if (srcBase instanceof int[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, b, dst);
            }
            else if (srcBase instanceof long[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, b, dst);
            }
            else if (srcBase instanceof float[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, b, dst);
            }
            else
            {
                gatherLoop(srcBase, origin, offsets, lengths, uniformLength, from, to, b, dst);
            }
        }
        else if (dstBase == null)
        {
            if (srcBase instanceof double[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, null, dst);
            }
            else if (srcBase == null)
            {
                gatherLoop(null, origin, offsets, lengths, uniformLength, from, to, null, dst);
            }
            else if (srcBase instanceof byte[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, null, dst);
            }
            else if (srcBase instanceof int[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, null, dst);
            }
            else if (srcBase instanceof long[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, null, dst);
            }
            else if (srcBase instanceof float[] a)
            {
                gatherLoop(a, origin, offsets, lengths, uniformLength, from, to, null, dst);
            }
            else
            {
                gatherLoop(srcBase, origin, offsets, lengths, uniformLength, from, to, null, dst);
            }
        }
        else if (srcBase instanceof byte[] b)
        {
            if (dstBase instanceof double[] a)
            {
                gatherLoop(b, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else if (dstBase == null)
            {
                gatherLoop(b, origin, offsets, lengths, uniformLength, from, to, null, dst);
            }
            else if (dstBase instanceof byte[] a)
            {
                gatherLoop(b, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else if (dstBase instanceof int[] a)
            {
                gatherLoop(b, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else if (dstBase instanceof long[] a)
            {
                gatherLoop(b, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else if (dstBase instanceof float[] a)
            {
                gatherLoop(b, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else
            {
                gatherLoop(b, origin, offsets, lengths, uniformLength, from, to, dstBase, dst);
            }
        }
        else if (srcBase == null)
        {
            if (dstBase instanceof double[] a)
            {
                gatherLoop(null, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else if (dstBase == null)
            {
                gatherLoop(null, origin, offsets, lengths, uniformLength, from, to, null, dst);
            }
            else if (dstBase instanceof byte[] a)
            {
                gatherLoop(null, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else if (dstBase instanceof int[] a)
            {
                gatherLoop(null, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else if (dstBase instanceof long[] a)
            {
                gatherLoop(null, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else if (dstBase instanceof float[] a)
            {
                gatherLoop(null, origin, offsets, lengths, uniformLength, from, to, a, dst);
            }
            else
            {
                gatherLoop(null, origin, offsets, lengths, uniformLength, from, to, dstBase, dst);
            }
        }
        else
        {
            gatherLoop(srcBase, origin, offsets, lengths, uniformLength, from, to, dstBase, dst);
        }
    }

    /** Consecutive bytes at {@code src} into blocks {@code [from, to)} at {@code origin + offsets[i]}. */
    static void scatter(final Object srcBase, final long src, final Object dstBase, final long origin, final long[] offsets,
        final long[] lengths, final long uniformLength, final int from, final int to)
    {
        if (dstBase instanceof byte[] b)
        {
            if (srcBase instanceof double[] a)
            {
                scatterLoop(a, src, b, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase == null)
            {
                scatterLoop(null, src, b, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase instanceof byte[] a)
            {
                scatterLoop(a, src, b, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase instanceof int[] a)
            {
                scatterLoop(a, src, b, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase instanceof long[] a)
            {
                scatterLoop(a, src, b, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase instanceof float[] a)
            {
                scatterLoop(a, src, b, origin, offsets, lengths, uniformLength, from, to);
            }
            else
            {
                scatterLoop(srcBase, src, b, origin, offsets, lengths, uniformLength, from, to);
            }
        }
        else if (dstBase == null)
        {
            if (srcBase instanceof double[] a)
            {
                scatterLoop(a, src, null, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase == null)
            {
                scatterLoop(null, src, null, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase instanceof byte[] a)
            {
                scatterLoop(a, src, null, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase instanceof int[] a)
            {
                scatterLoop(a, src, null, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase instanceof long[] a)
            {
                scatterLoop(a, src, null, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (srcBase instanceof float[] a)
            {
                scatterLoop(a, src, null, origin, offsets, lengths, uniformLength, from, to);
            }
            else
            {
                scatterLoop(srcBase, src, null, origin, offsets, lengths, uniformLength, from, to);
            }
        }
        else if (srcBase instanceof byte[] b)
        {
            if (dstBase instanceof double[] a)
            {
                scatterLoop(b, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase == null)
            {
                scatterLoop(b, src, null, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase instanceof byte[] a)
            {
                scatterLoop(b, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase instanceof int[] a)
            {
                scatterLoop(b, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase instanceof long[] a)
            {
                scatterLoop(b, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase instanceof float[] a)
            {
                scatterLoop(b, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else
            {
                scatterLoop(b, src, dstBase, origin, offsets, lengths, uniformLength, from, to);
            }
        }
        else if (srcBase == null)
        {
            if (dstBase instanceof double[] a)
            {
                scatterLoop(null, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase == null)
            {
                scatterLoop(null, src, null, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase instanceof byte[] a)
            {
                scatterLoop(null, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase instanceof int[] a)
            {
                scatterLoop(null, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase instanceof long[] a)
            {
                scatterLoop(null, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else if (dstBase instanceof float[] a)
            {
                scatterLoop(null, src, a, origin, offsets, lengths, uniformLength, from, to);
            }
            else
            {
                scatterLoop(null, src, dstBase, origin, offsets, lengths, uniformLength, from, to);
            }
        }
        else
        {
            scatterLoop(srcBase, src, dstBase, origin, offsets, lengths, uniformLength, from, to);
        }
    }

    /** One run. */
    static void copy(final Object srcBase, final long src, final Object dstBase, final long dst, final long length)
    {
        if (length < SMALL_COPY_BYTES)
        {
            copySmall(srcBase, src, dstBase, dst, length);
        }
        else
        {
            UnsafeApi.copyMemory(srcBase, src, dstBase, dst, length);
        }
    }
}
