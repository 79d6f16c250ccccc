package org.jmpi;

import java.util.Arrays;
import java.util.LinkedHashSet;

/**
 * A process group (MPI 4.1 ch. 7): an ordered set of processes, named by their world ranks. Made from a
 * communicator ({@link Comm#group()}) and combined by set operations; the order of the result follows the
 * first group, as MPI specifies.
 *
 * <p>Immutable; any thread. Groups hold no resources: {@link #free()} does nothing.
 */
public final class Group
{
    /** MPI_GROUP_EMPTY. */
    public static final Group EMPTY = new Group(new int[0], -1);

    private final int[] worldRanks;
    private final int callerWorldRank;

    /** Internal: a group of these world ranks, seen by the process with world rank {@code callerWorldRank}. */
    public Group(final int[] worldRanks, final int callerWorldRank)
    {
        this.worldRanks = worldRanks.clone();
        this.callerWorldRank = callerWorldRank;
    }

    /** MPI_Group_size. */
    public int size()
    {
        return worldRanks.length;
    }

    /** MPI_Group_rank: the caller's rank in the group, or {@link Comm#UNDEFINED} if it is not a member. */
    public int rank()
    {
        return indexOf(callerWorldRank);
    }

    /** Internal: the world rank of each member, in group order (a copy). */
    public int[] worldRanks()
    {
        return worldRanks.clone();
    }

    private int indexOf(final int worldRank)
    {
        for (int i = 0; i < worldRanks.length; i++)
        {
            if (worldRanks[i] == worldRank)
            {
                return i;
            }
        }
        return Comm.UNDEFINED;
    }

    private void checkRank(final String call, final int rank)
    {
        if (rank < 0 || rank >= worldRanks.length)
        {
            throw new MpiException(ErrorClass.ERR_RANK, call + ": rank " + rank + " is not in a group of " + worldRanks.length);
        }
    }

    /** MPI_Group_incl: the members {@code ranks}, in that order (no duplicates). */
    public Group incl(final int[] ranks)
    {
        if (ranks == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "incl: ranks is null");
        }
        final int[] out = new int[ranks.length];
        final boolean[] seen = new boolean[worldRanks.length];
        for (int i = 0; i < ranks.length; i++)
        {
            checkRank("incl", ranks[i]);
            if (seen[ranks[i]])
            {
                throw new MpiException(ErrorClass.ERR_RANK, "incl: rank " + ranks[i] + " appears twice");
            }
            seen[ranks[i]] = true;
            out[i] = worldRanks[ranks[i]];
        }
        return new Group(out, callerWorldRank);
    }

    /** MPI_Group_excl: every member but {@code ranks}, in group order. */
    public Group excl(final int[] ranks)
    {
        if (ranks == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "excl: ranks is null");
        }
        final boolean[] drop = new boolean[worldRanks.length];
        for (final int r : ranks)
        {
            checkRank("excl", r);
            if (drop[r])
            {
                throw new MpiException(ErrorClass.ERR_RANK, "excl: rank " + r + " appears twice");
            }
            drop[r] = true;
        }
        final int[] out = new int[worldRanks.length - ranks.length];
        for (int i = 0, j = 0; i < worldRanks.length; i++)
        {
            if (!drop[i])
            {
                out[j++] = worldRanks[i];
            }
        }
        return new Group(out, callerWorldRank);
    }

    /** The ranks named by triplets {first, last, stride} (MPI's range arrays). */
    private int[] expand(final String call, final int[][] ranges)
    {
        if (ranges == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": ranges is null");
        }
        final java.util.ArrayList<Integer> ranks = new java.util.ArrayList<>();
        for (final int[] t : ranges)
        {
            if (t == null || t.length != 3 || t[2] == 0)
            {
                throw new MpiException(ErrorClass.ERR_ARG, call + ": each range must be {first, last, stride} with stride != 0, got " +
                    Arrays.toString(t));
            }
            if ((t[2] > 0 && t[0] > t[1]) || (t[2] < 0 && t[0] < t[1]))
            {
                throw new MpiException(ErrorClass.ERR_ARG, call + ": empty range " + Arrays.toString(t));
            }
            for (long r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2])
            {
                ranks.add((int)r);
            }
        }
        return ranks.stream().mapToInt(Integer::intValue).toArray();
    }

    /** MPI_Group_range_incl: ranks given as {first, last, stride} triplets. */
    public Group rangeIncl(final int[][] ranges)
    {
        return incl(expand("rangeIncl", ranges));
    }

    /** MPI_Group_range_excl. */
    public Group rangeExcl(final int[][] ranges)
    {
        return excl(expand("rangeExcl", ranges));
    }

    /** MPI_Group_union: the members of {@code a}, then those of {@code b} not in {@code a}. */
    public static Group union(final Group a, final Group b)
    {
        final LinkedHashSet<Integer> all = new LinkedHashSet<>();
        Arrays.stream(a.worldRanks).forEach(all::add);
        Arrays.stream(b.worldRanks).forEach(all::add);
        return new Group(all.stream().mapToInt(Integer::intValue).toArray(), a.callerWorldRank);
    }

    /** MPI_Group_intersection: the members of {@code a} also in {@code b}, in {@code a}'s order. */
    public static Group intersection(final Group a, final Group b)
    {
        return new Group(Arrays.stream(a.worldRanks).filter(w -> b.indexOf(w) != Comm.UNDEFINED).toArray(), a.callerWorldRank);
    }

    /** MPI_Group_difference: the members of {@code a} not in {@code b}, in {@code a}'s order. */
    public static Group difference(final Group a, final Group b)
    {
        return new Group(Arrays.stream(a.worldRanks).filter(w -> b.indexOf(w) == Comm.UNDEFINED).toArray(), a.callerWorldRank);
    }

    /**
     * MPI_Group_translate_ranks: the rank in {@code b} of each of {@code ranks} of {@code a}
     * ({@link Comm#UNDEFINED} where it is not a member; {@link Comm#PROC_NULL} stays PROC_NULL).
     */
    public static int[] translateRanks(final Group a, final int[] ranks, final Group b)
    {
        final int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++)
        {
            if (ranks[i] == Comm.PROC_NULL)
            {
                out[i] = Comm.PROC_NULL;
                continue;
            }
            a.checkRank("translateRanks", ranks[i]);
            out[i] = b.indexOf(a.worldRanks[ranks[i]]);
        }
        return out;
    }

    /** MPI_Group_compare: {@link Comm#IDENT} (same members, same order), {@link Comm#SIMILAR} (same members), else {@link Comm#UNEQUAL}. */
    public static int compare(final Group a, final Group b)
    {
        if (Arrays.equals(a.worldRanks, b.worldRanks))
        {
            return Comm.IDENT;
        }
        final int[] x = a.worldRanks.clone();
        final int[] y = b.worldRanks.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        return Arrays.equals(x, y) ? Comm.SIMILAR : Comm.UNEQUAL;
    }

    /** MPI_Group_free: nothing to release. */
    public void free()
    {
    }

    @Override
    public String toString()
    {
        return "Group" + Arrays.toString(worldRanks);
    }
}
