package org.jmpi.launcher;

import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Where the bootstrap of a job with ranks on other hosts listens ({@code jmpi.bootstrap.if}), and which
 * addresses the ranks are told to try.
 *
 * <p>Stateless; any thread.
 */
final class BootstrapAddresses
{
    private BootstrapAddresses()
    {
    }

    /**
     * The address to bind for {@code spec}: empty is the wildcard (every address of this host); an
     * interface name is its first IPv4 address; {@code a.b.c.d/n} the first up IPv4 address inside it.
     *
     * @throws IllegalArgumentException naming the spec when nothing matches
     */
    static InetAddress bindAddress(final String spec)
    {
        final String text = spec.trim();
        try
        {
            if (text.isEmpty())
            {
                return InetAddress.getByName("0.0.0.0");
            }
            if (!text.contains("/"))
            {
                final NetworkInterface nif = NetworkInterface.getByName(text);
                if (nif == null)
                {
                    throw new IllegalArgumentException("jmpi.bootstrap.if=" + text + ": no such interface");
                }
                for (final InetAddress address : Collections.list(nif.getInetAddresses()))
                {
                    if (address instanceof Inet4Address)
                    {
                        return address;
                    }
                }
                throw new IllegalArgumentException("jmpi.bootstrap.if=" + text + ": interface has no IPv4 address");
            }
            final int slash = text.indexOf('/');
            final byte[] net = InetAddress.getByName(text.substring(0, slash)).getAddress();
            final int prefix = Integer.parseInt(text.substring(slash + 1));
            if (net.length != 4 || prefix < 0 || prefix > 32)
            {
                throw new IllegalArgumentException("jmpi.bootstrap.if=" + text + ": not an IPv4 CIDR");
            }
            for (final InetAddress address : upAddresses())
            {
                if (inside(address.getAddress(), net, prefix))
                {
                    return address;
                }
            }
            throw new IllegalArgumentException("jmpi.bootstrap.if=" + text + ": no up IPv4 address of this host is inside it");
        }
        catch (final NumberFormatException | UnknownHostException ex)
        {
            throw new IllegalArgumentException("jmpi.bootstrap.if=" + text + ": not an interface name or an IPv4 CIDR", ex);
        }
        catch (final SocketException ex)
        {
            throw new UncheckedIOException(new java.io.IOException("cannot list the network interfaces: " + ex.getMessage(), ex));
        }
    }

    /**
     * What ranks should try for a server bound to {@code bound}: that address, or for the wildcard
     * every up IPv4 address of this host, non-loopback ones first.
     */
    static List<InetAddress> advertised(final InetAddress bound)
    {
        if (!bound.isAnyLocalAddress())
        {
            return List.of(bound);
        }
        final List<InetAddress> addresses = new ArrayList<>();
        try
        {
            for (final InetAddress address : upAddresses())
            {
                if (!address.isLoopbackAddress())
                {
                    addresses.add(address);
                }
            }
        }
        catch (final SocketException ex)
        {
            // Fall back to loopback alone: ranks on this host still find it.
        }
        addresses.add(InetAddress.getLoopbackAddress());
        return addresses;
    }

    private static List<InetAddress> upAddresses() throws SocketException
    {
        final List<InetAddress> addresses = new ArrayList<>();
        for (final NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces()))
        {
            if (!nif.isUp())
            {
                continue;
            }
            for (final InterfaceAddress address : nif.getInterfaceAddresses())
            {
                if (address.getAddress() instanceof Inet4Address)
                {
                    addresses.add(address.getAddress());
                }
            }
        }
        return addresses;
    }

    private static boolean inside(final byte[] address, final byte[] net, final int prefix)
    {
        for (int bit = 0; bit < prefix; bit++)
        {
            final int mask = 0x80 >>> (bit % 8);
            if ((address[bit / 8] & mask) != (net[bit / 8] & mask))
            {
                return false;
            }
        }
        return true;
    }
}
