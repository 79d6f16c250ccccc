package org.jmpi.transport.pvas;

import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.ArenaMemory;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.NodeFile;
import org.jmpi.spi.TransportContext;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

import static org.jmpi.transport.pvas.ArenaFileDescriptor.*;

/**
 * The node's arena as one rank sees it: every local rank's partition mapped (exposure table and data
 * segments), this rank's allocator over its own data area, and its exposure table.
 *
 * <p>Opening (collective over the node's ranks, per-node bootstrap keys only):
 * <ol>
 *   <li>The lowest node-local rank creates the file under a random name (owner-only, sparse), writes the
 *       header (magic last) and publishes {@code "<rank>.pvas.file"} = path and instance id.</li>
 *   <li>Every other node-local rank gets that key, maps the file, checks every header field against its own
 *       parameters and publishes {@code "<rank>.pvas.attached"}.</li>
 *   <li>The creator waits for every attached key, then deletes the file: the mappings stay valid and nothing is
 *       left in the directory however the ranks end. Before that, the provider's {@code cleanup} removes it.</li>
 * </ol>
 *
 * <p>Threading: {@link #allocate}, {@link #free} and {@link #contains} from any thread (synchronised);
 * the exposure methods ({@link ArenaPeerMemory}) on the engine thread. Memory: owns its mappings until
 * {@link #close}; buffers handed out point into them and must not be used after close.
 */
final class Arena implements ArenaMemory, AutoCloseable
{
    /** Files are {@code jmpi-pvas-<jobId>-<16 random hex digits>}: not guessable before the job publishes the name. */
    static final String FILE_PREFIX = "jmpi-pvas-";
    static final String OWNER = "pvas";
    static final String FILE_KEY_SUFFIX = ".pvas.file";
    static final String ATTACHED_KEY_SUFFIX = ".pvas.attached";

    private final int rank;
    private final PvasConfig config;
    private final int[] localRanks;
    private final int localIndex;
    private final NodeFile file;
    /** Data segments by local index, then segment: each one mapping. */
    private final ByteBuffer[][] segments;
    /** Exposure tables by local index. */
    private final ByteBuffer[] tables;
    private final long[] ownSegmentAddresses;
    private final ArenaAllocator allocator;
    /** Every allocation handed out, by the address of its buffer. */
    private final Map<Long, Allocation> allocations = new HashMap<>();
    private final boolean check;
    private final ArenaStats stats;
    /** Checking mode: the partition's guard zones, {offset, length} pairs in the data area. */
    private final long[] partitionGuards;

    /**
     * One allocation: the block in the data area (offset, address and length, guard zones included in checking
     * mode) and the buffer's address and length within it.
     */
    private record Allocation(long block, long blockAddress, long blockLength, long address, long length)
    {
    }

    private Arena(final int rank, final PvasConfig config, final int[] localRanks, final int localIndex, final NodeFile file)
    {
        this.rank = rank;
        this.check = config.check();
        this.stats = new ArenaStats();
        this.config = config;
        this.localRanks = localRanks;
        this.localIndex = localIndex;
        this.file = file;
        final long partition = config.alignedPartitionLength();
        final int segmentCount = segmentCount(partition, config.segmentLength());
        this.segments = new ByteBuffer[localRanks.length][segmentCount];
        this.tables = new ByteBuffer[localRanks.length];
        for (int i = 0; i < localRanks.length; i++)
        {
            tables[i] = file.map(partitionOffset(localRanks.length, config.slotCount(), partition, i), tableLength(config.slotCount()));
            final long data = dataOffset(localRanks.length, config.slotCount(), partition, i);
            for (int s = 0; s < segmentCount; s++)
            {
                final long at = s * config.segmentLength();
                segments[i][s] = file.map(data + at, Math.min(config.segmentLength(), partition - at));
            }
        }
        this.ownSegmentAddresses = new long[segmentCount];
        for (int s = 0; s < segmentCount; s++)
        {
            ownSegmentAddresses[s] = BufferUtil.address(segments[localIndex][s]);
        }
        this.allocator = new ArenaAllocator(partition, config.segmentLength());
        this.partitionGuards = check ? placeGuards(partition) : new long[0];
    }

