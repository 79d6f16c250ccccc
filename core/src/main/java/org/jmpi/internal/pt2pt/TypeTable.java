package org.jmpi.internal.pt2pt;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2IntHashMap;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The datatypes one pair of ranks has described to each other, in each direction, so a type used again
 * travels as a 4-byte id instead of its wire form. Ids start at 1; a sender whose table is full sends the
 * wire form with id 0 every time (the receiver then keeps nothing).
 *
 * <p>Threading: engine thread only.
 */
final class TypeTable
{
    /** Types remembered per direction; beyond that, types travel whole each time. */
    static final int CAPACITY = 4096;

    private final Object2IntHashMap<Datatype> sent = new Object2IntHashMap<>(0);
    private final Int2ObjectHashMap<Datatype> received = new Int2ObjectHashMap<>();
    private final int peer;

    TypeTable(final int peer)
    {
        this.peer = peer;
    }

    /** The id the peer knows {@code type} by, or 0 when it does not know it. */
    int sentId(final Datatype type)
    {
        return sent.getValue(type);
    }

    /** Gives {@code type} the next id (0 when the table is full); its wire form goes with this message. */
    int assignSentId(final Datatype type)
    {
        if (sent.size() >= CAPACITY)
        {
            return 0;
        }
        final int id = sent.size() + 1;
        sent.put(type, id);
        return id;
    }

    /** Remembers a type the peer described (id 0: not kept). */
    void received(final int id, final Datatype type)
    {
        if (id != 0)
        {
            received.put(id, type);
        }
    }

    Datatype receivedType(final int id)
    {
        final Datatype type = received.get(id);
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "rank " + peer + " names type id " + id + " it never described");
        }
        return type;
    }
}
