package org.jmpi;

/**
 * MPI error classes (MPI 4.1, section 9.4). {@link #code()} is the value an MPI program would see as
 * {@code MPI_ERR_*}; only {@link #SUCCESS} = 0 is fixed by the standard, the rest follow the
 * standard's table order.
 */
public enum ErrorClass
{
    SUCCESS(0),
    ERR_BUFFER(1),
    ERR_COUNT(2),
    ERR_TYPE(3),
    ERR_TAG(4),
    ERR_COMM(5),
    ERR_RANK(6),
    ERR_REQUEST(7),
    ERR_ROOT(8),
    ERR_GROUP(9),
    ERR_OP(10),
    ERR_TOPOLOGY(11),
    ERR_DIMS(12),
    ERR_ARG(13),
    ERR_UNKNOWN(14),
    ERR_TRUNCATE(15),
    ERR_OTHER(16),
    ERR_INTERN(17),
    ERR_IN_STATUS(18),
    ERR_PENDING(19),
    ERR_KEYVAL(20),
    ERR_NO_MEM(21),
    ERR_BASE(22),
    ERR_INFO_KEY(23),
    ERR_INFO_VALUE(24),
    ERR_INFO_NOKEY(25),
    ERR_SPAWN(26),
    ERR_PORT(27),
    ERR_SERVICE(28),
    ERR_NAME(29),
    ERR_WIN(30),
    ERR_SIZE(31),
    ERR_DISP(32),
    ERR_INFO(33),
    ERR_LOCKTYPE(34),
    ERR_ASSERT(35),
    ERR_RMA_CONFLICT(36),
    ERR_RMA_SYNC(37),
    ERR_RMA_RANGE(38),
    ERR_RMA_ATTACH(39),
    ERR_RMA_SHARED(40),
    ERR_RMA_FLAVOR(41),
    ERR_UNSUPPORTED_OPERATION(42),
    ERR_NOT_SAME(43),
    ERR_PROC_ABORTED(44),
    ERR_VALUE_TOO_LARGE(45),
    ERR_SESSION(46),
    ERR_ERRHANDLER(47),
    /** MPI-IO (MPI 4.1 §14.7): permission denied. */
    ERR_ACCESS(48),
    /** MPI-IO: an invalid access mode at open. */
    ERR_AMODE(49),
    /** MPI-IO: an invalid file name (a directory, too long...). */
    ERR_BAD_FILE(50),
    /** MPI-IO: a user data conversion function failed (jmpi has none). */
    ERR_CONVERSION(51),
    /** MPI-IO: a data representation registered twice (jmpi registers none). */
    ERR_DUP_DATAREP(52),
    /** MPI-IO: the file exists (MODE_CREATE | MODE_EXCL). */
    ERR_FILE_EXISTS(53),
    /** MPI-IO: the file is open (File.delete). */
    ERR_FILE_IN_USE(54),
    /** MPI-IO: an invalid file handle (a closed file). */
    ERR_FILE(55),
    /** MPI-IO: any other I/O error. */
    ERR_IO(56),
    /** MPI-IO: no space left on the device. */
    ERR_NO_SPACE(57),
    /** MPI-IO: the file does not exist. */
    ERR_NO_SUCH_FILE(58),
    /** MPI-IO: a quota was exceeded. */
    ERR_QUOTA(59),
    /** MPI-IO: a read-only file or file system. */
    ERR_READ_ONLY(60),
    /** MPI-IO: an unknown data representation. */
    ERR_UNSUPPORTED_DATAREP(61);

    private final int code;

    ErrorClass(final int code)
    {
        this.code = code;
    }

    /** The numeric error class, as {@code MPI_Error_class} would return it. */
    public int code()
    {
        return code;
    }

    /** The error class with this code, or {@link #ERR_UNKNOWN}. */
    public static ErrorClass of(final int code)
    {
        for (final ErrorClass c : values())
        {
            if (c.code == code)
            {
                return c;
            }
        }
        return ERR_UNKNOWN;
    }
}
