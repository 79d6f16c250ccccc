package org.jmpi;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every MPI-IO error class jmpi raises, at every rank of the job (ranks as threads). */
class FileErrorsTest
{
    @TempDir
    Path dir;

    private static MpiException assertError(final ErrorClass expected, final Executable call)
    {
        final MpiException ex = assertThrows(MpiException.class, call);
        assertEquals(expected, ex.errorClass(), ex.getMessage());
        return ex;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldRefuseBadOpensAtEveryRank(final int size) throws Exception
    {
        final String missing = dir.resolve("missing").toString();
        final String existing = dir.resolve("existing").toString();
        Files.write(Path.of(existing), new byte[] {1});
        Ranks.run(size, (mpi, world) ->
        {
            assertError(ErrorClass.ERR_AMODE, () -> File.open(world, existing, File.MODE_RDONLY | File.MODE_WRONLY, null));
            assertError(ErrorClass.ERR_AMODE, () -> File.open(world, existing, File.MODE_RDONLY | File.MODE_CREATE, null));
            assertError(ErrorClass.ERR_AMODE, () -> File.open(world, existing, File.MODE_RDWR | File.MODE_SEQUENTIAL, null));
            assertError(ErrorClass.ERR_AMODE, () -> File.open(world, existing, 0, null));
            assertError(ErrorClass.ERR_NOT_SAME, () -> File.open(world, existing, world.rank() == 0 ? File.MODE_RDONLY : File.MODE_RDWR,
                null));
            assertError(ErrorClass.ERR_NOT_SAME, () -> File.open(world, existing + world.rank(), File.MODE_RDONLY, null));
            assertError(ErrorClass.ERR_NO_SUCH_FILE, () -> File.open(world, missing, File.MODE_RDONLY, null));
            assertError(ErrorClass.ERR_FILE_EXISTS, () -> File.open(world, existing, File.MODE_RDWR | File.MODE_CREATE | File.MODE_EXCL,
                null));
            assertError(ErrorClass.ERR_BAD_FILE, () -> File.open(world, dir.toString(), File.MODE_RDONLY, null));
            assertError(ErrorClass.ERR_BAD_FILE, () -> File.open(world, "", File.MODE_RDONLY, null));
            // After all these, a good open still works (no rank was left behind in a collective).
            try (File file = File.open(world, existing, File.MODE_RDONLY, null))
            {
                assertEquals(1, file.size());
            }
            assertError(ErrorClass.ERR_COMM, () -> File.open(null, existing, File.MODE_RDONLY, null));
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldRefuseAccessTheModeForbids(final int size)
    {
        final String name = dir.resolve("modes").toString();
        Ranks.run(size, (mpi, world) ->
        {
            final int[] one = {7};
            try (File file = File.open(world, name, File.MODE_WRONLY | File.MODE_CREATE, null))
            {
                file.writeAt(world.rank() * 4L, one, 0, 1, Datatype.INT);
                assertError(ErrorClass.ERR_ACCESS, () -> file.readAt(0, one, 0, 1, Datatype.INT));
                assertError(ErrorClass.ERR_ACCESS, () -> file.readOrdered(one, 0, 1, Datatype.INT));
                assertError(ErrorClass.ERR_FILE_IN_USE, () -> File.delete(name, null));
            }
            try (File file = File.open(world, name, File.MODE_RDONLY, null))
            {
                assertError(ErrorClass.ERR_READ_ONLY, () -> file.writeAt(0, one, 0, 1, Datatype.INT));
                assertError(ErrorClass.ERR_READ_ONLY, () -> file.writeShared(one, 0, 1, Datatype.INT));
                assertError(ErrorClass.ERR_READ_ONLY, () -> file.setSize(0));
                final Request failed = file.iwriteAt(0, one, 0, 1, Datatype.INT);
                assertError(ErrorClass.ERR_READ_ONLY, failed::await);
            }
            world.barrier();
            try (File file = File.open(world, name, File.MODE_WRONLY | File.MODE_SEQUENTIAL, null))
            {
                assertError(ErrorClass.ERR_UNSUPPORTED_OPERATION, () -> file.writeAt(0, one, 0, 1, Datatype.INT));
                assertError(ErrorClass.ERR_UNSUPPORTED_OPERATION, () -> file.write(one, 0, 1, Datatype.INT));
                assertError(ErrorClass.ERR_UNSUPPORTED_OPERATION, () -> file.seek(0, File.Whence.SET));
                assertError(ErrorClass.ERR_UNSUPPORTED_OPERATION, file::position);
                file.writeOrdered(one, 0, 1, Datatype.INT);
                file.setView(File.DISPLACEMENT_CURRENT, Datatype.INT, Datatype.INT, "native", null);
                assertEquals(4L * size, file.view().disp(), "DISPLACEMENT_CURRENT: where the shared pointer was");
            }
            world.barrier();
            if (world.rank() == 0)
            {
                File.delete(name, null);
                assertError(ErrorClass.ERR_NO_SUCH_FILE, () -> File.delete(name, null));
                assertError(ErrorClass.ERR_BAD_FILE, () -> File.delete(dir.toString(), null));
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldRefuseBadViewsArgumentsAndClosedFiles(final int size)
    {
        final String name = dir.resolve("views").toString();
        Ranks.run(size, (mpi, world) ->
        {
            final File file = File.open(world, name, File.MODE_RDWR | File.MODE_CREATE | File.MODE_DELETE_ON_CLOSE, null);
            final int[] two = new int[2];
            assertError(ErrorClass.ERR_UNSUPPORTED_DATAREP, () -> file.setView(0, Datatype.INT, Datatype.INT, "ieee-big", null));
            final Datatype backwards = Datatype.hindexed(new int[] {1, 1}, new long[] {8, 0}, Datatype.INT).commit();
            assertError(ErrorClass.ERR_TYPE, () -> file.setView(0, Datatype.INT, backwards, "native", null));
            final Datatype negative = Datatype.hindexed(new int[] {1}, new long[] {-4}, Datatype.INT).commit();
            assertError(ErrorClass.ERR_TYPE, () -> file.setView(0, Datatype.INT, negative, "native", null));
            assertError(ErrorClass.ERR_TYPE, () -> file.setView(0, Datatype.LONG, Datatype.INT, "native", null));
            assertError(ErrorClass.ERR_TYPE, () -> file.setView(0, Datatype.INT, Datatype.vector(2, 1, 2, Datatype.INT), "native", null));
            assertError(ErrorClass.ERR_ARG, () -> file.setView(-1, Datatype.INT, Datatype.INT, "native", null));
            assertError(ErrorClass.ERR_ARG, () -> file.setView(File.DISPLACEMENT_CURRENT, Datatype.INT, Datatype.INT, "native", null));
            assertError(ErrorClass.ERR_NOT_SAME, () -> file.setView(0, world.rank() == 0 ? Datatype.INT : Datatype.LONG,
                world.rank() == 0 ? Datatype.INT : Datatype.LONG, "native", null));
            assertError(ErrorClass.ERR_NOT_SAME, () -> file.setAtomicity(world.rank() == 0));
            assertError(ErrorClass.ERR_NOT_SAME, () -> file.setSize(world.rank()));
            file.setView(0, Datatype.LONG, Datatype.LONG, "native", null);
            assertError(ErrorClass.ERR_TYPE, () -> file.writeAt(0, two, 0, 1, Datatype.INT));
            assertError(ErrorClass.ERR_ARG, () -> file.readAt(-1, two, 0, 2, Datatype.INT));
            assertError(ErrorClass.ERR_ARG, () -> file.seek(-1, File.Whence.SET));
            assertError(ErrorClass.ERR_ARG, () -> file.setSize(-1));
            assertError(ErrorClass.ERR_COUNT, () -> file.writeAt(0, two, 0, -2, Datatype.INT));
            assertError(ErrorClass.ERR_BUFFER, () -> file.writeAt(0, two, 0, 4, Datatype.INT));
            assertError(ErrorClass.ERR_IO, () -> file.readAllEnd(two));
            file.writeAllBegin(two, 0, 2, Datatype.INT);
            assertError(ErrorClass.ERR_IO, () -> file.writeAllBegin(two, 0, 2, Datatype.INT));
            assertEquals(8, file.writeAllEnd(two).countBytes());
            assertError(ErrorClass.ERR_OTHER, () -> file.callErrorHandler(ErrorClass.ERR_OTHER, "raised by the test"));
            assertEquals(ErrorHandler.ERRORS_RETURN, file.errorHandler());
            file.close();
            assertTrue(file.isClosed());
            assertError(ErrorClass.ERR_FILE, file::size);
            assertError(ErrorClass.ERR_FILE, () -> file.readAt(0, two, 0, 2, Datatype.INT));
            assertError(ErrorClass.ERR_FILE, file::close);
        });
    }
}
