package org.jmpi.internal.rma;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.TypeWireForm;
import org.jmpi.internal.pt2pt.ExtensionFrame;
import org.jmpi.internal.pt2pt.FrameDescriptor;
import org.jmpi.internal.pt2pt.Protocol;

import static org.jmpi.internal.rma.WinFrameDescriptor.*;

/**
 * Typed one-sided operations for windows: put, get, accumulate (every predefined op, REPLACE and NO_OP), fetching
 * accumulate and compare-and-swap, where the target side is any committed datatype at a byte offset of a peer's
 * region. One per rank, made by {@link OneSided} beside its untyped put/get/add, on the same two paths:
 * <ol>
 * <li><b>direct</b> (the target's memory is reachable: the rank itself, threads of one JVM): the origin walks a
 * cursor over the target's memory and copies ({@link Convertor#copy}) or accumulates element-wise atomically
 * ({@link Atomics}); done when the call returns.</li>
 * <li><b>active messages</b> otherwise: OP frames ({@link WinFrameDescriptor}) carry the target type's wire form and a
 * range of the packed stream; the target's engine applies each and answers RESULT (with the old bytes when the
 * operation fetches). A target that rejects a fragment answers its MPI error class, which fails the operation at the
 * origin. Frames to one target are sent in order with the layer's others ({@link OneSided#sendInOrder}), so
 * accumulates from one origin to one target are applied in program order (MPI's default accumulate ordering).</li>
 * </ol>
 * Contiguous puts and gets do not come here: windows send them through {@link OneSided#put}/{@link OneSided#get},
 * which also use remote memory where a transport offers it.
 *
 * <p>Threading: engine thread only; the direct path touches the target's memory from the origin's engine thread.
 */
public final class WinOps
{
    private static final long BYTES = UnsafeApi.arrayBaseOffset(byte[].class);
    private static final Op[] OPS = {null, Op.SUM, Op.PROD, Op.MIN, Op.MAX, Op.LAND, Op.LOR, Op.LXOR, Op.BAND, Op.BOR, Op.BXOR,
        Op.MINLOC, Op.MAXLOC, Op.REPLACE, Op.NO_OP};

    private final Protocol protocol;
    private final OneSided oneSided;
    private final int rank;
    private final Long2ObjectHashMap<Pending> pending = new Long2ObjectHashMap<>();
    /** Decoded target types by wire form, per sender (a window's ranks send the same few types again and again). */
    private final Int2ObjectHashMap<java.util.HashMap<java.nio.ByteBuffer, Datatype>> typeCache = new Int2ObjectHashMap<>();
    private final byte[] scratch = new byte[16];
    private long nextOp = 1;

    /** An operation waiting for RESULT frames: where fetched bytes go (a cursor at the origin), or null. */
    private record Pending(Completion completion, Convertor result, int target)
    {
    }

    WinOps(final Protocol protocol, final OneSided oneSided, final int rank)
    {
        this.protocol = protocol;
        this.oneSided = oneSided;
        this.rank = rank;
        protocol.register(TYPE_OP, this::onOp);
        protocol.register(TYPE_RESULT, this::onResult);
    }

    /**
     * {@code targetCount} items of {@code targetType} at byte {@code targetByte} of the target's region, written from
     * the cursor {@code origin} (same packed size).
     */
    public Completion put(final RemoteRegion to, final long targetByte, final long targetCount, final Datatype targetType,
        final Convertor origin)
    {
        if (to.direct() != null)
        {
            final Convertor target = targetCursor(to.direct(), targetByte, targetCount, targetType, Convertor.RECEIVE);
            Convertor.copy(origin, target, 0, origin.totalBytes());
            return Completion.DONE;
        }
        return send(to, KIND_PUT, 0, false, targetByte, targetCount, targetType, origin, null, null, 1);
    }

