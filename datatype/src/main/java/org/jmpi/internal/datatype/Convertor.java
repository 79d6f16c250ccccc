package org.jmpi.internal.datatype;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A resumable cursor over {@code count} items of a committed type laid over a buffer: it packs the
 * items' data into a contiguous stream, or unpacks a stream into them, any number of bytes at a time,
 * from any stream position ({@link #seek}); it may stop in the middle of a basic element.
 * <p>
 * The cursor walks the type's compiled {@link Op} program with a fixed stack of frames (one per
 * program level, allocated at creation). The innermost frame is a <em>leaf</em>: a block, a loop over
 * a block, or a sequence of blocks; whole blocks of a leaf are copied by tight strided loops.
 * <pre>
 *   buffer  |##..##..##..|      stream  |######|      leaf = loop(3 x stride 4, block 2)
 *            ^ leafAddr+inner           ^ position()
 * </pre>
 * Not thread-safe: one thread drives a cursor at a time. No allocation per pack/unpack/seek call.
 * The cursor holds the {@link BufferView} (hence the user's buffer) but owns no memory; the caller
 * owns the stream memory passed to each call.
 */
public final class Convertor
{
    /** Flag: the cursor writes into its buffer (checks writability and self-overlap). */
    public static final int RECEIVE = 1;
    /** Flag: the stream is external32 (big-endian basic elements) instead of native order. */
    public static final int EXTERNAL32 = 2;

    /** Overlap checks give up (accepting the type) above this many runs. */
    private static final long OVERLAP_CHECK_MAX_RUNS = 1 << 22;

    /** Frames of layouts whose runs average fewer bytes go through the scratch array ({@link #viaScratch}). */
    static final long SCRATCH_MAX_RUN_BYTES = 64;
    /** Shorter frames are packed in place: the bulk copy's fixed cost would dominate. */
    static final long SCRATCH_MIN_BYTES = 512;
    /** Half a 32 KiB first-level data cache. */
    private static final int SCRATCH_BYTES = 16 * 1024;
    private static final long SCRATCH_BASE = UnsafeApi.arrayBaseOffset(byte[].class);
    private static final ThreadLocal<byte[]> SCRATCHES = ThreadLocal.withInitial(() -> new byte[SCRATCH_BYTES]);

    private static final int NATIVE = 0;
    private static final int SWAP = 1;
    private static final int INDIRECT = 2;

    private final BufferView view;
    private final Object base;
    private final int mode;
    private final boolean streamBigEndian;
    private final Datatype type;
    private final long count;
    private final long total;
    private final Op top;

    private final Op[] ops;
    private final long[] idx;
    private final long[] org;

    /** Frame of the current leaf; -1 when the stream is exhausted. */
    private int depth;
    private long pos;
    private long leafAddr;
    private long leafLen;
    private int leafCode;
    private long inner;
    private byte[] staging;

    /** @param top the program of all {@code count} items ({@link Program#top}); null when there are none. */
    private Convertor(final BufferView view, final Object base, final long origin, final int mode,
        final boolean streamBigEndian, final Datatype type, final long count, final Op top)
    {
        this.view = view;
        this.base = base;
        this.mode = mode;
        this.streamBigEndian = streamBigEndian;
        this.type = type;
        this.count = count;
        this.top = top;
        this.total = top == null ? 0 : top.size;
        final int frames = top == null ? 1 : top.depth + 1;
        ops = new Op[frames];
        idx = new long[frames];
        org = new long[frames];
        if (top != null)
        {
            ops[0] = top;
            org[0] = origin + top.offset;
        }
        seek(0);
    }

    /** As {@link #create(BufferView, long, long, Datatype, int)} with no flags: a send-side cursor. */
    public static Convertor create(final BufferView view, final long elementOffset, final long count, final Datatype type)
    {
        return create(view, elementOffset, count, type, 0);
    }

    /** As {@link #create(BufferView, long, long, Datatype, int)} with {@link #RECEIVE}. */
    public static Convertor createForReceive(final BufferView view, final long elementOffset, final long count,
        final Datatype type)
    {
        return create(view, elementOffset, count, type, RECEIVE);
    }

    /**
     * Validates the arguments and creates a cursor at stream position 0.
     * <ol>
     *   <li>{@code type} must be committed (ERR_TYPE), {@code count >= 0} (ERR_COUNT), {@code elementOffset >= 0}
     *       (ERR_ARG).</li>
     *   <li>Units rule (ERR_TYPE): on an array or typed nio buffer, every basic element must be the buffer's
     *       element type (INT2 counts as INT, and so on) and every displacement a multiple of its size.</li>
     *   <li>The footprint {@code [byteOffset + trueLb + min(0,(count-1)*extent), byteOffset + trueUb +
     *       max(0,(count-1)*extent))} must lie inside the buffer (ERR_BUFFER), so nothing outside is touched.</li>
     *   <li>With {@link #RECEIVE}: the buffer must be writable (ERR_BUFFER) and no byte of the {@code count}
     *       items may be written twice (ERR_TYPE).</li>
     * </ol>
     *
     * @param elementOffset offset in the buffer's elements (ints for {@code int[]}, bytes for ByteBuffer)
     * @param flags         {@link #RECEIVE}, {@link #EXTERNAL32}, or 0
     */
    public static Convertor create(final BufferView view, final long elementOffset, final long count, final Datatype type,
        final int flags)
    {
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "datatype is null");
        }
        if (!type.isCommitted())
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "datatype not committed: " + type.name());
        }
        if (count < 0)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, "count=" + count + " must be >= 0");
        }
        if (elementOffset < 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "offset=" + elementOffset + " must be >= 0");
        }
        final Program untyped = TypeAccess.get().program(type, false);
        final long byteOffset = ConvertorChecks.checkedByteOffset(view, elementOffset, count, type, untyped);
        final boolean hasData = count > 0 && type.size() > 0;
        if ((flags & RECEIVE) != 0)
        {
            if (view.readOnly())
            {
                throw new MpiException(ErrorClass.ERR_BUFFER, "receive buffer is read-only: " + view);
            }
            if (hasData)
            {
                checkNoOverlap(untyped, type, count);
            }
        }
        final boolean external32 = (flags & EXTERNAL32) != 0;
        final boolean swap = view.swapBytes() ^ (external32 && BufferView.nativeLittleEndian());
        final int mode = view.indirect() != null ? INDIRECT : swap ? SWAP : NATIVE;
        final Program program = mode == SWAP ? TypeAccess.get().program(type, true) : untyped;
        return new Convertor(view, view.base(), view.address() + byteOffset, mode,
            external32 || !BufferView.nativeLittleEndian(), type, count, program.top(count, type.extent()));
    }

    /**
     * Receive types must not write a byte twice. Items k and j overlap only if their data spans do,
     * so only the first {@code ceil(trueExtent / |extent|) + 1} items need checking (translation
     * invariance). Steps: 1. collect the runs of those items; 2. sort starts and ends apart;
     * 3. they are disjoint iff every (i+1)-th start is at or after the i-th end.
     */
    private static void checkNoOverlap(final Program program, final Datatype type, final long count)
    {
        if (count <= program.overlapFreeCount)
        {
            return;
        }
        final long extent = Math.abs(type.extent());
        final long trueExtent = type.trueExtent();
        final long needed = extent >= trueExtent ? 1 : extent == 0 ? 2 : (trueExtent + extent - 1) / extent + 1;
        final long items = Math.min(count, needed);
        if (Op.saturatingMultiply(items, program.root.blocks) > OVERLAP_CHECK_MAX_RUNS)
        {
            return;
        }
        final Convertor walk = new Convertor(null, null, 0, NATIVE, false, type, items, program.top(items, type.extent()));
        final int runs = (int)walk.top.blocks;
        final long[] starts = new long[runs];
        final long[] ends = new long[runs];
        int n = 0;
        while (walk.depth >= 0)
        {
            starts[n] = walk.leafAddr + walk.inner;
            ends[n] = walk.leafAddr + walk.leafLen;
            n++;
            walk.skipInRun(walk.leafLen - walk.inner);
        }
        Arrays.sort(starts, 0, n);
        Arrays.sort(ends, 0, n);
        for (int i = 0; i + 1 < n; i++)
        {
            if (starts[i + 1] < ends[i])
            {
                throw new MpiException(ErrorClass.ERR_TYPE, "receive type " + type.name() + " overlaps itself (count=" +
                    count + "): byte " + starts[i + 1] + " from the first item's origin would be written twice");
            }
        }
        program.overlapFreeCount = Math.max(program.overlapFreeCount, items == needed ? Long.MAX_VALUE : count);
    }

    /**
     * A cursor over offsets from the first item's origin, for walking runs without a buffer: {@link #runAddress()} is
     * then the byte displacement of the current run from the type's origin (used by MPI-IO to map a file view).
     */
    public static Convertor virtual(final Datatype type, final long count, final boolean typed)
    {
        return new Convertor(null, null, 0, NATIVE, false, type, count, TypeAccess.get().program(type, typed).top(count, type.extent()));
    }

    /** Basic type code of the current run in a typed cursor. */
    int runCode()
    {
        return leafCode;
    }

    /** Skips the rest of the current run. */
    void skipRun(final long n)
    {
        skipInRun(n);
    }

    // ---------------------------------------------------------------------------------------------
    // Queries
    // ---------------------------------------------------------------------------------------------

    /** Packed stream length: {@code type.size() * count}. */
    public long totalBytes()
    {
        return total;
    }

    /** Current stream position in {@code [0, totalBytes()]}. */
    public long position()
    {
        return pos;
    }

    /** Bytes left in the stream. */
    public long remaining()
    {
        return total - pos;
    }

    /** The type this cursor walks. */
    public Datatype type()
    {
        return type;
    }

    /** Items of the type. */
    public long count()
    {
        return count;
    }

    /** The buffer this cursor walks. */
    public BufferView view()
    {
        return view;
    }

    /** True when stream bytes equal buffer bytes (no byte swapping, addressable memory). */
    public boolean isNativeOrder()
    {
        return mode == NATIVE;
    }

    /** Runs per message, mean and minimum run length in the buffer. */
    public LayoutStats stats()
    {
        if (top == null)
        {
            return new LayoutStats(0, 0, 0);
        }
        return new LayoutStats(top.blocks, (double)total / top.blocks, top.minRun);
    }

    /**
     * Base object of the contiguous buffer run at the current position (for direct copies, RDMA
     * scatter/gather lists); valid only when {@link #isNativeOrder()}.
     */
    public Object runBase()
    {
        return base;
    }

    /** Unsafe address (with {@link #runBase()}) of the current position in the buffer. */
    public long runAddress()
    {
        return leafAddr + inner;
    }

    /** Bytes of buffer that are contiguous from the current position, 0 at the end. */
    public long runLength()
    {
        return leafLen - inner;
    }

    // ---------------------------------------------------------------------------------------------
    // Positioning
    // ---------------------------------------------------------------------------------------------

    /**
     * Moves to a stream position: one binary search or division per program level.
     *
     * @throws IllegalArgumentException outside {@code [0, totalBytes()]}
     */
    public void seek(final long streamPosition)
    {
        if (streamPosition < 0 || streamPosition > total)
        {
            throw new IllegalArgumentException("seek: position=" + streamPosition + " outside [0, " + total + "]");
        }
        pos = streamPosition;
        if (streamPosition == total)
        {
            atEnd();
            return;
        }
        descend(0, streamPosition);
    }

    /** Advances by {@code bytes} without copying. */
    public void skip(final long bytes)
    {
        if (bytes < 0 || bytes > total - pos)
        {
            throw new IllegalArgumentException("skip: bytes=" + bytes + ", remaining=" + (total - pos));
        }
        long left = bytes;
        while (left > 0)
        {
            final long n = Math.min(left, leafLen - inner);
            skipInRun(n);
            left -= n;
        }
    }

    private void atEnd()
    {
        depth = -1;
        leafLen = 0;
        inner = 0;
        leafAddr = 0;
    }

    /** Sets the frames from {@code d} down for stream offset {@code p} inside {@code ops[d]}. */
    private void descend(int d, long p)
    {
        final Op[] ops = this.ops;
        final long[] org = this.org;
        for (;;)
        {
            final Op op = ops[d];
            if (op.kind == Op.BLOCK)
            {
                idx[d] = 0;
                leaf(d, org[d], op.size, op.code, p);
                return;
            }
            if (op.kind == Op.LOOP)
            {
                final Op b = op.body;
                final long i = p == 0 ? 0 : p / b.size;
                p -= i * b.size;
                idx[d] = i;
                final long o = org[d] + i * op.stride + b.offset;
                if (b.kind == Op.BLOCK)
                {
                    leaf(d, o, b.size, b.code, p);
                    return;
                }
                ops[d + 1] = b;
                org[d + 1] = o;
            }
            else
            {
                final int i = p == 0 ? 0 : op.find(p);
                p -= op.prefix[i];
                idx[d] = i;
                final Op c = op.children[i];
                final long o = org[d] + c.offset;
                if (op.allBlocks)
                {
                    leaf(d, o, c.size, c.code, p);
                    return;
                }
                ops[d + 1] = c;
                org[d + 1] = o;
            }
            d++;
        }
    }

    private void leaf(final int d, final long address, final long length, final int code, final long offset)
    {
        depth = d;
        leafAddr = address;
        leafLen = length;
        leafCode = code;
        inner = offset;
    }

    /** The current block is done: step to the next block of the leaf, or up and down to the next leaf. */
    private void nextBlock()
    {
        inner = 0;
        final int d = depth;
        final Op op = ops[d];
        if (op.kind == Op.LOOP)
        {
            if (++idx[d] < op.count)
            {
                leafAddr += op.stride;
                return;
            }
        }
        else if (op.kind == Op.SEQ)
        {
            final long i = ++idx[d];
            if (i < op.children.length)
            {
                final Op c = op.children[(int)i];
                leafAddr = org[d] + c.offset;
                leafLen = c.size;
                leafCode = c.code;
                return;
            }
        }
        for (int up = d - 1; up >= 0; up--)
        {
            final Op parent = ops[up];
            final long i = ++idx[up];
            if (parent.kind == Op.LOOP)
            {
                if (i < parent.count)
                {
                    final Op b = parent.body;
                    ops[up + 1] = b;
                    org[up + 1] = org[up] + i * parent.stride + b.offset;
                    descend(up + 1, 0);
                    return;
                }
            }
            else if (i < parent.children.length)
            {
                final Op c = parent.children[(int)i];
                ops[up + 1] = c;
                org[up + 1] = org[up] + c.offset;
                descend(up + 1, 0);
                return;
            }
        }
        atEnd();
    }

    private void skipInRun(final long n)
    {
        inner += n;
        pos += n;
        if (inner == leafLen)
        {
            nextBlock();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Pack / unpack
    // ---------------------------------------------------------------------------------------------

    /**
     * Packs up to {@code maxBytes} from {@link #position()} into raw memory and advances.
     *
     * @param dstBase    array holding the destination, or null for off-heap memory
     * @param dstAddress Unsafe address of the destination
     * @return bytes packed; 0 at the end of the stream
     */
    public long pack(final Object dstBase, final long dstAddress, final long maxBytes)
    {
        return transfer(true, dstBase, dstAddress, maxBytes);
    }

    /** Unpacks up to {@code maxBytes} of stream from raw memory at {@link #position()}; returns bytes consumed. */
    public long unpack(final Object srcBase, final long srcAddress, final long maxBytes)
    {
        return transfer(false, srcBase, srcAddress, maxBytes);
    }

    /**
     * Packs up to {@code maxBytes} into {@code dst} at {@code index} (a frame of a transport); returns bytes packed. A
     * layout of short runs is packed into a cache-resident scratch array first and moved into the frame in one bulk copy
     * ({@link #viaScratch}).
     */
    public int pack(final MutableDirectBuffer dst, final int index, final int maxBytes)
    {
        final int n = (int)Math.min(maxBytes, total - pos);
        dst.boundsCheck(index, n);
        if (viaScratch(n))
        {
            final byte[] scratch = SCRATCHES.get();
            final Object base = dst.byteArray();
            final long at = dst.addressOffset() + index;
            for (long done = 0; done < n; )
            {
                final long k = Math.min(SCRATCH_BYTES, n - done);
                transfer(true, scratch, SCRATCH_BASE, k);
                UnsafeApi.copyMemory(scratch, SCRATCH_BASE, base, at + done, k);
                done += k;
            }
            return n;
        }
        return (int)transfer(true, dst.byteArray(), dst.addressOffset() + index, n);
    }

    /**
     * Unpacks up to {@code length} bytes from {@code src} at {@code index} (a frame of a transport); returns bytes
     * consumed. A layout of short runs takes the frame into a cache-resident scratch array in one bulk copy first
     * ({@link #viaScratch}).
     */
    public int unpack(final DirectBuffer src, final int index, final int length)
    {
        final int n = (int)Math.min(length, total - pos);
        src.boundsCheck(index, n);
        if (viaScratch(n))
        {
            final byte[] scratch = SCRATCHES.get();
            final Object base = src.byteArray();
            final long at = src.addressOffset() + index;
            for (long done = 0; done < n; )
            {
                final long k = Math.min(SCRATCH_BYTES, n - done);
                UnsafeApi.copyMemory(base, at + done, scratch, SCRATCH_BASE, k);
                transfer(false, scratch, SCRATCH_BASE, k);
                done += k;
            }
            return n;
        }
        return (int)transfer(false, src.byteArray(), src.addressOffset() + index, n);
    }

    /**
     * Whether {@code n} stream bytes to or from a frame go through the scratch array: native order, a layout whose runs
     * average under {@link #SCRATCH_MAX_RUN_BYTES}, and at least {@link #SCRATCH_MIN_BYTES}. A frame is memory the other
     * rank's core wrote or read last (a transport's ring): the short stores or loads of a strided kernel each wait for a
     * line to come over from that core, where one bulk copy streams the lines and the kernel then runs in the first-level
     * cache, as DDTBench's hand-written packing does (NAS_LU_y middle between threads: the kernel's 40-byte moves into and
     * out of the in-JVM ring took 3x the hand loops' samples; docs/pvas.md, "Session 12: copies").
     */
    private boolean viaScratch(final long n)
    {
        return mode == NATIVE && n >= SCRATCH_MIN_BYTES && top != null && top.blocks > 1 && total < SCRATCH_MAX_RUN_BYTES * top.blocks;
    }

    /**
     * Moves {@code min(maxBytes, remaining())} bytes between the buffer and the stream.
     * <ol>
     *   <li>Native order at a block start: copy as many whole blocks of the current leaf as fit with a
     *       strided loop.</li>
     *   <li>Otherwise copy (swapping, or element by element for indirect buffers) the part of the current
     *       block that fits, and step to the next block when it is done.</li>
     * </ol>
     */
    private long transfer(final boolean pack, final Object streamBase, final long streamAddress, final long maxBytes)
    {
        if (maxBytes < 0)
        {
            throw new IllegalArgumentException("maxBytes=" + maxBytes + " must be >= 0");
        }
        final long n = Math.min(maxBytes, total - pos);
        long done = 0;
        while (done < n)
        {
            if (mode == NATIVE && inner == 0)
            {
                done += wholeBlocks(pack, streamBase, streamAddress + done, n - done);
                if (done == n)
                {
                    break;
                }
            }
            final long k = Math.min(leafLen - inner, n - done);
            move(pack, leafAddr + inner, streamBase, streamAddress + done, k);
            done += k;
            inner += k;
            if (inner == leafLen)
            {
                nextBlock();
            }
        }
        pos += n;
        return n;
    }

    /** Copies whole blocks of the current leaf that fit in {@code avail}; returns bytes copied. */
    private long wholeBlocks(final boolean pack, final Object sBase, final long s, final long avail)
    {
        final long length = leafLen;
        if (length > avail)
        {
            return 0;
        }
        final int d = depth;
        final Op op = ops[d];
        if (op.kind == Op.LOOP)
        {
            final long stride = op.stride;
            final long bodyOffset = op.body.offset;
            long blocks = Math.min(op.count - idx[d], avail / length);
            long a = leafAddr;
            stridedMove(pack, a, stride, sBase, s, length, blocks);
            long done = blocks * length;
            if (idx[d] + blocks == op.count && d > 0 && ops[d - 1].kind == Op.LOOP)
            {
                final Op parent = ops[d - 1];
                final long passes = Math.min(parent.count - 1 - idx[d - 1], (avail - done) / op.size);
                if (passes > 0)
                {
                    final long origin = org[d] + parent.stride;
                    if (pack)
                    {
                        Kernels.strided(base, origin + bodyOffset, stride, parent.stride, sBase, s + done, length, op.size,
                            length, op.count, passes);
                    }
                    else
                    {
                        Kernels.strided(sBase, s + done, length, op.size, base, origin + bodyOffset, stride, parent.stride,
                            length, op.count, passes);
                    }
                    done += passes * op.size;
                    idx[d - 1] += passes;
                    org[d] = origin + (passes - 1) * parent.stride;
                    idx[d] = 0;
                    a = org[d] + bodyOffset;
                    blocks = op.count;
                }
            }
            idx[d] += blocks - 1;
            leafAddr = a + (blocks - 1) * stride;
            nextBlock();
            return done;
        }
        if (op.kind == Op.SEQ)
        {
            final long[] lengths = op.blockLengths;
            final long[] prefix = op.prefix;
            final int from = (int)idx[d];
            final int to;
            if (op.uniformLength > 0)
            {
                to = (int)Math.min(lengths.length, from + avail / op.uniformLength);
            }
            else
            {
                final int at = Arrays.binarySearch(prefix, from, lengths.length + 1, prefix[from] + avail);
                to = at >= 0 ? at : -at - 2;
            }
            final long bytes = prefix[to] - prefix[from];
            if (bytes > 0)
            {
                if (pack)
                {
                    Kernels.gather(base, org[d], op.blockOffsets, lengths, op.uniformLength, from, to, sBase, s);
                }
                else
                {
                    Kernels.scatter(sBase, s, base, org[d], op.blockOffsets, lengths, op.uniformLength, from, to);
                }
                idx[d] = to - 1;
                nextBlock();
            }
            return bytes;
        }
        if (pack)
        {
            Kernels.copy(base, leafAddr, sBase, s, length);
        }
        else
        {
            Kernels.copy(sBase, s, base, leafAddr, length);
        }
        nextBlock();
        return length;
    }

    private void move(final boolean pack, final long bufAddress, final Object sBase, final long s, final long k)
    {
        switch (mode)
        {
            case NATIVE ->
            {
                if (pack)
                {
                    Kernels.copy(base, bufAddress, sBase, s, k);
                }
                else
                {
                    Kernels.copy(sBase, s, base, bufAddress, k);
                }
            }
            case SWAP -> ElementMoves.swapMove(pack, base, bufAddress - inner, sBase, s, k, BasicType.ofCode(leafCode), inner);
            default -> ElementMoves.indirectMove(pack, view.indirect(), (int)view.elementSize(), streamBigEndian, bufAddress, sBase, s, k);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Type-to-type copy
    // ---------------------------------------------------------------------------------------------

    /**
     * Copies stream range {@code [from, to)} from {@code src}'s buffer to {@code dst}'s buffer without a
     * full intermediate: in native order each step copies the longest run both cursors allow; otherwise
     * it goes through a small staging array owned by {@code dst}. Leaves both cursors at {@code to}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= from <= to <= min(src.totalBytes(), dst.totalBytes())}
     */
    public static void copy(final Convertor src, final Convertor dst, final long from, final long to)
    {
        if (from < 0 || from > to || to > src.total || to > dst.total)
        {
            throw new IllegalArgumentException("copy: range [" + from + ", " + to + ") outside the streams (" + src.total +
                " and " + dst.total + " bytes)");
        }
        src.seek(from);
        dst.seek(from);
        long p = from;
        if (src.mode == NATIVE && dst.mode == NATIVE)
        {
            while (p < to)
            {
                final long n = Math.min(Math.min(src.leafLen - src.inner, dst.leafLen - dst.inner), to - p);
                Kernels.copy(src.base, src.leafAddr + src.inner, dst.base, dst.leafAddr + dst.inner, n);
                src.skipInRun(n);
                dst.skipInRun(n);
                p += n;
            }
            return;
        }
        if (dst.staging == null)
        {
            dst.staging = new byte[4096];
        }
        final byte[] stage = dst.staging;
        final long stageAddress = UnsafeApi.arrayBaseOffset(byte[].class);
        while (p < to)
        {
            final long n = src.pack(stage, stageAddress, Math.min(stage.length, to - p));
            dst.unpack(stage, stageAddress, n);
            p += n;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Strided moves
    // ---------------------------------------------------------------------------------------------

    /** {@code blocks} blocks of the buffer at {@code bufAddress + i * stride} to or from consecutive stream bytes. */
    private void stridedMove(final boolean pack, final long bufAddress, final long stride, final Object sBase, final long s,
        final long length, final long blocks)
    {
        if (pack)
        {
            Kernels.strided(base, bufAddress, stride, 0, sBase, s, length, 0, length, blocks, 1);
        }
        else
        {
            Kernels.strided(sBase, s, length, 0, base, bufAddress, stride, 0, length, blocks, 1);
        }
    }

    @Override
    public String toString()
    {
        return "Convertor[type=" + type.name() + ", count=" + count + ", position=" + pos + "/" + total + ", " + view + "]";
    }
}
