package org.jmpi.launcher.it;

import org.jmpi.Mpi;

import java.lang.management.ManagementFactory;

/** Inits jmpi, prints {@code rank R jvm-arg A} for each JVM argument starting with one of its arguments, then "rank R done". */
public final class JvmArgsProgram
{
    private JvmArgsProgram()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final int rank = mpi.world().rank();
            for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
            {
                for (final String prefix : args)
                {
                    if (arg.startsWith(prefix))
                    {
                        System.out.println("rank " + rank + " jvm-arg " + arg);
                    }
                }
            }
            mpi.world().barrier();
            System.out.println("rank " + rank + " done");
        }
    }
}