    /** The target's items into the receive cursor {@code origin}. */
    public Completion get(final RemoteRegion from, final long targetByte, final long targetCount, final Datatype targetType,
        final Convertor origin)
    {
        if (from.direct() != null)
        {
            final Convertor target = targetCursor(from.direct(), targetByte, targetCount, targetType, 0);
            Convertor.copy(target, origin, 0, origin.totalBytes());
            return Completion.DONE;
        }
        return send(from, KIND_GET, 0, true, targetByte, targetCount, targetType, null, null, origin, 1);
    }

    /**
     * {@code target = in op target} element-wise atomically, {@code in} being the packed origin data ({@code null} for
     * NO_OP); the old target bytes go to the receive cursor {@code result} when it is not null.
     */
    public Completion accumulate(final RemoteRegion to, final long targetByte, final long targetCount, final Datatype targetType,
        final Op op, final byte[] in, final Convertor result)
    {
        final Datatype basic = targetType.basicType();
        final long total = targetType.size() * targetCount;
        if (to.direct() != null)
        {
            final Convertor target = targetCursor(to.direct(), targetByte, targetCount, targetType, op.code() == Op.CODE_NO_OP ? 0 :
                Convertor.RECEIVE);
            final byte[] fetched = result == null ? null : new byte[(int)total];
            applyRuns(target, 0, (int)total, op, basic, in == null ? fetched : in, 0, fetched, 0);
            if (result != null)
            {
                result.unpack(fetched, BYTES, total);
            }
            return Completion.DONE;
        }
        final Completion atomic = targetCount == 1 && targetType == Datatype.LONG && result != null &&
            (op.code() == Op.CODE_SUM || op.code() == Op.CODE_NO_OP)
            ? oneSided.remoteAtomic(to, targetByte, false, op.code() == Op.CODE_SUM ? UnsafeApi.getLong(in, BYTES) : 0, 0, result) : null;
        if (atomic != null)
        {
            return atomic;
        }
        return send(to, KIND_ACC, op.code(), result != null, targetByte, targetCount, targetType, null, in, result,
            (int)basic.size());
    }

    /** Compare-and-swap of one element of {@code basic}: {@code in} then {@code compare} in {@code data}; the old one to {@code result}. */
    public Completion compareAndSwap(final RemoteRegion to, final long targetByte, final Datatype basic, final byte[] data,
        final Convertor result)
    {
        if (to.direct() != null)
        {
            final Convertor target = targetCursor(to.direct(), targetByte, 1, basic, Convertor.RECEIVE);
            final byte[] fetched = new byte[(int)basic.size()];
            Atomics.compareAndSwap(basic, data, 0, data, (int)basic.size(), target.runBase(), target.runAddress(), fetched, 0);
            result.unpack(fetched, BYTES, fetched.length);
            return Completion.DONE;
        }
        final Completion atomic = basic == Datatype.LONG
            ? oneSided.remoteAtomic(to, targetByte, true, UnsafeApi.getLong(data, BYTES + 8), UnsafeApi.getLong(data, BYTES), result)
            : null;
        if (atomic != null)
        {
            return atomic;
        }
        return send(to, KIND_CAS, 0, true, targetByte, 1, basic, null, data, result, (int)(2 * basic.size()));
    }

    private static Convertor targetCursor(final BufferView memory, final long targetByte, final long count, final Datatype type,
        final int flags)
    {
        if (targetByte % memory.elementSize() != 0)
        {
            throw new MpiException(ErrorClass.ERR_DISP, "target displacement of " + targetByte + " bytes is not a multiple of the " +
                memory.elementSize() + "-byte elements of the target's window memory");
        }
        return Convertor.create(memory, targetByte / memory.elementSize(), count, type, flags);
    }

    /** Applies {@code op} over stream bytes {@code [from, from + length)} of the cursor's memory, run by run. */
    private void applyRuns(final Convertor target, final long from, final int length, final Op op, final Datatype basic, final byte[] in,
        final int inOff, final byte[] fetch, final int fetchOff)
    {
        target.seek(from);
        int done = 0;
        while (done < length)
        {
            final int n = (int)Math.min(target.runLength(), length - done);
            Atomics.accumulate(op, basic, in, inOff + done, target.runBase(), target.runAddress(), n, fetch,
                fetch == null ? 0 : fetchOff + done, scratch);
            target.skip(n);
            done += n;
        }
    }

