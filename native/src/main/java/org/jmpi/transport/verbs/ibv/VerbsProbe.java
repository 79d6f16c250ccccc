package org.jmpi.transport.verbs.ibv;

import java.util.List;

/**
 * Whether verbs can run here, and why not: no library, no device, no active port. Never throws.
 *
 * <p>Stateless; any thread.
 */
public final class VerbsProbe
{
    private VerbsProbe()
    {
    }

    /** What a probe found: {@code reason} null when usable, else one line; {@code description} for diagnostics. */
    public record Result(String reason, String description)
    {
        public boolean available()
        {
            return reason == null;
        }
    }

    /**
     * Probes library {@code libraryName} ({@link IbvLibrary#NAME}), device {@code deviceName} (empty: the first)
     * and its port {@code port}.
     */
    public static Result probe(final String libraryName, final String deviceName, final int port, final int gidIndex)
    {
        final IbvLibrary lib;
        try
        {
            lib = IbvLibrary.load(libraryName);
        }
        catch (final Throwable ex)
        {
            return new Result("no library: lib" + libraryName + " cannot be loaded (" + firstLine(ex) + "); install rdma-core " +
                "(Debian: libibverbs1 ibverbs-providers)", "no libibverbs");
        }
        try
        {
            final List<String> devices;
            try
            {
                devices = VerbsContext.deviceNames(lib);
            }
            catch (final VerbsException ex)
            {
                // ENOSYS (38): the kernel has no RDMA support at all (no ib_uverbs).
                return new Result("no device: libibverbs cannot list devices (" + ex.getMessage() + (ex.errno() == 38 ?
                    ": no RDMA support in this kernel" : "") + ")", "no devices");
            }
            final String missing = deviceReason(devices, deviceName);
            if (missing != null)
            {
                return new Result(missing, "devices: " + devices);
            }
            try (VerbsContext context = VerbsContext.open(lib, deviceName, port))
            {
                final PortAttributes attributes = context.portAttributes();
                final String gid = describeGid(context, gidIndex);
                final String description = context.deviceName() + " port " + port + " " + attributes.stateName() + ", " +
                    (attributes.linkLayer() == Ibv.LINK_LAYER_ETHERNET ? "RoCE" : "InfiniBand") + ", lid " + attributes.lid() +
                    ", active MTU " + Ibv.mtuBytes(attributes.activeMtu()) + ", GID[" + gidIndex + "] " + gid;
                return new Result(portReason(context.deviceName(), port, attributes), description);
            }
        }
        catch (final Throwable ex)
        {
            return new Result("verbs: " + firstLine(ex), "error");
        }
    }

    private static String describeGid(final VerbsContext context, final int gidIndex)
    {
        try
        {
            return java.util.HexFormat.of().formatHex(context.gid(gidIndex));
        }
        catch (final VerbsException ex)
        {
            return "unavailable (" + ex.getMessage() + ")";
        }
    }

    /** Why {@code wanted} (empty: any) is not among {@code devices}, or null. */
    static String deviceReason(final List<String> devices, final String wanted)
    {
        if (devices.isEmpty())
        {
            return "no device: libibverbs lists no RDMA device";
        }
        if (!wanted.isEmpty() && !devices.contains(wanted))
        {
            return "no device: no RDMA device named " + wanted + " (found: " + String.join(", ", devices) + ")";
        }
        return null;
    }

    /** Why {@code port} of {@code device} cannot carry traffic, or null. */
    static String portReason(final String device, final int port, final PortAttributes attributes)
    {
        return attributes.active() ? null : "no active port: " + device + " port " + port + " is " + attributes.stateName();
    }

    private static String firstLine(final Throwable ex)
    {
        final String message = String.valueOf(ex.getMessage());
        final int nl = message.indexOf('\n');
        return ex.getClass().getSimpleName() + ": " + (nl < 0 ? message : message.substring(0, nl));
    }
}
