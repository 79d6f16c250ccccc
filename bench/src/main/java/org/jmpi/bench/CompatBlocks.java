package org.jmpi.bench;

import java.nio.ByteBuffer;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Op;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@link CompatAlternating}'s blocks at one message size: the same calls made through core ({@code org.jmpi}) and
 * through compat ({@code mpi}) as OMB-J's osu_latency, osu_bw, osu_bibw, osu_bcast, osu_reduce, osu_gather,
 * osu_scatter, osu_allgather, osu_alltoall and osu_allreduce make them, on Java arrays ({@code -a arrays}) or direct
 * ByteBuffers ({@code -a buffer}), root 0, 2 ranks for the point-to-point ones. Reductions are MPI_SUM over ints
 * ({@code size / 4} of them); the others move bytes ({@code size} per rank and block). Each method runs {@code calls}
 * calls (windows of {@link #WINDOW} messages for bw and bibw) and returns the elapsed nanoseconds.
 */
final class CompatBlocks
{
    /** Messages in flight per window (osu_bw, osu_bibw). */
    static final int WINDOW = 64;
    private static final int TAG = 110;
    private static final int ACK_TAG = 111;

    private final Intracomm core;
    private final int rank;
    private final int peer;
    private final byte[] ack = new byte[4];
    private final org.jmpi.Request[] coreOneWay = new org.jmpi.Request[WINDOW];
    private final org.jmpi.Request[] coreBothWays = new org.jmpi.Request[2 * WINDOW];
    private final mpi.Request[] compatOneWay = new mpi.Request[WINDOW];
    private final mpi.Request[] compatBothWays = new mpi.Request[2 * WINDOW];
    private final int size;
    private final int ints;
    /** {@code size} bytes: a rank's own block. */
    private final Object block;
    /** Two ranks' blocks: gathered, scattered, exchanged. */
    private final Object blocks;
    private final Object moreBlocks;
    private final Object sendInts;
    private final Object recvInts;

    CompatBlocks(final Intracomm core, final int size, final boolean arrays)
    {
        this.core = core;
        this.rank = core.rank();
        this.peer = rank ^ 1;
        this.size = size;
        this.ints = Math.max(1, size / 4);
        final int n = core.size();
        this.block = arrays ? new byte[size] : ByteBuffer.allocateDirect(size);
        this.blocks = arrays ? new byte[n * size] : ByteBuffer.allocateDirect(n * size);
        this.moreBlocks = arrays ? new byte[n * size] : ByteBuffer.allocateDirect(n * size);
        this.sendInts = arrays ? new int[ints] : ByteBuffer.allocateDirect(4 * ints).order(java.nio.ByteOrder.nativeOrder());
        this.recvInts = arrays ? new int[ints] : ByteBuffer.allocateDirect(4 * ints).order(java.nio.ByteOrder.nativeOrder());
    }

    long coreBarrier(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            core.barrier();
        }
        return System.nanoTime() - t0;
    }

    long compatBarrier(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            MPI.COMM_WORLD.barrier();
        }
        return System.nanoTime() - t0;
    }

    long corePingPong(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            if (rank == 0)
            {
                core.send(block, 0, size, Datatype.BYTE, peer, TAG);
                core.recv(blocks, 0, size, Datatype.BYTE, peer, TAG);
            }
            else
            {
                core.recv(blocks, 0, size, Datatype.BYTE, peer, TAG);
                core.send(block, 0, size, Datatype.BYTE, peer, TAG);
            }
        }
        return System.nanoTime() - t0;
    }

    long compatPingPong(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            if (rank == 0)
            {
                MPI.COMM_WORLD.send(block, size, MPI.BYTE, peer, TAG);
                MPI.COMM_WORLD.recv(blocks, size, MPI.BYTE, peer, TAG);
            }
            else
            {
                MPI.COMM_WORLD.recv(blocks, size, MPI.BYTE, peer, TAG);
                MPI.COMM_WORLD.send(block, size, MPI.BYTE, peer, TAG);
            }
        }
        return System.nanoTime() - t0;
    }

    /** osu_bw (one way, {@code both} false) or osu_bibw (both ways): windows of WINDOW messages, then an acknowledgement. */
    long coreWindows(final int windows, final boolean both)
    {
        final long t0 = System.nanoTime();
        final org.jmpi.Request[] requests = both ? coreBothWays : coreOneWay;
        for (int w = 0; w < windows; w++)
        {
            for (int j = 0; j < WINDOW; j++)
            {
                if (both)
                {
                    requests[j] = core.irecv(blocks, 0, size, Datatype.BYTE, peer, TAG);
                    requests[WINDOW + j] = core.isend(block, 0, size, Datatype.BYTE, peer, TAG);
                }
                else
                {
                    requests[j] = rank == 0 ? core.isend(block, 0, size, Datatype.BYTE, peer, TAG)
                        : core.irecv(blocks, 0, size, Datatype.BYTE, peer, TAG);
                }
            }
            org.jmpi.Request.waitAll(requests);
            if (rank == 0)
            {
                core.recv(ack, 0, ack.length, Datatype.BYTE, peer, ACK_TAG);
            }
            else
            {
                core.send(ack, 0, ack.length, Datatype.BYTE, peer, ACK_TAG);
            }
        }
        return System.nanoTime() - t0;
    }

    long compatWindows(final int windows, final boolean both) throws MPIException
    {
        final long t0 = System.nanoTime();
        final mpi.Request[] requests = both ? compatBothWays : compatOneWay;
        for (int w = 0; w < windows; w++)
        {
            for (int j = 0; j < WINDOW; j++)
            {
                if (both)
                {
                    requests[j] = MPI.COMM_WORLD.iRecv(blocks, size, MPI.BYTE, peer, TAG);
                    requests[WINDOW + j] = MPI.COMM_WORLD.iSend(block, size, MPI.BYTE, peer, TAG);
                }
                else
                {
                    requests[j] = rank == 0 ? MPI.COMM_WORLD.iSend(block, size, MPI.BYTE, peer, TAG)
                        : MPI.COMM_WORLD.iRecv(blocks, size, MPI.BYTE, peer, TAG);
                }
            }
            mpi.Request.waitAll(requests);
            if (rank == 0)
            {
                MPI.COMM_WORLD.recv(ack, ack.length, MPI.BYTE, peer, ACK_TAG);
            }
            else
            {
                MPI.COMM_WORLD.send(ack, ack.length, MPI.BYTE, peer, ACK_TAG);
            }
        }
        return System.nanoTime() - t0;
    }

    long coreBcast(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            core.bcast(block, 0, size, Datatype.BYTE, 0);
        }
        return System.nanoTime() - t0;
    }

    long compatBcast(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            MPI.COMM_WORLD.bcast(block, size, MPI.BYTE, 0);
        }
        return System.nanoTime() - t0;
    }

    long coreReduce(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            core.reduce(sendInts, 0, recvInts, 0, ints, Datatype.INT, Op.SUM, 0);
        }
        return System.nanoTime() - t0;
    }

    long compatReduce(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            MPI.COMM_WORLD.reduce(sendInts, recvInts, ints, MPI.INT, MPI.SUM, 0);
        }
        return System.nanoTime() - t0;
    }

    long coreAllreduce(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            core.allreduce(sendInts, 0, recvInts, 0, ints, Datatype.INT, Op.SUM);
        }
        return System.nanoTime() - t0;
    }

    long compatAllreduce(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            MPI.COMM_WORLD.allReduce(sendInts, recvInts, ints, MPI.INT, MPI.SUM);
        }
        return System.nanoTime() - t0;
    }

    long coreGather(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            core.gather(block, 0, size, Datatype.BYTE, blocks, 0, size, Datatype.BYTE, 0);
        }
        return System.nanoTime() - t0;
    }

    long compatGather(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            MPI.COMM_WORLD.gather(block, size, MPI.BYTE, blocks, size, MPI.BYTE, 0);
        }
        return System.nanoTime() - t0;
    }

    long coreScatter(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            core.scatter(blocks, 0, size, Datatype.BYTE, block, 0, size, Datatype.BYTE, 0);
        }
        return System.nanoTime() - t0;
    }

    long compatScatter(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            MPI.COMM_WORLD.scatter(blocks, size, MPI.BYTE, block, size, MPI.BYTE, 0);
        }
        return System.nanoTime() - t0;
    }

    long coreAllgather(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            core.allgather(block, 0, size, Datatype.BYTE, blocks, 0, size, Datatype.BYTE);
        }
        return System.nanoTime() - t0;
    }

    long compatAllgather(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            MPI.COMM_WORLD.allGather(block, size, MPI.BYTE, blocks, size, MPI.BYTE);
        }
        return System.nanoTime() - t0;
    }

    long coreAlltoall(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            core.alltoall(blocks, 0, size, Datatype.BYTE, moreBlocks, 0, size, Datatype.BYTE);
        }
        return System.nanoTime() - t0;
    }

    long compatAlltoall(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            MPI.COMM_WORLD.allToAll(blocks, size, MPI.BYTE, moreBlocks, size, MPI.BYTE);
        }
        return System.nanoTime() - t0;
    }
}
