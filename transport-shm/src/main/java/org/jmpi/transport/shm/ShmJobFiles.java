package org.jmpi.transport.shm;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes a job's shared-memory files ({@link ShmSegment#fileName}: {@code jmpi-<jobId>-<node hash>}) from
 * the transport's directory, for the launcher's cleanup however the job ended.
 *
 * <p>Stateless; any thread.
 */
final class ShmJobFiles
{
    private ShmJobFiles()
    {
    }

    /** Deletes {@code dir/jmpi-<jobId>-*}; returns the files deleted. Never throws. */
    static List<Path> delete(final Path dir, final String jobId)
    {
        final List<Path> deleted = new ArrayList<>();
        if (jobId == null || jobId.isEmpty() || !Files.isDirectory(dir))
        {
            return deleted;
        }
        final String prefix = "jmpi-" + jobId + "-";
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, entry -> entry.getFileName().toString().startsWith(prefix)))
        {
            for (final Path file : files)
            {
                try
                {
                    if (Files.deleteIfExists(file))
                    {
                        deleted.add(file);
                    }
                }
                catch (final IOException ex)
                {
                    System.err.println("jmpi: shm: could not remove " + file + ": " + ex.getMessage());
                }
            }
        }
        catch (final IOException ex)
        {
            System.err.println("jmpi: shm: could not list " + dir + ": " + ex.getMessage());
        }
        return deleted;
    }
}
