import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * The JDK's own floor for bench/tcp-vs-c.sh: a ping-pong of 60-byte messages (about what jmpi puts on the wire
 * for 8 B) in plain Java NIO, nonblocking, polling with {@code selectNow} and reading, one JVM per side, no jmpi.
 * Mode {@code one}: one connection carries both directions (as Open MPI's tcp BTL and jmpi do); {@code two}: one
 * connection per direction (jmpi's layout before 2026-11-26), where the receiving kernel answers each message
 * with an ACK packet of its own. Run with the source launcher:
 * <pre>
 *   java NioPingPong.java server PORT MODE                    (on host B)
 *   java NioPingPong.java client HOST PORT MODE ITERS WARMUP  (on host A: prints the one-way p50 and p99)
 * </pre>
 */
public final class NioPingPong
{
    private static final int MESSAGE_BYTES = 60;

    public static void main(final String[] args) throws Exception
    {
        final boolean server = args[0].equals("server");
        final boolean two = (server ? args[2] : args[3]).equals("two");
        final SocketChannel in;
        final SocketChannel out;
        if (server)
        {
            final ServerSocketChannel listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(Integer.parseInt(args[1])));
            in = listener.accept();
            out = two ? listener.accept() : in;
        }
        else
        {
            final InetSocketAddress address = new InetSocketAddress(args[1], Integer.parseInt(args[2]));
            out = SocketChannel.open(address);
            in = two ? SocketChannel.open(address) : out;
        }
        for (final SocketChannel channel : new SocketChannel[] {in, out})
        {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
        }
        final Selector selector = Selector.open();
        in.register(selector, SelectionKey.OP_READ);
        final ByteBuffer receive = ByteBuffer.allocateDirect(1 << 16);
        final ByteBuffer send = ByteBuffer.allocateDirect(MESSAGE_BYTES);
        final int iterations = server ? 0 : Integer.parseInt(args[4]);
        final int warmup = server ? 0 : Integer.parseInt(args[5]);
        final long[] roundTripNs = new long[iterations];
        for (int i = -warmup; server || i < iterations; i++)
        {
            final long start = System.nanoTime();
            if (!server)
            {
                write(out, send);
            }
            if (!read(in, receive, selector))
            {
                break;
            }
            if (server)
            {
                write(out, send);
            }
            else if (i >= 0)
            {
                roundTripNs[i] = System.nanoTime() - start;
            }
        }
        if (!server)
        {
            Arrays.sort(roundTripNs);
            System.out.printf("nio %s: one-way p50 %.2f us, p99 %.2f us (%d round trips)%n", two ? "two" : "one",
                roundTripNs[iterations / 2] / 2000.0, roundTripNs[(int)(iterations * 0.99)] / 2000.0, iterations);
        }
    }

    private static void write(final SocketChannel channel, final ByteBuffer send) throws Exception
    {
        send.clear();
        while (send.hasRemaining())
        {
            channel.write(send);
        }
    }

    private static boolean read(final SocketChannel channel, final ByteBuffer receive, final Selector selector) throws Exception
    {
        receive.clear();
        while (receive.position() < MESSAGE_BYTES)
        {
            if (selector.selectNow(key -> { }) > 0 && channel.read(receive) < 0)
            {
                return false;
            }
        }
        return true;
    }
}
