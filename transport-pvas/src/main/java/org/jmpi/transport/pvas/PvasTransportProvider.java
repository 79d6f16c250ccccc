package org.jmpi.transport.pvas;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.NodeFile;
import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Entry point of the arena transport: ranks in different JVMs of one node share a memory-mapped arena, one
 * partition per rank. It wraps the shm transport for its frames, found through
 * {@link ServiceLoader} like every transport, so this module depends on core only; it replaces that transport
 * on the rank (the rank opens no second one). Priority 60: above shm (50), below the in-JVM transport (100).
 * Off unless {@code jmpi.pvas.partition.size} is set.
 *
 * <p>Threading: called by the rank's initialising thread (and the launcher's cleanup); stateless.
 */
public final class PvasTransportProvider implements TransportProvider
{
    public static final String NAME = "pvas";
    public static final int PRIORITY = 60;

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
        return PvasParams.ALL;
    }

    @Override
    public List<String> replaces()
    {
        return List.of(PvasParams.FRAMES);
    }

    /** Deletes the job's arena file ({@code jmpi-pvas-<jobId>-*}) in the shm directory. */
    @Override
    public List<Path> cleanup(final String jobId, final Params params)
    {
        try
        {
            return jobId == null || jobId.isEmpty() ? List.of() :
                NodeFile.deleteMatching(Arena.OWNER, Path.of(params.get(PvasParams.SHM_DIR)), Arena.FILE_PREFIX + jobId + "-");
        }
        catch (final RuntimeException ex)
        {
            System.err.println("jmpi: pvas: cleanup of job " + jobId + " failed: " + ex);
            return List.of();
        }
    }

    @Override
    public String probe(final TransportContext context)
    {
        try
        {
            final PvasConfig config = PvasConfig.from(context.params());
            if (config.partitionLength() == 0)
            {
                return "pvas: off (" + PvasParams.PARTITION_SIZE.name() + "=0)";
            }
            final TransportProvider frames = framesProvider();
            if (frames == null)
            {
                return "pvas: the shm transport (jmpi-transport-shm), which carries its frames, is not on the class path";
            }
            final String reason = frames.probe(context);
            if (reason != null)
            {
                return "pvas: " + reason;
            }
            return Files.isDirectory(config.dir()) ? null : "pvas: " + config.dir() + " is not a directory";
        }
        catch (final RuntimeException ex)
        {
            return "pvas: " + ex.getMessage();
        }
    }

    private static TransportProvider framesProvider()
    {
        for (final TransportProvider provider : ServiceLoader.load(TransportProvider.class))
        {
            if (provider.name().equals(PvasParams.FRAMES))
            {
                return provider;
            }
        }
        return null;
    }

    @Override
    public Transport open(final TransportContext context)
    {
        final PvasConfig config = PvasConfig.from(context.params());
        final TransportProvider framesProvider = framesProvider();
        if (framesProvider == null)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: the shm transport is not on the class path");
        }
        final Transport frames = framesProvider.open(context);
        try
        {
            return new PvasTransport(frames, Arena.open(context, config));
        }
        catch (final RuntimeException | Error ex)
        {
            frames.close();
            throw ex;
        }
    }
}
