package mpi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/** Hints, key/value strings (Open MPI Java API) over a jmpi {@link org.jmpi.Info}. Not thread-safe. */
public final class Info implements Freeable
{
    private org.jmpi.Info info;

    /** MPI_Info_create: an empty info. */
    public Info() throws MPIException
    {
        this(new org.jmpi.Info());
    }

    Info(final org.jmpi.Info info)
    {
        this.info = info;
    }

    /** The jmpi info of an argument: {@code null} for null or {@link MPI#INFO_NULL}. */
    static org.jmpi.Info core(final Info info)
    {
        return info == null ? null : info.info;
    }

    private org.jmpi.Info live() throws MPIException
    {
        if (info == null)
        {
            throw MPIException.of(ErrorClass.ERR_INFO, "the info is null (INFO_NULL or freed)");
        }
        return info;
    }

    /** MPI_Info_set. */
    public void set(final String key, final String value) throws MPIException
    {
        final org.jmpi.Info i = live();
        try
        {
            i.set(key, value);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Info_get: the value, or {@code null} when the key is not set. */
    public String get(final String key) throws MPIException
    {
        final org.jmpi.Info i = live();
        try
        {
            return i.get(key);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Info_delete: ERR_INFO_NOKEY when the key is not set. */
    public void delete(final String key) throws MPIException
    {
        final org.jmpi.Info i = live();
        try
        {
            i.delete(key);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Info_get_nkeys. */
    public int size() throws MPIException
    {
        return live().size();
    }

    /** MPI_Info_get_nthkey. */
    public String getKey(final int i) throws MPIException
    {
        final java.util.List<String> keys = live().keys();
        if (i < 0 || i >= keys.size())
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "getKey: index " + i + " is outside 0.." + (keys.size() - 1));
        }
        return keys.get(i);
    }

    /** MPI_Info_dup. */
    public Info dup() throws MPIException
    {
        return new Info(live().dup());
    }

    /** MPI_Info_free: this object becomes null. */
    @Override
    public void free() throws MPIException
    {
        live().free();
        info = null;
    }

    /** Whether this is INFO_NULL or was freed. */
    public boolean isNull()
    {
        return info == null;
    }

    @Override
    public String toString()
    {
        return info == null ? "INFO_NULL" : info.toString();
    }
}
