package org.jmpi.internal.runtime;

import org.jmpi.internal.bootstrap.JvmFlags;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;

import java.util.HashMap;
import java.util.Map;

/**
 * The bootstrap of a process started without a launcher: a world of one rank (MPI's singleton init).
 *
 * A JVM started without the launcher may also lack jmpi's JVM flags: construction checks them.
 *
 * <p>Threading: the rank's thread only.
 */
final class SingletonBootstrap implements Bootstrap
{
    private final Map<String, byte[]> store = new HashMap<>();
    private final String jobId = "s" + ProcessHandle.current().pid();

    /** @throws MpiException ERR_OTHER when the JVM lacks the flags jmpi needs (no launcher passed them). */
    SingletonBootstrap()
    {
        JvmFlags.requireUnsafeExport("init (singleton: no launcher)");
    }

    @Override
    public int rank()
    {
        return 0;
    }

    @Override
    public int size()
    {
        return 1;
    }

    @Override
    public String jobId()
    {
        return jobId;
    }

    @Override
    public void put(final String key, final byte[] value)
    {
        store.put(key, value.clone());
    }

    @Override
    public byte[] get(final String key, final long timeoutNs)
    {
        final byte[] value = store.get(key);
        if (value == null)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap get: key " + key + " was never published in a singleton job");
        }
        return value.clone();
    }

    @Override
    public void fence(final long timeoutNs)
    {
    }

    @Override
    public void abort(final int exitCode, final String message)
    {
    }

    @Override
    public void close()
    {
    }
}
