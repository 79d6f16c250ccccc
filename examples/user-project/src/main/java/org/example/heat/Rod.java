package org.example.heat;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Op;

/**
 * A ring-shaped rod cut into equal pieces, one per rank: each piece holds its cells plus one ghost cell
 * at either end, filled from the neighbouring ranks before every step of explicit heat diffusion.
 */
public final class Rod
{
    private final Comm comm;
    private final int cells;
    private double[] u;
    private double[] next;

    /** A piece of {@code cells} cells on this rank, initially {@code initial(globalIndex)}. */
    public Rod(final Comm comm, final int cells, final java.util.function.IntToDoubleFunction initial)
    {
        if (cells < 1)
        {
            throw new IllegalArgumentException("cells must be at least 1: cells=" + cells);
        }
        this.comm = comm;
        this.cells = cells;
        this.u = new double[cells + 2];
        this.next = new double[cells + 2];
        for (int i = 0; i < cells; i++)
        {
            u[i + 1] = initial.applyAsDouble(comm.rank() * cells + i);
        }
    }

    /** Fills the ghost cells: the left one with the left neighbour's last cell, the right one with the right neighbour's first. */
    public void exchangeGhosts()
    {
        final int left = (comm.rank() + comm.size() - 1) % comm.size();
        final int right = (comm.rank() + 1) % comm.size();
        comm.sendrecv(u, cells, 1, Datatype.DOUBLE, right, 0, u, 0, 1, Datatype.DOUBLE, left, 0);
        comm.sendrecv(u, 1, 1, Datatype.DOUBLE, left, 1, u, cells + 1, 1, Datatype.DOUBLE, right, 1);
    }

    /** One diffusion step with coefficient {@code alpha} (stable for alpha at most 0.5). */
    public void step(final double alpha)
    {
        exchangeGhosts();
        for (int i = 1; i <= cells; i++)
        {
            next[i] = u[i] + alpha * (u[i - 1] - 2 * u[i] + u[i + 1]);
        }
        final double[] t = u;
        u = next;
        next = t;
    }

    /** The sum over every rank's cells (conserved by {@link #step} on a ring). */
    public double totalHeat()
    {
        double local = 0;
        for (int i = 1; i <= cells; i++)
        {
            local += u[i];
        }
        final double[] total = new double[1];
        comm.allreduce(new double[] {local}, 0, total, 0, 1, Datatype.DOUBLE, Op.SUM);
        return total[0];
    }

    /** Cell {@code i} of this piece, {@code -1} and {@code cells} being the ghosts. */
    public double cell(final int i)
    {
        return u[i + 1];
    }
}
