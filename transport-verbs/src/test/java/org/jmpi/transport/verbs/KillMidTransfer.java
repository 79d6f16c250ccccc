package org.jmpi.transport.verbs;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;

import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Failure drill for the two-VM runs (docs/verbs.md, "Two VMs"): ranks 0 and 1 exchange 4 MiB direct buffers
 * (RDMA rendezvous over verbs) without pause; once the first exchange is done the victim (rank 1, or the first
 * argument) kills its own JVM with {@code kill -9} from a side thread after a random 0-200 ms, in the middle of
 * the next transfers. The job must end non-zero naming the victim, with no hang. Every exchange checks the
 * bytes it received, so a transfer that completes corrupt fails the job too.
 */
public final class KillMidTransfer
{
    private static final int BYTES = 4 << 20;

    private KillMidTransfer()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int victim = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int peer = world.rank() ^ 1;
            if (peer >= world.size())
            {
                return;
            }
            final ByteBuffer out = mpi.allocMem(BYTES);
            final ByteBuffer in = mpi.allocMem(BYTES);
            for (int round = 0; ; round++)
            {
                for (int i = 0; i < BYTES; i += 4096)
                {
                    out.put(i, (byte) (round + i / 4096 + world.rank()));
                }
                world.sendrecv(out, 0, BYTES, Datatype.BYTE, peer, 7, in, 0, BYTES, Datatype.BYTE, peer, 7);
                for (int i = 0; i < BYTES; i += 4096)
                {
                    if (in.get(i) != (byte) (round + i / 4096 + peer))
                    {
                        throw new IllegalStateException("rank " + world.rank() + ": round " + round + " byte " + i + " corrupt");
                    }
                }
                if (round == 0)
                {
                    System.out.println("kill-mid: rank " + world.rank() + " first exchange done");
                    System.out.flush();
                    if (world.rank() == victim)
                    {
                        killSoon();
                    }
                }
            }
        }
    }

    private static void killSoon()
    {
        final long delayMs = ThreadLocalRandom.current().nextLong(200);
        Thread.ofPlatform().daemon().start(() ->
        {
            try
            {
                Thread.sleep(delayMs);
                System.out.println("kill-mid: rank killed itself at " + System.currentTimeMillis());
                System.out.flush();
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        });
    }
}
