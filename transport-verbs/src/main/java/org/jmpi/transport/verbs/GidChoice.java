package org.jmpi.transport.verbs;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.transport.verbs.ibv.Ibv;
import org.jmpi.transport.verbs.ibv.VerbsContext;
import org.jmpi.transport.verbs.ibv.VerbsException;

/**
 * Which entry of the port's GID table queue pairs are addressed by ({@code jmpi.verbs.gid.index}): a number,
 * or {@code auto}: on RoCE the first IPv4-mapped GID ({@code ::ffff:a.b.c.d}, the RoCE v2 entry of rxe and
 * of most NICs, routable between subnets), on InfiniBand entry 0.
 *
 * <p>Stateless; the caller's thread.
 */
final class GidChoice
{
    private GidChoice()
    {
    }

    static int choose(final VerbsContext device, final String spec)
    {
        final String s = spec == null ? "auto" : spec.trim();
        if (!s.equals("auto") && !s.isEmpty())
        {
            try
            {
                return Integer.parseInt(s);
            }
            catch (final NumberFormatException ex)
            {
                throw new MpiException(ErrorClass.ERR_ARG, VerbsParams.GID_INDEX.name() + "=" + spec + " is neither auto nor a number");
            }
        }
        if (device.portAttributes().linkLayer() != Ibv.LINK_LAYER_ETHERNET)
        {
            return 0;
        }
        for (int index = 0; index < device.portAttributes().gidTableLength(); index++)
        {
            try
            {
                if (ipv4Mapped(device.gid(index)))
                {
                    return index;
                }
            }
            catch (final VerbsException ex)
            {
                // an empty or unreadable entry: try the next
            }
        }
        return 0;
    }

    /** {@code ::ffff:a.b.c.d}. */
    static boolean ipv4Mapped(final byte[] gid)
    {
        for (int i = 0; i < 10; i++)
        {
            if (gid[i] != 0)
            {
                return false;
            }
        }
        return gid[10] == (byte)0xFF && gid[11] == (byte)0xFF;
    }
}
