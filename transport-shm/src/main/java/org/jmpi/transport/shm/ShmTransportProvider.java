package org.jmpi.transport.shm;

import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Entry point of the shared-memory transport: ranks in different JVMs on one node. Priority below the
 * in-JVM transport (100), so ranks that share a JVM keep talking through it.
 *
 * <p>Threading: called by the rank's initialising thread; stateless.
 */
public final class ShmTransportProvider implements TransportProvider
{
    public static final String NAME = "shm";
    public static final int PRIORITY = 50;

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public int priority()
    {
        return PRIORITY;
    }

    @Override
    public List<ParamSpec> params()
    {
        return ShmParams.ALL;
    }

    /** Deletes the job's file(s) in the directory {@code jmpi.shm.dir} names for this job. */
    @Override
    public List<Path> cleanup(final String jobId, final Params params)
    {
        try
        {
            return ShmJobFiles.delete(Path.of(params.get(ShmParams.DIR)), jobId);
        }
        catch (final RuntimeException ex)
        {
            System.err.println("jmpi: shm: cleanup of job " + jobId + " failed: " + ex);
            return List.of();
        }
    }

    /** Binds the futex system call through JNA (about 60 ms the first time in a JVM) while the rank bootstraps. */
    @Override
    public void prepare()
    {
        Futex.unavailable();
    }

    @Override
    public String probe(final TransportContext context)
    {
        try
        {
            boolean hasPeer = false;
            for (int r = 0; r < context.size() && !hasPeer; r++)
            {
                hasPeer = ShmTransport.isPeer(context, r);
            }
            if (!hasPeer)
            {
                return "shm: no other rank on this node runs in another JVM";
            }
            final Path dir = ShmConfig.from(context.params()).dir();
            if (!Files.isDirectory(dir))
            {
                return "shm: " + ShmParams.DIR.name() + "=" + dir + " is not a directory";
            }
            if (!Files.isWritable(dir))
            {
                return "shm: " + ShmParams.DIR.name() + "=" + dir + " is not writable";
            }
            if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix"))
            {
                return "shm: the file system has no POSIX permissions, so the file cannot be made private";
            }
            return null;
        }
        catch (final RuntimeException ex)
        {
            return "shm: " + ex.getMessage();
        }
    }

    @Override
    public Transport open(final TransportContext context)
    {
        return ShmTransport.open(context);
    }
}
