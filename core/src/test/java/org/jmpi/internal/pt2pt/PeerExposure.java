package org.jmpi.internal.pt2pt;

import org.jmpi.spi.PeerMemory;

/**
 * Tests' question to a transport: does its peer memory expose this memory? The in-JVM transport's exposes any object;
 * an arena's (pvas) only its own allocations, so heap buffers take other paths there (split copy offered without a
 * handle, then CTS; or fragments). Tests ask this instead of assuming it from {@link Protocol#hasPeerMemory}.
 */
final class PeerExposure
{
    private PeerExposure()
    {
    }

    /**
     * Whether the peer memory reaching {@code peer} exposes {@code memory}; the probe's exposure is withdrawn at once.
     * Call it from the rank's thread before the memory is sent.
     */
    static boolean exposes(final Protocol protocol, final int peer, final Object memory)
    {
        final PeerMemory peerMemory = protocol.peerMemory(peer);
        return peerMemory != null && protocol.engine().call(() ->
        {
            final long handle = peerMemory.expose(memory);
            if (handle != 0)
            {
                peerMemory.withdraw(handle);
            }
            return handle != 0;
        });
    }
}
