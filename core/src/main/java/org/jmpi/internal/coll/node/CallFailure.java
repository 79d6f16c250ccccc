package org.jmpi.internal.coll.node;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The failure a collective request completes with: the first error it met, named after the call and the
 * communicator ({@code bcast on WORLD: received 40 bytes from rank 0, expected 20 ...}). Shared by the
 * point-to-point schedules ({@code CollRequest}) and the node collectives.
 *
 * <p>Stateless; any thread.
 */
public final class CallFailure
{
    private CallFailure()
    {
    }

    /** {@code ex} as the failure of {@code call} on the communicator named {@code commName}, keeping its error class. */
    public static MpiException of(final String call, final String commName, final RuntimeException ex)
    {
        if (ex instanceof MpiException me)
        {
            return new MpiException(me.errorClass(), call + " on " + commName + ": " + stripClass(me), me);
        }
        return new MpiException(ErrorClass.ERR_OTHER, call + " on " + commName + " failed: " + ex, ex);
    }

    private static String stripClass(final MpiException ex)
    {
        final String m = ex.getMessage();
        final String prefix = ex.errorClass().name() + ": ";
        return m != null && m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }
}
