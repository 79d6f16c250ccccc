package org.jmpi.transport.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.ByteBuffer;

import static org.jmpi.transport.tcp.HandshakeDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

class HandshakeTest
{
    private static final byte[] TOKEN = "0123456789abcdef0123456789abcdef".getBytes();
    private static final byte[] NONCE = "nonce-nonce-1234".getBytes();

    @Test
    void shouldLayOutTheHandshake()
    {
        assertEquals(0, MAGIC_OFFSET);
        assertEquals(4, VERSION_OFFSET);
        assertEquals(8, RANK_OFFSET);
        assertEquals(12, PADDING_OFFSET);
        assertEquals(16, NONCE_OFFSET);
        assertEquals(32, MAC_OFFSET);
        assertEquals(64, HELLO_LENGTH);
        assertEquals(0, WELCOME_MAC_OFFSET);
        assertEquals(32, WELCOME_LENGTH);
        assertEquals(4, FRAME_HEADER_LENGTH);
        assertEquals('J', MAGIC & 0xFF, "magic reads JMPT on the wire");
    }

    @Test
    void shouldAcceptTheRightHelloAndRefuseEveryAlteredOne()
    {
        final ByteBuffer hello = Handshake.hello(2, 5, NONCE, TOKEN, "job1");
        assertEquals(2, Handshake.checkHello(hello, 5, TOKEN, "job1", 8));
        assertEquals(-1, Handshake.checkHello(hello, 4, TOKEN, "job1", 8), "another acceptor");
        assertEquals(-1, Handshake.checkHello(hello, 5, TOKEN, "job2", 8), "another job");
        assertEquals(-1, Handshake.checkHello(hello, 5, "xxxx456789abcdef0123456789abcdef".getBytes(), "job1", 8), "another token");
        assertEquals(-1, Handshake.checkHello(hello, 5, TOKEN, "job1", 2), "a rank outside the job");
        for (int i = 0; i < HELLO_LENGTH; i++)
        {
            final ByteBuffer bad = Handshake.hello(2, 5, NONCE, TOKEN, "job1");
            bad.put(i, (byte)(bad.get(i) ^ 1));
            assertEquals(-1, Handshake.checkHello(bad, 5, TOKEN, "job1", 8), "byte " + i + " flipped");
        }
    }

    @Test
    void shouldAcceptTheRightWelcomeAndRefuseEveryAlteredOne()
    {
        final UnsafeBuffer welcome = new UnsafeBuffer(Handshake.welcome(5, 2, NONCE, TOKEN, "job1").array());
        assertEquals(WELCOME_LENGTH, welcome.capacity());
        assertTrue(Handshake.checkWelcome(welcome, 0, 5, 2, NONCE, TOKEN, "job1"));
        assertFalse(Handshake.checkWelcome(welcome, 0, 4, 2, NONCE, TOKEN, "job1"), "another acceptor");
        assertFalse(Handshake.checkWelcome(welcome, 0, 5, 3, NONCE, TOKEN, "job1"), "another connector");
        assertFalse(Handshake.checkWelcome(welcome, 0, 5, 2, "nonce-nonce-9999".getBytes(), TOKEN, "job1"), "another HELLO");
        assertFalse(Handshake.checkWelcome(welcome, 0, 5, 2, NONCE, TOKEN, "job2"), "another job");
        assertFalse(Handshake.checkWelcome(welcome, 0, 5, 2, NONCE, "xxxx456789abcdef0123456789abcdef".getBytes(), "job1"),
            "another token");
        for (int i = 0; i < WELCOME_LENGTH; i++)
        {
            final UnsafeBuffer bad = new UnsafeBuffer(Handshake.welcome(5, 2, NONCE, TOKEN, "job1").array());
            bad.putByte(i, (byte)(bad.getByte(i) ^ 1));
            assertFalse(Handshake.checkWelcome(bad, 0, 5, 2, NONCE, TOKEN, "job1"), "byte " + i + " flipped");
        }
        final ByteBuffer hello = Handshake.hello(5, 2, NONCE, TOKEN, "job1");
        assertFalse(Handshake.checkWelcome(new UnsafeBuffer(hello.array()), MAC_OFFSET, 5, 2, NONCE, TOKEN, "job1"),
            "a HELLO's mac with the same key, nonce and ranks is no WELCOME");
        assertFalse(Handshake.checkWelcome(new UnsafeBuffer(hello.array()), MAC_OFFSET, 2, 5, NONCE, TOKEN, "job1"),
            "nor with the ranks the other way round");
    }

    @Test
    void shouldMatchAddressesInsideACidr() throws Exception
    {
        assertTrue(TcpAddresses.inside(InetAddress.getByName("10.1.2.3"), InetAddress.getByName("10.1.0.0"), 16));
        assertFalse(TcpAddresses.inside(InetAddress.getByName("10.2.2.3"), InetAddress.getByName("10.1.0.0"), 16));
        assertTrue(TcpAddresses.inside(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("127.0.0.0"), 8));
        assertEquals(InetAddress.getLoopbackAddress(), TcpAddresses.choose("", true));
        assertEquals(InetAddress.getByName("127.0.0.1"), TcpAddresses.choose("127.0.0.0/8", false));
    }
}
