package org.jmpi.launcher;

import org.jmpi.internal.runtime.ParamRegistry;
import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.Set;

/**
 * Removes what a job left in shared memory: the shared-memory transport names its files
 * {@code jmpi-<jobId>...} in /dev/shm or in the directory of its parameter {@code jmpi.shm.dir}
 * (looked up by name: the launcher does not compile against the transport). Called when a job ends,
 * however it ends (including from the launcher's shutdown hook).
 *
 * <p>Stateless; any thread.
 */
final class ShmFiles
{
    static final Path SHM_DIR = Path.of("/dev/shm");
    /** The shared-memory transport's directory parameter. */
    static final String SHM_DIR_PROP_NAME = "jmpi.shm.dir";

    private ShmFiles()
    {
    }

    /**
     * /dev/shm and, when the transport is present and its directory parameter (set by {@code --param},
     * {@code -x}, system property or environment, as the ranks will see it) names another directory,
     * that one too.
     */
    static Set<Path> directories(final Map<String, String> explicitParams, final Map<String, String> rankEnv)
    {
        final Set<Path> dirs = new LinkedHashSet<>();
        dirs.add(SHM_DIR);
        try
        {
            final Params params = new Params(explicitParams, rankEnv);
            for (final ParamSpec spec : ParamRegistry.all())
            {
                if (spec.name().equals(SHM_DIR_PROP_NAME))
                {
                    final String dir = params.get(spec);
                    if (dir != null && !dir.isBlank())
                    {
                        dirs.add(Path.of(dir));
                    }
                }
            }
        }
        catch (final RuntimeException | ServiceConfigurationError ex)
        {
            System.err.println("jmpirun: warning: cannot read " + SHM_DIR_PROP_NAME + ": " + ex.getMessage());
        }
        return dirs;
    }

    /** Deletes {@code jmpi-<jobId>*} in each of {@code dirs}; returns the files deleted. Never throws. */
    static List<Path> deleteJobFiles(final Set<Path> dirs, final String jobId)
    {
        final List<Path> deleted = new ArrayList<>();
        for (final Path dir : dirs)
        {
            deleted.addAll(deleteJobFiles(dir, jobId));
        }
        return deleted;
    }

    /** Deletes {@code dir/jmpi-<jobId>*}; returns the files deleted. Never throws. */
    static List<Path> deleteJobFiles(final Path dir, final String jobId)
    {
        final List<Path> deleted = new ArrayList<>();
        if (jobId == null || jobId.isEmpty() || !Files.isDirectory(dir))
        {
            return deleted;
        }
        final String prefix = "jmpi-" + jobId;
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
                    System.err.println("jmpirun: could not remove " + file + ": " + ex.getMessage());
                }
            }
        }
        catch (final IOException ex)
        {
            System.err.println("jmpirun: could not list " + dir + ": " + ex.getMessage());
        }
        return deleted;
    }
}
