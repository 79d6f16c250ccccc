package org.jmpi.internal.pt2pt;

import org.jmpi.CommInternals;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(60)
class FlowControlTest
{
    @ParameterizedTest
    @ValueSource(ints = {1024, 4096})
    void shouldNotLetAFastSenderFillASlowReceiversMemory(final int messageBytes)
    {
        final int messages = 2000;
        final long window = 64 * 1024;
        Ranks.run(2, org.jmpi.ThreadLevel.SINGLE, Map.of("jmpi.eager.window", Long.toString(window)), (mpi, world) ->
        {
            if (world.rank() == 0)
            {
                final Request[] sends = new Request[messages];
                for (int i = 0; i < messages; i++)
                {
                    final byte[] m = new byte[messageBytes];
                    m[0] = (byte)i;
                    m[messageBytes - 1] = (byte)(i * 7);
                    sends[i] = world.isend(m, 0, messageBytes, Datatype.BYTE, 1, 0);
                }
                world.barrier();
                Request.waitAll(sends);
            }
            else
            {
                world.barrier();
                final Protocol protocol = CommInternals.state(world).protocol();
                long worst = 0;
                for (int spin = 0; spin < 2000; spin++)
                {
                    world.iprobe(Comm.ANY_SOURCE, 12345); // progress without receiving
                    worst = Math.max(worst, protocol.bufferedUnexpectedBytes());
                }
                assertTrue(worst > 0, "some messages did arrive eagerly");
                assertTrue(worst <= window, "receiver buffered " + worst + " bytes, window " + window);
                final byte[] in = new byte[messageBytes];
                for (int i = 0; i < messages; i++)
                {
                    world.recv(in, 0, messageBytes, Datatype.BYTE, 0, 0);
                    assertEquals((byte)i, in[0], "message " + i + " in order");
                    assertEquals((byte)(i * 7), in[messageBytes - 1]);
                }
                assertEquals(0, protocol.bufferedUnexpectedBytes());
            }
        });
    }
}
