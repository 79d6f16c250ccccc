package org.jmpi.internal.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

import org.jmpi.ErrorClass;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IoErrorsTest
{
    @Test
    void shouldClassifyWhatTheFileSystemReports()
    {
        assertEquals(ErrorClass.ERR_NO_SUCH_FILE, IoErrors.classOf(new NoSuchFileException("/x")));
        assertEquals(ErrorClass.ERR_FILE_EXISTS, IoErrors.classOf(new FileAlreadyExistsException("/x")));
        assertEquals(ErrorClass.ERR_ACCESS, IoErrors.classOf(new AccessDeniedException("/x")));
        assertEquals(ErrorClass.ERR_READ_ONLY, IoErrors.classOf(new FileSystemException("/x", null, "Read-only file system")));
        assertEquals(ErrorClass.ERR_NO_SPACE, IoErrors.classOf(new IOException("No space left on device")));
        assertEquals(ErrorClass.ERR_QUOTA, IoErrors.classOf(new IOException("Disk quota exceeded")));
        assertEquals(ErrorClass.ERR_BAD_FILE, IoErrors.classOf(new FileSystemException("/x", null, "File name too long")));
        assertEquals(ErrorClass.ERR_IO, IoErrors.classOf(new IOException("Input/output error")));
        final String message = IoErrors.of("File.writeAt", "/data/f", new IOException("No space left on device")).getMessage();
        assertTrue(message.contains("File.writeAt") && message.contains("/data/f") && message.contains("No space left"), message);
    }
}
