package org.jmpi.internal.pt2pt;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.TypeWireForm;
import org.jmpi.spi.ArenaMemory;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * How a datatype travels in a peer-copy RTS or a SPLIT (issue 11, point 4), for one rank, both directions:
 * <ol>
 * <li>A type the pair already described goes by its id ({@link TypeTable}).</li>
 * <li>Else, where the peer is reached through the node's arena ({@link ArenaMemory}, ranks in separate JVMs) and
 * the wire form is longer than a reference, the type's wire form is <b>published</b> in this rank's arena partition once per content, and the frame carries a
 * 24-byte reference (the pool block's exposure handle, the offset and the length: {@link FrameDescriptor}'s
 * {@code PUBLISHED_*}): the same bytes serve every peer and every later type object of the same content, and a
 * type larger than a frame no longer falls back to fragments. Wire forms are placed back to back in pool blocks of
 * {@link #BLOCK_BYTES}, each exposed once, for the rank's lifetime (the arena is unmapped at finalize).</li>
 * <li>Else the wire form travels inline, as before, if it fits the frame.</li>
 * </ol>
 * The receiver keeps the types it rebuilt <b>by content</b>: a wire form (inline or published) whose bytes it has
 * decoded before, from any peer, reuses that committed type, so the flat program is compiled once per rank and
 * content rather than once per pair or per type object. What is not done: the peer walks its own rebuilt program,
 * not the sender's compiled one in the arena (the datatype engine's programs live on the heap).
 *
 * <p>Threading: engine thread only. Memory: owns the pool blocks in the arena (never freed before finalize).
 */
final class PublishedTypes
{
    /** Bytes of one pool block; a larger wire form gets a block of its own. DDTBench's largest wire forms are tens of KiB. */
    static final int BLOCK_BYTES = 64 * 1024;
    /** Most wire-form bytes one rank publishes; beyond, types travel inline (or the message by fragments) as before. */
    static final long MAX_PUBLISHED_BYTES = 16L << 20;
    /** Types remembered per map; beyond, types are published or decoded again (correct, only slower). */
    static final int CAPACITY = 4096;

    /** A published wire form: the pool block's handle, the offset in it and the length. */
    record Ref(long handle, long offset, int length)
    {
    }

    /** Wire-form bytes as a map key, compared by content. */
    private static final class Content
    {
        final byte[] bytes;
        final int hash;

        Content(final byte[] bytes)
        {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(final Object o)
        {
            return o instanceof Content c && c.hash == hash && Arrays.equals(c.bytes, bytes);
        }

        @Override
        public int hashCode()
        {
            return hash;
        }
    }

    private final IdentityHashMap<Datatype, Ref> publishedByType = new IdentityHashMap<>();
    private final HashMap<Content, Ref> publishedByContent = new HashMap<>();
    private final HashMap<Content, Datatype> decodedByContent = new HashMap<>();
    private ArenaMemory arena;
    private ByteBuffer block;
    private long blockHandle;
    private int blockUsed;
    private long publishedBytes;
    private long published;
    private long publishedReused;
    private long decoded;
    private long decodeReused;

    /** Bytes of what follows the fixed part of an RTS or SPLIT for a {@code wireLength} field. */
    static int payloadLength(final int wireLength)
    {
        return wireLength > 0 ? wireLength : wireLength == WIRE_PUBLISHED ? PUBLISHED_REF_LENGTH : 0;
    }

    /**
     * Sender: the reference to {@code type}'s wire form published in the arena the peer of {@code ch} reaches, or null
     * where there is no arena to that peer, the type has no wire form, or the arena has no room (then inline).
     */
    Ref publish(final PeerChannel ch, final Datatype type)
    {
        final ArenaMemory a = ch.peerMemory == null ? null : ch.transport.feature(ArenaMemory.class);
        if (a == null || (arena != null && a != arena))
        {
            return null;
        }
        Ref ref = publishedByType.get(type);
        if (ref != null)
        {
            return ref;
        }
        // A form no longer than the reference (a predefined type, a short vector) travels inline: cheaper for both.
        if (!TypeWireForm.decodable(type) || TypeWireForm.encodedLength(type) <= PUBLISHED_REF_LENGTH)
        {
            return null;
        }
        final byte[] wire = new byte[TypeWireForm.encodedLength(type)];
        TypeWireForm.encode(type, new UnsafeBuffer(wire), 0);
        final Content content = new Content(wire);
        ref = publishedByContent.get(content);
        if (ref == null)
        {
            ref = place(ch, a, wire);
            if (ref == null)
            {
                return null;
            }
            published++;
            if (publishedByContent.size() < CAPACITY)
            {
                publishedByContent.put(content, ref);
            }
        }
        else
        {
            publishedReused++;
        }
        if (publishedByType.size() < CAPACITY)
        {
            publishedByType.put(type, ref);
        }
        return ref;
    }

