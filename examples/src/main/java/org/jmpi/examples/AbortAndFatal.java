package org.jmpi.examples;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;

/**
 * Failure drill for error handlers and abort. {@code abort}: rank 1 calls {@code mpi.abort(3)} while
 * the others wait in a receive; the job must end with exit code 3. {@code fatal}: rank 1 sends to an
 * invalid rank with world's default handler, ERRORS_ARE_FATAL; the job must end with the error class
 * (ERR_RANK) as exit code and the error printed. {@code throw} and {@code oom}: rank 1's code throws (an
 * exception, or an OutOfMemoryError) inside {@code try (Mpi mpi = Mpi.init(args))}; the job must end within 5 s,
 * non-zero, with the exception printed and the rank named. Rank 1 prints when it fails ({@code failing at <ms>}).
 */
public final class AbortAndFatal
{
    private AbortAndFatal()
    {
    }

    public static void main(final String[] args)
    {
        final String mode = args.length > 0 ? args[0] : "abort";
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            world.barrier();
            if (world.rank() == 1)
            {
                if (mode.equals("abort"))
                {
                    mpi.abort(3);
                }
                else if (mode.equals("throw") || mode.equals("oom"))
                {
                    System.err.println("rank 1 failing at " + System.currentTimeMillis());
                    System.err.flush();
                    if (mode.equals("oom"))
                    {
                        final java.util.List<long[]> hog = new java.util.ArrayList<>();
                        while (true)
                        {
                            hog.add(new long[1 << 24]);
                        }
                    }
                    throw new IllegalStateException("rank 1 gave up");
                }
                else
                {
                    world.send(new int[1], 0, 1, Datatype.INT, world.size() + 5, 0);
                }
            }
            world.recv(new int[1], 0, 1, Datatype.INT, 1, 4321);
        }
    }
}
