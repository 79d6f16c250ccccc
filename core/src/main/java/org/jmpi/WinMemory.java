package org.jmpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jmpi.internal.rma.OneSided;
import org.jmpi.spi.ArenaMemory;

/**
 * Where {@link Win}'s allocated and shared windows get their memory: a rank's PVAS arena partition where the arena is
 * on, one block of direct memory for ranks that are threads of one JVM (docs/rma.md, "Paths" and "Shared windows").
 * Apart from {@link Win} so that it stays readable; its methods set the window's memory fields, which {@link Win#free}
 * releases.
 *
 * <p>Threading: each rank's own thread, collectively where a method says so.
 */
final class WinMemory
{
    private WinMemory()
    {
    }

    /** {@code sizeBytes} of {@code arena} (null when there is none, or no room, or nothing to allocate). */
    static ByteBuffer arenaPart(final ArenaMemory arena, final long sizeBytes)
    {
        return sizeBytes == 0 ? null : OneSided.arenaPart(arena, sizeBytes);
    }

    /**
     * Threads of one JVM: rank 0 allocates one block and exposes it in a window of its own; the others reach it through
     * peer memory and slice their parts. Null (on every rank, decided together) when a rank cannot reach it.
     */
    static Win sharedInOneBlock(final long[] sizes, final int dispUnit, final Info info, final Intracomm comm)
    {
        final long[] offsets = new long[comm.size() + 1];
        for (int r = 0; r < comm.size(); r++)
        {
            offsets[r + 1] = offsets[r] + ((sizes[r] + 63) & ~63L);
        }
        final Win block = Win.create(comm.rank() == 0 ? ByteBuffer.allocateDirect((int)Math.max(1, offsets[comm.size()])) : null, 1,
            null, comm);
        final Object whole = block.window.directMemory(0);
        if (!everyRank(comm, whole instanceof ByteBuffer))
        {
            block.free();
            return null;
        }
        final ByteBuffer[] parts = new ByteBuffer[comm.size()];
        for (int r = 0; r < comm.size(); r++)
        {
            parts[r] = ((ByteBuffer)whole).slice((int)offsets[r], (int)sizes[r]).order(ByteOrder.nativeOrder());
        }
        final Win win = Win.make("Win.allocateShared", comm, dispUnit, () -> parts[comm.rank()], info, Win.Flavor.SHARED);
        win.sharedParts = parts;
        win.sharedBlock = block;
        return win;
    }

    /**
     * JVMs of one node with the arena: each rank's part in its own partition, the window over it, every part mapped
     * through the arena's peer memory. Null (on every rank) when a rank has no arena or cannot map a part.
     */
    static Win sharedInArena(final long[] sizes, final int dispUnit, final Info info, final Intracomm comm)
    {
        final ArenaMemory arena = comm.state.services().component(OneSided.class).arena();
        if (!everyRank(comm, arena != null))
        {
            return null;
        }
        final long mine = sizes[comm.rank()];
        ByteBuffer part = null;
        MpiException noRoom = null;
        try
        {
            part = mine == 0 ? null : arena.allocate(mine, 64);
        }
        catch (final MpiException ex)
        {
            noRoom = ex;
        }
        if (!everyRank(comm, noRoom == null))
        {
            if (part != null)
            {
                arena.free(part);
            }
            throw comm.state.handle(noRoom != null ? noRoom : new MpiException(ErrorClass.ERR_NO_MEM, "Win.allocateShared: another " +
                "rank's arena partition has no room for its part (sizes " + java.util.Arrays.toString(sizes) + " bytes)"));
        }
        final ByteBuffer memory = part;
        final Win win = Win.make("Win.allocateShared", comm, dispUnit, () -> memory, info, Win.Flavor.SHARED);
        final ByteBuffer[] parts = new ByteBuffer[comm.size()];
        boolean mapped = true;
        for (int r = 0; r < comm.size(); r++)
        {
            final Object m = sizes[r] == 0 ? ByteBuffer.allocateDirect(0) : win.window.directMemory(r);
            mapped &= m instanceof ByteBuffer;
            parts[r] = m instanceof ByteBuffer b ? b.duplicate().order(ByteOrder.nativeOrder()) : null;
        }
        if (!everyRank(comm, mapped))
        {
            win.free();
            if (part != null)
            {
                arena.free(part);
            }
            return null;
        }
        win.sharedParts = parts;
        win.arenaPart = part;
        win.arena = arena;
        return win;
    }

    /** Whether {@code mine} holds on every rank of {@code comm} (collective). */
    static boolean everyRank(final Intracomm comm, final boolean mine)
    {
        final int[] all = {mine ? 1 : 0};
        comm.allreduce(Comm.IN_PLACE, 0, all, 0, 1, Datatype.INT, Op.MIN);
        return all[0] == 1;
    }

}
