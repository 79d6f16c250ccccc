package mpi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/** A group of processes (Open MPI Java API) over a jmpi {@link org.jmpi.Group}. Immutable except for {@link #free()}. */
public final class Group implements Freeable
{
    private volatile org.jmpi.Group group;

    Group(final org.jmpi.Group group)
    {
        this.group = group;
    }

    org.jmpi.Group core() throws MPIException
    {
        final org.jmpi.Group g = group;
        if (g == null)
        {
            throw MPIException.of(ErrorClass.ERR_GROUP, "the group was freed");
        }
        return g;
    }

    private static org.jmpi.Group core(final Group g) throws MPIException
    {
        if (g == null)
        {
            throw MPIException.of(ErrorClass.ERR_GROUP, "group is null");
        }
        return g.core();
    }

    /** MPI_Group_size. */
    public int getSize() throws MPIException
    {
        return core().size();
    }

    /** MPI_Group_rank: the caller's rank in the group, or {@link MPI#UNDEFINED}. */
    public int getRank() throws MPIException
    {
        return core().rank();
    }

    /** MPI_Group_free: this object becomes null (GROUP_EMPTY is not freed). */
    @Override
    public void free() throws MPIException
    {
        if (this != MPI.GROUP_EMPTY)
        {
            core();
            group = null;
        }
    }

    /** Whether this group was freed. */
    public boolean isNull()
    {
        return group == null;
    }

    /** MPI_Group_translate_ranks: the ranks in {@code group2} of {@code ranks1} of {@code group1} ({@link MPI#UNDEFINED} when absent). */
    public static int[] translateRanks(final Group group1, final int[] ranks1, final Group group2) throws MPIException
    {
        final org.jmpi.Group a = core(group1);
        final org.jmpi.Group b = core(group2);
        try
        {
            return org.jmpi.Group.translateRanks(a, ranks1, b);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Group_compare: {@link MPI#IDENT}, {@link MPI#SIMILAR} or {@link MPI#UNEQUAL}. */
    public static int compare(final Group group1, final Group group2) throws MPIException
    {
        return org.jmpi.Group.compare(core(group1), core(group2));
    }

    /** MPI_Group_union. */
    public static Group union(final Group group1, final Group group2) throws MPIException
    {
        return new Group(org.jmpi.Group.union(core(group1), core(group2)));
    }

    /** MPI_Group_intersection. */
    public static Group intersection(final Group group1, final Group group2) throws MPIException
    {
        return new Group(org.jmpi.Group.intersection(core(group1), core(group2)));
    }

    /** MPI_Group_difference. */
    public static Group difference(final Group group1, final Group group2) throws MPIException
    {
        return new Group(org.jmpi.Group.difference(core(group1), core(group2)));
    }

    /** MPI_Group_incl. */
    public Group incl(final int[] ranks) throws MPIException
    {
        final org.jmpi.Group g = core();
        try
        {
            return new Group(g.incl(ranks));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Group_excl. */
    public Group excl(final int[] ranks) throws MPIException
    {
        final org.jmpi.Group g = core();
        try
        {
            return new Group(g.excl(ranks));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Group_range_incl: triplets {first, last, stride}. */
    public Group rangeIncl(final int[][] ranges) throws MPIException
    {
        final org.jmpi.Group g = core();
        try
        {
            return new Group(g.rangeIncl(ranges));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Group_range_excl: triplets {first, last, stride}. */
    public Group rangeExcl(final int[][] ranges) throws MPIException
    {
        final org.jmpi.Group g = core();
        try
        {
            return new Group(g.rangeExcl(ranges));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    @Override
    public String toString()
    {
        final org.jmpi.Group g = group;
        return g == null ? "GROUP_NULL" : g.toString();
    }
}
