package org.jmpi;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * An attribute key for communicators (MPI 4.1 §7.7): values are cached on a communicator with
 * {@link Comm#setAttr}, copied to a duplicate by the copy callback ({@link Comm#dup}), and passed to the
 * delete callback when replaced, deleted or when the communicator is freed.
 *
 * <p>Predefined keys ({@link #TAG_UB}, {@link #WTIME_IS_GLOBAL}, {@link #HOST}, {@link #IO},
 * {@link #APPNUM}) read-only, answered on every communicator.
 *
 * <p>Immutable; any thread. Callbacks run on the thread calling dup, setAttr, deleteAttr or free.
 */
public final class Keyval
{
    /** What a copy callback returns to not copy the attribute to the new communicator. */
    public static final Object NO_COPY = new Object()
    {
        @Override
        public String toString()
        {
            return "NO_COPY";
        }
    };

    /** MPI_Comm_copy_attr_function: the value for the new communicator, or {@link #NO_COPY}. */
    @FunctionalInterface
    public interface CopyFunction
    {
        Object copy(Comm oldComm, Keyval keyval, Object value);
    }

    /** MPI_Comm_delete_attr_function. */
    @FunctionalInterface
    public interface DeleteFunction
    {
        void delete(Comm comm, Keyval keyval, Object value);
    }

    /** MPI_COMM_NULL_COPY_FN: never copies. */
    public static final CopyFunction NULL_COPY = (c, k, v) -> NO_COPY;
    /** MPI_COMM_DUP_FN: copies the value reference. */
    public static final CopyFunction DUP = (c, k, v) -> v;
    /** MPI_COMM_NULL_DELETE_FN: does nothing. */
    public static final DeleteFunction NULL_DELETE = (c, k, v) -> { };

    private static final AtomicInteger NEXT_ID = new AtomicInteger(16);

    /** MPI_TAG_UB: the largest tag, an Integer. */
    public static final Keyval TAG_UB = new Keyval(1, "TAG_UB", NULL_COPY, NULL_DELETE);
    /** MPI_WTIME_IS_GLOBAL: Boolean.FALSE (clocks are not synchronised across nodes). */
    public static final Keyval WTIME_IS_GLOBAL = new Keyval(2, "WTIME_IS_GLOBAL", NULL_COPY, NULL_DELETE);
    /** MPI_HOST: {@link Comm#PROC_NULL} (no host process). */
    public static final Keyval HOST = new Keyval(3, "HOST", NULL_COPY, NULL_DELETE);
    /** MPI_IO: {@link Comm#ANY_SOURCE} (every rank can do I/O). */
    public static final Keyval IO = new Keyval(4, "IO", NULL_COPY, NULL_DELETE);
    /** MPI_APPNUM: 0 (one application). */
    public static final Keyval APPNUM = new Keyval(5, "APPNUM", NULL_COPY, NULL_DELETE);

    private final int id;
    private final String name;
    private final CopyFunction copy;
    private final DeleteFunction delete;

    private Keyval(final int id, final String name, final CopyFunction copy, final DeleteFunction delete)
    {
        this.id = id;
        this.name = name;
        this.copy = copy;
        this.delete = delete;
    }

    /** MPI_Comm_create_keyval. Null callbacks mean {@link #NULL_COPY} / {@link #NULL_DELETE}. */
    public static Keyval create(final CopyFunction copy, final DeleteFunction delete)
    {
        final int id = NEXT_ID.getAndIncrement();
        return new Keyval(id, "keyval" + id, copy == null ? NULL_COPY : copy, delete == null ? NULL_DELETE : delete);
    }

    /** Whether this is one of the predefined, read-only keys. */
    public boolean isPredefined()
    {
        return id < 16;
    }

    /** Internal: the copy callback. */
    public CopyFunction copyFunction()
    {
        return copy;
    }

    /** Internal: the delete callback. */
    public DeleteFunction deleteFunction()
    {
        return delete;
    }

    /** MPI_Comm_free_keyval: values already cached stay until deleted. */
    public void free()
    {
        if (isPredefined())
        {
            throw new MpiException(ErrorClass.ERR_KEYVAL, "free: keyval " + name + " is predefined");
        }
    }

    @Override
    public String toString()
    {
        return name;
    }
}
