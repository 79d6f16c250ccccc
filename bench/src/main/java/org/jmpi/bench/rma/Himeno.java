package org.jmpi.bench.rma;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Locale;

import org.jmpi.CartComm;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;
import org.jmpi.Win;
import org.jmpi.bench.BenchArgs;
import org.jmpi.coarray.DoubleCoarray;
import org.jmpi.coarray.Section;
import org.jmpi.coarray.Team;

/**
 * The Himeno benchmark (a 19-point Jacobi sweep of a pressure field in 3-D, Himeno's constants, 34 flops per
 * point) on a two-dimensional grid of ranks over i and j, as the XcalableACC coarray paper runs it, with the halo
 * exchange written four ways (issue 18, item 6):
 * <ul>
 * <li>{@code two-sided}: irecv/isend of the four faces (the j faces as a vector type), j first, then i;</li>
 * <li>{@code rma}: get-based, as the paper's MPI RMA version, over a window made by {@code Win.allocate} (so that with
 * the PVAS arena on the gets between JVMs are direct copies out of the arena rather than frames): each rank copies
 * its boundary into its window memory, the j faces packed, fence, gets its j halos from its neighbours' windows,
 * fence, unpacks them and copies its i boundary planes (which carry the j halos, so the corners arrive too) into its
 * window, fence, gets its i halos straight into {@code p}, fence (on a grid of one column of ranks, no j step and
 * its two fences);</li>
 * <li>{@code coarray}: each rank puts its boundary into its neighbours' halos with blocking coarray puts (strided
 * sections for the j faces), {@code syncAll} after each direction; where the team's coarrays are in the PVAS arena
 * (JVMs with the arena on: their local view is a buffer, not an array) {@code p} stays an array and the coarray, of
 * the same layout, receives the halos, which each rank copies into {@code p} after each {@code syncAll};</li>
 * <li>{@code coarray-nb}: the same with {@code putAsync} (the paper's {@code nonblock}).</li>
 * </ul>
 * Steps per iteration: 1. exchange (j faces, then i planes, which carry the j halos, so the corners arrive too);
 * 2. sweep into {@code wrk2}, summing {@code gosa}; 3. copy the interior back; 4. allreduce {@code gosa} (which also
 * orders the next exchange after every rank's sweep). The k dimension is not divided.
 * Usage: {@code bin/jmpirun [--threads] -np 4 -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.rma.Himeno
 * [--size XS|S|M] [--iterations 100] [--rounds 2] [--versions two-sided,rma,coarray,coarray-nb]}. Rounds
 * repeat every version in turn, so that the first version's JIT warm-up and load changes do not fall on one version.
 */
public final class Himeno
{
    /** Versions of the exchange. */
    public enum Version
    {
        TWO_SIDED, RMA, COARRAY, COARRAY_NB;

