package org.jmpi.internal.comm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Group;
import org.jmpi.MpiException;
import org.jmpi.internal.coll.CollContext;
import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.rank.RankServices;

/**
 * Making communicators: every new one gets a context-id pair (point-to-point, collective) that no member
 * uses for anything else, agreed over the parent by a {@link ContextIdAgreement} (safe while other threads make
 * communicators from other parents) and given back to the rank's pool when the communicator is freed
 * ({@link CommState#releaseContextIds()}). Disjoint communicators made by one split share a pair: no process
 * belongs to two of them.
 *
 * <p>Threading: collective over the parent; MPI requires the caller to order such calls on one communicator.
 */
public final class Communicators
{
    private Communicators()
    {
    }

    /** MPI_Comm_dup: same members and order, new contexts; the error handler is inherited. */
    public static CommState dup(final CommState c)
    {
        final int context = ContextIdAgreement.agree(c);
        return c.deriveOwning(context, c.rank(), c.worldRanks(), c.name() + ".dup");
    }

    /** Gives back an agreed pair that this rank does not use (not a member of the new communicator). */
    private static CommState unused(final CommState c, final int context)
    {
        c.contextIds().free(c.contextIds().slot(context));
        return null;
    }

    /**
     * MPI_Comm_split:
     * <ol>
     * <li>Allgather {color, key} over the parent.</li>
     * <li>Agree a context-id pair over the parent ({@link ContextIdAgreement}); every new communicator of the
     * split takes it (they are disjoint). A rank of {@link Comm#UNDEFINED} colour gives it back.</li>
     * <li>The members of this rank's colour, ordered by (key, parent rank), form its new communicator;
     * {@link Comm#UNDEFINED} colour yields null.</li>
     * </ol>
     */
    public static CommState split(final CommState c, final int color, final int key)
    {
        if (color < 0 && color != Comm.UNDEFINED)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "split: colour " + color + " must be >= 0 or UNDEFINED");
        }
        final int size = c.size();
        final int[] mine = {color, key};
        final int[] all = new int[2 * size];
        Collectives.allgather(c, mine, 0, 2, Datatype.INT, all, 0, 2, Datatype.INT).start().await();
        final int context = ContextIdAgreement.agree(c);
        if (color == Comm.UNDEFINED)
        {
            return unused(c, context);
        }
        final List<Integer> members = new ArrayList<>();
        for (int r = 0; r < size; r++)
        {
            if (all[2 * r] == color)
            {
                members.add(r);
            }
        }
        members.sort(Comparator.<Integer>comparingInt(r -> all[2 * r + 1]).thenComparingInt(r -> r));
        final int[] worldRanks = new int[members.size()];
        int newRank = -1;
        for (int i = 0; i < worldRanks.length; i++)
        {
            worldRanks[i] = c.worldRank(members.get(i));
            if (members.get(i) == c.rank())
            {
                newRank = i;
            }
        }
        return c.deriveOwning(context, newRank, worldRanks, c.name() + ".split(" + color + ")");
    }

    /**
     * MPI_Comm_split_type(SHARED): the ranks of one node, by the node identity every rank published at init
     * ({@code jmpi.node} from the launcher, else the host name). Each rank finds the colour alone (the lowest
     * rank of {@code c} on its node), so the split needs no exchange beyond its own.
     */
    public static CommState splitShared(final CommState c, final int key)
    {
        final RankServices services = c.services();
        final String mine = services.nodeOf(c.worldRank(c.rank()));
        int color = 0;
        while (!services.nodeOf(c.worldRank(color)).equals(mine))
        {
            color++;
        }
        return split(c, color, key);
    }

    /** The rank of each group member in {@code c}; ERR_GROUP if one is not a member of c. */
    private static int[] checkSubset(final String call, final CommState c, final Group group)
    {
        if (group == null)
        {
            throw new MpiException(ErrorClass.ERR_GROUP, call + ": group is null");
        }
        final int[] world = group.worldRanks();
        final int[] parent = c.worldRanks();
        final int[] ranks = new int[world.length];
        for (int i = 0; i < world.length; i++)
        {
            ranks[i] = -1;
            for (int r = 0; r < parent.length; r++)
            {
                if (parent[r] == world[i])
                {
                    ranks[i] = r;
                }
            }
            if (ranks[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_GROUP, call + ": group member " + i + " (world rank " + world[i] +
                    ") is not in communicator " + c.name());
            }
        }
        return ranks;
    }

    /** MPI_Comm_create: collective over the parent; members of {@code group} get the new communicator, the others null. */
    public static CommState create(final CommState c, final Group group)
    {
        checkSubset("create", c, group);
        final int context = ContextIdAgreement.agree(c);
        final int newRank = indexOf(group.worldRanks(), c.worldRank(c.rank()));
        if (newRank < 0)
        {
            return unused(c, context);
        }
        return c.deriveOwning(context, newRank, group.worldRanks(), c.name() + ".create");
    }

    /**
     * MPI_Comm_create_group: collective over the group's members only.
     * <ol>
     * <li>A temporary communicator over the members matches on the parent's collective context with a tag
     * reserved for this call (derived from {@code tag}), so it meets neither the parent's collectives nor other
     * create_group calls with other tags.</li>
     * <li>The context id is agreed over it as usual ({@link ContextIdAgreement}, all rounds under that tag).</li>
     * </ol>
     */
    public static CommState createGroup(final CommState c, final Group group, final int tag)
    {
        checkSubset("createGroup", c, group);
        if (tag < 0)
        {
            throw new MpiException(ErrorClass.ERR_TAG, "createGroup: invalid tag " + tag);
        }
        final int newRank = indexOf(group.worldRanks(), c.worldRank(c.rank()));
        if (newRank < 0)
        {
            throw new MpiException(ErrorClass.ERR_GROUP, "createGroup: the caller is not a member of the group");
        }
        final CommState temporary = c.derive(c.collContextId(), c.collContextId(), newRank, group.worldRanks(), "createGroup");
        CollContext.bindSpecial(temporary, tag);
        final int context = ContextIdAgreement.agree(temporary);
        return c.deriveOwning(context, newRank, group.worldRanks(), c.name() + ".createGroup");
    }

    private static int indexOf(final int[] worldRanks, final int worldRank)
    {
        for (int i = 0; i < worldRanks.length; i++)
        {
            if (worldRanks[i] == worldRank)
            {
                return i;
            }
        }
        return -1;
    }
}
