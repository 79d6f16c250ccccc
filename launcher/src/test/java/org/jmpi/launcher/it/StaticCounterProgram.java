package org.jmpi.launcher.it;

/** Increments a static counter once per run and prints it: 1 in every rank when statics are per rank. */
public final class StaticCounterProgram
{
    private static int counter;

    private StaticCounterProgram()
    {
    }

    public static void main(final String[] args)
    {
        final int value;
        synchronized (StaticCounterProgram.class)
        {
            value = ++counter;
        }
        System.out.println("rank " + TestRank.rank() + " counter=" + value + " loader=" + StaticCounterProgram.class.getClassLoader().getName());
    }
}
