package org.jmpi.internal.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NameDirectoryTest
{
    @Test
    void shouldShareNamesBetweenDirectoriesOfTwoJobs(@TempDir final Path dir) throws Exception
    {
        final NameDirectory one = new NameDirectory(dir.toString());
        final NameDirectory other = new NameDirectory(dir.toString());
        one.publish("svc/with spaces é", "jmpi-port:a:0:0:127.0.0.1/1:ff");
        assertEquals("jmpi-port:a:0:0:127.0.0.1/1:ff", other.lookup("svc/with spaces é"));
        assertEquals(ErrorClass.ERR_SERVICE, assertThrows(MpiException.class, () -> other.publish("svc/with spaces é", "x")).errorClass());
        assertEquals(ErrorClass.ERR_SERVICE, assertThrows(MpiException.class, () -> other.unpublish("svc/with spaces é", "x")).errorClass());
        other.unpublish("svc/with spaces é", "jmpi-port:a:0:0:127.0.0.1/1:ff");
        assertEquals(ErrorClass.ERR_NAME, assertThrows(MpiException.class, () -> one.lookup("svc/with spaces é")).errorClass());
        assertEquals(ErrorClass.ERR_SERVICE, assertThrows(MpiException.class, () -> one.unpublish("svc/with spaces é", null)).errorClass());
        try (var left = Files.list(dir))
        {
            assertEquals(0, left.count(), "no temporary or published file is left");
        }
    }
}
