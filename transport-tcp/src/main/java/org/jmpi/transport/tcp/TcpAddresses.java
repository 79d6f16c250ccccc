package org.jmpi.transport.tcp;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;

/**
 * Which local address the tcp transport listens on, from {@link TcpParams#IF}: an interface name, a CIDR,
 * or (empty) loopback for a one-node job and else the first up, non-loopback IPv4 address.
 *
 * <p>Stateless; any thread.
 */
final class TcpAddresses
{
    private TcpAddresses()
    {
    }

    static InetAddress choose(final String spec, final boolean oneNode)
    {
        try
        {
            final String s = spec == null ? "" : spec.trim();
            if (s.isEmpty())
            {
                return oneNode ? InetAddress.getLoopbackAddress() : firstUp(null, -1);
            }
            if (s.contains("/"))
            {
                final String[] parts = s.split("/", 2);
                final InetAddress net = InetAddress.getByName(parts[0]);
                return firstUp(net, Integer.parseInt(parts[1]));
            }
            final NetworkInterface nif = NetworkInterface.getByName(s);
            if (nif == null)
            {
                throw new MpiException(ErrorClass.ERR_ARG, TcpParams.IF.name() + "=" + s + ": no such interface");
            }
            for (final InetAddress a : Collections.list(nif.getInetAddresses()))
            {
                if (a instanceof Inet4Address)
                {
                    return a;
                }
            }
            throw new MpiException(ErrorClass.ERR_ARG, TcpParams.IF.name() + "=" + s + ": interface has no IPv4 address");
        }
        catch (final SocketException | UnknownHostException | NumberFormatException ex)
        {
            throw new MpiException(ErrorClass.ERR_ARG, TcpParams.IF.name() + "=" + spec + ": " + ex.getMessage(), ex);
        }
    }

    /** The first IPv4 address of an up interface inside {@code net}/{@code prefix} (any non-loopback one when net is null). */
    private static InetAddress firstUp(final InetAddress net, final int prefix) throws SocketException
    {
        for (final NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces()))
        {
            if (!nif.isUp())
            {
                continue;
            }
            for (final InterfaceAddress ia : nif.getInterfaceAddresses())
            {
                final InetAddress a = ia.getAddress();
                if (!(a instanceof Inet4Address))
                {
                    continue;
                }
                if (net == null ? !a.isLoopbackAddress() : inside(a, net, prefix))
                {
                    return a;
                }
            }
        }
        throw new MpiException(ErrorClass.ERR_OTHER, "tcp: no up IPv4 interface" + (net == null ? "" : " in " +
            net.getHostAddress() + "/" + prefix) + "; set " + TcpParams.IF.name());
    }

    static boolean inside(final InetAddress a, final InetAddress net, final int prefix)
    {
        final byte[] x = a.getAddress();
        final byte[] n = net.getAddress();
        if (x.length != n.length || prefix < 0 || prefix > 8 * x.length)
        {
            return false;
        }
        for (int bit = 0; bit < prefix; bit++)
        {
            final int mask = 0x80 >>> (bit & 7);
            if ((x[bit >> 3] & mask) != (n[bit >> 3] & mask))
            {
                return false;
            }
        }
        return true;
    }
}
