package mpi;

/**
 * A file view (Open MPI Java API): displacement, elementary type, filetype and data representation, as given to
 * {@link File#setView}. Immutable.
 */
public final class FileView
{
    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;

    /** A view with these parts. */
    public FileView(final long disp, final Datatype etype, final Datatype filetype, final String datarep)
    {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
    }

    /** The displacement in bytes. */
    public long getDisp()
    {
        return disp;
    }

    /** The elementary datatype. */
    public Datatype getEType()
    {
        return etype;
    }

    /** The filetype. */
    public Datatype getFileType()
    {
        return filetype;
    }

    /** The data representation ("native", "internal" or "external32"). */
    public String getDataRep()
    {
        return datarep;
    }
}
