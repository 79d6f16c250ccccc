package org.jmpi.internal.datatype;

import java.lang.invoke.VarHandle;

import org.agrona.UnsafeApi;

/**
 * The typed loops behind {@link Kernels}' dispatch: strided passes, gathers and scatters with fixed
 * moves for the common block lengths, and loop-free short copies. Every method is small on purpose, so
 * that the whole chain inlines into the statically typed branches of {@link Kernels} (HotSpot inlines hot
 * callees up to FreqInlineSize, 325 bytecodes); a static call into this class inlines exactly as a call
 * within {@code Kernels} did. Only {@code Kernels} calls the loop entry points.
 * <p>
 * Stateless; any thread. Callers own the memory and guarantee every address lies inside its base.
 */
final class KernelLoops
{
    /**
     * Whether {@link #blockDone} fences: on x86 (TSO) a release fence emits no instruction, it only keeps the
     * JIT from moving later memory accesses above earlier ones. Elsewhere (aarch64: a {@code dmb}) it would
     * cost a barrier per block, so it is off.
     */
    private static final boolean ORDER_BLOCKS = System.getProperty("os.arch", "").matches("amd64|x86_64|x86|i386");

    private static final long LONG_ARRAY_BASE = UnsafeApi.arrayBaseOffset(long[].class);

    private KernelLoops()
    {
    }

    /**
     * Ends one block of a copy loop whose loads all come before its stores. When buffer and stream are
     * arrays of different types (or one is off-heap) their accesses cannot alias, so C2 unrolls the loop and
     * schedules the loads of all unrolled blocks first: for 40-byte rows, 20 live words and spills to the
     * stack in every iteration. The fence keeps each block's loads after the previous block's stores (the
     * CPU still overlaps them out of order): NAS_LU_y middle, DdtAbRatio, pack 0.74x to 1.10x of the hand
     * loop, unpack 0.69x to 1.01x.
     */
    private static void blockDone()
    {
        if (ORDER_BLOCKS)
        {
            VarHandle.releaseFence();
        }
    }

    /**
     * The strided loop: fixed 8-, 4-, 16- and 12-byte moves for the faces of stencil codes, loop-free
     * overlapping moves for other short runs, copyMemory for long ones. Each length has its own small
     * method so that the whole chain inlines into the typed dispatch branches (HotSpot inlines hot
     * callees up to 325 bytecodes).
     */
    static void stridedPasses(final Object srcBase, final long src, final long srcStride, final long srcPassStride,
        final Object dstBase, final long dst, final long dstStride, final long dstPassStride, final long length,
        final long blocks, final long passes)
    {
        for (long p = 0; p < passes; p++)
        {
            stridedLoop(srcBase, src + p * srcPassStride, srcStride, dstBase, dst + p * dstPassStride, dstStride, length,
                blocks);
        }
    }

    private static void stridedLoop(final Object srcBase, long src, final long srcStride, final Object dstBase, long dst,
        final long dstStride, final long length, final long blocks)
    {
        long left = blocks;
        while (left > 0)
        {
            final int n = (int)Math.min(left, Integer.MAX_VALUE);
            if (length == 8)
            {
                strided8(srcBase, src, srcStride, dstBase, dst, dstStride, n);
            }
            else if (length == 4)
            {
                strided4(srcBase, src, srcStride, dstBase, dst, dstStride, n);
            }
            else if (length == 16)
            {
                strided16(srcBase, src, srcStride, dstBase, dst, dstStride, n);
            }
            else if (length == 12)
            {
                strided12(srcBase, src, srcStride, dstBase, dst, dstStride, n);
            }
            else if ((length & 7) == 0 && length < Kernels.SMALL_COPY_BYTES)
            {
                stridedWords(srcBase, src, srcStride, dstBase, dst, dstStride, (int)(length >>> 3), n);
            }
            else if (length < Kernels.SMALL_COPY_BYTES)
            {
                stridedSmall(srcBase, src, srcStride, dstBase, dst, dstStride, length, n);
            }
            else
            {
                stridedLarge(srcBase, src, srcStride, dstBase, dst, dstStride, length, n);
            }
            left -= n;
            src += n * srcStride;
            dst += n * dstStride;
        }
    }

