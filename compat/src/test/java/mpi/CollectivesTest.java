package mpi;

import static mpi.Job.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Comm's and Intracomm's collectives, blocking, in place and nonblocking, at 2 and 4 ranks. */
class CollectivesTest
{
    private static int[] ints(final IntBuffer b)
    {
        final int[] out = new int[b.capacity()];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = b.get(i);
        }
        return out;
    }

    private static IntBuffer direct(final int... values)
    {
        final IntBuffer b = MPI.newIntBuffer(values.length);
        for (int i = 0; i < values.length; i++)
        {
            b.put(i, values[i]);
        }
        return b;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldBroadcastGatherAndScatter(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int root = n - 1;
            world.barrier();
            final int[] b = rank == root ? new int[] {7, 8} : new int[2];
            world.bcast(b, 2, MPI.INT, root);
            assertArrayEquals(new int[] {7, 8}, b);
            // gather, and in place
            final int[] all = new int[2 * n];
            world.gather(new int[] {rank, -rank}, 2, MPI.INT, all, 2, MPI.INT, root);
            final int[] inPlace = new int[2 * n];
            inPlace[2 * rank] = rank;
            inPlace[2 * rank + 1] = -rank;
            world.gather(rank == root ? inPlace : new int[] {rank, -rank}, 2, MPI.INT, root);
            if (rank == root)
            {
                for (int r = 0; r < n; r++)
                {
                    assertEquals(r, all[2 * r]);
                    assertEquals(-r, all[2 * r + 1]);
                    assertEquals(r, inPlace[2 * r]);
                }
            }
            // gatherv: rank r sends r + 1 items
            final int[] counts = new int[n];
            final int[] displs = new int[n];
            for (int r = 0, at = 0; r < n; r++)
            {
                counts[r] = r + 1;
                displs[r] = at;
                at += r + 1;
            }
            final int total = n * (n + 1) / 2;
            final int[] mine = new int[rank + 1];
            java.util.Arrays.fill(mine, rank);
            final int[] gv = new int[total];
            world.gatherv(mine, rank + 1, MPI.INT, gv, counts, displs, MPI.INT, root);
            final int[] gvInPlace = new int[total];
            if (rank == root)
            {
                System.arraycopy(mine, 0, gvInPlace, displs[rank], rank + 1);
                world.gatherv(gvInPlace, counts, displs, MPI.INT, root);
                for (int r = 0; r < n; r++)
                {
                    assertEquals(r, gv[displs[r]]);
                    assertEquals(r, gv[displs[r] + r]);
                    assertEquals(r, gvInPlace[displs[r] + r]);
                }
            }
            else
            {
                world.gatherv(mine, rank + 1, MPI.INT, root);
            }
            // scatter, and in place
            final int[] src = new int[n];
            for (int r = 0; r < n; r++)
            {
                src[r] = 100 + r;
            }
            final int[] one = new int[1];
            world.scatter(src, 1, MPI.INT, one, 1, MPI.INT, root);
            assertEquals(100 + rank, one[0]);
            final int[] sp = rank == root ? src.clone() : new int[1];
            world.scatter(sp, 1, MPI.INT, root);
            assertEquals(100 + rank, rank == root ? sp[root] : sp[0]);
            // scatterv, and in place
            final int[] part = new int[rank + 1];
            final int[] vsrc = new int[total];
            for (int r = 0; r < n; r++)
            {
                for (int k = 0; k <= r; k++)
                {
                    vsrc[displs[r] + k] = r * 10 + k;
                }
            }
            world.scatterv(vsrc, counts, displs, MPI.INT, part, rank + 1, MPI.INT, root);
            assertEquals(rank * 10 + rank, part[rank]);
            if (rank == root)
            {
                world.scatterv(vsrc, counts, displs, MPI.INT, root);
            }
            else
            {
                final int[] p2 = new int[rank + 1];
                world.scatterv(p2, rank + 1, MPI.INT, root);
                assertEquals(rank * 10, p2[0]);
            }
            assertMpiError(MPI.ERR_ROOT, () -> world.bcast(new int[1], 1, MPI.INT, n));
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldAllGatherAndAllToAll(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int[] ag = new int[n];
            world.allGather(new int[] {rank * 3}, 1, MPI.INT, ag, 1, MPI.INT);
            final int[] agIn = new int[n];
            agIn[rank] = rank * 3;
            world.allGather(agIn, 1, MPI.INT);
            final int[] counts = new int[n];
            final int[] displs = new int[n];
            for (int r = 0; r < n; r++)
            {
                assertEquals(r * 3, ag[r]);
                assertEquals(r * 3, agIn[r]);
                counts[r] = 1;
                displs[r] = n - 1 - r;
            }
            final int[] agv = new int[n];
            world.allGatherv(new int[] {rank}, 1, MPI.INT, agv, counts, displs, MPI.INT);
            final int[] agvIn = new int[n];
            agvIn[displs[rank]] = rank;
            world.allGatherv(agvIn, counts, displs, MPI.INT);
            for (int r = 0; r < n; r++)
            {
                assertEquals(r, agv[n - 1 - r]);
                assertEquals(r, agvIn[n - 1 - r]);
            }
            final int[] out = new int[n];
            for (int r = 0; r < n; r++)
            {
                out[r] = rank * 100 + r;
            }
            final int[] a2a = new int[n];
            world.allToAll(out, 1, MPI.INT, a2a, 1, MPI.INT);
            final int[] a2av = new int[n];
            world.allToAllv(out, counts, displs, MPI.INT, a2av, counts, displs, MPI.INT);
            for (int r = 0; r < n; r++)
            {
                assertEquals(r * 100 + rank, a2a[r]);
                assertEquals(r * 100 + (n - 1 - rank), a2av[n - 1 - r]);
            }
            // alltoallw: byte displacements, one type per rank
            final IntBuffer wOut = direct(out);
            final IntBuffer wIn = MPI.newIntBuffer(n);
            final int[] byteDispls = new int[n];
            final Datatype[] types = new Datatype[n];
            for (int r = 0; r < n; r++)
            {
                byteDispls[r] = 4 * r;
                types[r] = MPI.INT;
            }
            world.allToAllw(wOut, counts, byteDispls, types, wIn, counts, byteDispls, types);
            assertArrayEquals(a2a, ints(wIn));
            final IntBuffer wIn2 = MPI.newIntBuffer(n);
            world.iAllToAllw(wOut, counts, byteDispls, types, wIn2, counts, byteDispls, types).waitFor();
            assertArrayEquals(a2a, ints(wIn2));
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldReduceScanAndReduceScatter(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int root = 0;
            final int sum = n * (n - 1) / 2;
            final int[] r = new int[2];
            world.reduce(new int[] {rank, 1}, r, 2, MPI.INT, MPI.SUM, root);
            if (rank == root)
            {
                assertArrayEquals(new int[] {sum, n}, r);
            }
            final int[] inPlace = {rank, 1};
            world.reduce(inPlace, 2, MPI.INT, MPI.MAX, root);
            if (rank == root)
            {
                assertArrayEquals(new int[] {n - 1, 1}, inPlace);
            }
            final double[] ar = new double[1];
            world.allReduce(new double[] {rank + 0.5}, ar, 1, MPI.DOUBLE, MPI.SUM);
            assertEquals(sum + n * 0.5, ar[0]);
            final long[] arIn = {rank + 1L};
            world.allReduce(arIn, 1, MPI.LONG, MPI.PROD);
            long fact = 1;
            for (int k = 2; k <= n; k++)
            {
                fact *= k;
            }
            assertEquals(fact, arIn[0]);
            final boolean[] land = {rank >= 0};
            world.allReduce(land, 1, MPI.BOOLEAN, MPI.LAND);
            assertTrue(land[0]);
            final int[] bor = {1 << rank};
            world.allReduce(bor, 1, MPI.INT, MPI.BOR);
            assertEquals((1 << n) - 1, bor[0]);
            // reduceScatter: each rank gets counts[r] items
            final int[] counts = new int[n];
            java.util.Arrays.fill(counts, 2);
            final int[] in = new int[2 * n];
            java.util.Arrays.fill(in, rank);
            final int[] rs = new int[2];
            world.reduceScatter(in, rs, counts, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {sum, sum}, rs);
            final int[] rsIn = in.clone();
            world.reduceScatter(rsIn, counts, MPI.INT, MPI.SUM);
            assertEquals(sum, rsIn[0]);
            final int[] rsb = new int[2];
            world.reduceScatterBlock(in, rsb, 2, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {sum, sum}, rsb);
            final int[] rsbIn = in.clone();
            world.reduceScatterBlock(rsbIn, 2, MPI.INT, MPI.SUM);
            assertEquals(sum, rsbIn[1]);
            // scan, exscan
            final int[] sc = new int[1];
            world.scan(new int[] {rank + 1}, sc, 1, MPI.INT, MPI.SUM);
            assertEquals((rank + 1) * (rank + 2) / 2, sc[0]);
            final int[] scIn = {rank + 1};
            world.scan(scIn, 1, MPI.INT, MPI.SUM);
            assertEquals(sc[0], scIn[0]);
            final int[] ex = {-1};
            world.exScan(new int[] {rank + 1}, ex, 1, MPI.INT, MPI.SUM);
            assertEquals(rank == 0 ? -1 : rank * (rank + 1) / 2, ex[0]);
            final int[] exIn = {rank + 1};
            world.exScan(exIn, 1, MPI.INT, MPI.SUM);
            if (rank > 0)
            {
                assertEquals(rank * (rank + 1) / 2, exIn[0]);
            }
            // reduceLocal
            final int[] inout = {1, 2};
            Comm.reduceLocal(new int[] {10, 20}, inout, 2, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {11, 22}, inout);
            assertMpiError(MPI.ERR_OP, () -> world.allReduce(new int[1], new int[1], 1, MPI.INT, null));
            assertMpiError(MPI.ERR_OP, () -> world.allReduce(new double[1], new double[1], 1, MPI.DOUBLE, MPI.BXOR));
            final float[] complex = new float[2];
            world.allReduce(new float[] {1, rank}, complex, 1, MPI.FLOAT_COMPLEX, MPI.SUM);
            assertEquals(n, complex[0]);
            assertEquals(sum, complex[1]);
            assertMpiError(MPI.ERR_OP, () -> world.allReduce(new float[2], new float[2], 1, MPI.FLOAT_COMPLEX, MPI.PROD));
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldRunTheNonblockingCollectivesOnDirectBuffers(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int root = 0;
            final int sum = n * (n - 1) / 2;
            world.iBarrier().waitFor();
            final IntBuffer b = direct(rank == root ? 5 : 0);
            world.iBcast(b, 1, MPI.INT, root).waitFor();
            assertEquals(5, b.get(0));
            final IntBuffer ar = MPI.newIntBuffer(1);
            world.iAllReduce(direct(rank), ar, 1, MPI.INT, MPI.SUM).waitFor();
            assertEquals(sum, ar.get(0));
            final IntBuffer arIn = direct(rank);
            world.iAllReduce(arIn, 1, MPI.INT, MPI.SUM).waitFor();
            assertEquals(sum, arIn.get(0));
            final IntBuffer red = MPI.newIntBuffer(1);
            world.iReduce(direct(rank), red, 1, MPI.INT, MPI.MIN, root).waitFor();
            if (rank == root)
            {
                assertEquals(0, red.get(0));
            }
            final IntBuffer g = MPI.newIntBuffer(n);
            world.iGather(direct(rank), 1, MPI.INT, g, 1, MPI.INT, root).waitFor();
            final IntBuffer ag = MPI.newIntBuffer(n);
            world.iAllGather(direct(rank), 1, MPI.INT, ag, 1, MPI.INT).waitFor();
            final int[] agv = new int[n];
            final int[] counts = new int[n];
            final int[] displs = new int[n];
            for (int r = 0; r < n; r++)
            {
                counts[r] = 1;
                displs[r] = r;
            }
            world.iAllGatherv(new int[] {rank}, 1, MPI.INT, agv, counts, displs, MPI.INT).waitFor();
            final IntBuffer a2a = MPI.newIntBuffer(n);
            final int[] out = new int[n];
            for (int r = 0; r < n; r++)
            {
                out[r] = rank * 10 + r;
            }
            world.iAllToAll(direct(out), 1, MPI.INT, a2a, 1, MPI.INT).waitFor();
            final IntBuffer a2av = MPI.newIntBuffer(n);
            world.iAllToAllv(direct(out), counts, displs, MPI.INT, a2av, counts, displs, MPI.INT).waitFor();
            final IntBuffer sc = MPI.newIntBuffer(1);
            world.iScatter(direct(out), 1, MPI.INT, sc, 1, MPI.INT, root).waitFor();
            assertEquals(rank, sc.get(0));
            final IntBuffer scv = MPI.newIntBuffer(1);
            world.iScatterv(direct(out), counts, displs, MPI.INT, scv, 1, MPI.INT, root).waitFor();
            assertEquals(rank, scv.get(0));
            final IntBuffer gv = MPI.newIntBuffer(n);
            world.iGatherv(direct(rank), 1, MPI.INT, gv, counts, displs, MPI.INT, root).waitFor();
            final IntBuffer rs = MPI.newIntBuffer(1);
            final int[] ones = new int[n];
            java.util.Arrays.fill(ones, 1);
            world.iReduceScatter(direct(ones), rs, counts, MPI.INT, MPI.SUM).waitFor();
            assertEquals(n, rs.get(0));
            final IntBuffer rsb = MPI.newIntBuffer(1);
            world.iReduceScatterBlock(direct(ones), rsb, 1, MPI.INT, MPI.SUM).waitFor();
            assertEquals(n, rsb.get(0));
            final IntBuffer scan = MPI.newIntBuffer(1);
            world.iScan(direct(1), scan, 1, MPI.INT, MPI.SUM).waitFor();
            assertEquals(rank + 1, scan.get(0));
            final IntBuffer exscan = direct(-1);
            world.iExScan(direct(1), exscan, 1, MPI.INT, MPI.SUM).waitFor();
            if (rank > 0)
            {
                assertEquals(rank, exscan.get(0));
            }
            for (int r = 0; r < n; r++)
            {
                if (rank == root)
                {
                    assertEquals(r, g.get(r));
                    assertEquals(r, gv.get(r));
                }
                assertEquals(r, ag.get(r));
                assertEquals(r, agv[r]);
                assertEquals(r * 10 + rank, a2a.get(r));
                assertEquals(r * 10 + rank, a2av.get(r));
            }
            // arrays in nonblocking collectives (jmpi extension) and several requests at once
            final int[] x = {rank};
            final int[] y = new int[1];
            final Request[] reqs = {world.iAllReduce(x, y, 1, MPI.INT, MPI.SUM), world.iBarrier()};
            Request.waitAll(reqs);
            assertEquals(sum, y[0]);
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldReduceWithUserOpsAndLocPairs(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final Op maxAbs = new Op(new UserFunction()
            {
                @Override
                public void call(final ByteBuffer in, final ByteBuffer inOut, final int count, final Datatype type)
                {
                    for (int i = 0; i < count; i++)
                    {
                        inOut.putInt(4 * i, Math.max(Math.abs(in.getInt(4 * i)), Math.abs(inOut.getInt(4 * i))));
                    }
                }
            }, true);
            assertTrue(maxAbs.isCommutative());
            final int[] r = new int[2];
            world.allReduce(new int[] {-rank * 3, rank}, r, 2, MPI.INT, maxAbs);
            assertArrayEquals(new int[] {(n - 1) * 3, n - 1}, r);
            final Op xor = new Op(new UserFunction()
            {
                @Override
                public void call(final Object in, final Object inOut, final int count, final Datatype type)
                {
                    final boolean[] a = (boolean[])in;
                    final boolean[] b = (boolean[])inOut;
                    for (int i = 0; i < count; i++)
                    {
                        b[i] = a[i] ^ b[i];
                    }
                }
            }, false);
            final boolean[] bx = new boolean[1];
            world.allReduce(new boolean[] {true}, bx, 1, MPI.BOOLEAN, xor);
            assertEquals(n % 2 == 1, bx[0]);
            maxAbs.free();
            assertTrue(maxAbs.isNull());
            assertMpiError(MPI.ERR_OP, () -> world.allReduce(new int[1], new int[1], 1, MPI.INT, maxAbs));
            assertMpiError(MPI.ERR_OP, MPI.SUM::free);
            // MINLOC / MAXLOC over the pair structs
            final ByteBuffer in = MPI.newByteBuffer(2 * MPI.int2.getExtent());
            final Int2.Data v0 = MPI.int2.getData(in, 0);
            v0.putValue(rank % 2);
            v0.putIndex(rank);
            final Int2.Data v1 = MPI.int2.getData(in, 1);
            v1.putValue(-rank);
            v1.putIndex(rank);
            final ByteBuffer out = MPI.newByteBuffer(2 * MPI.int2.getExtent());
            world.allReduce(in, out, 2, MPI.INT2, MPI.MAXLOC);
            final Int2.Data m0 = MPI.int2.getData(out, 0);
            final Int2.Data m1 = MPI.int2.getData(out, 1);
            assertEquals(1, m0.getValue());
            assertEquals(1, m0.getIndex());
            assertEquals(0, m1.getValue());
            assertEquals(0, m1.getIndex());
            final ByteBuffer d = MPI.newByteBuffer(MPI.doubleInt.getExtent());
            final DoubleInt.Data dv = MPI.doubleInt.getData(d);
            dv.putValue(rank * 1.5);
            dv.putIndex(rank);
            final ByteBuffer dmin = MPI.newByteBuffer(MPI.doubleInt.getExtent());
            world.allReduce(d, dmin, 1, MPI.DOUBLE_INT, MPI.MINLOC);
            final DoubleInt.Data dm = MPI.doubleInt.getData(dmin);
            assertEquals(0.0, dm.getValue());
            assertEquals(0, dm.getIndex());
            assertEquals(16, MPI.doubleInt.getExtent());
            assertEquals(8, MPI.shortInt.getExtent());
            assertEquals(16, MPI.longInt.getExtent());
            assertEquals(8, MPI.floatInt.getExtent());
        });
    }
}
