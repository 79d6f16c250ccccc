package org.jmpi.launcher.it;

/** Prints {@code args[0]} lines to stdout and one to stderr, each naming the rank; with "pid" also its pid. */
public final class PrintLinesProgram
{
    private PrintLinesProgram()
    {
    }

    public static void main(final String[] args)
    {
        final int rank = TestRank.rank();
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        for (int i = 0; i < count; i++)
        {
            System.out.println("line " + i + " of rank " + rank);
        }
        System.err.println("err of rank " + rank);
        System.out.print("unterminated " + rank);
        System.out.flush();
    }
}
