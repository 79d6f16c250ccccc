package org.jmpi;

import org.jmpi.internal.coll.CollectiveOps;
import org.jmpi.internal.coll.Reductions;
import org.jmpi.internal.comm.Attributes;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.runtime.RankRuntime;

/**
 * A communicator (MPI 4.1 ch. 3 and 7): a group of ranks and a private matching context. Two kinds, as in Open
 * MPI's Java API and mpi4py: an {@link Intracomm} (one group: WORLD, SELF, what split and dup make, the
 * topologies) and an {@link Intercomm} (two groups). This base holds what MPI defines on both: point-to-point,
 * the collectives of MPI 4.1 §6.2.2 (blocking, nonblocking {@code i...}, persistent {@code ...Init}), and
 * communicator management.
 *
 * <p><b>Buffers.</b> Every buffer argument is a Java array of a primitive type ({@code byte[]},
 * {@code short[]}, {@code char[]}, {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]},
 * {@code boolean[]}) or a {@code java.nio} buffer (heap or direct, any byte order; its position and
 * limit are neither used nor changed). {@code offset} counts the buffer's elements from index 0 (bytes
 * for a {@code ByteBuffer}); {@code count} counts items of {@code type}. A type used on an array must be
 * made of that array's element type (see docs/datatypes.md). A {@code null} buffer is allowed with count 0.
 * Anything else is an {@link MpiException} (ERR_BUFFER, ERR_TYPE...).
 *
 * <p><b>Errors</b> go through the communicator's {@link ErrorHandler}: with ERRORS_ARE_FATAL (the
 * default on world) the job aborts; with ERRORS_RETURN the call throws the {@link MpiException}. Every call on
 * a freed communicator raises ERR_COMM; every call after {@link Mpi#close()} raises ERR_OTHER ("MPI is
 * finalized").
 *
 * <p><b>Threading</b>: as the rank's {@link ThreadLevel}; with MULTIPLE any thread may call, including threads
 * that did not inherit anything from the rank's main thread (pools, the common fork-join pool).
 */
public abstract sealed class Comm extends CommCollectives permits Intracomm, Intercomm
{
    // The calls are written in package-private layers, one concern each, all public here: checks and error routing
    // (CommBase), point-to-point (CommPointToPoint), collectives (CommCollectives); this class holds the constants,
    // the communicator's identity, management, attributes and info.

    /** Wildcard source for receives and probes. */
    public static final int ANY_SOURCE = -1;

    /** Wildcard tag for receives and probes. */
    public static final int ANY_TAG = -1;

    /** The null process: operations with it complete at once and move nothing. */
    public static final int PROC_NULL = -2;

    /** Largest valid tag (MPI_TAG_UB). */
    public static final int TAG_UB = PointToPoint.TAG_UB;

    /** MPI_UNDEFINED. */
    public static final int UNDEFINED = Datatype.UNDEFINED;

    /**
     * MPI_IN_PLACE: pass it as the send buffer (the receive buffer for scatter) where MPI allows, and the
     * operation takes this rank's input from the receive buffer (see each collective). Its offset, count and
     * type arguments are then ignored. Anywhere else it is an ERR_BUFFER.
     */
    public static final Object IN_PLACE = new Object()
    {
        @Override
        public String toString()
        {
            return "IN_PLACE";
        }
    };

    /** Comparison results (MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR, MPI_UNEQUAL) of {@link #compare} and {@link Group#compare}. */
    public static final int IDENT = 0;

    /** Same members in the same order, different contexts. */
    public static final int CONGRUENT = 1;

    /** Same members, different order. */
    public static final int SIMILAR = 2;

    /** Different members. */
    public static final int UNEQUAL = 3;

    /** {@link #topology()}: a Cartesian topology ({@link CartComm}), MPI_CART. */
    public static final int CART = 1;

    /** {@link #topology()}: a graph topology ({@link GraphComm}), MPI_GRAPH. */
    public static final int GRAPH = 2;

