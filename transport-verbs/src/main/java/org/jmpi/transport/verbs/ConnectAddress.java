package org.jmpi.transport.verbs;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;

/**
 * Where a rank's connection listener ({@link Connector}) listens: the IPv4 address its GID carries (RoCE: the
 * address of the network device the RDMA device sits on, which peers reach as they reach the GID), else the first
 * IPv4 address of an up, non-loopback interface (IPoIB on InfiniBand), else loopback (one node).
 *
 * <p>Stateless; any thread.
 */
final class ConnectAddress
{
    private ConnectAddress()
    {
    }

    static InetAddress choose(final byte[] gid)
    {
        try
        {
            if (GidChoice.ipv4Mapped(gid))
            {
                return InetAddress.getByAddress(new byte[] {gid[12], gid[13], gid[14], gid[15]});
            }
            for (final NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces()))
            {
                if (!nif.isUp() || nif.isLoopback())
                {
                    continue;
                }
                for (final InetAddress a : Collections.list(nif.getInetAddresses()))
                {
                    if (a instanceof Inet4Address)
                    {
                        return a;
                    }
                }
            }
            return InetAddress.getLoopbackAddress();
        }
        catch (final SocketException | UnknownHostException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: cannot choose a connection address: " + ex.getMessage(), ex);
        }
    }
}
