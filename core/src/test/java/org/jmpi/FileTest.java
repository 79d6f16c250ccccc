package org.jmpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MPI-IO ({@link File}) with ranks as threads: views, the three kinds of positioning, nonblocking and split forms. */
class FileTest
{
    private static final int RDWR_CREATE = File.MODE_RDWR | File.MODE_CREATE;

    @TempDir
    Path dir;

    /** Each rank's ints as the test writes them: rank * 1000 + index. */
    private static int[] ints(final int rank, final int count)
    {
        final int[] values = new int[count];
        Arrays.setAll(values, i -> rank * 1000 + i);
        return values;
    }

    private static int[] fileInts(final Path file) throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.nativeOrder());
        final int[] values = new int[bytes.capacity() / 4];
        bytes.asIntBuffer().get(values);
        return values;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void shouldInterleaveRanksThroughATiledViewAndReadANeighboursPart(final int size)
    {
        final String name = dir.resolve("interleaved").toString();
        final int pairs = 5;
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            // Each rank owns 2 ints of every 2 * size: a contiguous pair resized to the whole stripe, shifted by rank.
            final Datatype stripe = Datatype.resized(Datatype.contiguous(2, Datatype.INT), 0, 2L * size * 4).commit();
            try (File file = File.open(world, name, RDWR_CREATE, null))
            {
                file.setView(rank * 8L, Datatype.INT, stripe, "native", null);
                final Status written = file.writeAll(ints(rank, 2 * pairs), 0, 2 * pairs, Datatype.INT);
                assertEquals(2 * pairs * 4, written.countBytes());
                assertEquals(2 * pairs, written.count(Datatype.INT));
                assertEquals(2 * pairs, file.position());
                file.sync();
                final int neighbour = (rank + 1) % size;
                file.setView(neighbour * 8L, Datatype.INT, stripe, "native", null);
                final int[] back = new int[2 * pairs];
                assertEquals(2 * pairs * 4, file.readAll(back, 0, 2 * pairs, Datatype.INT).countBytes());
                assertArrayEquals(ints(neighbour, 2 * pairs), back);
                assertEquals(neighbour * 8L + 2L * size * 4, file.byteOffset(2));
                assertEquals(2L * size * pairs * 4, file.size());
            }
            world.barrier();
            if (rank == 0)
            {
                final int[] all = fileInts(Path.of(name));
                for (int i = 0; i < all.length; i++)
                {
                    final int owner = (i / 2) % size;
                    assertEquals(owner * 1000 + (i / (2 * size)) * 2 + i % 2, all[i], "int " + i);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldWriteColumnBlocksThroughASubarrayViewAndReadThemAsAnotherRank(final int size)
    {
        final String name = dir.resolve("subarray").toString();
        final int rows = 3;
        final int cols = 4;
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final Datatype[] blocks = new Datatype[size];
            for (int r = 0; r < size; r++)
            {
                blocks[r] = Datatype.subarray(new int[] {rows, cols * size}, new int[] {rows, cols}, new int[] {0, r * cols},
                    Datatype.Order.C, Datatype.INT).commit();
            }
            try (File file = File.open(world, name, RDWR_CREATE, null))
            {
                file.setView(0, Datatype.INT, blocks[rank], "native", null);
                file.writeAtAll(0, ints(rank, rows * cols), 0, rows * cols, Datatype.INT);
                file.sync();
                final int other = (rank + size - 1) % size;
                file.setView(0, Datatype.INT, blocks[other], "native", null);
                final int[] back = new int[rows * cols];
                file.readAtAll(0, back, 0, rows * cols, Datatype.INT);
                assertArrayEquals(ints(other, rows * cols), back);
                // A read past the end of the data stops there: one more row's worth reads nothing.
                assertEquals(0, file.readAt(rows * cols, back, 0, cols, Datatype.INT).countBytes());
            }
            world.barrier();
            if (rank == 0)
            {
                final int[] all = fileInts(Path.of(name));
                assertEquals(rows * cols * size, all.length);
                for (int row = 0; row < rows; row++)
                {
                    for (int col = 0; col < cols * size; col++)
                    {
                        assertEquals((col / cols) * 1000 + row * cols + col % cols, all[row * cols * size + col], "row " + row + " col " + col);
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldGiveEachSharedPointerWriteItsOwnStretch(final int size)
    {
        final String name = dir.resolve("shared").toString();
        final int each = 64;
        final int rounds = 5;
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            try (File file = File.open(world, name, RDWR_CREATE, null))
            {
                file.setView(0, Datatype.INT, Datatype.INT, "native", null);
                final int[] block = new int[each];
                for (int round = 0; round < rounds; round++)
                {
                    Arrays.fill(block, rank * 100 + round);
                    file.writeShared(block, 0, each, Datatype.INT);
                }
                world.barrier();
                assertEquals((long)size * each * rounds, file.positionShared());
                if (rank == 0)
                {
                    final int[] all = new int[size * each * rounds];
                    file.readAt(0, all, 0, all.length, Datatype.INT);
                    final int[] seen = new int[size * 100];
                    for (int b = 0; b < size * rounds; b++)
                    {
                        final int v = all[b * each];
                        for (int i = 0; i < each; i++)
                        {
                            assertEquals(v, all[b * each + i], "block " + b + " is one rank's write");
                        }
                        seen[v]++;
                    }
                    for (int r = 0; r < size; r++)
                    {
                        for (int round = 0; round < rounds; round++)
                        {
                            assertEquals(1, seen[r * 100 + round], "rank " + r + " round " + round + " written once");
                        }
                    }
                }
                world.barrier();
                file.seekShared(0, File.Whence.SET);
                final int[] got = new int[each];
                final Status s = file.readShared(got, 0, each, Datatype.INT);
                assertEquals(each * 4, s.countBytes());
                assertTrue(got[0] == got[each - 1] && got[0] % 100 < rounds);
            }
            assertFalse(Files.list(dir).anyMatch(p -> p.getFileName().toString().contains("jmpi-shfp")), "side file removed at close");
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void shouldPlaceOrderedWritesInRankOrder(final int size)
    {
        final String name = dir.resolve("ordered").toString();
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            try (File file = File.open(world, name, RDWR_CREATE | File.MODE_DELETE_ON_CLOSE, null))
            {
                file.setView(0, Datatype.INT, Datatype.INT, "native", null);
                final int[] mine = new int[rank + 1];
                Arrays.fill(mine, rank);
                file.writeOrdered(mine, 0, rank + 1, Datatype.INT);
                file.writeOrdered(mine, 0, rank + 1, Datatype.INT);
                final long part = (long)size * (size + 1) / 2;
                assertEquals(2 * part, file.positionShared());
                file.sync();
                if (rank == 0)
                {
                    final int[] all = new int[(int)(2 * part)];
                    file.readAt(0, all, 0, all.length, Datatype.INT);
                    int at = 0;
                    for (int copy = 0; copy < 2; copy++)
                    {
                        for (int r = 0; r < size; r++)
                        {
                            for (int i = 0; i <= r; i++)
                            {
                                assertEquals(r, all[at++], "copy " + copy + ", rank " + r);
                            }
                        }
                    }
                }
                file.seekShared(part, File.Whence.SET);
                final int[] back = new int[rank + 1];
                file.readOrderedBegin(back, 0, rank + 1, Datatype.INT);
                assertEquals((rank + 1) * 4, file.readOrderedEnd(back).countBytes());
                assertArrayEquals(mine, back);
                assertEquals(2 * part, file.positionShared());
            }
            world.barrier();
            assertFalse(Files.exists(Path.of(name)), "MODE_DELETE_ON_CLOSE");
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldMoveIndividualPointersSizeAndCompleteNonblockingAndSplitForms(final int size)
    {
        final String name = dir.resolve("pointers").toString();
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            try (File file = File.open(world, name, RDWR_CREATE, null))
            {
                assertEquals(RDWR_CREATE, file.amode());
                assertEquals(size, file.group().size());
                file.setView(rank * 40L, Datatype.LONG, Datatype.LONG, "native", null);
                assertEquals(new File.View(rank * 40L, Datatype.LONG, Datatype.LONG, "native"), file.view());
                final long[] five = {1, 2, 3, 4, rank};
                final Request w = file.iwrite(five, 0, 5, Datatype.LONG);
                assertEquals(40, w.await().countBytes());
                assertEquals(5, file.position());
                file.seek(-2, File.Whence.CUR);
                assertEquals(3, file.position());
                final long[] two = new long[2];
                file.readAllBegin(two, 0, 2, Datatype.LONG);
                assertThrows(MpiException.class, () -> file.writeAllEnd(two));
                assertEquals(16, file.readAllEnd(two).countBytes());
                assertArrayEquals(new long[] {4, rank}, two);
                file.sync();
                assertEquals(40L * size, file.size());
                file.seek(0, File.Whence.END);
                // The end of the file lies beyond this rank's 5 longs by the later ranks' data.
                assertEquals(5L * (size - rank), file.position());
                final Request[] reads = new Request[2];
                final long[] a = new long[1];
                final long[] b = new long[1];
                reads[0] = file.ireadAt(0, a, 0, 1, Datatype.LONG);
                reads[1] = file.ireadAtAll(4, b, 0, 1, Datatype.LONG);
                Request.waitAll(reads);
                assertEquals(1, a[0]);
                assertEquals(rank, b[0]);
                file.setView(0, Datatype.BYTE, Datatype.BYTE, "native", null);
                file.setSize(12);
                assertEquals(12, file.size());
                file.preallocate(8);
                assertEquals(12, file.size());
                file.preallocate(100);
                assertEquals(100, file.size());
                final byte[] tail = new byte[88];
                assertEquals(88, file.readAt(12, tail, 0, 88, Datatype.BYTE).countBytes());
                assertArrayEquals(new byte[88], tail, "extended bytes read as zeros");
                file.setAtomicity(true);
                assertTrue(file.atomicity());
                assertEquals(8, file.typeExtent(Datatype.LONG));
                final Info info = new Info().set("access_style", "read_once");
                file.setInfo(info);
                assertEquals("read_once", file.getInfo().get("access_style"));
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepOverlappingWritesWholeInAtomicMode(final int size)
    {
        final String name = dir.resolve("atomic").toString();
        final int blocks = 256;
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            // Every rank writes the same 256 scattered ints (every other int), so each write is 256 runs.
            final Datatype everyOther = Datatype.resized(Datatype.INT, 0, 8).commit();
            try (File file = File.open(world, name, RDWR_CREATE, null))
            {
                file.setAtomicity(true);
                file.setView(0, Datatype.INT, everyOther, "native", null);
                final int[] mine = new int[blocks];
                Arrays.fill(mine, rank + 1);
                for (int round = 0; round < 10; round++)
                {
                    file.writeAt(0, mine, 0, blocks, Datatype.INT);
                    final int[] seen = new int[blocks];
                    file.readAt(0, seen, 0, blocks, Datatype.INT);
                    for (int i = 1; i < blocks; i++)
                    {
                        assertEquals(seen[0], seen[i], "round " + round + ": an atomic read sees one write whole");
                    }
                }
            }
        });
    }

    @Test
    void shouldStoreExternal32BigEndian()
    {
        final String name = dir.resolve("external32").toString();
        Ranks.run(2, (mpi, world) ->
        {
            try (File file = File.open(world, name, RDWR_CREATE, null))
            {
                file.setView(0, Datatype.INT, Datatype.INT, "external32", null);
                if (world.rank() == 0)
                {
                    file.writeAt(0, new int[] {0x01020304, 0x0a0b0c0d}, 0, 2, Datatype.INT);
                }
                file.sync();
                final int[] back = new int[2];
                file.readAt(0, back, 0, 2, Datatype.INT);
                assertArrayEquals(new int[] {0x01020304, 0x0a0b0c0d}, back);
            }
            world.barrier();
            assertArrayEquals(new byte[] {1, 2, 3, 4, 0x0a, 0x0b, 0x0c, 0x0d}, Files.readAllBytes(Path.of(name)));
        });
    }

    @Test
    void shouldStartBothPointersAtTheEndInAppendMode() throws IOException
    {
        final Path path = dir.resolve("append");
        Files.write(path, new byte[] {9, 9, 9});
        Ranks.run(2, (mpi, world) ->
        {
            try (File file = File.open(world, path.toString(), File.MODE_WRONLY | File.MODE_APPEND, null))
            {
                assertEquals(3, file.position());
                assertEquals(3, file.positionShared());
                file.writeOrdered(new byte[] {(byte)world.rank()}, 0, 1, Datatype.BYTE);
            }
        });
        assertArrayEquals(new byte[] {9, 9, 9, 0, 1}, Files.readAllBytes(path));
    }
}
