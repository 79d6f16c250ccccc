package org.jmpi.transport.shm;

import org.jmpi.spi.NodeFile;

import java.nio.file.Path;
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
        if (jobId == null || jobId.isEmpty())
        {
            return List.of();
        }
        return NodeFile.deleteMatching("shm", dir, "jmpi-" + jobId + "-");
    }
}
