package org.jmpi.internal.pt2pt;

import org.jmpi.Comm;

/**
 * An ordered intrusive list of match entries of one context: posted receives in posting order, or
 * unexpected messages in arrival order. Searching from the head gives MPI's non-overtaking order.
 *
 * <p>Threading: engine thread only.
 */
final class MatchList
{
    private MatchEntry head;
    private MatchEntry tail;
    private int size;

    void add(final MatchEntry e)
    {
        e.list = this;
        e.next = null;
        e.prev = tail;
        if (tail == null)
        {
            head = e;
        }
        else
        {
            tail.next = e;
        }
        tail = e;
        size++;
    }

    void remove(final MatchEntry e)
    {
        if (e.prev == null)
        {
            head = e.next;
        }
        else
        {
            e.prev.next = e.next;
        }
        if (e.next == null)
        {
            tail = e.prev;
        }
        else
        {
            e.next.prev = e.prev;
        }
        e.prev = null;
        e.next = null;
        e.list = null;
        size--;
    }

    MatchEntry first()
    {
        return head;
    }

    int size()
    {
        return size;
    }

    /** The first posted receive that accepts a message from {@code source} with {@code tag}. */
    MatchEntry firstAccepting(final int source, final int tag)
    {
        for (MatchEntry e = head; e != null; e = e.next)
        {
            if ((e.source == source || e.source == Comm.ANY_SOURCE) && (e.tag == tag || e.tag == Comm.ANY_TAG))
            {
                return e;
            }
        }
        return null;
    }

    /** The first unexpected message a receive for {@code source}/{@code tag} (wildcards allowed) takes. */
    MatchEntry firstMatching(final int source, final int tag)
    {
        for (MatchEntry e = head; e != null; e = e.next)
        {
            if ((source == Comm.ANY_SOURCE || e.source == source) && (tag == Comm.ANY_TAG || e.tag == tag))
            {
                return e;
            }
        }
        return null;
    }
}