    /** Copies {@code wire} into the current pool block (a new one when it does not fit); null when there is no room. */
    private Ref place(final PeerChannel ch, final ArenaMemory a, final byte[] wire)
    {
        if (publishedBytes + wire.length > MAX_PUBLISHED_BYTES)
        {
            return null;
        }
        if (block == null || block.capacity() - blockUsed < wire.length)
        {
            final ByteBuffer fresh;
            try
            {
                fresh = a.allocate(Math.max(BLOCK_BYTES, wire.length), 8);
            }
            catch (final MpiException ex)
            {
                if (ex.errorClass() == ErrorClass.ERR_NO_MEM)
                {
                    return null;
                }
                throw ex;
            }
            final long handle = ch.peerMemory.expose(fresh);
            if (handle == 0)
            {
                a.free(fresh);
                return null;
            }
            arena = a;
            block = fresh;
            blockHandle = handle;
            blockUsed = 0;
        }
        block.put(blockUsed, wire);
        final Ref ref = new Ref(blockHandle, blockUsed, wire.length);
        blockUsed += (wire.length + 7) & ~7;
        publishedBytes += wire.length;
        return ref;
    }

    /** Writes {@code ref} at {@code index} ({@link FrameDescriptor#PUBLISHED_REF_LENGTH} bytes). */
    static void writeRef(final Ref ref, final MutableDirectBuffer buffer, final int index)
    {
        buffer.putLong(index + PUBLISHED_HANDLE_OFFSET, ref.handle(), BYTE_ORDER);
        buffer.putLong(index + PUBLISHED_OFFSET_OFFSET, ref.offset(), BYTE_ORDER);
        buffer.putInt(index + PUBLISHED_LENGTH_OFFSET, ref.length(), BYTE_ORDER);
        buffer.putInt(index + PUBLISHED_LENGTH_OFFSET + 4, 0, BYTE_ORDER);
    }

    /**
     * Receiver: the type an RTS or SPLIT from {@code ch}'s peer names: by {@code typeId} alone ({@code wireLength} 0),
     * or described by the {@code available} bytes at {@code index} (the wire form, or a reference to it in the peer's
     * arena), rebuilt unless this rank rebuilt the same content before, and remembered under {@code typeId}.
     *
     * @throws MpiException ERR_INTERN naming {@code what} and the peer when the description is inconsistent.
     */
    Datatype read(final PeerChannel ch, final int typeId, final int wireLength, final DirectBuffer buffer, final int index,
        final int available, final String what)
    {
        if (available != payloadLength(wireLength) || wireLength < WIRE_PUBLISHED)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, what + " from rank " + ch.worldRank + ": wire length " + wireLength +
                " with " + available + " bytes after the header");
        }
        if (wireLength == 0)
        {
            return ch.types.receivedType(typeId);
        }
        final byte[] wire;
        if (wireLength == WIRE_PUBLISHED)
        {
            wire = fetch(ch, buffer.getLong(index + PUBLISHED_HANDLE_OFFSET, BYTE_ORDER),
                buffer.getLong(index + PUBLISHED_OFFSET_OFFSET, BYTE_ORDER), buffer.getInt(index + PUBLISHED_LENGTH_OFFSET, BYTE_ORDER), what);
        }
        else
        {
            wire = new byte[wireLength];
            buffer.getBytes(index, wire);
        }
        final Content content = new Content(wire);
        Datatype type = decodedByContent.get(content);
        if (type == null)
        {
            type = TypeWireForm.decode(new UnsafeBuffer(wire), 0, wire.length);
            decoded++;
            if (decodedByContent.size() < CAPACITY)
            {
                decodedByContent.put(content, type);
            }
        }
        else
        {
            decodeReused++;
        }
        ch.types.received(typeId, type);
        return type;
    }

    /** The wire form the peer published at {@code [offset, +length)} of the pool block {@code handle}, checked. */
    private static byte[] fetch(final PeerChannel ch, final long handle, final long offset, final int length, final String what)
    {
        if (ch.peerMemory == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, what + " from rank " + ch.worldRank + " names a published type, " +
                "but no peer memory reaches that rank");
        }
        final Object memory = ch.peerMemory.map(ch.worldRank, handle);
        if (!(memory instanceof ByteBuffer pool) || length <= 0 || offset < 0 || offset > pool.capacity() - (long)length)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, what + " from rank " + ch.worldRank + " names a published type at bytes [" +
                offset + ", +" + length + ") of its exposure " + handle + ", which is not a pool block that holds them");
        }
        final byte[] wire = new byte[length];
        pool.get((int)offset, wire);
        return wire;
    }

    /** The counters for the {@code jmpi.pvas.stats} line. */
    void format(final StringBuilder sb)
    {
        sb.append("; types published=").append(published).append(" (").append(publishedBytes).append(" B, reused by content ")
            .append(publishedReused).append(") rebuilt=").append(decoded).append(" reused by content=").append(decodeReused);
    }
}
