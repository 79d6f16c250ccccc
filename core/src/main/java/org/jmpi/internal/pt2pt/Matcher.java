package org.jmpi.internal.pt2pt;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;

import java.util.ArrayList;

/**
 * Matching, the receive side's first role: posted receives and unexpected messages per context, in
 * MPI's non-overtaking order, and the probes waiting for a message.
 *
 * <p>Threading: engine thread only.
 */
final class Matcher
{
    private final Int2ObjectHashMap<MatchList> posted = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<MatchList> unexpected = new Int2ObjectHashMap<>();
    private final ArrayList<ProbeRequestImpl> probes = new ArrayList<>();
    /** Contexts this rank freed and has not opened again: their frames are dropped, never matched. */
    private final IntHashSet closed = new IntHashSet();
    /** The last context whose posted and unexpected lists were looked up, and those lists (never removed but by close). */
    private int postedContext = NO_CONTEXT;
    private MatchList postedCached;
    private int unexpectedContext = NO_CONTEXT;
    private MatchList unexpectedCached;
    private static final int NO_CONTEXT = Integer.MIN_VALUE;

    /** A context is in use again (a new communicator took the id). */
    void open(final int contextId)
    {
        closed.remove(contextId);
    }

    /**
     * A context's communicator was freed here: from now on its frames are dropped. Returns the unexpected
     * messages it still held (the caller returns their eager credits); posted receives stay as they are.
     */
    ArrayList<Unexpected> close(final int contextId)
    {
        closed.add(contextId);
        unexpectedContext = NO_CONTEXT;
        unexpectedCached = null;
        final ArrayList<Unexpected> dropped = new ArrayList<>();
        final MatchList list = unexpected.remove(contextId);
        if (list != null)
        {
            Unexpected u;
            while ((u = (Unexpected)list.firstMatching(org.jmpi.Comm.ANY_SOURCE, org.jmpi.Comm.ANY_TAG)) != null)
            {
                list.remove(u);
                dropped.add(u);
            }
        }
        return dropped;
    }

    /** Whether frames of {@code contextId} are to be dropped (its communicator was freed here). */
    boolean isClosed(final int contextId)
    {
        return !closed.isEmpty() && closed.contains(contextId);
    }

    /** Takes the first posted receive that accepts an arriving envelope; null when none does. */
    RecvRequestImpl takePosted(final int contextId, final int source, final int tag)
    {
        final MatchList list = postedList(contextId);
        final MatchEntry e = list == null ? null : list.firstAccepting(source, tag);
        if (e == null)
        {
            return null;
        }
        list.remove(e);
        return ((RecvRequestImpl.Posted)e).request;
    }

    /** Queues a message no receive was posted for, and completes the probes it satisfies. */
    void addUnexpected(final Unexpected u)
    {
        listOf(unexpected, u.contextId).add(u);
        if (!probes.isEmpty())
        {
            wakeProbes(u);
        }
    }

    /** Takes the first unexpected message a new receive matches, or posts the receive; returns the message or null. */
    Unexpected takeUnexpectedOrPost(final RecvRequestImpl r)
    {
        final Unexpected u = findUnexpected(r.entry.contextId, r.entry.source, r.entry.tag);
        if (u != null)
        {
            u.list.remove(u);
            return u;
        }
        MatchList list = postedList(r.entry.contextId);
        if (list == null)
        {
            list = listOf(posted, r.entry.contextId);
        }
        list.add(r.entry);
        return null;
    }

    /** The first unexpected message matching, left in place; null when none. */
    Unexpected findUnexpected(final int contextId, final int source, final int tag)
    {
        final MatchList list;
        if (contextId == unexpectedContext)
        {
            list = unexpectedCached;
        }
        else
        {
            list = unexpected.get(contextId);
            if (list != null)
            {
                unexpectedContext = contextId;
                unexpectedCached = list;
            }
        }
        return list == null || list.size() == 0 ? null : (Unexpected)list.firstMatching(source, tag);
    }

    /**
     * The posted list of {@code contextId}, or null: the last one looked up is kept (a loop of receives on one
     * communicator looks up its context once, not twice per message in the hash map; issue 12, message rate).
     */
    private MatchList postedList(final int contextId)
    {
        if (contextId == postedContext)
        {
            return postedCached;
        }
        final MatchList list = posted.get(contextId);
        if (list != null)
        {
            postedContext = contextId;
            postedCached = list;
        }
        return list;
    }

    void removeUnexpected(final Unexpected u)
    {
        u.list.remove(u);
    }

    /** Completes the probe now if a message matches, else keeps it until one arrives. */
    void postProbe(final ProbeRequestImpl p)
    {
        final Unexpected u = findUnexpected(p.contextId, p.source, p.tag);
        if (u != null)
        {
            if (p.remove)
            {
                u.list.remove(u);
            }
            p.completeWith(u);
        }
        else
        {
            probes.add(p);
        }
    }

    /** Withdraws a posted receive not matched yet; false when it already matched. */
    boolean cancel(final RecvRequestImpl r)
    {
        if (r.entry.list != null && !r.isDone())
        {
            r.entry.list.remove(r.entry);
            return true;
        }
        return false;
    }

    private void wakeProbes(final Unexpected u)
    {
        for (int i = 0; i < probes.size(); i++)
        {
            final ProbeRequestImpl p = probes.get(i);
            if (p.accepts(u))
            {
                probes.remove(i--);
                p.completeWith(u);
                if (p.remove)
                {
                    u.list.remove(u);
                    return;
                }
            }
        }
    }

    /** Removes and returns the posted receives that {@code doomed} accepts, in posting order per context. */
    ArrayList<RecvRequestImpl> takePosted(final java.util.function.Predicate<RecvRequestImpl> doomed)
    {
        final ArrayList<RecvRequestImpl> taken = new ArrayList<>();
        for (final MatchList list : posted.values())
        {
            for (MatchEntry e = list.first(); e != null; )
            {
                final MatchEntry next = e.next;
                final RecvRequestImpl r = ((RecvRequestImpl.Posted)e).request;
                if (doomed.test(r))
                {
                    list.remove(e);
                    taken.add(r);
                }
                e = next;
            }
        }
        return taken;
    }

    /** Removes and returns the waiting probes that {@code doomed} accepts. */
    ArrayList<ProbeRequestImpl> takeProbes(final java.util.function.Predicate<ProbeRequestImpl> doomed)
    {
        final ArrayList<ProbeRequestImpl> taken = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++)
        {
            if (doomed.test(probes.get(i)))
            {
                taken.add(probes.remove(i--));
            }
        }
        return taken;
    }

    /** Withdraws a probe just posted (it waits in the list). */
    void removeProbe(final ProbeRequestImpl p)
    {
        probes.remove(p);
    }

    private static MatchList listOf(final Int2ObjectHashMap<MatchList> lists, final int contextId)
    {
        MatchList list = lists.get(contextId);
        if (list == null)
        {
            list = new MatchList();
            lists.put(contextId, list);
        }
        return list;
    }
}
