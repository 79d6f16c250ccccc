package org.jmpi.examples;

import java.util.ArrayList;
import java.util.List;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Request;

/**
 * Lifetimes across JVMs (issue 10, item 8): every call on a freed communicator raises ERR_COMM naming it (a
 * second free too), await and test on a freed request ERR_REQUEST, every call after finalize ERR_OTHER "MPI is
 * finalized", a null buffer with count 0 is accepted, and after free and create a send on the freed
 * communicator fails instead of arriving on the new one; a receive or probe from a rank that has finalized
 * raises ERR_OTHER "has finalized". Prints {@code lifetime: rank R ok}, or each case that
 * went wrong. (Ranks as threads: core's {@code CommLifetimeTest}.)
 */
public final class LifetimeDrill
{
    private LifetimeDrill()
    {
    }

    @FunctionalInterface
    private interface Call
    {
        void run();
    }

    public static void main(final String[] args)
    {
        final List<String> wrong = new ArrayList<>();
        final Mpi mpi = Mpi.init(args);
        final Intracomm world = mpi.world();
        world.setErrorHandler(ErrorHandler.ERRORS_RETURN);
        final int rank = world.rank();
        final int size = world.size();
        final int to = (rank + 1) % size;
        final int from = (rank - 1 + size) % size;
        final int[] buf = new int[2];

        final Intracomm old = world.dup();
        old.setName("old");
        old.free();
        expect(wrong, ErrorClass.ERR_COMM, "old", "send", () -> old.send(buf, 0, 1, Datatype.INT, to, 0));
        expect(wrong, ErrorClass.ERR_COMM, "old", "irecv", () -> old.irecv(buf, 0, 1, Datatype.INT, from, 0));
        expect(wrong, ErrorClass.ERR_COMM, "old", "barrier", old::barrier);
        expect(wrong, ErrorClass.ERR_COMM, "old", "allreduce", () -> old.allreduce(buf, 0, buf, 1, 1, Datatype.INT, Op.SUM));
        expect(wrong, ErrorClass.ERR_COMM, "old", "free", old::free);

        final Intracomm fresh = world.dup();
        final Request r = fresh.irecv(buf, 1, 1, Datatype.INT, from, 0);
        fresh.send(new int[] {1000 + rank}, 0, 1, Datatype.INT, to, 0);
        r.await();
        if (buf[1] != 1000 + from)
        {
            wrong.add("new communicator received " + buf[1] + ", expected " + (1000 + from));
        }
        final Request nothing = fresh.irecv(null, 0, 0, Datatype.INT, from, 1);
        fresh.send(null, 0, 0, Datatype.INT, to, 1);
        if (nothing.await().count(Datatype.INT) != 0)
        {
            wrong.add("null buffer: count not 0");
        }
        fresh.barrier();
        if (fresh.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG) != null)
        {
            wrong.add("a message arrived on the new communicator that was not sent on it");
        }
        fresh.free();

        final Request freed = world.irecv(buf, 0, 1, Datatype.INT, rank, 9);
        world.send(new int[] {5}, 0, 1, Datatype.INT, rank, 9);
        freed.free();
        expect(wrong, ErrorClass.ERR_REQUEST, "await", "await", freed::await);
        expect(wrong, ErrorClass.ERR_REQUEST, "test", "test", freed::test);

        // Rank 0 finalizes first: what it sent before still arrives; a receive from it alone then fails.
        final Request early = rank == 0 ? null : world.irecv(buf, 1, 1, Datatype.INT, 0, 11);
        world.barrier();
        if (rank == 0)
        {
            for (int peer = 1; peer < size; peer++)
            {
                world.send(new int[] {70 + peer}, 0, 1, Datatype.INT, peer, 10);
            }
        }
        else
        {
            final int[] got = new int[1];   // not buf: the freed receive above may still land in buf[0]
            world.recv(got, 0, 1, Datatype.INT, 0, 10);
            if (got[0] != 70 + rank)
            {
                wrong.add("the message rank 0 sent before it finalized: " + got[0] + ", expected " + (70 + rank));
            }
            expect(wrong, ErrorClass.ERR_OTHER, "has finalized", "irecv from a finalized rank", early::await);
            expect(wrong, ErrorClass.ERR_OTHER, "has finalized", "recv from a finalized rank",
                () -> world.recv(buf, 0, 1, Datatype.INT, 0, 12));
            expect(wrong, ErrorClass.ERR_OTHER, "has finalized", "probe of a finalized rank", () -> world.probe(0, 12));
        }

        mpi.close();
        expect(wrong, ErrorClass.ERR_OTHER, "MPI is finalized", "send", () -> world.send(buf, 0, 1, Datatype.INT, rank, 0));
        expect(wrong, ErrorClass.ERR_OTHER, "MPI is finalized", "barrier", world::barrier);
        expect(wrong, ErrorClass.ERR_OTHER, "MPI is finalized", "dup", world::dup);
        System.out.println("lifetime: rank " + rank + (wrong.isEmpty() ? " ok" : " FAILED " + wrong));
    }

    private static void expect(final List<String> wrong, final ErrorClass expected, final String mentions, final String what,
        final Call call)
    {
        try
        {
            call.run();
            wrong.add(what + ": returned normally, expected " + expected);
        }
        catch (final MpiException ex)
        {
            if (ex.errorClass() != expected || !ex.getMessage().contains(mentions))
            {
                wrong.add(what + ": " + ex.errorClass() + " '" + ex.getMessage() + "', expected " + expected + " naming " + mentions);
            }
        }
    }
}