    /** {@link #topology()}: a distributed graph topology ({@link DistGraphComm}), MPI_DIST_GRAPH. */
    public static final int DIST_GRAPH = 3;

    /** {@link Intracomm#splitType} type: ranks that share memory (MPI_COMM_TYPE_SHARED), here the ranks of one node. */
    public static final int TYPE_SHARED = 1;

    Comm(final CommState state, final CommState local, final CollectiveOps coll)
    {
        super(state, local, coll);
    }

    /** This process's rank in the communicator (in the local group of an intercommunicator). */
    public int rank()
    {
        return live("rank").rank();
    }

    /** Number of ranks in the communicator (of the local group, for an intercommunicator: MPI_Comm_size). */
    public int size()
    {
        live("size");
        return local.size();
    }

    /** The communicator's name (MPI_Comm_get_name): "WORLD", "SELF", or as set. */
    public String name()
    {
        return live("name").name();
    }

    /** Sets the name (MPI_Comm_set_name). */
    public void setName(final String name)
    {
        live("setName");
        for (final CommState part : parts())
        {
            part.name(name);
        }
    }

    /** The error handler (MPI_Comm_get_errhandler). */
    public ErrorHandler errorHandler()
    {
        return live("errorHandler").errorHandler();
    }

    /** Sets the error handler (MPI_Comm_set_errhandler). */
    public void setErrorHandler(final ErrorHandler handler)
    {
        if (handler == null)
        {
            throw live("setErrorHandler").handle(new MpiException(ErrorClass.ERR_ARG, "setErrorHandler: handler is null"));
        }
        live("setErrorHandler");
        for (final CommState part : parts())
        {
            part.errorHandler(handler);
        }
    }

    /** MPI_Comm_test_inter: whether this is an {@link Intercomm}. */
    public boolean isInter()
    {
        return this instanceof Intercomm;
    }

    /** MPI_Comm_group: the (local) group's members, in rank order. */
    public Group group()
    {
        live("group");
        return new Group(local.worldRanks(), local.worldRank(local.rank()));
    }

    /**
     * MPI_Comm_dup: same members, own matching contexts, same error handler, attributes copied by their
     * keys' copy callbacks. Collective.
     */
    public abstract Comm dup();

    /**
     * MPI_Comm_split: ranks passing the same {@code color} (&gt;= 0) form a communicator, ordered by {@code key}
     * then by rank here. A rank passing {@link #UNDEFINED} gets {@code null}. Collective.
     */
    public abstract Comm split(int color, int key);

