package mpi;

import static mpi.Job.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Ports, connect/accept, names and disconnect through Open MPI's Java API, between groups of one job. */
@Timeout(120)
class DynamicTest
{
    /** The port name of world rank 0, everywhere (as Open MPI programs pass it: a char array broadcast). */
    private static String share(final Intracomm world, final int rank, final String port) throws MPIException
    {
        final char[] name = new char[256];
        final int[] length = {0};
        if (rank == 0)
        {
            port.getChars(0, port.length(), name, 0);
            length[0] = port.length();
        }
        world.bcast(length, 1, MPI.INT, 0);
        world.bcast(name, length[0], MPI.CHAR, 0);
        return new String(name, 0, length[0]);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldConnectAcceptTalkMergeAndDisconnect(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            final boolean server = rank < n / 2;
            final Intracomm half = world.split(server ? 0 : 1, rank);
            final String port = share(world, rank, rank == 0 ? Intracomm.openPort() : null);
            final Intercomm inter = server ? half.accept(port, 0) : half.connect(port, 0);
            assertEquals(n / 2, inter.getRemoteSize());
            assertEquals(n / 2, inter.getSize());
            final int[] mine = {rank};
            final int[] theirs = new int[1];
            inter.sendRecv(mine, 1, MPI.INT, inter.getRank(), 5, theirs, 1, MPI.INT, inter.getRank(), 5);
            assertEquals(server ? rank + n / 2 : rank - n / 2, theirs[0]);
            final int[] sum = new int[1];
            inter.allReduce(mine, sum, 1, MPI.INT, MPI.SUM);
            int expected = 0;
            for (int r = 0; r < n; r++)
            {
                expected += (r < n / 2) != server ? r : 0;
            }
            assertEquals(expected, sum[0]);
            final Intracomm merged = inter.merge(!server);
            assertEquals(rank, merged.getRank());
            merged.free();
            inter.disconnect();
            assertTrue(inter.isNull());
            world.barrier();
            if (rank == 0)
            {
                Intracomm.closePort(port);
            }
        });
    }

    @Test
    void shouldPublishAndLookUpNamesAndReportErrorClasses()
    {
        Job.world(2, (world, rank, n) ->
        {
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            String port = null;
            if (rank == 0)
            {
                port = Intracomm.openPort(MPI.INFO_NULL);
                Intracomm.publishName("compat-service", port);
                assertMpiError(MPI.ERR_SERVICE, () -> Intracomm.publishName("compat-service", "other"));
            }
            world.barrier();
            final Intercomm inter = rank == 0 ? MPI.COMM_SELF.accept(port, 0)
                : MPI.COMM_SELF.connect(Intracomm.lookupName("compat-service"), 0);
            inter.barrier();
            inter.disconnect();
            if (rank == 0)
            {
                Intracomm.unpublishName("compat-service", port);
                assertMpiError(MPI.ERR_SERVICE, () -> Intracomm.unpublishName("compat-service", MPI.INFO_NULL, "x"));
                Intracomm.closePort(port);
                final String closed = port;
                assertMpiError(MPI.ERR_PORT, () -> Intracomm.closePort(closed));
            }
            world.barrier();
            assertMpiError(MPI.ERR_NAME, () -> Intracomm.lookupName("compat-service"));
            assertMpiError(MPI.ERR_PORT, () -> world.connect("not a port", 0));
            assertMpiError(MPI.ERR_PORT, () -> world.accept("not a port", MPI.INFO_NULL, 0));
            assertTrue(Intercomm.getParent().isNull());
        });
    }
}
