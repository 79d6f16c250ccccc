package org.jmpi.coll;

import java.nio.charset.StandardCharsets;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.Intercomm;
import org.jmpi.Intracomm;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dynamic processes between groups of one job (MPI 4.1 §11.4): ports, connect/accept, names, disconnect. */
@Timeout(120)
class ConnectAcceptTest
{
    /** {@code value} at {@code root}, everywhere: its length, then its bytes, broadcast over {@code comm}. */
    static String share(final Comm comm, final int root, final String value)
    {
        final int[] length = {value == null ? 0 : value.getBytes(StandardCharsets.UTF_8).length};
        comm.bcast(length, 0, 1, Datatype.INT, root);
        final byte[] bytes = comm.rank() == root ? value.getBytes(StandardCharsets.UTF_8) : new byte[length[0]];
        comm.bcast(bytes, 0, bytes.length, Datatype.BYTE, root);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void shouldConnectTalkReduceMergeAndDisconnect(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            mpi.self().setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final int rank = world.rank();
            final boolean acceptor = rank % 2 == 0;
            final Intracomm half = world.split(acceptor ? 0 : 1, rank);
            final String port = share(world, 0, rank == 0 ? mpi.openPort() : null);
            assertTrue(port.startsWith("jmpi-port:"), port);
            // The accepting group's root is world rank 0, the port's owner; the connecting group's is world rank 1.
            final Intercomm inter = acceptor ? half.accept(port, null, 0) : half.connect(port, null, 0);
            final int aSize = (size + 1) / 2;
            final int bSize = size / 2;
            assertEquals(acceptor ? aSize : bSize, inter.size());
            assertEquals(acceptor ? bSize : aSize, inter.remoteSize());
            assertEquals(rank / 2, inter.rank());
            // Point-to-point: every rank sends its world rank to every remote rank and hears from each of them.
            final int remoteSize = inter.remoteSize();
            final int[] heard = new int[remoteSize];
            final Request[] pending = new Request[2 * remoteSize];
            for (int r = 0; r < remoteSize; r++)
            {
                pending[r] = inter.irecv(heard, r, 1, Datatype.INT, r, 7);
                pending[remoteSize + r] = inter.isend(new int[] {rank}, 0, 1, Datatype.INT, r, 7);
            }
            for (final Request q : pending)
            {
                q.await();
            }
            for (int r = 0; r < remoteSize; r++)
            {
                assertEquals(2 * r + (acceptor ? 1 : 0), heard[r], "remote rank " + r + " is world rank " + (2 * r + (acceptor ? 1 : 0)));
            }
            // A collective over the intercommunicator: each group gets the other's maximum world rank.
            final int[] otherMax = new int[1];
            inter.allreduce(new int[] {rank}, 0, otherMax, 0, 1, Datatype.INT, Op.MAX);
            final int lastOdd = size % 2 == 0 ? size - 1 : size - 2;
            final int lastEven = size % 2 == 0 ? size - 2 : size - 1;
            assertEquals(acceptor ? lastOdd : lastEven, otherMax[0]);
            // Merge, the connecting group high: acceptors first.
            final Intracomm merged = inter.merge(!acceptor);
            assertEquals(size, merged.size());
            assertEquals(acceptor ? rank / 2 : aSize + rank / 2, merged.rank());
            final int[] sum = new int[1];
            merged.allreduce(new int[] {rank}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
            assertEquals(size * (size - 1) / 2, sum[0]);
            merged.free();
            inter.disconnect();
            assertTrue(inter.isFreed());
            final MpiException afterwards = assertThrows(MpiException.class, () -> inter.barrier());
            assertEquals(ErrorClass.ERR_COMM, afterwards.errorClass());
            // A second connection on the same port, then the port is closed.
            final Intercomm again = acceptor ? half.accept(port, null, 0) : half.connect(port, null, 0);
            again.barrier();
            again.disconnect();
            if (rank == 0)
            {
                mpi.closePort(port);
            }
        });
    }

