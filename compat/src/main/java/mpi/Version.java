package mpi;

/** The MPI standard version (MPI_Get_version), as {@link MPI#getVersion()} returns it. */
public final class Version
{
    private final int version;
    private final int subversion;

    /** A version {@code version.subversion}. */
    public Version(final int version, final int subversion)
    {
        this.version = version;
        this.subversion = subversion;
    }

    /** The major version. */
    public int getVersion()
    {
        return version;
    }

    /** The minor version. */
    public int getSubVersion()
    {
        return subversion;
    }

    @Override
    public String toString()
    {
        return version + "." + subversion;
    }
}