    // ------------------------------------------------------------------------------------- active messages

    /**
     * Sends one operation as OP fragments; {@code unit} is what a fragment's data must be a multiple of (a basic
     * element for accumulates, the whole data for compare-and-swap).
     */
    private Completion send(final RemoteRegion to, final byte kind, final int opCode, final boolean fetch, final long targetByte,
        final long targetCount, final Datatype targetType, final Convertor source, final byte[] data, final Convertor result,
        final int unit)
    {
        final byte[] wire = new byte[TypeWireForm.encodedLength(targetType)];
        TypeWireForm.encode(targetType, new UnsafeBuffer(wire), 0);
        final int target = to.rank();
        final long total = kind == KIND_CAS ? targetType.size() : targetType.size() * targetCount;
        final int room = Math.min(Math.min(OneSided.MAX_FRAGMENT, protocol.maxFrameLength(target) - TYPE_OFFSET - wire.length),
            protocol.maxFrameLength(target) - RESULT_DATA_OFFSET);
        final int fragment = kind == KIND_CAS ? unit : room / unit * unit;
        if (fragment <= 0 || (kind == KIND_CAS && unit > room))
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "the target datatype's description (" + wire.length + " bytes) leaves no room " +
                "for data in a frame of " + protocol.maxFrameLength(target) + " bytes to rank " + target);
        }
        final int frames = kind == KIND_CAS ? 1 : (int)Math.max(1, (total + fragment - 1) / fragment);
        final Completion completion = new Completion(frames);
        final long op = nextOp++;
        pending.put(op, new Pending(completion, result, target));
        final int region = to.key().id();
        if (kind == KIND_CAS)
        {
            oneSided.sendInOrder(target, new OpFrame(region, kind, opCode, fetch, targetByte, op, targetCount, 0, unit, wire,
                null, data));
            return completion;
        }
        for (long from = 0; from == 0 || from < total; from += fragment)
        {
            final int length = (int)Math.min(fragment, total - from);
            oneSided.sendInOrder(target, new OpFrame(region, kind, opCode, fetch, targetByte, op, targetCount, from, length, wire,
                source, data));
        }
        return completion;
    }

    private void onOp(final int src, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final long op = buffer.getLong(index + OP_ID_OFFSET, BYTE_ORDER);
        final long from = buffer.getLong(index + STREAM_FROM_OFFSET, BYTE_ORDER);
        final byte kind = buffer.getByte(index + KIND_OFFSET);
        final int length = buffer.getInt(index + DATA_LENGTH_OFFSET, BYTE_ORDER);
        try
        {
            final Region region = oneSided.regionOrNull(buffer.getInt(index + REGION_OFFSET, BYTE_ORDER));
            if (region == null)
            {
                throw new MpiException(ErrorClass.ERR_WIN, "rank " + rank + " has no such window region (freed or detached)");
            }
            final int typeLength = buffer.getInt(index + TYPE_LENGTH_OFFSET, BYTE_ORDER);
            final Datatype type = decode(src, buffer, index + TYPE_OFFSET, typeLength);
            final int dataAt = index + TYPE_OFFSET + typeLength;
            final long targetByte = buffer.getLong(index + TARGET_OFFSET_OFFSET, BYTE_ORDER);
            final long count = buffer.getLong(index + TARGET_COUNT_OFFSET, BYTE_ORDER);
            final boolean fetch = buffer.getByte(index + FETCH_OFFSET) != 0;
            final Op opCode = kind == KIND_ACC ? OPS[buffer.getByte(index + OP_CODE_OFFSET)] : null;
            final Convertor target = targetCursor(region.view(), targetByte, count, type,
                kind == KIND_GET || (opCode != null && opCode.code() == Op.CODE_NO_OP) ? 0 : Convertor.RECEIVE);
            final long wanted = kind == KIND_CAS ? 0 : (long)length;
            final boolean carries = kind == KIND_PUT || kind == KIND_CAS || (kind == KIND_ACC && opCode.code() != Op.CODE_NO_OP);
            if (from < 0 || wanted < 0 || from + wanted > target.totalBytes() || (carries && dataAt + length > index + lengthBytes))
            {
                throw new MpiException(ErrorClass.ERR_RMA_RANGE, "stream bytes [" + from + ", " + (from + wanted) + ") outside the " +
                    target.totalBytes() + " bytes of the target items");
            }
            switch (kind)
            {
                case KIND_PUT ->
                {
                    target.seek(from);
                    target.unpack(buffer, dataAt, length);
                    oneSided.sendInOrder(src, new ResultFrame(op, from, 0, 0, null, null));
                }
                case KIND_GET -> oneSided.sendInOrder(src, new ResultFrame(op, from, length, 0, target, null));
                case KIND_ACC ->
                {
                    final byte[] old = fetch ? new byte[length] : null;
                    final byte[] in = carries ? new byte[length] : old;
                    if (carries)
                    {
                        buffer.getBytes(dataAt, in);
                    }
                    applyRuns(target, from, length, opCode, type.basicType(), in, 0, old, 0);
                    oneSided.sendInOrder(src, new ResultFrame(op, from, fetch ? length : 0, 0, null, old));
                }
                default ->
                {
                    final byte[] in = new byte[length];
                    buffer.getBytes(dataAt, in);
                    final int unit = length / 2;
                    final byte[] old = new byte[unit];
                    Atomics.compareAndSwap(type, in, 0, in, unit, target.runBase(), target.runAddress(), old, 0);
                    oneSided.sendInOrder(src, new ResultFrame(op, 0, unit, 0, null, old));
                }
            }
        }
        catch (final MpiException ex)
        {
            oneSided.sendInOrder(src, new ResultFrame(op, from, 0, ex.errorClass().code(), null, null));
        }
    }

    private Datatype decode(final int src, final DirectBuffer buffer, final int at, final int length)
    {
        final byte[] wire = new byte[length];
        buffer.getBytes(at, wire);
        final java.nio.ByteBuffer key = java.nio.ByteBuffer.wrap(wire);
        java.util.HashMap<java.nio.ByteBuffer, Datatype> cache = typeCache.get(src);
        if (cache == null)
        {
            cache = new java.util.HashMap<>();
            typeCache.put(src, cache);
        }
        Datatype type = cache.get(key);
        if (type == null)
        {
            type = TypeWireForm.decode(new UnsafeBuffer(wire), 0, length);
            if (cache.size() < 256)
            {
                cache.put(key, type);
            }
        }
        return type;
    }

    private void onResult(final int src, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final long op = buffer.getLong(index + RESULT_OP_ID_OFFSET, BYTE_ORDER);
        final Pending p = pending.get(op);
        if (p == null)
        {
            if (op > 0 && op < nextOp)
            {
                return; // a later fragment of an operation that already failed
            }
            throw new MpiException(ErrorClass.ERR_INTERN, "window: rank " + src + " answers unknown operation " + op);
        }
        final int status = buffer.getInt(index + RESULT_STATUS_OFFSET, BYTE_ORDER);
        if (status != 0)
        {
            pending.remove(op);
            p.completion().fail(new MpiException(ErrorClass.of(status), "rank " + src + " refused a window operation: " +
                ErrorClass.of(status) + " (its window memory does not suit the target datatype, displacement or count)"));
            return;
        }
        final int length = buffer.getInt(index + RESULT_LENGTH_OFFSET, BYTE_ORDER);
        if (p.result() != null && length > 0)
        {
            p.result().seek(buffer.getLong(index + RESULT_STREAM_FROM_OFFSET, BYTE_ORDER));
            p.result().unpack(buffer, index + RESULT_DATA_OFFSET, length);
        }
        p.completion().fragmentDone(0);
        if (p.completion().isDone())
        {
            pending.remove(op);
        }
    }

    /** One fragment of a typed operation. */
    private static final class OpFrame extends ExtensionFrame
    {
        private final int region;
        private final byte kind;
        private final int opCode;
        private final boolean fetch;
        private final long targetByte;
        private final long op;
        private final long targetCount;
        private final long from;
        private final int length;
        private final byte[] wire;
        private final Convertor source;
        private final byte[] data;

        OpFrame(final int region, final byte kind, final int opCode, final boolean fetch, final long targetByte, final long op,
            final long targetCount, final long from, final int length, final byte[] wire, final Convertor source, final byte[] data)
        {
            super(TYPE_OP);
            this.region = region;
            this.kind = kind;
            this.opCode = opCode;
            this.fetch = fetch;
            this.targetByte = targetByte;
            this.op = op;
            this.targetCount = targetCount;
            this.from = from;
            this.length = length;
            this.wire = wire;
            this.source = source;
            this.data = data;
        }

        private boolean carriesData()
        {
            return kind != KIND_GET && (source != null || data != null);
        }

        @Override
        public int bodyLength()
        {
            return TYPE_OFFSET - FrameDescriptor.COMMON_LENGTH + wire.length + (carriesData() ? length : 0);
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            final int frame = index - FrameDescriptor.COMMON_LENGTH;
            buffer.putInt(frame + REGION_OFFSET, region, BYTE_ORDER);
            buffer.putByte(frame + KIND_OFFSET, kind);
            buffer.putByte(frame + OP_CODE_OFFSET, (byte)opCode);
            buffer.putByte(frame + FETCH_OFFSET, (byte)(fetch ? 1 : 0));
            buffer.putByte(frame + FETCH_OFFSET + 1, (byte)0);
            buffer.putLong(frame + TARGET_OFFSET_OFFSET, targetByte, BYTE_ORDER);
            buffer.putLong(frame + OP_ID_OFFSET, op, BYTE_ORDER);
            buffer.putLong(frame + TARGET_COUNT_OFFSET, targetCount, BYTE_ORDER);
            buffer.putLong(frame + STREAM_FROM_OFFSET, from, BYTE_ORDER);
            buffer.putInt(frame + DATA_LENGTH_OFFSET, length, BYTE_ORDER);
            buffer.putInt(frame + TYPE_LENGTH_OFFSET, wire.length, BYTE_ORDER);
            buffer.putBytes(frame + TYPE_OFFSET, wire);
            final int dataAt = frame + TYPE_OFFSET + wire.length;
            if (kind == KIND_GET)
            {
                return;
            }
            if (source != null)
            {
                source.seek(from);
                source.pack(buffer, dataAt, length);
            }
            else if (data != null)
            {
                buffer.putBytes(dataAt, data, (int)from, length);
            }
        }
    }

    /** A fragment's answer: packed from a cursor over the target's memory (GET), from fetched bytes, or empty. */
    private static final class ResultFrame extends ExtensionFrame
    {
        private final long op;
        private final long from;
        private final int length;
        private final int status;
        private final Convertor source;
        private final byte[] data;

        ResultFrame(final long op, final long from, final int length, final int status, final Convertor source, final byte[] data)
        {
            super(TYPE_RESULT);
            this.op = op;
            this.from = from;
            this.length = length;
            this.status = status;
            this.source = source;
            this.data = data;
        }

        @Override
        public int bodyLength()
        {
            return RESULT_DATA_OFFSET - FrameDescriptor.COMMON_LENGTH + length;
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            final int frame = index - FrameDescriptor.COMMON_LENGTH;
            buffer.putLong(frame + RESULT_OP_ID_OFFSET, op, BYTE_ORDER);
            buffer.putLong(frame + RESULT_STREAM_FROM_OFFSET, from, BYTE_ORDER);
            buffer.putInt(frame + RESULT_LENGTH_OFFSET, length, BYTE_ORDER);
            buffer.putInt(frame + RESULT_STATUS_OFFSET, status, BYTE_ORDER);
            if (source != null)
            {
                source.seek(from);
                source.pack(buffer, frame + RESULT_DATA_OFFSET, length);
            }
            else if (data != null)
            {
                buffer.putBytes(frame + RESULT_DATA_OFFSET, data, 0, length);
            }
        }
    }
}