    /**
     * Loads several blocks before storing them, so that strided cache misses overlap (column gathers went
     * from 0.77x to 0.88x of a hand-written loop with that, ad-hoc timing on the CI box); likewise below.
     */
    private static void strided8(final Object srcBase, long src, final long srcStride, final Object dstBase, long dst,
        final long dstStride, final int n)
    {
        int i = 0;
        for (; i + 4 <= n; i += 4, src += 4 * srcStride, dst += 4 * dstStride)
        {
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final long b = UnsafeApi.getLongUnaligned(srcBase, src + srcStride);
            final long c = UnsafeApi.getLongUnaligned(srcBase, src + 2 * srcStride);
            final long e = UnsafeApi.getLongUnaligned(srcBase, src + 3 * srcStride);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putLongUnaligned(dstBase, dst + dstStride, b);
            UnsafeApi.putLongUnaligned(dstBase, dst + 2 * dstStride, c);
            UnsafeApi.putLongUnaligned(dstBase, dst + 3 * dstStride, e);
        }
        for (; i < n; i++, src += srcStride, dst += dstStride)
        {
            UnsafeApi.putLongUnaligned(dstBase, dst, UnsafeApi.getLongUnaligned(srcBase, src));
        }
    }

    private static void strided4(final Object srcBase, long src, final long srcStride, final Object dstBase, long dst,
        final long dstStride, final int n)
    {
        int i = 0;
        for (; i + 4 <= n; i += 4, src += 4 * srcStride, dst += 4 * dstStride)
        {
            final int a = UnsafeApi.getIntUnaligned(srcBase, src);
            final int b = UnsafeApi.getIntUnaligned(srcBase, src + srcStride);
            final int c = UnsafeApi.getIntUnaligned(srcBase, src + 2 * srcStride);
            final int e = UnsafeApi.getIntUnaligned(srcBase, src + 3 * srcStride);
            UnsafeApi.putIntUnaligned(dstBase, dst, a);
            UnsafeApi.putIntUnaligned(dstBase, dst + dstStride, b);
            UnsafeApi.putIntUnaligned(dstBase, dst + 2 * dstStride, c);
            UnsafeApi.putIntUnaligned(dstBase, dst + 3 * dstStride, e);
        }
        for (; i < n; i++, src += srcStride, dst += dstStride)
        {
            UnsafeApi.putIntUnaligned(dstBase, dst, UnsafeApi.getIntUnaligned(srcBase, src));
        }
    }

    /** 3 floats (SPECFEM3D_mt, WRF x faces): an 8- and a 4-byte move per block, two blocks loaded first. */
    private static void strided12(final Object srcBase, long src, final long srcStride, final Object dstBase, long dst,
        final long dstStride, final int n)
    {
        int i = 0;
        for (; i + 2 <= n; i += 2, src += 2 * srcStride, dst += 2 * dstStride)
        {
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final int b = UnsafeApi.getIntUnaligned(srcBase, src + 8);
            final long c = UnsafeApi.getLongUnaligned(srcBase, src + srcStride);
            final int e = UnsafeApi.getIntUnaligned(srcBase, src + srcStride + 8);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putIntUnaligned(dstBase, dst + 8, b);
            UnsafeApi.putLongUnaligned(dstBase, dst + dstStride, c);
            UnsafeApi.putIntUnaligned(dstBase, dst + dstStride + 8, e);
            blockDone();
        }
        if (i < n)
        {
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final int b = UnsafeApi.getIntUnaligned(srcBase, src + 8);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putIntUnaligned(dstBase, dst + 8, b);
        }
    }