    /** Two single ranks connect to one port in turn; the owner accepts on SELF twice and tells them apart. */
    @Test
    void shouldServeSeveralConnectionsOnOnePort()
    {
        Ranks.run(3, (mpi, world) ->
        {
            mpi.self().setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final int rank = world.rank();
            final String port = share(world, 0, rank == 0 ? mpi.openPort() : null);
            if (rank == 0)
            {
                int seen = 0;
                for (int i = 0; i < 2; i++)
                {
                    final Intercomm client = mpi.self().accept(port, null, 0);
                    assertEquals(1, client.remoteSize());
                    final int[] who = new int[1];
                    client.recv(who, 0, 1, Datatype.INT, 0, 1);
                    seen |= 1 << who[0];
                    client.send(new int[] {who[0] * 10}, 0, 1, Datatype.INT, 0, 2);
                    client.disconnect();
                }
                assertEquals(0b110, seen);
                mpi.closePort(port);
            }
            else
            {
                final Intercomm server = mpi.self().connect(port, null, 0);
                server.send(new int[] {rank}, 0, 1, Datatype.INT, 0, 1);
                final int[] answer = new int[1];
                server.recv(answer, 0, 1, Datatype.INT, 0, 2);
                assertEquals(rank * 10, answer[0]);
                server.disconnect();
            }
            world.barrier();
        });
    }

