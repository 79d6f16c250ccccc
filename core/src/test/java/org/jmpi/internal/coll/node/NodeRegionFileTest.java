package org.jmpi.internal.coll.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.pt2pt.CommState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The region in a file (as across JVMs; here forced for ranks as threads with {@code jmpi.coll.node.region=file}):
 * created private by rank 0 under the job's prefix, mapped by every rank, deleted once all did; a file that is
 * not what the layout gives refused; rank 0's failure to create it failing every rank alike; and a peer's total
 * that no call can have ERR_INTERN.
 */
class NodeRegionFileTest
{
    @TempDir
    Path dir;

    private Map<String, String> params(final Path shmDir)
    {
        final Map<String, String> p = new HashMap<>();
        p.put("jmpi.coll.barrier.algorithm", "node");
        p.put("jmpi.coll.bcast.algorithm", "node");
        p.put("jmpi.coll.node.region", "file");
        p.put("jmpi.shm.dir", shmDir.toString());
        return p;
    }

    private List<String> regionFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.contains(NodeRegionFile.INFIX)).toList();
        }
    }

    @Test
    void shouldCreateAPrivateFileUnderTheJobsPrefixAndRefuseOneOfAnotherLayout() throws IOException
    {
        final NodeRegionFile created = NodeRegionFile.create(dir, "job7", 2, 256);
        try
        {
            final Path path = created.path();
            assertTrue(path.getFileName().toString().startsWith("jmpi-job7-coll-"), path.toString());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
            assertEquals(NodeRegionDescriptor.regionLength(2, 256), Files.size(path));
            assertEquals(NodeRegionDescriptor.MAGIC, created.buffer().getIntVolatile(NodeRegionDescriptor.MAGIC_OFFSET));
            final MpiException length = assertThrows(MpiException.class, () -> NodeRegionFile.attach(dir, "job7", path.toString(), 3, 256));
            assertEquals(ErrorClass.ERR_INTERN, length.errorClass());
            assertTrue(length.getMessage().contains("need"), length.getMessage());
            final MpiException elsewhere = assertThrows(MpiException.class,
                () -> NodeRegionFile.attach(dir, "job8", path.toString(), 2, 256));
            assertEquals(ErrorClass.ERR_INTERN, elsewhere.errorClass(), "another job's prefix");
            final NodeRegionFile attached = NodeRegionFile.attach(dir, "job7", path.toString(), 2, 256);
            attached.buffer().putLongVolatile(NodeRegionDescriptor.controlOffset(1), 42);
            assertEquals(42, created.buffer().getLongVolatile(NodeRegionDescriptor.controlOffset(1)), "one memory");
            created.deleteFile();
            assertFalse(Files.exists(path));
            attached.close();
        }
        finally
        {
            created.close();
        }
    }

    @Test
    @Timeout(120)
    void shouldMapTheRegionOnEveryRankAndDeleteTheFileOnceAllDid() throws IOException
    {
        Ranks.run(3, ThreadLevel.SINGLE, params(dir), (mpi, world) ->
        {
            world.barrier();
            final NodeComm node = NodeComm.of(CommInternals.state(world), 0);
            assertFalse(node.attached().heap(), "the region is a file's mapping");
            if (world.rank() == 0)
            {
                assertTrue(regionFiles().isEmpty(), "rank 0 deleted the file before its first call returned: " + regionFiles());
            }
            final int[] data = {world.rank() == 2 ? 5 : 0};
            world.bcast(data, 0, 1, Datatype.INT, 2);
            assertEquals(5, data[0]);
        });
        assertTrue(regionFiles().isEmpty(), regionFiles().toString());
    }

    @Test
    @Timeout(120)
    void shouldFailEveryRankAlikeWhenRankZeroCannotCreateTheFile()
    {
        final Path missing = dir.resolve("missing");
        Ranks.run(3, ThreadLevel.SINGLE, params(missing), (mpi, world) ->
        {
            for (int i = 0; i < 2; i++)
            {
                final MpiException e = assertThrows(MpiException.class, world::barrier);
                assertEquals(ErrorClass.ERR_OTHER, e.errorClass(), e.getMessage());
                assertTrue(e.getMessage().contains("could not create the node collective region"), e.getMessage());
            }
        });
    }

    @Test
    @Timeout(120)
    void shouldFailWithErrInternOnATotalNoCallCanHave()
    {
        Ranks.run(2, ThreadLevel.SINGLE, params(dir), (mpi, world) ->
        {
            world.barrier();
            final CommState s = CommInternals.state(world);
            final NodeComm node = NodeComm.of(s, 0);
            final int[] data = {1, 2, 3};
            if (world.rank() == 1)
            {
                // What rank 1's bcast from root 1 would post, with a negative total.
                final NodeRegion region = node.attached();
                region.total(1, node.nextHalf, -5);
                region.length(1, node.nextHalf, 12);
                region.arrive(1, NodeRegionDescriptor.flag(node.started() + 1, 0));
                world.recv(new int[1], 0, 1, Datatype.INT, 0, 6);
            }
            else
            {
                final MpiException e = assertThrows(MpiException.class, () -> world.bcast(data, 0, 3, Datatype.INT, 1));
                assertEquals(ErrorClass.ERR_INTERN, e.errorClass());
                assertTrue(e.getMessage().contains("rank 1's total"), e.getMessage());
                assertEquals(1, data[0], "nothing copied");
                world.send(new int[1], 0, 1, Datatype.INT, 1, 6);
            }
        });
    }
}