    private static void strided16(final Object srcBase, long src, final long srcStride, final Object dstBase, long dst,
        final long dstStride, final int n)
    {
        int i = 0;
        for (; i + 2 <= n; i += 2, src += 2 * srcStride, dst += 2 * dstStride)
        {
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final long b = UnsafeApi.getLongUnaligned(srcBase, src + 8);
            final long c = UnsafeApi.getLongUnaligned(srcBase, src + srcStride);
            final long e = UnsafeApi.getLongUnaligned(srcBase, src + srcStride + 8);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putLongUnaligned(dstBase, dst + 8, b);
            UnsafeApi.putLongUnaligned(dstBase, dst + dstStride, c);
            UnsafeApi.putLongUnaligned(dstBase, dst + dstStride + 8, e);
        }
        if (i < n)
        {
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final long b = UnsafeApi.getLongUnaligned(srcBase, src + 8);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putLongUnaligned(dstBase, dst + 8, b);
        }
    }

    /**
     * Blocks of 3 to 7 whole 8-byte words (a row of 5 doubles: NAS_LU_y), one move per word through a
     * fall-through switch on the loop-invariant word count: 5 moves for 40 bytes where {@link #copySmall}'s
     * overlapping moves take 8. All words are loaded before any is stored.
     */
    @SuppressWarnings("fallthrough")
    private static void stridedWords(final Object srcBase, long src, final long srcStride, final Object dstBase, long dst,
        final long dstStride, final int words, final int n)
    {
        for (int i = 0; i < n; i++, src += srcStride, dst += dstStride)
        {
            long w6 = 0;
            long w5 = 0;
            long w4 = 0;
            long w3 = 0;
            long w2 = 0;
            switch (words)
            {
                case 7:
                    w6 = UnsafeApi.getLongUnaligned(srcBase, src + 48);
                case 6:
                    w5 = UnsafeApi.getLongUnaligned(srcBase, src + 40);
                case 5:
                    w4 = UnsafeApi.getLongUnaligned(srcBase, src + 32);
                case 4:
                    w3 = UnsafeApi.getLongUnaligned(srcBase, src + 24);
                default:
                    w2 = UnsafeApi.getLongUnaligned(srcBase, src + 16);
            }
            final long w1 = UnsafeApi.getLongUnaligned(srcBase, src + 8);
            final long w0 = UnsafeApi.getLongUnaligned(srcBase, src);
            switch (words)
            {
                case 7:
                    UnsafeApi.putLongUnaligned(dstBase, dst + 48, w6);
                case 6:
                    UnsafeApi.putLongUnaligned(dstBase, dst + 40, w5);
                case 5:
                    UnsafeApi.putLongUnaligned(dstBase, dst + 32, w4);
                case 4:
                    UnsafeApi.putLongUnaligned(dstBase, dst + 24, w3);
                default:
                    UnsafeApi.putLongUnaligned(dstBase, dst + 16, w2);
            }
            UnsafeApi.putLongUnaligned(dstBase, dst + 8, w1);
            UnsafeApi.putLongUnaligned(dstBase, dst, w0);
            blockDone();
        }
    }

    private static void stridedSmall(final Object srcBase, long src, final long srcStride, final Object dstBase, long dst,
        final long dstStride, final long length, final int n)
    {
        for (int i = 0; i < n; i++, src += srcStride, dst += dstStride)
        {
            copySmall(srcBase, src, dstBase, dst, length);
        }
    }

    private static void stridedLarge(final Object srcBase, long src, final long srcStride, final Object dstBase, long dst,
        final long dstStride, final long length, final int n)
    {
        for (int i = 0; i < n; i++, src += srcStride, dst += dstStride)
        {
            UnsafeApi.copyMemory(srcBase, src, dstBase, dst, length);
        }
    }

