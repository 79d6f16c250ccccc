package org.jmpi.transport.tcp;

import org.jmpi.spi.ParamSpec;

import java.util.List;

/** The tcp transport's parameters (docs/parameters.md lists them, ParamsDocTest keeps the table whole). */
final class TcpParams
{
    static final ParamSpec IF = new ParamSpec("jmpi.tcp.if", "", "interface",
        "tcp: where to listen: an interface name (eth1) or a CIDR (10.1.0.0/16); empty: 127.0.0.1 when every rank is " +
        "on this node, else the first non-loopback IPv4 address of an interface that is up.");
    static final ParamSpec LOCAL = new ParamSpec("jmpi.tcp.local", "false", "boolean",
        "tcp: open the transport even when every rank is on this node (for testing it; by default it opens only when " +
        "some rank is on another node).");
    static final ParamSpec CONNECT = new ParamSpec("jmpi.tcp.connect", "lazy", "mode",
        "tcp: connect to a peer at its first frame (lazy) or to every peer while opening (eager).");
    static final ParamSpec SEND_BUFFER = new ParamSpec("jmpi.tcp.send.buffer", "1m", "bytes",
        "tcp: frames staged per peer before the socket takes them; a full stage is back-pressure.");

    static final List<ParamSpec> ALL = List.of(IF, LOCAL, CONNECT, SEND_BUFFER);

    private TcpParams()
    {
    }
}