        static Version of(final String name)
        {
            return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    private static final double OMEGA = 0.8;
    private final double a0 = 1;
    private final double a1 = 1;
    private final double a2 = 1;
    private final double a3 = 1.0 / 6;
    private final double b0 = 0;
    private final double b1 = 0;
    private final double b2 = 0;
    private final double c0 = 1;
    private final double c1 = 1;
    private final double c2 = 1;

    private final CartComm cart;
    private final Version version;
    private final int imax;
    private final int[] dims;
    private final int[] coords;
    private final int ni;
    private final int nj;
    private final int mi;
    private final int mj;
    private final int mk;
    private final int plane;
    private final int iLo;
    private final int iHi;
    private final int jLo;
    private final int jHi;
    private final int niOfILo;
    private final int njOfJLo;
    private final double[] p;
    private final double[] wrk2;
    private final Datatype jFace;
    private final Team team;
    private final DoubleCoarray coarray;
    /** The coarray's memory where it is in the arena (then it receives the halos, copied into {@code p}), else null. */
    private final DoubleBuffer halos;
    private final Win win;
    /** The RMA version's window memory: my boundary planes i = 1 and ni, then my j faces j = 1 and nj packed. */
    private final DoubleBuffer stage;
    /** Doubles of a packed j face slot: the largest ni times mk. */
    private final int faceSlot;
    /** The RMA version's j halos as they arrive, from jLo and from jHi. */
    private final double[] faceFromLo;
    private final double[] faceFromHi;
    private final Section[] jSections = new Section[4];

    /** Sets up one rank's block of an {@code imax x jmax x kmax} grid (collective for the RMA and coarray versions). */
    public Himeno(final CartComm cart, final Version version, final int imax, final int jmax, final int kmax)
    {
        this.cart = cart;
        this.version = version;
        this.imax = imax;
        this.dims = new int[] {cart.dims()[0], cart.dims()[1]};
        this.coords = cart.coords();
        this.ni = share(imax - 2, dims[0], coords[0]);
        this.nj = share(jmax - 2, dims[1], coords[1]);
        this.mi = share(imax - 2, dims[0], 0) + 2;
        this.mj = share(jmax - 2, dims[1], 0) + 2;
        this.mk = kmax;
        this.plane = mj * mk;
        final int[] iShift = cart.shift(0, 1);
        final int[] jShift = cart.shift(1, 1);
        this.iLo = iShift[0];
        this.iHi = iShift[1];
        this.jLo = jShift[0];
        this.jHi = jShift[1];
        this.niOfILo = coords[0] > 0 ? share(imax - 2, dims[0], coords[0] - 1) : 0;
        this.njOfJLo = coords[1] > 0 ? share(jmax - 2, dims[1], coords[1] - 1) : 0;
        this.jFace = Datatype.vector(ni, mk, plane, Datatype.DOUBLE).commit();
        if (version == Version.COARRAY || version == Version.COARRAY_NB)
        {
            team = Team.of(cart);
            coarray = DoubleCoarray.allocate(team, mi * plane);
            p = coarray.hasArray() ? coarray.local() : new double[mi * plane];
            halos = coarray.hasArray() ? null : coarray.localBuffer();
            final int[] shape = {mi, mj, mk};
            jSections[0] = Section.of(shape, new int[] {1, 1, 0}, new int[] {ni, 1, mk}, new int[] {1, 1, 1});
            jSections[1] = Section.of(shape, new int[] {1, nj, 0}, new int[] {ni, 1, mk}, new int[] {1, 1, 1});
            jSections[2] = Section.of(shape, new int[] {1, njOfJLo + 1, 0}, new int[] {ni, 1, mk}, new int[] {1, 1, 1});
            jSections[3] = Section.of(shape, new int[] {1, 0, 0}, new int[] {ni, 1, mk}, new int[] {1, 1, 1});
        }
        else
        {
            team = null;
            coarray = null;
            halos = null;
            p = new double[mi * plane];
        }
        faceSlot = (mi - 2) * mk;
        if (version == Version.RMA)
        {
            win = Win.allocate((2L * plane + 2L * faceSlot) * Double.BYTES, Double.BYTES, null, cart);
            stage = ((ByteBuffer)win.base()).asDoubleBuffer();
            faceFromLo = new double[ni * mk];
            faceFromHi = new double[ni * mk];
        }
        else
        {
            win = null;
            stage = null;
            faceFromLo = null;
            faceFromHi = null;
        }
        wrk2 = new double[mi * plane];
        final int iStart = 1 + offset(imax - 2, dims[0], coords[0]);
        for (int i = 0; i < mi; i++)
        {
            final double g = iStart - 1 + i;
            final double v = g * g / ((double)(imax - 1) * (imax - 1));
            java.util.Arrays.fill(p, i * plane, (i + 1) * plane, v);
        }
        System.arraycopy(p, 0, wrk2, 0, p.length);
    }

    /** Points of {@code total} that part {@code index} of {@code parts} gets (block distribution). */
    private static int share(final int total, final int parts, final int index)
    {
        return total / parts + (index < total % parts ? 1 : 0);
    }

    private static int offset(final int total, final int parts, final int index)
    {
        return index * (total / parts) + Math.min(index, total % parts);
    }

    private int at(final int i, final int j, final int k)
    {
        return i * plane + j * mk + k;
    }

    /** Runs {@code iterations} iterations; returns the last gosa (the same in every version and at every rank count). */
    public double run(final int iterations)
    {
        double gosa = 0;
        for (int n = 0; n < iterations; n++)
        {
            exchange();
            final double[] local = {sweep()};
            cart.allreduce(Comm.IN_PLACE, 0, local, 0, 1, Datatype.DOUBLE, Op.SUM);
            gosa = local[0];
        }
        return gosa;
    }

    private void exchange()
    {
        switch (version)
        {
            case TWO_SIDED -> twoSided();
            case RMA -> rmaGet();
            default -> coarrayPut(version == Version.COARRAY_NB);
        }
    }

    private void twoSided()
    {
        Request.waitAll(
            cart.irecv(p, at(1, 0, 0), 1, jFace, jLo, 1), cart.irecv(p, at(1, nj + 1, 0), 1, jFace, jHi, 2),
            cart.isend(p, at(1, 1, 0), 1, jFace, jLo, 2), cart.isend(p, at(1, nj, 0), 1, jFace, jHi, 1));
        Request.waitAll(
            cart.irecv(p, at(0, 0, 0), plane, Datatype.DOUBLE, iLo, 3), cart.irecv(p, at(ni + 1, 0, 0), plane, Datatype.DOUBLE, iHi, 4),
            cart.isend(p, at(1, 0, 0), plane, Datatype.DOUBLE, iLo, 4), cart.isend(p, at(ni, 0, 0), plane, Datatype.DOUBLE, iHi, 3));
    }

    private void rmaGet()
    {
        final int faces = 2 * plane;
        final int face = ni * mk;
        // a grid of one column of ranks (dims[1] = 1, the same on every rank) has no j faces to exchange
        if (dims[1] > 1)
        {
            for (int i = 1; i <= ni; i++)
            {
                stage.put(faces + (i - 1) * mk, p, at(i, 1, 0), mk);
                stage.put(faces + faceSlot + (i - 1) * mk, p, at(i, nj, 0), mk);
            }
            win.fence(Win.MODE_NOPRECEDE);
            // j neighbours share my ni: jLo's last face fills my j = 0, jHi's first my j = nj + 1
            if (jLo >= 0)
            {
                win.get(faceFromLo, 0, face, Datatype.DOUBLE, jLo, faces + faceSlot, face, Datatype.DOUBLE);
            }
            if (jHi >= 0)
            {
                win.get(faceFromHi, 0, face, Datatype.DOUBLE, jHi, faces, face, Datatype.DOUBLE);
            }
            win.fence(0);
            for (int i = 1; i <= ni; i++)
            {
                if (jLo >= 0)
                {
                    System.arraycopy(faceFromLo, (i - 1) * mk, p, at(i, 0, 0), mk);
                }
                if (jHi >= 0)
                {
                    System.arraycopy(faceFromHi, (i - 1) * mk, p, at(i, nj + 1, 0), mk);
                }
            }
        }
        stage.put(0, p, at(1, 0, 0), plane);
        stage.put(plane, p, at(ni, 0, 0), plane);
        win.fence(dims[1] > 1 ? 0 : Win.MODE_NOPRECEDE);
        // iLo's last plane (its slot 1) fills my i = 0, iHi's first (slot 0) my i = ni + 1
        if (iLo >= 0)
        {
            win.get(p, at(0, 0, 0), plane, Datatype.DOUBLE, iLo, plane, plane, Datatype.DOUBLE);
        }
        if (iHi >= 0)
        {
            win.get(p, at(ni + 1, 0, 0), plane, Datatype.DOUBLE, iHi, 0, plane, Datatype.DOUBLE);
        }
        win.fence(Win.MODE_NOSUCCEED);
    }

    private void coarrayPut(final boolean nonblocking)
    {
        if (dims[1] > 1)
        {
            if (jLo >= 0)
            {
                put(nonblocking, jLo, jSections[2], jSections[0]);
            }
            if (jHi >= 0)
            {
                put(nonblocking, jHi, jSections[3], jSections[1]);
            }
            team.syncAll();
            for (int i = 1; halos != null && i <= ni; i++)
            {
                // only where a neighbour put one: a boundary's halo keeps its initial values
                if (jLo >= 0)
                {
                    halos.get(at(i, 0, 0), p, at(i, 0, 0), mk);
                }
                if (jHi >= 0)
                {
                    halos.get(at(i, nj + 1, 0), p, at(i, nj + 1, 0), mk);
                }
            }
        }
        if (iLo >= 0)
        {
            put(nonblocking, iLo, (niOfILo + 1) * plane, 1 * plane);
        }
        if (iHi >= 0)
        {
            put(nonblocking, iHi, 0, ni * plane);
        }
        team.syncAll();
        if (halos != null && iLo >= 0)
        {
            halos.get(at(0, 0, 0), p, at(0, 0, 0), plane);
        }
        if (halos != null && iHi >= 0)
        {
            halos.get(at(ni + 1, 0, 0), p, at(ni + 1, 0, 0), plane);
        }
    }

    private void put(final boolean nonblocking, final int image, final Section target, final Section source)
    {
        if (nonblocking)
        {
            coarray.putAsync(image, target, p, source);
        }
        else
        {
            coarray.put(image, target, p, source);
        }
    }

    private void put(final boolean nonblocking, final int image, final int targetOffset, final int sourceOffset)
    {
        if (nonblocking)
        {
            coarray.putAsync(image, targetOffset, p, sourceOffset, plane);
        }
        else
        {
            coarray.put(image, targetOffset, p, sourceOffset, plane);
        }
    }

    /** Himeno's jacobi(): one sweep over the interior into wrk2, then the copy back; returns this rank's gosa. */
    private double sweep()
    {
        double gosa = 0;
        final int sj = mk;
        final int si = plane;
        for (int i = 1; i <= ni; i++)
        {
            for (int j = 1; j <= nj; j++)
            {
                final int row = at(i, j, 0);
                for (int k = 1; k < mk - 1; k++)
                {
                    final int x = row + k;
                    final double s0 = a0 * p[x + si] + a1 * p[x + sj] + a2 * p[x + 1]
                        + b0 * (p[x + si + sj] - p[x + si - sj] - p[x - si + sj] + p[x - si - sj])
                        + b1 * (p[x + sj + 1] - p[x - sj + 1] - p[x + sj - 1] + p[x - sj - 1])
                        + b2 * (p[x + si + 1] - p[x - si + 1] - p[x + si - 1] + p[x - si - 1])
                        + c0 * p[x - si] + c1 * p[x - sj] + c2 * p[x - 1];
                    final double ss = s0 * a3 - p[x];
                    gosa += ss * ss;
                    wrk2[x] = p[x] + OMEGA * ss;
                }
            }
        }
        for (int i = 1; i <= ni; i++)
        {
            for (int j = 1; j <= nj; j++)
            {
                System.arraycopy(wrk2, at(i, j, 1), p, at(i, j, 1), mk - 2);
            }
        }
        return gosa;
    }

    /** Frees the window or coarray (collective). */
    public void close()
    {
        free(win, coarray, team);
    }

    /** Frees a mini-app's window or coarray and its team, whichever it has (collective); the mini-apps share it. */
    static void free(final Win win, final DoubleCoarray coarray, final Team team)
    {
        if (win != null)
        {
            win.free();
        }
        if (coarray != null)
        {
            coarray.close();
            team.free();
        }
    }

    /** Flops of one iteration over the whole grid (Himeno counts 34 per point). */
    static double flopsPerIteration(final int imax, final int jmax, final int kmax)
    {
        return 34.0 * (imax - 2) * (jmax - 2) * (kmax - 2);
    }

    /** Himeno's grid sizes (XS is smaller than Himeno's own, for CI). */
    static int[] size(final String name)
    {
        return switch (name.toUpperCase(Locale.ROOT))
        {
            case "XS" -> new int[] {33, 33, 65};
            case "S" -> new int[] {65, 65, 129};
            case "M" -> new int[] {129, 129, 257};
            case "L" -> new int[] {257, 257, 513};
            default -> throw new IllegalArgumentException("size " + name + ": XS, S, M or L");
        };
    }

    public static void main(final String[] args)
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--size", "--iterations", "--versions", "--rounds");
        final String sizeName = parsed.option("--size", "S");
        final int[] size = size(sizeName);
        final int iterations = parsed.intOption("--iterations", 100);
        final int rounds = parsed.intOption("--rounds", 2);
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            final int[] dims = CartComm.dimsCreate(world.size(), new int[2]);
            final CartComm cart = world.cartCreate(dims, new boolean[2], false);
            if (world.rank() == 0)
            {
                System.out.printf(Locale.ROOT, "# jmpi Himeno %s (%d x %d x %d), %d ranks (%d x %d), %d iterations%n", sizeName, size[0], size[1],
                    size[2], world.size(), dims[0], dims[1], iterations);
                System.out.printf(Locale.ROOT, "# %-12s %10s %10s %14s%n", "version", "time (s)", "MFLOPS", "gosa");
            }
            final String[] versions = parsed.option("--versions", "two-sided,rma,coarray,coarray-nb").split(",");
            for (int round = 1; round <= rounds; round++)
            {
                if (world.rank() == 0)
                {
                    System.out.printf(Locale.ROOT, "# round %d%n", round);
                }
                runVersions(cart, versions, size, iterations);
            }
        }
    }

    /** One timed run of each version (after a tenth as many untimed iterations), results on rank 0. */
    private static void runVersions(final CartComm cart, final String[] versions, final int[] size, final int iterations)
    {
        for (final String name : versions)
        {
            final Himeno himeno = new Himeno(cart, Version.of(name.trim()), size[0], size[1], size[2]);
            himeno.run(Math.max(1, iterations / 10));
            cart.barrier();
            final long t0 = System.nanoTime();
            final double gosa = himeno.run(iterations);
            final double seconds = (System.nanoTime() - t0) / 1e9;
            himeno.close();
            if (cart.rank() == 0)
            {
                System.out.printf(Locale.ROOT, "%-14s %10.3f %10.1f %14.8e%n", name.trim(), seconds,
                    flopsPerIteration(size[0], size[1], size[2]) * iterations / seconds / 1e6, gosa);
            }
        }
    }
}