    /**
     * The gather loop, with 4-, 8-, 12- and 24-byte blocks (single values, 3-vectors of floats and doubles) as
     * fixed moves. Each loop is its own small method, and this one only picks, so that all stay under HotSpot's
     * limit for inlining hot callees (FreqInlineSize, 325 bytecodes) and inline into the typed branches of
     * {@link Kernels#gather}: one 409-byte loop method failed to inline and lost the typed bases (LAMMPS_full pack,
     * DdtAbRatio, 0.85-0.95 before it grew, 0.72-0.86 after).
     */
    static void gatherLoop(final Object srcBase, final long origin, final long[] offsets, final long[] lengths,
        final long uniformLength, final int from, final int to, final Object dstBase, final long dst)
    {
        if (uniformLength == 8)
        {
            gather8(srcBase, origin, offsets, from, to, dstBase, dst);
        }
        else if (uniformLength == 4)
        {
            gather4(srcBase, origin, offsets, from, to, dstBase, dst);
        }
        else if (uniformLength == 12)
        {
            gather12(srcBase, origin, offsets, from, to, dstBase, dst);
        }
        else if (uniformLength == 24)
        {
            gather24(srcBase, origin, offsets, from, to, dstBase, dst);
        }
        else
        {
            gatherMixed(srcBase, origin, offsets, lengths, from, to, dstBase, dst);
        }
    }

    private static void gather8(final Object srcBase, final long origin, final long[] offsets, final int from, final int to,
        final Object dstBase, long dst)
    {
        for (int i = from; i < to; i++, dst += 8)
        {
            UnsafeApi.putLongUnaligned(dstBase, dst, UnsafeApi.getLongUnaligned(srcBase, origin + offsets[i]));
        }
    }

    /**
     * Walks the offsets and the stream with two byte pointers, the loop ending on the stream pointer: one index
     * load, one 4-byte load and one store per block, without the index arithmetic of an int loop over
     * {@code offsets[i]} (SPECFEM3D_oc pack, DdtAbRatio, four runs: 0.83-0.92x of the hand loop before, 0.91-1.07x
     * after). The scatter below keeps the indexed loop, which measured better there (1.00-1.09x against 0.81-0.98x).
     */
    private static void gather4(final Object srcBase, final long origin, final long[] offsets, final int from, final int to,
        final Object dstBase, long dst)
    {
        long at = LONG_ARRAY_BASE + 8L * from;
        final long end = dst + 4L * (to - from);
        for (; dst < end; dst += 4, at += 8)
        {
            final long src = origin + UnsafeApi.getLong(offsets, at);
            UnsafeApi.putIntUnaligned(dstBase, dst, UnsafeApi.getIntUnaligned(srcBase, src));
        }
    }

    private static void gather12(final Object srcBase, final long origin, final long[] offsets, final int from, final int to,
        final Object dstBase, long dst)
    {
        for (int i = from; i < to; i++, dst += 12)
        {
            final long src = origin + offsets[i];
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final int b = UnsafeApi.getIntUnaligned(srcBase, src + 8);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putIntUnaligned(dstBase, dst + 8, b);
        }
    }

    private static void gather24(final Object srcBase, final long origin, final long[] offsets, final int from, final int to,
        final Object dstBase, long dst)
    {
        for (int i = from; i < to; i++, dst += 24)
        {
            final long src = origin + offsets[i];
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final long b = UnsafeApi.getLongUnaligned(srcBase, src + 8);
            final long c = UnsafeApi.getLongUnaligned(srcBase, src + 16);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putLongUnaligned(dstBase, dst + 8, b);
            UnsafeApi.putLongUnaligned(dstBase, dst + 16, c);
        }
    }

    private static void gatherMixed(final Object srcBase, final long origin, final long[] offsets, final long[] lengths,
        final int from, final int to, final Object dstBase, long dst)
    {
        for (int i = from; i < to; i++)
        {
            final long length = lengths[i];
            final long src = origin + offsets[i];
            if (length == 8)
            {
                UnsafeApi.putLongUnaligned(dstBase, dst, UnsafeApi.getLongUnaligned(srcBase, src));
            }
            else if (length == 4)
            {
                UnsafeApi.putIntUnaligned(dstBase, dst, UnsafeApi.getIntUnaligned(srcBase, src));
            }
            else
            {
                Kernels.copy(srcBase, src, dstBase, dst, length);
            }
            dst += length;
        }
    }

