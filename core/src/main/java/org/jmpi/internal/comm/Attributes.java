package org.jmpi.internal.comm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jmpi.Comm;
import org.jmpi.ErrorClass;
import org.jmpi.Info;
import org.jmpi.Keyval;
import org.jmpi.MpiException;
import org.jmpi.internal.pt2pt.CommState;

/**
 * Attributes and info hints cached on a communicator, kept in its {@link CommState} (a slot).
 *
 * <p>Threading: synchronised; callbacks run outside the lock, on the calling thread.
 */
public final class Attributes
{
    private static final CommState.Slot<Attributes> SLOT = CommState.slot(c -> new Attributes());

    private final LinkedHashMap<Keyval, Object> values = new LinkedHashMap<>();
    private Info info = new Info();

    private Attributes()
    {
    }

    public static Attributes of(final CommState c)
    {
        return c.get(SLOT);
    }

    /** MPI_Comm_set_attr: replaces (calling the delete callback on the old value). */
    public void set(final Comm comm, final Keyval key, final Object value)
    {
        checkKey("setAttr", key);
        if (key.isPredefined())
        {
            throw new MpiException(ErrorClass.ERR_KEYVAL, "setAttr: " + key + " is predefined and read-only");
        }
        final Object old;
        final boolean had;
        synchronized (this)
        {
            had = values.containsKey(key);
            old = values.put(key, value);
        }
        if (had)
        {
            key.deleteFunction().delete(comm, key, old);
        }
    }

    /** MPI_Comm_get_attr: the value, or null when not set. */
    public Object get(final Keyval key)
    {
        checkKey("getAttr", key);
        if (key == Keyval.TAG_UB)
        {
            return Comm.TAG_UB;
        }
        if (key == Keyval.WTIME_IS_GLOBAL)
        {
            return Boolean.FALSE;
        }
        if (key == Keyval.HOST)
        {
            return Comm.PROC_NULL;
        }
        if (key == Keyval.IO)
        {
            return Comm.ANY_SOURCE;
        }
        if (key == Keyval.APPNUM)
        {
            return 0;
        }
        synchronized (this)
        {
            return values.get(key);
        }
    }

    /** MPI_Comm_delete_attr. @throws MpiException ERR_KEYVAL when not set. */
    public void delete(final Comm comm, final Keyval key)
    {
        checkKey("deleteAttr", key);
        final Object old;
        synchronized (this)
        {
            if (!values.containsKey(key))
            {
                throw new MpiException(ErrorClass.ERR_KEYVAL, "deleteAttr: " + key + " is not set on " + comm.name());
            }
            old = values.remove(key);
        }
        key.deleteFunction().delete(comm, key, old);
    }

    /** On dup: each value through its copy callback onto {@code target}, whose attributes are {@code to}. */
    public void copyTo(final Comm from, final Comm target, final Attributes to)
    {
        final ArrayList<Map.Entry<Keyval, Object>> entries;
        final Info hints;
        synchronized (this)
        {
            entries = new ArrayList<>(values.entrySet());
            hints = info.dup();
        }
        for (final Map.Entry<Keyval, Object> e : entries)
        {
            final Object copy = e.getKey().copyFunction().copy(from, e.getKey(), e.getValue());
            if (copy != Keyval.NO_COPY)
            {
                to.set(target, e.getKey(), copy);
            }
        }
        synchronized (to)
        {
            to.info = hints;
        }
    }

    /** On free: every value through its delete callback. */
    public void deleteAll(final Comm comm)
    {
        final ArrayList<Map.Entry<Keyval, Object>> entries;
        synchronized (this)
        {
            entries = new ArrayList<>(values.entrySet());
            values.clear();
        }
        for (final Map.Entry<Keyval, Object> e : entries)
        {
            e.getKey().deleteFunction().delete(comm, e.getKey(), e.getValue());
        }
    }

    public synchronized void info(final Info hints)
    {
        info = hints == null ? new Info() : hints.dup();
    }

    public synchronized Info info()
    {
        return info.dup();
    }

    private static void checkKey(final String call, final Keyval key)
    {
        if (key == null)
        {
            throw new MpiException(ErrorClass.ERR_KEYVAL, call + ": keyval is null");
        }
    }
}
