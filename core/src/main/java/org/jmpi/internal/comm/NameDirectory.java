package org.jmpi.internal.comm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The name service shared by jobs on one node ({@code jmpi.dyn.names}, the idea of Open MPI's {@code ompi-server}): a
 * directory where each published service name is a file holding its port name. Publishing links a finished temporary
 * file into place (atomic, and refused when the name exists), so a lookup never sees half a port name.
 *
 * <p>Threading: any thread; the file system orders concurrent publishers.
 */
final class NameDirectory
{
    private final Path directory;

    NameDirectory(final String directory)
    {
        this.directory = Path.of(directory);
    }

    /** A file name for any service name: letters, digits, '.', '-' and '_' as they are, other bytes as %XX. */
    private Path file(final String service)
    {
        final StringBuilder name = new StringBuilder("name-");
        for (final byte b : service.getBytes(StandardCharsets.UTF_8))
        {
            final char c = (char)(b & 0xff);
            if (c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_'))
            {
                name.append(c);
            }
            else
            {
                name.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return directory.resolve(name.toString());
    }

    void publish(final String service, final String port)
    {
        final Path target = file(service);
        Path temp = null;
        try
        {
            Files.createDirectories(directory);
            temp = Files.createTempFile(directory, ".publishing-", "");
            Files.writeString(temp, port);
            Files.createLink(target, temp);
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new MpiException(ErrorClass.ERR_SERVICE, "publishName: service '" + service + "' is published already (port '" +
                read(target) + "', in " + directory + ")");
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_SERVICE, "publishName: cannot publish '" + service + "' in " + directory + ": " + ex);
        }
        finally
        {
            deleteQuietly(temp);
        }
    }

    void unpublish(final String service, final String port)
    {
        final Path target = file(service);
        final String published = read(target);
        if (published == null)
        {
            throw new MpiException(ErrorClass.ERR_SERVICE, "unpublishName: service '" + service + "' is not published (in " + directory + ")");
        }
        if (port != null && !published.equals(port))
        {
            throw new MpiException(ErrorClass.ERR_SERVICE, "unpublishName: service '" + service + "' is published with port '" +
                published + "', not '" + port + "'");
        }
        deleteQuietly(target);
    }

    String lookup(final String service)
    {
        final String published = read(file(service));
        if (published == null)
        {
            throw new MpiException(ErrorClass.ERR_NAME, "lookupName: no port is published under service '" + service + "' (in " +
                directory + ")");
        }
        return published;
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_NAME, "lookupName: cannot read " + file + ": " + ex);
        }
    }

    private static void deleteQuietly(final Path file)
    {
        try
        {
            if (file != null)
            {
                Files.deleteIfExists(file);
            }
        }
        catch (final IOException ex)
        {
            // Nothing left to do with it.
        }
    }
}