    /**
     * MPI_Comm_compare: {@link #IDENT} (the same communicator), {@link #CONGRUENT} (same members and order),
     * {@link #SIMILAR} (same members), else {@link #UNEQUAL}.
     */
    public int compare(final Comm other)
    {
        final CommState s = live("compare");
        if (other == null)
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, "compare: communicator is null"));
        }
        if (other.state == state || (other.state.contextId() == state.contextId() &&
            java.util.Arrays.equals(other.state.worldRanks(), state.worldRanks())))
        {
            return IDENT;
        }
        final int groups = Group.compare(group(), other.group());
        return groups == IDENT ? CONGRUENT : groups;
    }

    /**
     * MPI_Comm_free: local in jmpi. Every later call on this communicator raises ERR_COMM naming it (a second
     * free too); its context ids go back to the rank's pool for later communicators. Freeing WORLD or SELF is
     * ERR_COMM.
     */
    public void free()
    {
        final CommState s = live("free");
        if (s.contextId() < RankRuntime.FIRST_FREE_CONTEXT)
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, "free: " + s.name() + " cannot be freed"));
        }
        Attributes.of(local).deleteAll(this);
        if (state == local)
        {
            // Its context id may serve a later communicator: that one starts without these hints.
            state.protocol().pathHints(state.contextId(), null, null);
        }
        boolean first = true;
        for (final CommState part : parts())
        {
            first &= part.free();
        }
        if (!first)
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, "free: communicator " + s.name() + " was already freed"));
        }
    }

    /**
     * MPI_Comm_disconnect (MPI 4.1 §11.10): collective over every member (both groups of an intercommunicator):
     * a barrier, so that the messages sent on it before have been received, then {@link #free()}. Use it to part
     * from the other side of {@link Intracomm#connect}/{@link Intracomm#accept}. WORLD and SELF cannot be
     * disconnected (ERR_COMM).
     */
    public void disconnect()
    {
        final CommState s = live("disconnect");
        if (s.contextId() < RankRuntime.FIRST_FREE_CONTEXT)
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, "disconnect: " + s.name() + " cannot be disconnected"));
        }
        run("disconnect", () -> coll.barrier());
        free();
    }

    /** Whether {@link #free()} was called on this communicator. */
    public boolean isFreed()
    {
        return state.freed();
    }

    /** MPI_Comm_set_attr: caches {@code value} under {@code key} (the old value goes to the key's delete callback). */
    public void setAttr(final Keyval key, final Object value)
    {
        call("setAttr", () -> Attributes.of(local).set(this, key, value));
    }

    /** MPI_Comm_get_attr: the cached value, or {@code null}; predefined keys ({@link Keyval#TAG_UB}...) answer on every communicator. */
    public Object getAttr(final Keyval key)
    {
        return call("getAttr", () -> Attributes.of(local).get(key));
    }

    /** MPI_Comm_delete_attr: removes the value and passes it to the key's delete callback. */
    public void deleteAttr(final Keyval key)
    {
        call("deleteAttr", () -> Attributes.of(local).delete(this, key));
    }

    /**
     * MPI_Comm_set_info: stores the hints; copied by {@link #dup()}. jmpi acts on two, on an intracommunicator's
     * point-to-point messages between ranks that reach each other's memory (docs/pvas.md): {@code jmpi.pvas.mode}
     * ({@code auto}, {@code direct}, {@code staged}: this communicator's choice instead of the job's parameter) and
     * {@code jmpi.fragment.size} (the staged fragment payload, bytes or {@code 8k}). Set the same values on every rank.
     *
     * @throws MpiException ERR_ARG for a malformed value of either (through the error handler)
     */
    public void setInfo(final Info info)
    {
        call("setInfo", () ->
        {
            // Checked first: a malformed hint changes nothing.
            applyPathHints(info);
            Attributes.of(local).info(info);
        });
    }

    /** Hands this communicator's {@code jmpi.pvas.mode} and {@code jmpi.fragment.size} hints to the protocol (intracommunicators). */
    final void applyPathHints(final Info info)
    {
        if (state == local && info != null)
        {
            state.protocol().pathHints(state.contextId(), info.get("jmpi.pvas.mode"), info.get("jmpi.fragment.size"));
        }
    }

    /** MPI_Comm_get_info: a copy of the hints in use. */
    public Info getInfo()
    {
        live("getInfo");
        return Attributes.of(local).info();
    }

    /** MPI_Topo_test: {@link #CART}, {@link #GRAPH}, {@link #DIST_GRAPH}, or {@link #UNDEFINED} for none. */
    public int topology()
    {
        live("topology");
        return UNDEFINED;
    }


    /** MPI_Reduce_local: {@code inout = in op inout} on this rank, no communication. */
    public static void reduceLocal(final Object inBuf, final int inOffset, final Object inoutBuf, final int inoutOffset, final int count,
        final Datatype type, final Op op)
    {
        Reductions.reduceLocal(inBuf, inOffset, inoutBuf, inoutOffset, count, type, op);
    }

    /** MPI_Abort: stops every rank of the job with {@code code} as exit code. Does not return. */
    public void abort(final int code)
    {
        throw state.abort(code, "MPI_Abort called on " + state.name() + " by rank " + state.rank());
    }
}
