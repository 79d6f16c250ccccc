package org.jmpi.internal.io;

import java.io.IOException;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.Convertor;

/**
 * A file view (MPI 4.1 §14.3) as a map from positions in the view's data stream to file bytes. The view is the
 * filetype tiled from byte {@code disp}: tile {@code k} covers file bytes {@code disp + k * extent(filetype) +} the
 * displacements of the filetype's type map, and holds view bytes {@code [k * size(filetype), (k+1) * size(filetype))}.
 *
 * <p>The runs come from the datatype engine: a {@link Convertor#virtual} cursor over one filetype item walks the
 * compiled flat program (adjacent blocks already merged), so a vector or subarray filetype costs one seek per call
 * and one step per contiguous run. A filetype whose data is one run from its origin, tile after tile, maps by
 * addition alone.
 *
 * <pre>
 *   filetype = vector(2 blocks of 4 B, stride 8 B), extent 16, disp = 100
 *   file:    100 |####....####....|####....####....| ...
 *   view:        |0..3    4..7    |8..11   12..15  |
 * </pre>
 *
 * <p>Immutable; any thread (each walk makes its own cursor).
 */
public final class ViewMap
{
    /** Walks of more runs than this per filetype item skip the order check at {@link #of} (they are still walked). */
    private static final long ORDER_CHECK_MAX_RUNS = 1 << 20;

    /** Receives the file runs of a stretch of the view, in view order (which is file order). */
    @FunctionalInterface
    public interface RunSink
    {
        /**
         * @param fileOffset   file byte of the run
         * @param streamOffset where the run starts in the stretch being walked
         * @param lengthBytes  run length
         * @return bytes handled; fewer than {@code lengthBytes} stops the walk (end of file on a read)
         */
        long run(long fileOffset, long streamOffset, long lengthBytes) throws IOException;
    }

    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;
    private final long tileBytes;
    private final long tileExtent;
    private final long firstStart;
    private final long lastEnd;
    private final boolean contiguous;

    private ViewMap(final long disp, final Datatype etype, final Datatype filetype, final String datarep, final long firstStart,
        final long lastEnd)
    {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
        this.tileBytes = filetype.size();
        this.tileExtent = filetype.extent();
        this.firstStart = firstStart;
        this.lastEnd = lastEnd;
        this.contiguous = firstStart == 0 && lastEnd == tileBytes && tileExtent == tileBytes;
    }

    /** The default view: displacement 0, etype and filetype BYTE, "native". */
    public static ViewMap bytes()
    {
        return of("File.open", 0, Datatype.BYTE, Datatype.BYTE, "native");
    }