    /**
     * Checking mode: a guard zone at the start of the data area after a random number of pages (so allocations do
     * not start at the same offset from run to run) and one at its end, reserved and filled with the canary.
     *
     * @return the guards as {offset, length} pairs.
     */
    private long[] placeGuards(final long partition)
    {
        final long firstSegment = Math.min(partition, config.segmentLength());
        final long skewPages = Math.max(0, Math.min(16, firstSegment / PAGE / 8 - 1));
        final long start = skewPages == 0 ? 0 : PAGE * new SecureRandom().nextLong(skewPages + 1);
        final long end = partition - ArenaGuards.BYTES;
        // the first guard covers the random prefix, so the first allocation starts after it
        final long[] guards = {0, start + ArenaGuards.BYTES, end, ArenaGuards.BYTES};
        for (int g = 0; g < guards.length; g += 2)
        {
            if (guards[g] < 0 || !allocator.reserve(guards[g], guards[g + 1]))
            {
                throw new MpiException(ErrorClass.ERR_ARG, "pvas: " + PvasParams.PARTITION_SIZE.name() + "=" + partition +
                    " leaves no room for the checking mode's guards");
            }
            final long address = dataAddress(guards[g]);
            ArenaGuards.fill(address, address + guards[g + 1]);
        }
        return guards;
    }

    /** The address of offset {@code offset} of this rank's data area. */
    private long dataAddress(final long offset)
    {
        final int s = (int)(offset / config.segmentLength());
        return ownSegmentAddresses[s] + offset - s * config.segmentLength();
    }

    /** World ranks on this rank's node, ascending. */
    static int[] localRanks(final TransportContext context)
    {
        final String node = context.nodeId(context.rank());
        return java.util.stream.IntStream.range(0, context.size()).filter(r -> context.nodeId(r).equals(node)).toArray();
    }

