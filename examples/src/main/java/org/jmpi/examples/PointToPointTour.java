package org.jmpi.examples;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.Intracomm;
import org.jmpi.Message;
import org.jmpi.Mpi;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Status;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;

/**
 * A user program that makes every point-to-point call of the API (issue 2, point 4) and checks every
 * result; ranks 0 and 1 do the pairwise parts, every rank the ring parts. Needs at least 2 ranks.
 * Prints {@code tour: rank R ok (N checks)}; exits 1 on the first wrong value.
 */
public final class PointToPointTour
{
    private static int checks;

    private PointToPointTour()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            final int rank = world.rank();
            final int size = world.size();
            check(size >= 2, "needs at least 2 ranks, got " + size);
            check(Mpi.initialized() && !Mpi.finalized(), "initialized/finalized");
            if (rank < 2)
            {
                pairwise(mpi, world, rank, 1 - rank);
            }
            ring(world, rank, size);
            sharedNode(mpi, world);
            world.barrier();
            System.out.println("tour: rank " + rank + " ok (" + checks + " checks)");
        }
        check(Mpi.finalized(), "finalized after close");
    }

    /**
     * split_type SHARED holds exactly the ranks of this rank's node: the node jmpirun names ({@code JMPI_NODE},
     * one per host even where hosts share a host name, as network namespaces do), else the processor name.
     */
    private static void sharedNode(final Mpi mpi, final Intracomm world)
    {
        final String node = System.getenv().getOrDefault("JMPI_NODE", mpi.processorName());
        final long[] mine = {node.hashCode()};
        final Intracomm shared = world.splitType(Comm.TYPE_SHARED, 0);
        final long[] inNode = new long[shared.size()];
        shared.allgather(mine, 0, 1, Datatype.LONG, inNode, 0, 1, Datatype.LONG);
        final long[] inWorld = new long[world.size()];
        world.allgather(mine, 0, 1, Datatype.LONG, inWorld, 0, 1, Datatype.LONG);
        int sameNode = 0;
        for (final long h : inWorld)
        {
            sameNode += h == mine[0] ? 1 : 0;
        }
        for (final long h : inNode)
        {
            check(h == mine[0], "split_type SHARED holds a rank of another node (this one: " + node + ")");
        }
        check(sameNode == shared.size(), "split_type SHARED has " + shared.size() + " ranks, node " + node + " has " + sameNode);
        shared.free();
    }

    private static void pairwise(final Mpi mpi, final Comm world, final int rank, final int peer)
    {
        // blocking send/recv of every primitive array type, and nio buffers
        if (rank == 0)
        {
            world.send(new byte[] {1, 2}, 0, 2, Datatype.BYTE, peer, 1);
            world.send(new short[] {3}, 0, 1, Datatype.SHORT, peer, 1);
            world.send(new char[] {'x'}, 0, 1, Datatype.CHAR, peer, 1);
            world.send(new int[] {4}, 0, 1, Datatype.INT, peer, 1);
            world.send(new long[] {5}, 0, 1, Datatype.LONG, peer, 1);
            world.send(new float[] {6f}, 0, 1, Datatype.FLOAT, peer, 1);
            world.send(new double[] {7.0}, 0, 1, Datatype.DOUBLE, peer, 1);
            world.send(new boolean[] {true}, 0, 1, Datatype.BOOLEAN, peer, 1);
            final ByteBuffer direct = ByteBuffer.allocateDirect(400).order(ByteOrder.BIG_ENDIAN);
            for (int i = 0; i < 100; i++)
            {
                direct.putInt(4 * i, i);
            }
            world.send(direct, 0, 100, Datatype.INT, peer, 2);
            world.send(IntBuffer.wrap(new int[] {8, 9}), 0, 2, Datatype.INT, peer, 2);
        }
        else
        {
            final byte[] b = new byte[2];
            world.recv(b, 0, 2, Datatype.BYTE, peer, 1);
            check(b[1] == 2, "byte[]");
            final short[] s = new short[1];
            world.recv(s, 0, 1, Datatype.SHORT, peer, 1);
            check(s[0] == 3, "short[]");
            final char[] c = new char[1];
            world.recv(c, 0, 1, Datatype.CHAR, peer, 1);
            check(c[0] == 'x', "char[]");
            final int[] i = new int[1];
            world.recv(i, 0, 1, Datatype.INT, peer, 1);
            check(i[0] == 4, "int[]");
            final long[] l = new long[1];
            world.recv(l, 0, 1, Datatype.LONG, peer, 1);
            check(l[0] == 5, "long[]");
            final float[] f = new float[1];
            world.recv(f, 0, 1, Datatype.FLOAT, peer, 1);
            check(f[0] == 6f, "float[]");
            final double[] d = new double[1];
            world.recv(d, 0, 1, Datatype.DOUBLE, peer, 1);
            check(d[0] == 7.0, "double[]");
            final boolean[] z = new boolean[1];
            world.recv(z, 0, 1, Datatype.BOOLEAN, peer, 1);
            check(z[0], "boolean[]");
            final ByteBuffer heap = ByteBuffer.allocate(400).order(ByteOrder.LITTLE_ENDIAN);
            world.recv(heap, 0, 100, Datatype.INT, peer, 2);
            check(heap.getInt(4 * 99) == 99 && heap.position() == 0, "ByteBuffer with byte order");
            final int[] two = new int[2];
            world.recv(two, 0, 2, Datatype.INT, peer, 2);
            check(two[1] == 9, "IntBuffer");
        }

        // nonblocking, every send mode, buffered sends with an attached buffer
        final int big = 100_000;
        if (rank == 0)
        {
            mpi.bufferAttach(new byte[4 * big + 4 * Mpi.BSEND_OVERHEAD + 64]);
            handshake(world, peer);
            final int[] data = new int[big];
            Arrays.setAll(data, k -> k);
            final Request[] sends = {
                world.isend(data, 0, big, Datatype.INT, peer, 10),
                world.issend(new int[] {11}, 0, 1, Datatype.INT, peer, 11),
                world.irsend(new int[] {12}, 0, 1, Datatype.INT, peer, 12),
                world.ibsend(new int[] {13}, 0, 1, Datatype.INT, peer, 13)};
            world.ssend(new int[] {14}, 0, 1, Datatype.INT, peer, 14);
            world.rsend(new int[] {15}, 0, 1, Datatype.INT, peer, 15);
            world.bsend(data, 0, big, Datatype.INT, peer, 16);
            Request.waitAll(sends);
            mpi.bufferDetach();
        }
        else
        {
            final int[][] in = new int[7][];
            final Request[] recvs = new Request[7];
            for (int k = 0; k < 7; k++)
            {
                in[k] = new int[k == 0 || k == 6 ? big : 1];
                recvs[k] = world.irecv(in[k], 0, in[k].length, Datatype.INT, peer, 10 + k);
            }
            handshake(world, peer); // rsend needs posted receives
            int done = 0;
            while (done < 7)
            {
                final int[] some = Request.waitSome(recvs);
                done += some.length;
            }
            check(in[0][big - 1] == big - 1 && in[6][big - 1] == big - 1, "large isend/bsend");
            for (int k = 1; k < 6; k++)
            {
                check(in[k][0] == 10 + k, "mode " + (10 + k));
            }
        }

        // wildcards, status, probe, matched probe, truncation, cancel
        if (rank == 0)
        {
            world.send(new long[] {21, 22, 23}, 0, 3, Datatype.LONG, peer, 20);
            world.send(new long[] {24}, 0, 1, Datatype.LONG, peer, 21);
            world.send(new long[50_000], 0, 50_000, Datatype.LONG, peer, 22);
            world.send(new long[] {25}, 0, 1, Datatype.LONG, peer, 23);
            world.send(new long[10], 0, 10, Datatype.LONG, peer, 24);
            world.send(new long[] {26}, 0, 1, Datatype.LONG, peer, 25);
        }
        else
        {
            final Status probed = world.probe(Comm.ANY_SOURCE, Comm.ANY_TAG);
            check(probed.source() == peer && probed.tag() == 20 && probed.count(Datatype.LONG) == 3, "probe " + probed);
            final long[] three = new long[3];
            final Status st = world.recv(three, 0, 3, Datatype.LONG, Comm.ANY_SOURCE, Comm.ANY_TAG);
            check(st.source() == peer && st.tag() == 20 && st.countBytes() == 24 && st.elements(Datatype.LONG) == 3 &&
                st.error() == ErrorClass.SUCCESS && !st.isCancelled() && three[2] == 23, "recv status " + st);
            Status ip;
            while ((ip = world.iprobe(peer, 21)) == null)
            {
                Thread.onSpinWait();
            }
            check(ip.count(Datatype.LONG) == 1, "iprobe");
            world.recv(three, 0, 1, Datatype.LONG, peer, 21);
            final Message m = world.mprobe(peer, 22);
            final long[] many = new long[50_000];
            check(m.recv(many, 0, many.length, Datatype.LONG).countBytes() == 400_000, "mprobe/mrecv");
            Message m2;
            while ((m2 = world.improbe(peer, 23)) == null)
            {
                Thread.onSpinWait();
            }
            m2.irecv(three, 0, 1, Datatype.LONG).await();
            check(three[0] == 25, "improbe/imrecv");
            world.setErrorHandler(ErrorHandler.ERRORS_RETURN);
            try
            {
                world.recv(new long[5], 0, 5, Datatype.LONG, peer, 24);
                check(false, "truncation not reported");
            }
            catch (final MpiException ex)
            {
                check(ex.errorClass() == ErrorClass.ERR_TRUNCATE, "truncation class " + ex.errorClass());
            }
            world.setErrorHandler(ErrorHandler.ERRORS_ARE_FATAL);
            world.recv(three, 0, 1, Datatype.LONG, peer, 25);
            check(three[0] == 26, "message after a truncation");
            final Request never = world.irecv(three, 0, 1, Datatype.LONG, peer, 999);
            never.cancel();
            check(never.await().isCancelled(), "cancel");
            final Status nul = world.recv(three, 0, 1, Datatype.LONG, Comm.PROC_NULL, 0);
            check(nul.source() == Comm.PROC_NULL, "PROC_NULL");
        }

        // persistent requests, started 50 times with changing contents; test/testAll/testAny/testSome/free
        final double[] vec = new double[5000];
        final Request p = rank == 0 ? world.sendInit(vec, 0, vec.length, Datatype.DOUBLE, peer, 30) :
            world.recvInit(vec, 0, vec.length, Datatype.DOUBLE, peer, 30);
        final Request q = rank == 0 ? world.ssendInit(new int[] {1}, 0, 1, Datatype.INT, peer, 31) :
            world.recvInit(new int[1], 0, 1, Datatype.INT, peer, 31);
        for (int it = 0; it < 50; it++)
        {
            if (rank == 0)
            {
                Arrays.fill(vec, it);
            }
            Request.startAll(p, q);
            switch (it % 4)
            {
                case 0 -> Request.waitAll(p, q);
                case 1 ->
                {
                    while (!Request.testAll(p, q))
                    {
                        Thread.onSpinWait();
                    }
                }
                case 2 ->
                {
                    int n = 0;
                    while (n < 2)
                    {
                        n += Request.testSome(p, q).length;
                    }
                }
                default ->
                {
                    int n = 0;
                    while (n < 2)
                    {
                        if (Request.testAny(p, q) >= 0)
                        {
                            n++;
                        }
                    }
                }
            }
            if (rank == 1)
            {
                check(vec[0] == it && vec[4999] == it, "persistent iteration " + it);
            }
        }
        p.free();
        q.free();
        final Request single = rank == 0 ? world.isend(new int[] {40}, 0, 1, Datatype.INT, peer, 40) :
            world.irecv(new int[1], 0, 1, Datatype.INT, peer, 40);
        while (!single.test())
        {
            Thread.onSpinWait();
        }
        final Request freed = rank == 0 ? world.isend(new int[] {41}, 0, 1, Datatype.INT, peer, 41) : null;
        if (freed != null)
        {
            freed.free();
        }
        else
        {
            final int[] v = new int[1];
            world.recv(v, 0, 1, Datatype.INT, peer, 41);
            check(v[0] == 41, "freed send still delivers");
        }
        check(Request.waitAny(single) == Datatype.UNDEFINED, "waitAny over inactive requests");
    }

    /** Ranks 0 and 1 meet: each returns once the other has arrived. */
    private static void handshake(final Comm world, final int peer)
    {
        world.sendrecv(new byte[0], 0, 0, Datatype.BYTE, peer, 99, new byte[0], 0, 0, Datatype.BYTE, peer, 99);
    }

    private static void ring(final Comm world, final int rank, final int size)
    {
        final int right = (rank + 1) % size;
        final int left = (rank - 1 + size) % size;
        final int[] out = {rank};
        final int[] in = new int[1];
        final Status st = world.sendrecv(out, 0, 1, Datatype.INT, right, 50, in, 0, 1, Datatype.INT, left, 50);
        check(in[0] == left && st.source() == left, "sendrecv");
        final float[] both = new float[20_000];
        Arrays.fill(both, rank);
        world.sendrecvReplace(both, 0, both.length, Datatype.FLOAT, right, 51, left, 51);
        check(both[19_999] == left, "sendrecvReplace");
        // ordering: many messages from every rank to rank 0 under ANY_SOURCE keep per-source order
        if (rank == 0)
        {
            final int[] next = new int[size];
            final int[] v = new int[1];
            for (int k = 0; k < 100 * (size - 1); k++)
            {
                final Status s = world.recv(v, 0, 1, Datatype.INT, Comm.ANY_SOURCE, 52);
                check(v[0] == next[s.source()]++, "order from " + s.source());
            }
        }
        else
        {
            for (int k = 0; k < 100; k++)
            {
                world.send(new int[] {k}, 0, 1, Datatype.INT, 0, 52);
            }
        }
    }

    private static void check(final boolean condition, final String what)
    {
        checks++;
        if (!condition)
        {
            System.err.println("tour: check failed: " + what);
            System.exit(1);
        }
    }
}
