package org.jmpi.examples.ddt;

import org.jmpi.Comm;
import org.jmpi.Mpi;

import java.io.PrintStream;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Sends every DDTBench pattern from rank 0 to rank 1 with the application's send type, receives it with
 * the application's receive type, and sends it back the same way (a ping-pong, as DDTBench does). Each
 * side compares its whole buffer with what DDTBench's manual loops produce: a reference that packs rank
 * 0's data by hand and unpacks it by hand into rank 1's initial data, and back. Ranks above 1 only wait.
 * <p>
 * Run with {@code bin/jmpirun -np 2 -cp examples/target/classes org.jmpi.examples.ddt.DdtExchange
 * [--largest] [--arena] [pattern...]}; the default is DDTBench's middle size of all 16 patterns. With {@code --arena}
 * each buffer is a typed view of {@code mpi.allocMem} memory (the node's arena when the arena transport is on,
 * docs/pvas.md), copied from and back to the pattern's array around each transfer. Prints
 * {@code ddt: <pattern> ok} per pattern (rank 0) and {@code ddt: rank R ok}; exits with 1 on any mismatch.
 */
public final class DdtExchange
{
    private static final long RANK0_BASE = 1;
    private static final long RANK1_BASE = 1L << 22;

    private DdtExchange()
    {
    }

    public static void main(final String[] args)
    {
        DdtSize size = DdtSize.MIDDLE;
        List<String> names = DdtPatterns.NAMES;
        final List<String> given = Arrays.stream(args).filter(a -> !a.startsWith("--")).toList();
        if (Arrays.asList(args).contains("--largest"))
        {
            size = DdtSize.LARGEST;
        }
        if (!given.isEmpty())
        {
            names = given;
        }
        final boolean ok;
        try (Mpi mpi = Mpi.init(args))
        {
            ok = run(mpi.world(), size, names, System.out, Arrays.asList(args).contains("--arena") ? mpi : null);
        }
        if (!ok)
        {
            System.exit(1);
        }
    }

    /**
     * Exchanges {@code names} between ranks 0 and 1 of {@code world}.
     *
     * @return false if any received buffer differed from the reference (the differences are printed)
     */
    public static boolean run(final Comm world, final DdtSize size, final List<String> names, final PrintStream out)
    {
        return run(world, size, names, out, null);
    }

    /**
     * As {@link #run(Comm, DdtSize, List, PrintStream)}, sending from and receiving into {@code arenaFrom.allocMem}
     * memory when {@code arenaFrom} is not null.
     */
    public static boolean run(final Comm world, final DdtSize size, final List<String> names, final PrintStream out, final Mpi arenaFrom)
    {
        final int rank = world.rank();
        if (world.size() < 2)
        {
            out.println("ddt: needs at least 2 ranks, have " + world.size());
            return false;
        }
        boolean ok = true;
        int tag = 0;
        for (final String name : names)
        {
            tag++;
            if (rank > 1)
            {
                continue;
            }
            final DdtPattern pattern = DdtPatterns.create(name, size);
            pattern.fill(rank == 0 ? RANK0_BASE : RANK1_BASE);
            final ByteBuffer memory = arenaFrom == null ? null : arenaFrom.allocMem(pattern.bufferLength() * (int)pattern.element().size());
            final Object buffer = memory == null ? pattern.buffer() : copyIn(pattern, memory);
            if (rank == 0)
            {
                world.send(buffer, (int)pattern.sendOffset(), pattern.sendCount(), pattern.sendType(), 1, tag);
                world.recv(buffer, (int)pattern.recvOffset(), pattern.recvCount(), pattern.recvType(), 1, tag);
                copyBack(buffer, pattern);
            }
            else
            {
                world.recv(buffer, (int)pattern.recvOffset(), pattern.recvCount(), pattern.recvType(), 0, tag);
                copyBack(buffer, pattern);
                ok &= check(pattern, expected(name, size, 1), "rank 1 after receive", out);
                world.send(buffer, (int)pattern.sendOffset(), pattern.sendCount(), pattern.sendType(), 0, tag);
            }
            if (rank == 0)
            {
                final boolean same = check(pattern, expected(name, size, 0), "rank 0 after the reply", out);
                ok &= same;
                if (same)
                {
                    out.println("ddt: " + name + " ok (" + pattern.bytes() + " bytes, " + size + ")");
                }
            }
            if (memory != null)
            {
                arenaFrom.freeMem(memory);
            }
        }
        world.barrier();
        if (ok)
        {
            out.println("ddt: rank " + rank + " ok");
        }
        return ok;
    }

    /** A typed view of {@code memory} holding the pattern's buffer. */
    private static Buffer copyIn(final DdtPattern pattern, final ByteBuffer memory)
    {
        return switch (pattern.buffer())
        {
            case float[] a -> memory.asFloatBuffer().put(0, a);
            case double[] a -> memory.asDoubleBuffer().put(0, a);
            default -> throw new IllegalStateException("pattern buffer " + pattern.buffer().getClass());
        };
    }

    /** Copies a view made by {@link #copyIn} back into the pattern's array (the checks read the array). */
    private static void copyBack(final Object buffer, final DdtPattern pattern)
    {
        switch (buffer)
        {
            case FloatBuffer b -> b.get(0, (float[])pattern.buffer());
            case DoubleBuffer b -> b.get(0, (double[])pattern.buffer());
            default ->
            {
                // the pattern's own array: nothing to copy
            }
        }
    }

    /** The bytes of {@code rank}'s buffer after the ping-pong, worked out with the manual loops only. */
    static byte[] expected(final String name, final DdtSize size, final int rank)
    {
        final DdtPattern zero = DdtPatterns.create(name, size);
        final DdtPattern one = DdtPatterns.create(name, size);
        zero.fill(RANK0_BASE);
        one.fill(RANK1_BASE);
        final Object there = zero.newPackBuffer();
        zero.packManual(there);
        one.unpackManual(there);
        if (rank == 1)
        {
            return one.bufferBytes();
        }
        final Object back = one.newPackBuffer();
        one.packManual(back);
        zero.unpackManual(back);
        return zero.bufferBytes();
    }

    private static boolean check(final DdtPattern pattern, final byte[] expected, final String what,
        final PrintStream out)
    {
        final byte[] actual = pattern.bufferBytes();
        final int at = Arrays.mismatch(expected, actual);
        if (at < 0)
        {
            return true;
        }
        out.println("ddt: " + pattern.name() + " MISMATCH " + what + ": first differing buffer byte " + at + " of " +
            actual.length + " (element " + at / (int)pattern.element().size() + ")");
        return false;
    }
}