    /**
     * Creates or attaches the node's arena (see the class comment for the steps).
     *
     * @throws MpiException when the file cannot be created, attached or verified, or a local rank does not
     *                      show up within the init timeout.
     */
    static Arena open(final TransportContext context, final PvasConfig config)
    {
        final int[] localRanks = localRanks(context);
        final int localIndex = Arrays.binarySearch(localRanks, context.rank());
        final long fileLength = fileLength(localRanks.length, config.slotCount(), config.alignedPartitionLength());
        final Bootstrap bootstrap = context.bootstrap();
        final long timeoutNs = context.initTimeoutNs();
        final int creatorRank = localRanks[0];
        if (localIndex == 0)
        {
            final long instanceId = new SecureRandom().nextLong();
            checkSpace(config.dir(), fileLength);
            final byte[] random = new byte[8];
            new SecureRandom().nextBytes(random);
            final NodeFile file = NodeFile.create(OWNER, config.dir().resolve(FILE_PREFIX + context.jobId() + "-" + HexFormat.of().formatHex(random)),
                fileLength);
            try
            {
                final ByteBuffer header = file.map(0, headerLength(localRanks.length));
                writeHeader(header, fileLength, instanceId, config, localRanks);
                final Arena arena = new Arena(context.rank(), config, localRanks, localIndex, file);
                file.closeChannel();
                bootstrap.put(creatorRank + FILE_KEY_SUFFIX,
                    (file.path() + "\n" + HexFormat.of().toHexDigits(instanceId)).getBytes(StandardCharsets.UTF_8));
                for (int i = 1; i < localRanks.length; i++)
                {
                    bootstrap.get(localRanks[i] + ATTACHED_KEY_SUFFIX, timeoutNs);
                }
                file.deleteFile();
                return arena;
            }
            catch (final RuntimeException | Error ex)
            {
                file.close();
                throw ex;
            }
        }
        final String[] published = new String(bootstrap.get(creatorRank + FILE_KEY_SUFFIX, timeoutNs), StandardCharsets.UTF_8).split("\n", 2);
        if (published.length != 2)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "pvas: rank " + creatorRank + " published a malformed arena key");
        }
        final NodeFile file = NodeFile.attach(OWNER, Path.of(published[0]));
        try
        {
            final ByteBuffer header = file.map(0, headerLength(localRanks.length));
            verifyHeader(file, header, fileLength, HexFormat.fromHexDigitsToLong(published[1]), config, localRanks);
            final Arena arena = new Arena(context.rank(), config, localRanks, localIndex, file);
            file.closeChannel();
            bootstrap.put(context.rank() + ATTACHED_KEY_SUFFIX, new byte[] {1});
            return arena;
        }
        catch (final RuntimeException | Error ex)
        {
            file.close();
            throw ex;
        }
    }

    /** The arena is sparse, but a page touched with the directory full would kill the JVM (SIGBUS): check room for all of it. */
    private static void checkSpace(final Path dir, final long fileLength)
    {
        try
        {
            final long usable = java.nio.file.Files.getFileStore(dir).getUsableSpace();
            if (usable < fileLength)
            {
                throw new MpiException(ErrorClass.ERR_NO_MEM, "pvas: " + dir + " has " + usable + " bytes free, the node's arena needs " +
                    fileLength + " (lower " + PvasParams.PARTITION_SIZE.name() + ")");
            }
        }
        catch (final java.io.IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: cannot stat " + dir + ": " + ex, ex);
        }
    }

    private static void writeHeader(final ByteBuffer header, final long fileLength, final long instanceId, final PvasConfig config,
        final int[] localRanks)
    {
        header.putInt(VERSION_OFFSET, VERSION);
        header.putInt(HEADER_LENGTH_OFFSET, headerLength(localRanks.length));
        header.putLong(FILE_LENGTH_OFFSET, fileLength);
        header.putLong(INSTANCE_ID_OFFSET, instanceId);
        header.putLong(PARTITION_LENGTH_OFFSET, config.alignedPartitionLength());
        header.putLong(SEGMENT_LENGTH_OFFSET, config.segmentLength());
        header.putInt(LOCAL_RANK_COUNT_OFFSET, localRanks.length);
        header.putInt(SLOT_COUNT_OFFSET, config.slotCount());
        header.putInt(EXPOSURE_VERSION_OFFSET, ArenaExposureDescriptor.VERSION);
        header.putInt(RESERVED_OFFSET, 0);
        for (int i = 0; i < localRanks.length; i++)
        {
            header.putInt(rankTableEntryOffset(i), localRanks[i]);
        }
        UnsafeApi.putLongRelease(null, BufferUtil.address(header) + MAGIC_OFFSET, MAGIC);
    }

    /**
     * Checks every header field against what this rank expects.
     *
     * @throws MpiException ERR_OTHER naming the first field that differs, with both values.
     */
    private static void verifyHeader(final NodeFile file, final ByteBuffer header, final long fileLength, final long instanceId,
        final PvasConfig config, final int[] localRanks)
    {
        check(file, "magic", MAGIC, UnsafeApi.getLongVolatile(null, BufferUtil.address(header) + MAGIC_OFFSET));
        check(file, "version", VERSION, header.getInt(VERSION_OFFSET));
        check(file, "exposure layout version", ArenaExposureDescriptor.VERSION, header.getInt(EXPOSURE_VERSION_OFFSET));
        check(file, "header length", headerLength(localRanks.length), header.getInt(HEADER_LENGTH_OFFSET));
        check(file, "instance id", instanceId, header.getLong(INSTANCE_ID_OFFSET));
        check(file, "file length", fileLength, header.getLong(FILE_LENGTH_OFFSET));
        check(file, "actual file length", fileLength, file.length());
        check(file, PvasParams.PARTITION_SIZE.name(), config.alignedPartitionLength(), header.getLong(PARTITION_LENGTH_OFFSET));
        check(file, PvasParams.SEGMENT_SIZE.name(), config.segmentLength(), header.getLong(SEGMENT_LENGTH_OFFSET));
        check(file, "local rank count", localRanks.length, header.getInt(LOCAL_RANK_COUNT_OFFSET));
        check(file, PvasParams.EXPOSURES.name(), config.slotCount(), header.getInt(SLOT_COUNT_OFFSET));
        for (int i = 0; i < localRanks.length; i++)
        {
            check(file, "world rank of local rank " + i, localRanks[i], header.getInt(rankTableEntryOffset(i)));
        }
    }

    private static void check(final NodeFile file, final String field, final long expected, final long found)
    {
        if (expected != found)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: " + file.path() + " does not match this rank: " + field +
                " expected=" + expected + ", found=" + found);
        }
    }

    int rank()
    {
        return rank;
    }

    PvasConfig config()
    {
        return config;
    }

    /** The local index of world rank {@code worldRank}, or -1 when it is not on this node. */
    int localIndexOf(final int worldRank)
    {
        final int i = Arrays.binarySearch(localRanks, worldRank);
        return i >= 0 ? i : -1;
    }

    int localIndex()
    {
        return localIndex;
    }

    ByteBuffer table(final int local)
    {
        return tables[local];
    }

    ByteBuffer segment(final int local, final int segment)
    {
        return segments[local][segment];
    }

    // ------------------------------------------------------------------------------------------ allocation

    @Override
    public synchronized ByteBuffer allocate(final long lengthBytes, final int alignment)
    {
        if (lengthBytes < 1 || Integer.bitCount(alignment) != 1)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "pvas: allocate " + lengthBytes + " bytes aligned to " + alignment);
        }
        // Offsets aligned up to a page are addresses aligned the same; beyond, over-allocate and align the address.
        // In checking mode a guard zone (a whole number of alignment units) lies before the buffer and one after.
        final long unit = Math.min(alignment, PAGE);
        final long lead = check ? (ArenaGuards.BYTES + unit - 1) / unit * unit : 0;
        final long blockLength = lead + lengthBytes + (alignment > PAGE ? alignment - PAGE : 0) + (check ? ArenaGuards.BYTES : 0);
        final long block = blockLength <= config.segmentLength() ? allocator.allocate(blockLength, unit) : -1;
        if (block < 0)
        {
            stats.exhausted++;
            throw new MpiException(ErrorClass.ERR_NO_MEM, "allocMem: rank " + rank + "'s arena partition has no block of " + lengthBytes +
                " bytes aligned to " + alignment + ": " + allocator.freeBytes() + " of " + allocator.capacity() + " bytes free, largest free block " +
                allocator.largestFreeBlock() + " (" + PvasParams.PARTITION_SIZE.name() + ", " + PvasParams.SEGMENT_SIZE.name() + "=" +
                config.segmentLength() + " bounds one allocation)");
        }
        final int s = (int)(block / config.segmentLength());
        final long blockAddress = ownSegmentAddresses[s] + block - s * config.segmentLength();
        final long address = (blockAddress + lead + alignment - 1) & -(long)alignment;
        final ByteBuffer buffer = segments[localIndex][s].slice((int)(address - ownSegmentAddresses[s]), (int)lengthBytes)
            .order(ByteOrder.nativeOrder());
        if (check)
        {
            ArenaGuards.fill(blockAddress, address);
            ArenaGuards.fill(address + lengthBytes, blockAddress + blockLength);
        }
        allocations.put(address, new Allocation(block, blockAddress, blockLength, address, lengthBytes));
        stats.allocated(lengthBytes, allocator.capacity() - allocator.freeBytes());
        return buffer;
    }

    /**
     * In checking mode: what is wrong with the guard zones of {@code a}, or null when they are intact.
     */
    private String damage(final Allocation a)
    {
        if (!check)
        {
            return null;
        }
        long changed = ArenaGuards.firstChanged(a.blockAddress(), a.address());
        if (changed < 0)
        {
            changed = ArenaGuards.firstChanged(a.address() + a.length(), a.blockAddress() + a.blockLength());
        }
        return changed < 0 ? null : "rank " + rank + " wrote outside its allocMem buffer of " + a.length() + " bytes at partition offset " +
            (a.block() + a.address() - a.blockAddress()) + ": the guard byte at buffer offset " + (changed - a.address()) + " changed";
    }

    /** Checking mode: the damage found in every live allocation's guards (at finalize), one line each. */
    synchronized java.util.List<String> verifyAll()
    {
        final java.util.List<String> found = new java.util.ArrayList<>();
        for (int g = 0; g < partitionGuards.length; g += 2)
        {
            final long address = dataAddress(partitionGuards[g]);
            final long changed = ArenaGuards.firstChanged(address, address + partitionGuards[g + 1]);
            if (changed >= 0)
            {
                found.add("rank " + rank + "'s arena partition guard at partition offset " + (partitionGuards[g] + changed - address) +
                    " changed: a write outside every allocMem buffer (of this rank, or of one with the partition mapped)");
            }
        }
        for (final Allocation a : allocations.values())
        {
            final String damage = damage(a);
            if (damage != null)
            {
                found.add(damage);
            }
        }
        return found;
    }

    ArenaStats stats()
    {
        return stats;
    }

    @Override
    public synchronized boolean free(final ByteBuffer buffer)
    {
        if (buffer == null || !buffer.isDirect())
        {
            return false;
        }
        final Allocation a = allocations.remove(BufferUtil.address(buffer));
        if (a == null)
        {
            return false;
        }
        final String damage = damage(a);
        allocator.free(a.block());
        stats.frees++;
        if (damage != null)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "freeMem: " + damage + " (" + PvasParams.CHECK.name() + ")");
        }
        return true;
    }

    @Override
    public boolean contains(final Buffer buffer)
    {
        return buffer != null && buffer.isDirect() && ownDataOffset(address(buffer), byteCapacity(buffer)) >= 0;
    }

    /** Allocations live now, for tests and the counters. */
    synchronized int allocationCount()
    {
        return allocator.allocationCount();
    }

    synchronized long freeBytes()
    {
        return allocator.freeBytes();
    }

    /**
     * The offset in this rank's data area of {@code [address, address + length)}, or -1 when that range is not
     * inside one segment of this rank's partition.
     */
    long ownDataOffset(final long address, final long length)
    {
        for (int s = 0; s < ownSegmentAddresses.length; s++)
        {
            final long start = ownSegmentAddresses[s];
            if (address >= start && address + length <= start + segments[localIndex][s].capacity())
            {
                return s * config.segmentLength() + address - start;
            }
        }
        return -1;
    }

    /** The Unsafe address of a direct buffer's element 0 (every nio buffer keeps it in {@code Buffer.address}). */
    static long address(final Buffer buffer)
    {
        return UnsafeApi.getLong(buffer, BufferUtil.BYTE_BUFFER_ADDRESS_FIELD_OFFSET);
    }

    /** A buffer's capacity in bytes. */
    static long byteCapacity(final Buffer buffer)
    {
        return (long)buffer.capacity() * ArenaExposureDescriptor.elementSize(ArenaPeerMemory.kindOf(buffer));
    }

    @Override
    public void close()
    {
        file.close();
    }
}
