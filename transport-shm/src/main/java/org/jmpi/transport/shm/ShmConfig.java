package org.jmpi.transport.shm;

import org.agrona.BitUtil;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Params;

import java.nio.file.Path;

/**
 * The shared-memory transport's parameters of one rank, read and checked once at probe and open.
 *
 * <p>Immutable; any thread.
 *
 * @param dir          directory of the node's file.
 * @param ringCapacity data bytes of each ordered pair's ring (power of two).
 * @param slotCount    K, slots per fragment pool.
 * @param slotLength   bytes per slot: the largest frame.
 * @param inlineMax    frames up to this length go through the ring, larger ones through a slot.
 * @param checksum     every record carries a checksum header ({@link ShmMessageDescriptor}).
 */
record ShmConfig(Path dir, int ringCapacity, int slotCount, int slotLength, int inlineMax, boolean checksum)
{
    /** Largest ring capacity accepted: keeps ring offsets and Agrona's int indices safe. */
    static final int MAX_RING_CAPACITY = 1 << 30;

    /**
     * Reads and checks the parameters.
     *
     * @throws MpiException ERR_ARG naming the parameter and its value when one is out of range.
     */
    static ShmConfig from(final Params params)
    {
        final Path dir = Path.of(params.get(ShmParams.DIR));
        final int ringCapacity = params.getInt(ShmParams.RING_SIZE);
        final int slotCount = params.getInt(ShmParams.POOL_SLOTS);
        final int slotLength = params.getInt(ShmParams.SLOT_SIZE);
        final int inlineMax = params.getInt(ShmParams.INLINE_MAX);
        final boolean checksum = params.getBoolean(ShmParams.CHECKSUM);

        if (!BitUtil.isPowerOfTwo(ringCapacity) || ringCapacity < OneToOneRingBuffer.MIN_CAPACITY ||
            ringCapacity > MAX_RING_CAPACITY)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + ShmParams.RING_SIZE.name() + "=" + ringCapacity +
                " must be a power of two between " + OneToOneRingBuffer.MIN_CAPACITY + " and " + MAX_RING_CAPACITY);
        }
        if (slotCount < 1)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + ShmParams.POOL_SLOTS.name() + "=" + slotCount +
                " must be at least 1");
        }
        final long poolLength = FragmentPoolDescriptor.SLOTS_OFFSET +
            (long)slotCount * BitUtil.align((long)Math.max(slotLength, 1), FragmentPoolDescriptor.SLOT_ALIGNMENT);
        if (slotLength < 1 || poolLength > Integer.MAX_VALUE - ShmFileDescriptor.REGION_ALIGNMENT)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + ShmParams.SLOT_SIZE.name() + "=" + slotLength +
                " must be positive and a pool of " + slotCount + " slots must stay below 2 GiB");
        }
        // Agrona's OneToOneRingBuffer.maxMsgLength(), less the checksum header when there is one
        final int maxInline = (ringCapacity >> 3) - (checksum ? ShmMessageDescriptor.CHECKSUM_HEADER_LENGTH : 0);
        if (inlineMax < 0 || inlineMax > slotLength || inlineMax > maxInline)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + ShmParams.INLINE_MAX.name() + "=" + inlineMax +
                " must be between 0 and min(" + ShmParams.SLOT_SIZE.name() + "=" + slotLength + ", " +
                ShmParams.RING_SIZE.name() + "/8" + (checksum ? " - 16 (checksum header)" : "") + "=" + maxInline + ")");
        }
        return new ShmConfig(dir, ringCapacity, slotCount, slotLength, inlineMax, checksum);
    }

    long fileLength(final int localRankCount)
    {
        return ShmFileDescriptor.fileLength(localRankCount, ringCapacity, slotCount, slotLength);
    }

    long ringOffset(final int localRankCount, final int senderLocal, final int receiverLocal)
    {
        return ShmFileDescriptor.ringOffset(localRankCount, ringCapacity, senderLocal, receiverLocal);
    }

    long doorbellOffset(final int localRankCount, final int localIndex)
    {
        return DoorbellDescriptor.offset(localRankCount, localIndex);
    }

    int ringLength()
    {
        return ShmFileDescriptor.ringLength(ringCapacity);
    }

    long poolOffset(final int localRankCount, final int senderLocal, final int receiverLocal)
    {
        return ShmFileDescriptor.poolOffset(localRankCount, ringCapacity, slotCount, slotLength, senderLocal, receiverLocal);
    }

    /** The file header's flags for this configuration ({@link ShmFileDescriptor#FLAGS_OFFSET}). */
    int flags()
    {
        return checksum ? ShmFileDescriptor.FLAG_CHECKSUMS : 0;
    }

    int poolLength()
    {
        return FragmentPoolDescriptor.poolLength(slotCount, slotLength);
    }
}
