package mpi;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static mpi.Job.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mpi.File and mpi.FileView (Open MPI's Java MPI-IO API) over jmpi's files, at 2 and 4 ranks. */
class FileTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldWriteInterleavedVectorViewsAndReadThemBack(final int size)
    {
        final String name = dir.resolve("vector").toString();
        final int blocks = 6;
        Job.world(size, (world, rank, n) ->
        {
            // Block of 3 ints every 3 * n ints, this rank's block at 3 * rank ints.
            final Datatype filetype = Datatype.createVector(blocks, 3, 3 * n, MPI.INT);
            filetype.commit();
            final File file = new File(world, name, MPI.MODE_RDWR | MPI.MODE_CREATE);
            assertEquals(MPI.MODE_RDWR | MPI.MODE_CREATE, file.getAMode());
            assertEquals(n, file.getGroup().getSize());
            assertEquals("native", file.getView().getDataRep());
            file.setView(3L * 4 * rank, MPI.INT, filetype, "native");
            final FileView view = file.getView();
            assertEquals(3L * 4 * rank, view.getDisp());
            assertSame(MPI.INT, view.getEType());
            assertSame(filetype, view.getFileType());
            final int[] mine = new int[3 * blocks];
            Arrays.setAll(mine, i -> rank * 1000 + i);
            final Status s = file.writeAll(mine, mine.length, MPI.INT);
            assertEquals(mine.length, s.getCount(MPI.INT));
            assertEquals(mine.length, file.getPosition());
            file.sync();
            // Read the next rank's part through a view of its blocks.
            final int next = (rank + 1) % n;
            file.setView(3L * 4 * next, MPI.INT, filetype, "native", new Info());
            final IntBuffer back = MPI.newIntBuffer(3 * blocks);
            file.readAtAll(0, back, 3 * blocks, MPI.INT);
            for (int i = 0; i < 3 * blocks; i++)
            {
                assertEquals(next * 1000 + i, back.get(i));
            }
            assertEquals(3L * 4 * next + 3L * 4 * n, file.getByteOffset(3));
            assertEquals(1, file.getTypeExtent(MPI.INT));
            file.close();
            world.barrier();
            if (rank == 0)
            {
                final ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(Path.of(name))).order(java.nio.ByteOrder.nativeOrder());
                for (int i = 0; i < all.capacity() / 4; i++)
                {
                    final int owner = (i / 3) % n;
                    assertEquals(owner * 1000 + (i / (3 * n)) * 3 + i % 3, all.getInt(4 * i), "int " + i);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldShareAPointerOrderWritesAndCompleteNonblockingAndSplitForms(final int size)
    {
        final String name = dir.resolve("shared").toString();
        Job.world(size, (world, rank, n) ->
        {
            final File file = new File(world, name, MPI.MODE_RDWR | MPI.MODE_CREATE | MPI.MODE_DELETE_ON_CLOSE);
            file.setView(0, MPI.INT, MPI.INT, "native");
            file.writeOrdered(new int[] {rank, rank}, 2, MPI.INT);
            assertEquals(2L * n, file.getPositionShared());
            world.barrier(); // nobody moves the shared pointer before every rank has read it
            file.writeShared(new int[] {100 + rank}, 1, MPI.INT);
            world.barrier();
            assertEquals(3L * n, file.getPositionShared());
            file.seekShared(0, MPI.SEEK_SET);
            final int[] two = new int[2];
            file.readOrderedBegin(two, 2, MPI.INT);
            assertEquals(8, file.readOrderedEnd(two).getCount(MPI.BYTE));
            assertArrayEquals(new int[] {rank, rank}, two);
            final IntBuffer tail = MPI.newIntBuffer(n);
            final Request r = file.iReadAt(2L * n, tail, n, MPI.INT);
            r.waitFor();
            final boolean[] seen = new boolean[n];
            for (int i = 0; i < n; i++)
            {
                seen[tail.get(i) - 100] = true;
            }
            assertTrue(allTrue(seen), "every rank's shared write is there");
            // Individual pointer, heap buffers in nonblocking forms, seek.
            file.seek(0, MPI.SEEK_END);
            assertEquals(3L * n, file.getPosition());
            world.barrier();
            file.setView(0, MPI.BYTE, MPI.BYTE, "native");
            file.seek(4L * (3 * n + rank), MPI.SEEK_SET);
            final Request w = file.iWrite(IntBuffer.wrap(new int[] {-rank}), 1, MPI.INT);
            w.waitFor();
            file.writeAtAllBegin(4L * (4 * n + rank), new int[] {rank}, 1, MPI.INT);
            assertEquals(4, file.writeAtAllEnd(null).getCount(MPI.BYTE));
            file.sync();
            assertEquals(4L * 5 * n, file.getSize());
            final int[] mineBack = new int[1];
            file.readAt(4L * (3 * n + rank), mineBack, 1, MPI.INT);
            assertEquals(-rank, mineBack[0]);
            file.setAtomicity(true);
            assertTrue(file.getAtomicity());
            file.setSize(8);
            file.preallocate(16);
            assertEquals(16, file.getSize());
            file.close();
            world.barrier();
            assertFalse(Files.exists(Path.of(name)));
        });
    }

    private static boolean allTrue(final boolean[] values)
    {
        for (final boolean v : values)
        {
            if (!v)
            {
                return false;
            }
        }
        return true;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldRaiseTheMpiIoErrorClasses(final int size) throws Exception
    {
        final String name = dir.resolve("errors").toString();
        final String missing = dir.resolve("missing").toString();
        Files.write(Path.of(name), new byte[8]);
        Job.world(size, (world, rank, n) ->
        {
            assertMpiError(MPI.ERR_AMODE, () -> new File(world, name, MPI.MODE_RDONLY | MPI.MODE_RDWR));
            assertMpiError(MPI.ERR_NOT_SAME, () -> new File(world, name, rank == 0 ? MPI.MODE_RDONLY : MPI.MODE_RDWR));
            assertMpiError(MPI.ERR_NO_SUCH_FILE, () -> new File(world, missing, MPI.MODE_RDONLY));
            assertMpiError(MPI.ERR_FILE_EXISTS, () -> new File(world, name, MPI.MODE_WRONLY | MPI.MODE_CREATE | MPI.MODE_EXCL));
            assertMpiError(MPI.ERR_BAD_FILE, () -> new File(world, dir.toString(), MPI.MODE_RDONLY));
            final File ro = new File(world, name, MPI.MODE_RDONLY);
            assertEquals(MPI.ERRORS_RETURN, ro.getErrhandler());
            assertMpiError(MPI.ERR_READ_ONLY, () -> ro.writeAt(0, new byte[1], 1, MPI.BYTE));
            assertMpiError(MPI.ERR_UNSUPPORTED_DATAREP, () -> ro.setView(0, MPI.BYTE, MPI.BYTE, "big"));
            assertMpiError(MPI.ERR_FILE_IN_USE, () -> File.delete(name));
            assertMpiError(MPI.ERR_IO, () -> ro.readAllEnd(null));
            assertMpiError(MPI.ERR_ARG, () -> ro.seek(0, 12345));
            assertMpiError(MPI.ERR_QUOTA, () -> ro.callErrhandler(MPI.ERR_QUOTA));
            ro.close();
            assertMpiError(MPI.ERR_FILE, ro::getSize);
            final File wo = new File(world, name, MPI.MODE_WRONLY | MPI.MODE_SEQUENTIAL);
            assertMpiError(MPI.ERR_ACCESS, () -> wo.readShared(new byte[1], 1, MPI.BYTE));
            assertMpiError(MPI.ERR_UNSUPPORTED_OPERATION, () -> wo.writeAt(0, new byte[1], 1, MPI.BYTE));
            wo.close();
            world.barrier();
            if (rank == 0)
            {
                File.delete(name, new Info());
                assertMpiError(MPI.ERR_NO_SUCH_FILE, () -> File.delete(name));
            }
        });
    }
}
