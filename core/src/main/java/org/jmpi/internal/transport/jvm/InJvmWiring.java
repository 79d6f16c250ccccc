package org.jmpi.internal.transport.jvm;

import org.jmpi.spi.Transport;

/** Core-internal hook: lets the runtime tell the in-JVM transport how to wake its rank's engine. */
public final class InJvmWiring
{
    private InJvmWiring()
    {
    }

    /** If {@code transport} is the in-JVM transport, wake {@code waker} when frames arrive for this rank. */
    public static void waker(final Transport transport, final Runnable waker)
    {
        if (transport instanceof InJvmTransport t)
        {
            t.waker(waker);
        }
    }
}
