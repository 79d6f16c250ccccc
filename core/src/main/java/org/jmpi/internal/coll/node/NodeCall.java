package org.jmpi.internal.coll.node;

import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.internal.coll.node.NodeOp.Kind;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * What one node collective call's arguments are on one rank; {@link #start()} makes the call ({@link NodeOp}).
 *
 * <p>Threading: the calling thread.
 */
final class NodeCall
{
    final NodeComm node;
    final String call;
    final Kind kind;
    int root;
    Part in;
    Part out;
    Part[] blocks;
    Part[] outBlocks;
    Op op;
    Datatype type;
    long bytes;

    NodeCall(final NodeComm node, final String call, final Kind kind)
    {
        this.node = node;
        this.call = call;
        this.kind = kind;
    }

    NodeCall root(final int r)
    {
        root = r;
        return this;
    }

    NodeCall in(final Part p)
    {
        in = p;
        return this;
    }

    NodeCall out(final Part p)
    {
        out = p;
        return this;
    }

    NodeCall blocks(final Part[] p)
    {
        blocks = p;
        return this;
    }

    NodeCall outBlocks(final Part[] p)
    {
        outBlocks = p;
        return this;
    }

    NodeCall reduction(final Op o, final Datatype t)
    {
        op = o;
        type = t;
        return this;
    }

    NodeCall bytes(final long b)
    {
        bytes = b;
        return this;
    }

    /**
     * Starts the call on the engine and returns its request: in direct mode inline on the calling thread (no
     * command object), else as a command for the progress thread.
     */
    NodeOp start()
    {
        final NodeOp o = new NodeOp(this);
        final ProgressEngine engine = node.comm.engine();
        if (engine.enter())
        {
            try
            {
                o.begin();
            }
            finally
            {
                engine.exit();
            }
        }
        else
        {
            engine.execute(o::begin);
        }
        return o;
    }
}
