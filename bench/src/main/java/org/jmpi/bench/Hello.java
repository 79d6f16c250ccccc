package org.jmpi.bench;

import org.jmpi.Mpi;

/**
 * Hello world: init, print rank and size, finalize. bench/startup-vs-c.sh times {@code jmpirun -np 2}
 * of it against {@code mpirun -np 2} of bench/c/hello.c.
 */
public final class Hello
{
    private Hello()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            System.out.println("hello from rank " + mpi.world().rank() + " of " + mpi.world().size());
        }
    }
}