    /**
     * Checks and builds a view.
     * <ol>
     *   <li>{@code disp >= 0} (ERR_ARG); etype and filetype committed, non-null (ERR_TYPE); {@code datarep} "native",
     *       "internal" (the same here) or "external32" (ERR_UNSUPPORTED_DATAREP).</li>
     *   <li>The etype has data; the filetype's size is a whole number of etypes and, when it has data, its extent is
     *       positive (ERR_TYPE).</li>
     *   <li>The filetype's displacements are non-negative and increase run after run, and one tile ends before the
     *       next begins (MPI's "monotonically nondecreasing" rule; ERR_TYPE).</li>
     * </ol>
     */
    public static ViewMap of(final String call, final long disp, final Datatype etype, final Datatype filetype, final String datarep)
    {
        if (disp < 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": displacement " + disp + " must be >= 0");
        }
        checkType(call, "etype", etype);
        checkType(call, "filetype", filetype);
        if (datarep == null || !(datarep.equals("native") || datarep.equals("internal") || datarep.equals("external32")))
        {
            throw new MpiException(ErrorClass.ERR_UNSUPPORTED_DATAREP, call + ": data representation \"" + datarep +
                "\"; jmpi has \"native\", \"internal\" and \"external32\"");
        }
        if (etype.size() == 0)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": etype " + etype.name() + " has no data");
        }
        if (filetype.size() % etype.size() != 0)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": filetype " + filetype.name() + " holds " + filetype.size() +
                " bytes, not a whole number of " + etype.size() + "-byte etypes (" + etype.name() + ")");
        }
        if (filetype.size() > 0 && filetype.extent() <= 0)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": filetype " + filetype.name() + " has extent " + filetype.extent() +
                "; a view tiles it, so the extent must be positive");
        }
        long firstStart = 0;
        long lastEnd = 0;
        if (filetype.size() > 0 && filetype.trueLb() < 0)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": filetype " + filetype.name() + " has data at byte " +
                filetype.trueLb() + "; a filetype's displacements must be non-negative");
        }
        if (filetype.size() > 0)
        {
            final Convertor runs = Convertor.virtual(filetype, 1, false);
            firstStart = runs.runAddress();
            lastEnd = firstStart;
            final boolean check = runs.stats().blockCount() <= ORDER_CHECK_MAX_RUNS;
            while (runs.remaining() > 0)
            {
                final long start = runs.runAddress();
                final long length = runs.runLength();
                if (check && (start < 0 || start < lastEnd))
                {
                    throw new MpiException(ErrorClass.ERR_TYPE, call + ": filetype " + filetype.name() + " has a run at byte " + start +
                        (start < 0 ? " (negative)" : " before the end " + lastEnd + " of the run before it") +
                        "; a filetype's displacements must be non-negative and increasing");
                }
                lastEnd = Math.max(lastEnd, start + length);
                runs.skip(length);
                if (!check)
                {
                    lastEnd = Math.max(lastEnd, filetype.trueUb());
                    break;
                }
            }
            if (lastEnd > filetype.extent() + firstStart)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": filetype " + filetype.name() + " spans bytes [" + firstStart +
                    ", " + lastEnd + ") but has extent " + filetype.extent() + ", so one tile would overlap the next");
            }
        }
        return new ViewMap(disp, etype, filetype, datarep, firstStart, lastEnd);
    }

    private static void checkType(final String call, final String what, final Datatype type)
    {
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": " + what + " is null");
        }
        if (!type.isCommitted())
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": " + what + " " + type.name() + " is not committed");
        }
    }

    public long disp()
    {
        return disp;
    }

    public Datatype etype()
    {
        return etype;
    }

    public Datatype filetype()
    {
        return filetype;
    }

    public String datarep()
    {
        return datarep;
    }

    /** Whether the file holds big-endian (external32) data. */
    public boolean external32()
    {
        return datarep.equals("external32");
    }

    /** Bytes of one etype. */
    public long etypeBytes()
    {
        return etype.size();
    }

    /**
     * Walks the file runs holding view bytes {@code [viewByte, viewByte + lengthBytes)}, in order; returns the bytes
     * the sink handled (less than {@code lengthBytes} when it stopped early).
     */
    public long walk(final long viewByte, final long lengthBytes, final RunSink sink) throws IOException
    {
        if (lengthBytes == 0)
        {
            return 0;
        }
        if (tileBytes == 0)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "the view's filetype " + filetype.name() + " has no data; " + lengthBytes +
                " bytes cannot be placed in it");
        }
        if (contiguous)
        {
            return sink.run(disp + viewByte, 0, lengthBytes);
        }
        long tile = viewByte / tileBytes;
        final Convertor runs = Convertor.virtual(filetype, 1, false);
        runs.seek(viewByte % tileBytes);
        long done = 0;
        while (done < lengthBytes)
        {
            if (runs.remaining() == 0)
            {
                tile++;
                runs.seek(0);
            }
            final long n = Math.min(runs.runLength(), lengthBytes - done);
            final long handled = sink.run(disp + tile * tileExtent + runs.runAddress(), done, n);
            done += handled;
            if (handled < n)
            {
                break;
            }
            runs.skip(n);
        }
        return done;
    }

    /** The file byte holding view byte {@code viewByte} (MPI_File_get_byte_offset in bytes). */
    public long fileOffset(final long viewByte)
    {
        final long[] at = {disp};
        try
        {
            walk(viewByte, 1, (fileOffset, streamOffset, lengthBytes) ->
            {
                at[0] = fileOffset;
                return lengthBytes;
            });
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
        return at[0];
    }

    /**
     * Bytes of the view that lie below file byte {@code fileBytes} (the end of file, for SEEK_END): the whole tiles
     * that end below it, plus the runs of the next tile up to it (tiles do not overlap, so no later tile has any).
     */
    public long viewBytesBelow(final long fileBytes)
    {
        final long below = fileBytes - disp;
        if (below <= 0 || tileBytes == 0)
        {
            return 0;
        }
        if (contiguous)
        {
            return below;
        }
        final long wholeTiles = below < lastEnd ? 0 : (below - lastEnd) / tileExtent + 1;
        final long limit = below - wholeTiles * tileExtent;
        long bytes = wholeTiles * tileBytes;
        final Convertor runs = Convertor.virtual(filetype, 1, false);
        while (runs.remaining() > 0 && runs.runAddress() < limit)
        {
            final long length = runs.runLength();
            bytes += Math.min(length, limit - runs.runAddress());
            runs.skip(length);
        }
        return bytes;
    }

    @Override
    public String toString()
    {
        return "view(disp=" + disp + ", etype=" + etype.name() + ", filetype=" + filetype.name() + ", " + datarep + ")";
    }
}