    @Test
    void shouldPublishLookUpAndUnpublishNames()
    {
        Ranks.run(2, (mpi, world) ->
        {
            mpi.self().setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final int rank = world.rank();
            String port = null;
            if (rank == 0)
            {
                port = mpi.openPort();
                mpi.publishName("ocean", null, port);
                assertEquals(ErrorClass.ERR_SERVICE, assertThrows(MpiException.class, () -> mpi.publishName("ocean", null, "x")).errorClass());
            }
            world.barrier();
            final Intercomm inter;
            if (rank == 0)
            {
                inter = mpi.self().accept(port, null, 0);
            }
            else
            {
                final String found = mpi.lookupName("ocean", null);
                assertTrue(found.startsWith("jmpi-port:"), found);
                inter = mpi.self().connect(found, null, 0);
            }
            inter.barrier();
            inter.disconnect();
            if (rank == 0)
            {
                assertEquals(ErrorClass.ERR_SERVICE, assertThrows(MpiException.class, () -> mpi.unpublishName("ocean", null, "other")).errorClass());
                mpi.unpublishName("ocean", null, port);
                assertEquals(ErrorClass.ERR_SERVICE, assertThrows(MpiException.class, () -> mpi.unpublishName("ocean", null, null)).errorClass());
                mpi.closePort(port);
            }
            world.barrier();
            assertEquals(ErrorClass.ERR_NAME, assertThrows(MpiException.class, () -> mpi.lookupName("ocean", null)).errorClass());
            assertEquals(ErrorClass.ERR_NAME, assertThrows(MpiException.class, () -> mpi.lookupName("never-published", null)).errorClass());
            assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> mpi.lookupName("", null)).errorClass());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldFailEveryMemberWithErrPortOnBadPorts(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            mpi.self().setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final int rank = world.rank();
            for (final String bad : new String[] {"garbage", "jmpi-port:", "jmpi-port:" + "x:notanumber:0", "jmpi-port:x:0:-1", null})
            {
                final String atRoot = rank == 0 ? bad : "ignored";
                assertEquals(ErrorClass.ERR_PORT, assertThrows(MpiException.class, () -> world.connect(atRoot, null, 0)).errorClass(), bad);
                assertEquals(ErrorClass.ERR_PORT, assertThrows(MpiException.class, () -> world.accept(atRoot, null, 0)).errorClass(), bad);
            }
            // A well-formed name no rank opened: connect fails (not open in the store), accept fails (not ours).
            final String port = share(world, 0, rank == 0 ? mpi.openPort() : null);
            final String unknown = port.substring(0, port.lastIndexOf(':') + 1) + "999";
            assertEquals(ErrorClass.ERR_PORT, assertThrows(MpiException.class, () -> world.connect(unknown, null, 0)).errorClass());
            assertEquals(ErrorClass.ERR_PORT, assertThrows(MpiException.class, () -> mpi.self().accept(unknown, null, 0)).errorClass());
            assertEquals(ErrorClass.ERR_PORT, assertThrows(MpiException.class, () -> mpi.closePort(unknown)).errorClass());
            // A port opened by another rank cannot be accepted on here.
            if (rank == 1)
            {
                assertEquals(ErrorClass.ERR_PORT, assertThrows(MpiException.class, () -> mpi.self().accept(port, null, 0)).errorClass());
            }
            assertEquals(ErrorClass.ERR_ROOT, assertThrows(MpiException.class, () -> world.connect(port, null, size)).errorClass());
            world.barrier();
            if (rank == 0)
            {
                mpi.closePort(port);
                assertEquals(ErrorClass.ERR_PORT, assertThrows(MpiException.class, () -> mpi.closePort(port)).errorClass());
            }
            world.barrier();
            // A closed port refuses connections.
            if (rank == 1)
            {
                assertEquals(ErrorClass.ERR_PORT, assertThrows(MpiException.class, () -> mpi.self().connect(port, null, 0)).errorClass());
            }
            // A port of another job without an address, or one its door does not know: ERR_PORT on every member alike
            // (two jobs that meet: CompatJmpirunIT).
            final MpiException noAddress = assertThrows(MpiException.class, () -> world.connect("jmpi-port:0123456789abcdef:0:0", null, 0));
            assertEquals(ErrorClass.ERR_PORT, noAddress.errorClass());
            assertTrue(rank != 0 || noAddress.getMessage().contains("names no address"), noAddress.getMessage());
            final String door = port.split(":")[4];
            final MpiException refused = assertThrows(MpiException.class,
                () -> world.connect("jmpi-port:0123456789abcdef:0:0:" + door + ":00", null, 0));
            assertEquals(ErrorClass.ERR_PORT, refused.errorClass());
            assertTrue(rank != 0 || refused.getMessage().contains("REFUSED"), refused.getMessage());
            world.barrier();
        });
    }

    /** A connect waiting for an accept that never comes ends with ERR_PORT once the owner closes the port. */
    @Test
    void shouldEndAWaitingConnectWhenThePortCloses()
    {
        Ranks.run(2, (mpi, world) ->
        {
            mpi.self().setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final int rank = world.rank();
            final String port = share(world, 0, rank == 0 ? mpi.openPort() : null);
            if (rank == 0)
            {
                world.recv(new int[1], 0, 1, Datatype.INT, 1, 3);
                mpi.closePort(port);
            }
            else
            {
                world.send(new int[] {1}, 0, 1, Datatype.INT, 0, 3);
                final MpiException refused = assertThrows(MpiException.class, () -> mpi.self().connect(port, null, 0));
                assertEquals(ErrorClass.ERR_PORT, refused.errorClass());
            }
            world.barrier();
        });
    }

    /**
     * Ranks as threads cannot spawn (the launcher starts processes): ERR_SPAWN on every member, errcodes ERR_SPAWN;
     * bad arguments are checked first at the root and fail every member alike.
     */
    @Test
    void shouldRefuseSpawnInAThreadsJobAndCheckArgumentsFirst()
    {
        Ranks.run(2, (mpi, world) ->
        {
            world.setErrorHandler(ErrorHandler.ERRORS_RETURN);
            assertNull(mpi.parent());
            final int[] errcodes = {-1, -1};
            final MpiException threads = assertThrows(MpiException.class,
                () -> world.spawn(ConnectAcceptTest.class.getName(), new String[0], 2, null, 0, errcodes));
            assertEquals(ErrorClass.ERR_SPAWN, threads.errorClass(), threads.getMessage());
            assertEquals(ErrorClass.ERR_SPAWN.code(), errcodes[1]);
            assertEquals(ErrorClass.ERR_SPAWN, assertThrows(MpiException.class,
                () -> world.spawn("org.example.NoSuchMain", new String[0], 1, null, 0, null)).errorClass());
            assertEquals(ErrorClass.ERR_SPAWN, assertThrows(MpiException.class,
                () -> world.spawn("java", new String[] {"-jar", "x.jar"}, 1, null, 0, null)).errorClass());
            final MpiException none = assertThrows(MpiException.class,
                () -> world.spawn(ConnectAcceptTest.class.getName(), new String[0], 0, null, 1, null));
            assertEquals(ErrorClass.ERR_ARG, none.errorClass());
            assertTrue(none.getMessage().contains("maxprocs must be at least 1, not 0"), none.getMessage());
            assertEquals(ErrorClass.ERR_ROOT, assertThrows(MpiException.class,
                () -> world.spawn(ConnectAcceptTest.class.getName(), new String[0], 1, null, 2, null)).errorClass());
            assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class,
                () -> world.spawnMultiple(new String[] {"Main"}, new String[][] {{}, {}}, new int[] {1}, null, 0, null)).errorClass());
            assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class,
                () -> world.spawn(ConnectAcceptTest.class.getName(), new String[0], 3, null, 0, new int[2])).errorClass());
            assertEquals(ErrorClass.ERR_COMM, assertThrows(MpiException.class, () -> world.disconnect()).errorClass());
        });
    }
}
