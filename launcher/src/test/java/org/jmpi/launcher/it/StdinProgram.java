package org.jmpi.launcher.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Reads stdin to its end and prints each line with the rank, then the line count. */
public final class StdinProgram
{
    private StdinProgram()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final int rank = TestRank.rank();
        final BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int count = 0;
        String line;
        while ((line = reader.readLine()) != null)
        {
            System.out.println("rank " + rank + " read: " + line);
            count++;
        }
        System.out.println("rank " + rank + " lines=" + count);
    }
}
