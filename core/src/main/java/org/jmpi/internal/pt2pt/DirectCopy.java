package org.jmpi.internal.pt2pt;

import org.jmpi.internal.datatype.Convertor;

/**
 * The copy of the direct paths ({@link PeerCopyPath}, {@link SplitCopyPath}): stream range {@code [from, to)}
 * straight from the send layout into the receive layout. When one side is a single contiguous run (and both are
 * in native order), the other side packs straight into it or unpacks straight from it, so the scattered side is
 * walked by the cursor's strided kernels, as packing for the staged pipeline is; otherwise the type-to-type copy
 * walks both layouts, a step wherever either side's run ends. {@link org.jmpi.internal.datatype.CopyCostModel}
 * estimates the two cases with its per-run costs of packing and of copying.
 *
 * <p>Stateless; the caller owns the cursors (one thread per cursor at a time).
 */
final class DirectCopy
{
    private DirectCopy()
    {
    }

    /** Copies {@code [from, to)}; leaves both cursors at {@code to}. */
    static void copy(final Convertor src, final Convertor dst, final long from, final long to)
    {
        if (from < to && src.isNativeOrder() && dst.isNativeOrder())
        {
            if (dst.stats().blockCount() == 1)
            {
                dst.seek(from);
                src.seek(from);
                src.pack(dst.runBase(), dst.runAddress(), to - from);
                dst.seek(to);
                return;
            }
            if (src.stats().blockCount() == 1)
            {
                src.seek(from);
                dst.seek(from);
                dst.unpack(src.runBase(), src.runAddress(), to - from);
                src.seek(to);
                return;
            }
        }
        Convertor.copy(src, dst, from, to);
    }
}