    /** The scatter loop, mirroring {@link #gatherLoop}. */
    static void scatterLoop(final Object srcBase, final long src, final Object dstBase, final long origin,
        final long[] offsets, final long[] lengths, final long uniformLength, final int from, final int to)
    {
        if (uniformLength == 8)
        {
            scatter8(srcBase, src, dstBase, origin, offsets, from, to);
        }
        else if (uniformLength == 4)
        {
            scatter4(srcBase, src, dstBase, origin, offsets, from, to);
        }
        else if (uniformLength == 12)
        {
            scatter12(srcBase, src, dstBase, origin, offsets, from, to);
        }
        else if (uniformLength == 24)
        {
            scatter24(srcBase, src, dstBase, origin, offsets, from, to);
        }
        else
        {
            scatterMixed(srcBase, src, dstBase, origin, offsets, lengths, from, to);
        }
    }

    private static void scatter8(final Object srcBase, long src, final Object dstBase, final long origin, final long[] offsets,
        final int from, final int to)
    {
        for (int i = from; i < to; i++, src += 8)
        {
            UnsafeApi.putLongUnaligned(dstBase, origin + offsets[i], UnsafeApi.getLongUnaligned(srcBase, src));
        }
    }

    private static void scatter4(final Object srcBase, long src, final Object dstBase, final long origin, final long[] offsets,
        final int from, final int to)
    {
        for (int i = from; i < to; i++, src += 4)
        {
            UnsafeApi.putIntUnaligned(dstBase, origin + offsets[i], UnsafeApi.getIntUnaligned(srcBase, src));
        }
    }

    private static void scatter12(final Object srcBase, long src, final Object dstBase, final long origin, final long[] offsets,
        final int from, final int to)
    {
        for (int i = from; i < to; i++, src += 12)
        {
            final long dst = origin + offsets[i];
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final int b = UnsafeApi.getIntUnaligned(srcBase, src + 8);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putIntUnaligned(dstBase, dst + 8, b);
        }
    }

    private static void scatter24(final Object srcBase, long src, final Object dstBase, final long origin, final long[] offsets,
        final int from, final int to)
    {
        for (int i = from; i < to; i++, src += 24)
        {
            final long dst = origin + offsets[i];
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final long b = UnsafeApi.getLongUnaligned(srcBase, src + 8);
            final long c = UnsafeApi.getLongUnaligned(srcBase, src + 16);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putLongUnaligned(dstBase, dst + 8, b);
            UnsafeApi.putLongUnaligned(dstBase, dst + 16, c);
        }
    }

