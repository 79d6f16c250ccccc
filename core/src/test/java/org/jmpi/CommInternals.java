package org.jmpi;

import org.jmpi.internal.pt2pt.CommState;

/** Tests' view of a communicator's internals (package access, so nothing of it is public API). */
public final class CommInternals
{
    private CommInternals()
    {
    }

    /** The communicator's point-to-point state (its owner object). */
    public static CommState state(final Comm comm)
    {
        return comm.state;
    }

    /** The context ids of an intercommunicator's parts: point-to-point, bridge, local group, union. */
    public static int[] contextIds(final Intercomm inter)
    {
        return inter.contextIds();
    }
}
