package org.jmpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * An info object (MPI 4.1 §10): ordered string key/value hints. Keys are at most {@link #MAX_KEY_LENGTH}
 * characters, values at most {@link #MAX_VALUE_LENGTH}. jmpi stores the hints given to communicators
 * ({@link Comm#setInfo}) and returns them; it acts on {@code jmpi.pvas.mode} and {@code jmpi.fragment.size}
 * (docs/pvas.md).
 *
 * <p>Threading: not thread-safe; an info object belongs to one thread at a time (as in MPI).
 */
public final class Info
{
    /** MPI_MAX_INFO_KEY. */
    public static final int MAX_KEY_LENGTH = 255;
    /** MPI_MAX_INFO_VAL. */
    public static final int MAX_VALUE_LENGTH = 1024;

    private final LinkedHashMap<String, String> entries = new LinkedHashMap<>();

    /** MPI_Info_create: an empty info object. */
    public Info()
    {
    }

    private static void checkKey(final String key)
    {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH)
        {
            throw new MpiException(ErrorClass.ERR_INFO_KEY, "info key must have 1.." + MAX_KEY_LENGTH + " characters: " + key);
        }
    }

    /** MPI_Info_set: adds or replaces {@code key}. */
    public Info set(final String key, final String value)
    {
        checkKey(key);
        if (value == null || value.length() > MAX_VALUE_LENGTH)
        {
            throw new MpiException(ErrorClass.ERR_INFO_VALUE, "info value for " + key + " must be non-null, at most " + MAX_VALUE_LENGTH +
                " characters");
        }
        entries.put(key, value);
        return this;
    }

    /** MPI_Info_get_string: the value of {@code key}, or {@code null} if it is not set. */
    public String get(final String key)
    {
        checkKey(key);
        return entries.get(key);
    }

    /** MPI_Info_delete. @throws MpiException ERR_INFO_NOKEY when {@code key} is not set. */
    public void delete(final String key)
    {
        checkKey(key);
        if (entries.remove(key) == null)
        {
            throw new MpiException(ErrorClass.ERR_INFO_NOKEY, "info delete: key " + key + " is not set");
        }
    }

    /** MPI_Info_get_nkeys. */
    public int size()
    {
        return entries.size();
    }

    /** MPI_Info_get_nthkey: the keys in the order they were first set. */
    public List<String> keys()
    {
        return new ArrayList<>(entries.keySet());
    }

    /** MPI_Info_dup. */
    public Info dup()
    {
        final Info copy = new Info();
        copy.entries.putAll(entries);
        return copy;
    }

    /** MPI_Info_free: nothing to release. */
    public void free()
    {
    }

    @Override
    public String toString()
    {
        return "Info" + entries;
    }
}
