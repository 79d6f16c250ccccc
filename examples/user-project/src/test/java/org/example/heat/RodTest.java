package org.example.heat;

import org.jmpi.Comm;
import org.jmpi.junit.MpiTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RodTest
{
    @MpiTest(ranks = {1, 2, 4})
    void shouldFillGhostsFromTheNeighbours(final Comm comm)
    {
        final int cells = 3;
        final Rod rod = new Rod(comm, cells, i -> i);
        rod.exchangeGhosts();
        final int total = comm.size() * cells;
        final int first = comm.rank() * cells;
        assertEquals((first - 1 + total) % total, rod.cell(-1), "left ghost");
        assertEquals((first + cells) % total, rod.cell(cells), "right ghost");
    }

    @MpiTest(ranks = {1, 2, 4}, timeout = 30)
    void shouldConserveHeat(final Comm comm)
    {
        final Rod rod = new Rod(comm, 10, i -> i % 7);
        final double before = rod.totalHeat();
        for (int s = 0; s < 50; s++)
        {
            rod.step(0.5);
        }
        assertEquals(before, rod.totalHeat(), 1e-9 * before);
    }

    @Test
    void shouldRejectAnEmptyPiece()
    {
        assertThrows(IllegalArgumentException.class, () -> new Rod(null, 0, i -> 0));
    }
}
