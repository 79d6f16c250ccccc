package org.jmpi.internal.pt2pt;

import org.agrona.UnsafeApi;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.CopyCostModel;
import org.jmpi.internal.datatype.LayoutStats;

/**
 * The copy of the direct paths ({@link PeerCopyPath}, {@link SplitCopyPath}): stream range {@code [from, to)}
 * straight from the send layout into the receive layout, by the cursors' strided kernels.
 * <ol>
 * <li>One side a single contiguous run (both in native order): the other side packs straight into it or unpacks
 * straight from it; a receive layout of short runs unpacks from chunks of {@link #CHUNK} bytes each copied over from
 * the send run in bulk first.</li>
 * <li>Both sides scattered in short runs (native order, {@link CopyCostModel#stepwise} false): the send side packs a
 * chunk of {@link #CHUNK} bytes into a small buffer that stays in the first-level cache and the receive side unpacks
 * it, chunk after chunk. The cursors' strided kernels move a run in well under a nanosecond where the type-to-type
 * copy, which steps wherever either side's run ends, took about 9 ns per step (2-vCPU machine, 2026-11-26:
 * {@code CopyCostModel} calibration, 8 Ki single doubles), so two passes through the cache beat one pass of steps.</li>
 * <li>Otherwise (long runs on both sides, or a byte-swapped or indirect view) the type-to-type copy.</li>
 * </ol>
 * {@link org.jmpi.internal.datatype.CopyCostModel} estimates the three cases.
 *
 * <p>Threading: any thread; the caller owns the cursors (one thread per cursor at a time); the chunk buffer is per thread.
 */
final class DirectCopy
{
    /** Bytes packed and unpacked at a time when both sides are scattered: half a typical 32 KiB L1 data cache. */
    static final int CHUNK = 16 * 1024;
    /** Receive runs shorter than this on average are unpacked from a chunk copied over in bulk (case 2 of the list). */
    static final double SHORT_RUN_BYTES = 64;
    private static final long CHUNK_BASE = UnsafeApi.arrayBaseOffset(byte[].class);
    private static final ThreadLocal<byte[]> CHUNKS = ThreadLocal.withInitial(() -> new byte[CHUNK]);

    private DirectCopy()
    {
    }

    /** Copies {@code [from, to)}; leaves both cursors at {@code to}. */
    static void copy(final Convertor src, final Convertor dst, final long from, final long to)
    {
        if (from >= to || !src.isNativeOrder() || !dst.isNativeOrder())
        {
            Convertor.copy(src, dst, from, to);
            return;
        }
        final LayoutStats sendStats = src.stats();
        final LayoutStats recvStats = dst.stats();
        if (sendStats.blockCount() > 1 && recvStats.blockCount() > 1 && CopyCostModel.stepwise(sendStats, recvStats, src.totalBytes()))
        {
            Convertor.copy(src, dst, from, to);
            return;
        }
        src.seek(from);
        dst.seek(from);
        if (recvStats.blockCount() == 1)
        {
            src.pack(dst.runBase(), dst.runAddress(), to - from);
            dst.seek(to);
        }
        else if (sendStats.blockCount() == 1 && recvStats.meanRunBytes() >= SHORT_RUN_BYTES)
        {
            dst.unpack(src.runBase(), src.runAddress(), to - from);
            src.seek(to);
        }
        else if (sendStats.blockCount() == 1)
        {
            // Short receive runs from one run of the peer's (a message packed at send): bring each chunk over in one bulk
            // copy and unpack it from the first-level cache; unpacked straight, each short load waited for a line from
            // the other core (SPECFEM3D_oc, LAMMPS_atomic, NAS_LU_y between threads; docs/pvas.md, "Session 12: copies").
            final byte[] chunk = CHUNKS.get();
            final Object base = src.runBase();
            final long at = src.runAddress();
            for (long done = 0, left = to - from; left > 0; )
            {
                final long n = Math.min(CHUNK, left);
                UnsafeApi.copyMemory(base, at + done, chunk, CHUNK_BASE, n);
                dst.unpack(chunk, CHUNK_BASE, n);
                done += n;
                left -= n;
            }
            src.seek(to);
        }
        else
        {
            final byte[] chunk = CHUNKS.get();
            long left = to - from;
            while (left > 0)
            {
                final long n = src.pack(chunk, CHUNK_BASE, Math.min(CHUNK, left));
                dst.unpack(chunk, CHUNK_BASE, n);
                left -= n;
            }
        }
    }
}
