package org.jmpi.transport.pvas;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Params;

import java.nio.file.Path;

/**
 * The arena's parameters of one rank, read and checked once at probe and open.
 *
 * <p>Immutable; any thread.
 *
 * @param dir             directory of the arena file (the shm transport's).
 * @param partitionLength data bytes of each rank's partition; 0 means the arena is off.
 * @param segmentLength   bytes of one mapping of a partition.
 * @param slotCount       exposure slots per partition.
 * @param check           guard zones around allocations ({@link ArenaGuards}).
 * @param stats           print the counters at finalize.
 */
record PvasConfig(Path dir, long partitionLength, long segmentLength, int slotCount, boolean check, boolean stats)
{
    static final int MAX_SLOTS = 1 << 20;

    /**
     * Reads and checks the parameters.
     *
     * @throws MpiException ERR_ARG naming the parameter and its value when one is out of range.
     */
    static PvasConfig from(final Params params)
    {
        final long partition = params.getLong(PvasParams.PARTITION_SIZE);
        final long segment = params.getLong(PvasParams.SEGMENT_SIZE);
        final long slots = params.getLong(PvasParams.EXPOSURES);
        if (partition < 0 || partition > 1L << 40)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + PvasParams.PARTITION_SIZE.name() + "=" + partition +
                " must be between 0 (off) and 1 TiB");
        }
        if (segment < ArenaFileDescriptor.PAGE || segment > ArenaFileDescriptor.MAX_SEGMENT_LENGTH || segment % ArenaFileDescriptor.PAGE != 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + PvasParams.SEGMENT_SIZE.name() + "=" + segment +
                " must be a multiple of " + ArenaFileDescriptor.PAGE + " between " + ArenaFileDescriptor.PAGE + " and " +
                ArenaFileDescriptor.MAX_SEGMENT_LENGTH);
        }
        if (slots < 1 || slots > MAX_SLOTS)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + PvasParams.EXPOSURES.name() + "=" + slots +
                " must be between 1 and " + MAX_SLOTS);
        }
        return new PvasConfig(Path.of(params.get(PvasParams.SHM_DIR)), partition, segment, (int)slots,
            params.getBoolean(PvasParams.CHECK), params.getBoolean(PvasParams.STATS));
    }

    /** The data bytes of a partition: the parameter rounded up to a page. */
    long alignedPartitionLength()
    {
        return org.agrona.BitUtil.align(partitionLength, ArenaFileDescriptor.PAGE);
    }
}
