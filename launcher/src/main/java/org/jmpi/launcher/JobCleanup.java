package org.jmpi.launcher;

import org.jmpi.spi.Params;
import org.jmpi.spi.TransportProvider;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Removes what a job left on this node: asks every transport provider on the launcher's class path to
 * clean up after the job ({@link TransportProvider#cleanup}), with the parameters the ranks saw. The
 * launcher knows no transport's file names. Called when a job ends, however it ends (including from
 * the launcher's shutdown hook).
 *
 * <p>Stateless; any thread.
 */
final class JobCleanup
{
    private JobCleanup()
    {
    }

    /**
     * {@code JobCleanup JOB_ID}: cleans up after the job on this host, with the parameters of this JVM's
     * system properties and environment; jmpirun runs it through the launch agent on remote hosts.
     */
    public static void main(final String[] args)
    {
        if (args.length != 1)
        {
            System.err.println("usage: JobCleanup JOB_ID");
            System.exit(2);
        }
        run(Map.of(), System.getenv(), args[0]);
    }

    /**
     * Cleans up after job {@code jobId}; returns what was removed. Never throws.
     *
     * @param explicitParams the job's {@code --param} values.
     * @param rankEnv        the environment the ranks were given (parameters may come from it).
     */
    static List<Path> run(final Map<String, String> explicitParams, final Map<String, String> rankEnv, final String jobId)
    {
        final List<Path> removed = new ArrayList<>();
        try
        {
            final Params params = new Params(explicitParams, rankEnv);
            for (final TransportProvider provider : ServiceLoader.load(TransportProvider.class))
            {
                try
                {
                    removed.addAll(provider.cleanup(jobId, params));
                }
                catch (final RuntimeException ex)
                {
                    System.err.println("jmpirun: warning: cleanup by transport " + provider.name() + " failed: " + ex);
                }
            }
        }
        catch (final RuntimeException | ServiceConfigurationError ex)
        {
            System.err.println("jmpirun: warning: cannot load the transports to clean up job " + jobId + ": " + ex);
        }
        return removed;
    }
}
