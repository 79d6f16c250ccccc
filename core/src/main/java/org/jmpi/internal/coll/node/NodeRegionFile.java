package org.jmpi.internal.coll.node;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.NodeFile;

/**
 * The file behind a mapped node collective region: {@code <jmpi.shm.dir>/jmpi-<jobId>-coll-<random>}, created
 * by the communicator's rank 0 ({@link NodeFile}: exclusive, 0600, sparse), attached and mapped by the others,
 * and deleted by its creator once every rank has posted a first round (each maps before it posts), so that
 * only a job that dies between creation and that point leaves it, for the launcher's cleanup: the shm
 * transport's cleanup deletes {@code jmpi-<jobId>-*} in the same directory, and the region is only used where
 * that transport (or the arena transport, which carries its frames through it) is on the class path.
 *
 * <p>Threading: made and deleted on the owning rank's engine thread. Owns its mapping: it stays mapped as long
 * as this object is reachable (the communicator's state), then the collector unmaps it.
 */
final class NodeRegionFile
{
    static final String OWNER = "node collectives";
    static final String INFIX = "-coll-";

    private final NodeFile file;
    private final UnsafeBuffer buffer;

    private NodeRegionFile(final NodeFile file, final long lengthBytes)
    {
        this.file = file;
        final MappedByteBuffer mapping = file.map(0, lengthBytes);
        this.buffer = new UnsafeBuffer(mapping);
        file.closeChannel();
    }

    /** The name prefix of a job's region files in the shm directory (what the launcher's cleanup deletes). */
    static String prefix(final String jobId)
    {
        return "jmpi-" + jobId + INFIX;
    }

    /** Creates a region file of {@code ranks} slots of {@code slotBytes} in {@code dir}, its header written. */
    static NodeRegionFile create(final Path dir, final String jobId, final int ranks, final int slotBytes)
    {
        NodeRegion.checkFits(ranks, slotBytes);
        final byte[] random = new byte[8];
        new SecureRandom().nextBytes(random);
        final long length = NodeRegionDescriptor.regionLength(ranks, slotBytes);
        final NodeFile file = NodeFile.create(OWNER, dir.resolve(prefix(jobId) + HexFormat.of().formatHex(random)), length);
        try
        {
            final NodeRegionFile region = new NodeRegionFile(file, length);
            NodeRegion.writeHeader(region.buffer, ranks, slotBytes);
            return region;
        }
        catch (final RuntimeException ex)
        {
            file.close();
            throw ex;
        }
    }

    /**
     * Attaches the region file at {@code path} that a peer named, which must lie in {@code dir}, carry the
     * job's prefix and have the length of {@code ranks} slots of {@code slotBytes}.
     *
     * @throws MpiException ERR_INTERN when the name or the length is not what the layout gives; ERR_OTHER when
     *                      the file cannot be opened (missing, not private).
     */
    static NodeRegionFile attach(final Path dir, final String jobId, final String path, final int ranks, final int slotBytes)
    {
        NodeRegion.checkFits(ranks, slotBytes);
        final Path p = Path.of(path);
        if (!dir.equals(p.getParent()) || !p.getFileName().toString().startsWith(prefix(jobId)))
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "node collective region: rank 0 named file '" + path + "', not one of " +
                dir.resolve(prefix(jobId)) + "*");
        }
        final long length = NodeRegionDescriptor.regionLength(ranks, slotBytes);
        final NodeFile file = NodeFile.attach(OWNER, p);
        try
        {
            final long found = file.length();
            if (found != length)
            {
                throw new MpiException(ErrorClass.ERR_INTERN, "node collective region: " + p + " is " + found + " bytes, " + ranks +
                    " ranks of " + slotBytes + "-byte slots need " + length);
            }
            return new NodeRegionFile(file, length);
        }
        catch (final RuntimeException ex)
        {
            file.close();
            throw ex;
        }
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    Path path()
    {
        return file.path();
    }

    /** Removes the file (creator; idempotent); the mappings stay valid. */
    void deleteFile()
    {
        file.deleteFile();
    }

    /** Unmaps and (creator) deletes the file: for a region whose setup failed. */
    void close()
    {
        file.close();
    }
}
