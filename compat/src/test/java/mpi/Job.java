package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jmpi.internal.bootstrap.LocalJob;

/**
 * Runs compat programs as the ranks of an in-JVM job (threads, each its own rank; MPI.COMM_WORLD resolves to
 * each thread's world). {@link #run} runs a program's {@code main} as is; {@link #world} wraps a body in
 * MPI.Init, ERRORS_RETURN on COMM_WORLD, and MPI.Finalize. Fails with the first rank's failure; 60 s timeout.
 */
final class Job
{
    @FunctionalInterface
    interface Main
    {
        void main(String[] args) throws Throwable;
    }

    @FunctionalInterface
    interface Body
    {
        void run(Intracomm world, int rank, int size) throws Throwable;
    }

    private Job()
    {
    }

    static void run(final int size, final Main main)
    {
        final LocalJob.Outcome outcome = LocalJob.create(size, Map.of())
            .run(rank -> main.main(new String[] {"arg0", "arg1"}), TimeUnit.SECONDS.toNanos(60));
        final LocalJob.RankOutcome failed = outcome.firstFailure();
        if (failed != null)
        {
            if (failed.timedOut())
            {
                throw new AssertionError("rank " + failed.rank() + " timed out (job of " + size + ")");
            }
            Throwable cause = failed.failure();
            for (final LocalJob.RankOutcome r : outcome.ranks())
            {
                if (r.failure() != null && !(r.failure() instanceof org.jmpi.MpiException me &&
                    me.errorClass() == org.jmpi.ErrorClass.ERR_PROC_ABORTED))
                {
                    cause = r.failure();
                    break;
                }
            }
            if (cause instanceof AssertionError ae)
            {
                throw ae;
            }
            throw new AssertionError("rank " + failed.rank() + " failed (job of " + size + "): " + cause, cause);
        }
    }

    static void world(final int size, final Body body)
    {
        run(size, args ->
        {
            MPI.Init(args);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            body.run(MPI.COMM_WORLD, MPI.COMM_WORLD.getRank(), MPI.COMM_WORLD.getSize());
            MPI.Finalize();
        });
    }

    /** Asserts that {@code call} throws an MPIException of {@code errorClass}. */
    static MPIException assertMpiError(final int errorClass, final org.junit.jupiter.api.function.Executable call)
    {
        final MPIException ex = assertThrows(MPIException.class, call);
        assertEquals(errorClass, ex.getErrorClass(), ex.getMessage());
        return ex;
    }
}