    private static void scatterMixed(final Object srcBase, long src, final Object dstBase, final long origin,
        final long[] offsets, final long[] lengths, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            final long length = lengths[i];
            final long dst = origin + offsets[i];
            if (length == 8)
            {
                UnsafeApi.putLongUnaligned(dstBase, dst, UnsafeApi.getLongUnaligned(srcBase, src));
            }
            else if (length == 4)
            {
                UnsafeApi.putIntUnaligned(dstBase, dst, UnsafeApi.getIntUnaligned(srcBase, src));
            }
            else
            {
                Kernels.copy(srcBase, src, dstBase, dst, length);
            }
            src += length;
        }
    }

    /**
     * A run shorter than {@link Kernels#SMALL_COPY_BYTES} without a loop: up to 8 moves of 8 bytes, the last ones
     * overlapping the first (a 12-byte run of 3 floats is two moves, a 40-byte run of 5 doubles eight).
     * Overlapping stores write the same bytes twice; every load comes before the stores, so even a source
     * overlapping the destination is copied correctly. In a strided or gather loop the length tests are
     * loop-invariant or nearly so, hence well predicted. Each method stays under HotSpot's limit for
     * inlining hot callees (FreqInlineSize, 325 bytecodes): a 329-byte version with an inner loop failed
     * to inline into the strided loops, and the inner loop's pre/main/post structure cost more than the
     * moves for 12- and 40-byte runs (DdtBenchmark, SPECFEM3D_mt and NAS_LU_y, JDK 25, the 2-core box).
     */
    static void copySmall(final Object srcBase, final long src, final Object dstBase, final long dst, final long length)
    {
        if (length > 16)
        {
            copy17To64(srcBase, src, dstBase, dst, length);
        }
        else if (length >= 8)
        {
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final long b = UnsafeApi.getLongUnaligned(srcBase, src + length - 8);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putLongUnaligned(dstBase, dst + length - 8, b);
        }
        else
        {
            copyTiny(srcBase, src, dstBase, dst, length);
        }
    }

    /** 17 to 64 bytes: the first and the last 16 or 32 bytes. */
    private static void copy17To64(final Object srcBase, final long src, final Object dstBase, final long dst,
        final long length)
    {
        if (length > 32)
        {
            final long tail = length - 32;
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final long b = UnsafeApi.getLongUnaligned(srcBase, src + 8);
            final long c = UnsafeApi.getLongUnaligned(srcBase, src + 16);
            final long e = UnsafeApi.getLongUnaligned(srcBase, src + 24);
            final long f = UnsafeApi.getLongUnaligned(srcBase, src + tail);
            final long g = UnsafeApi.getLongUnaligned(srcBase, src + tail + 8);
            final long h = UnsafeApi.getLongUnaligned(srcBase, src + tail + 16);
            final long k = UnsafeApi.getLongUnaligned(srcBase, src + tail + 24);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putLongUnaligned(dstBase, dst + 8, b);
            UnsafeApi.putLongUnaligned(dstBase, dst + 16, c);
            UnsafeApi.putLongUnaligned(dstBase, dst + 24, e);
            UnsafeApi.putLongUnaligned(dstBase, dst + tail, f);
            UnsafeApi.putLongUnaligned(dstBase, dst + tail + 8, g);
            UnsafeApi.putLongUnaligned(dstBase, dst + tail + 16, h);
            UnsafeApi.putLongUnaligned(dstBase, dst + tail + 24, k);
        }
        else
        {
            final long tail = length - 16;
            final long a = UnsafeApi.getLongUnaligned(srcBase, src);
            final long b = UnsafeApi.getLongUnaligned(srcBase, src + 8);
            final long c = UnsafeApi.getLongUnaligned(srcBase, src + tail);
            final long e = UnsafeApi.getLongUnaligned(srcBase, src + tail + 8);
            UnsafeApi.putLongUnaligned(dstBase, dst, a);
            UnsafeApi.putLongUnaligned(dstBase, dst + 8, b);
            UnsafeApi.putLongUnaligned(dstBase, dst + tail, c);
            UnsafeApi.putLongUnaligned(dstBase, dst + tail + 8, e);
        }
    }

    /** Fewer than 8 bytes. */
    private static void copyTiny(final Object srcBase, final long src, final Object dstBase, final long dst,
        final long length)
    {
        if (length >= 4)
        {
            final int a = UnsafeApi.getIntUnaligned(srcBase, src);
            final int b = UnsafeApi.getIntUnaligned(srcBase, src + length - 4);
            UnsafeApi.putIntUnaligned(dstBase, dst, a);
            UnsafeApi.putIntUnaligned(dstBase, dst + length - 4, b);
        }
        else if (length >= 2)
        {
            final short a = UnsafeApi.getShortUnaligned(srcBase, src);
            final short b = UnsafeApi.getShortUnaligned(srcBase, src + length - 2);
            UnsafeApi.putShortUnaligned(dstBase, dst, a);
            UnsafeApi.putShortUnaligned(dstBase, dst + length - 2, b);
        }
        else if (length == 1)
        {
            UnsafeApi.putByte(dstBase, dst, UnsafeApi.getByte(srcBase, src));
        }
    }
}
