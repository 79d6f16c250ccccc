package org.jmpi.internal.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The MPI-IO error class of a failed file-system call (MPI 4.1 §14.7, Table 14.5). java.nio reports most failures as
 * {@link FileSystemException} subclasses; the rest (ENOSPC, EDQUOT, EROFS from a write or a truncate) only by the
 * operating system's message, which is matched as the C library words it on Linux. Stateless; any thread.
 */
public final class IoErrors
{
    private IoErrors()
    {
    }

    /** The error class for {@code ex}: ERR_NO_SUCH_FILE, ERR_FILE_EXISTS, ERR_ACCESS, ERR_READ_ONLY, ERR_NO_SPACE... */
    public static ErrorClass classOf(final IOException ex)
    {
        final String reason = reasonOf(ex);
        if (reason.contains("read-only file system"))
        {
            return ErrorClass.ERR_READ_ONLY;
        }
        if (reason.contains("no space left"))
        {
            return ErrorClass.ERR_NO_SPACE;
        }
        if (reason.contains("quota"))
        {
            return ErrorClass.ERR_QUOTA;
        }
        if (reason.contains("file name too long") || reason.contains("is a directory") || reason.contains("not a directory"))
        {
            return ErrorClass.ERR_BAD_FILE;
        }
        return switch (ex)
        {
            case NoSuchFileException e -> ErrorClass.ERR_NO_SUCH_FILE;
            case FileAlreadyExistsException e -> ErrorClass.ERR_FILE_EXISTS;
            case AccessDeniedException e -> ErrorClass.ERR_ACCESS;
            case NotDirectoryException e -> ErrorClass.ERR_BAD_FILE;
            default -> reason.contains("permission denied") ? ErrorClass.ERR_ACCESS : ErrorClass.ERR_IO;
        };
    }

    /** An MpiException of {@link #classOf}'s class naming the call, the file and the system's reason. */
    public static MpiException of(final String call, final String file, final IOException ex)
    {
        final String reason = ex instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason() :
            ex.getMessage() != null ? ex.getMessage() : ex.getClass().getSimpleName();
        return new MpiException(classOf(ex), call + ": " + file + ": " + reason + " (" + ex.getClass().getSimpleName() + ")", ex);
    }

    private static String reasonOf(final IOException ex)
    {
        final String text = ex instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason() : ex.getMessage();
        return text == null ? "" : text.toLowerCase(Locale.ROOT);
    }
}
