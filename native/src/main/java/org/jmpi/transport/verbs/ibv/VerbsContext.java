package org.jmpi.transport.verbs.ibv;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.jmpi.transport.verbs.ibv.ControlDescriptor.*;

/**
 * An open RDMA device with one protection domain: the factory of memory regions, completion queues and
 * queue pairs. Holds the function pointers of the context's ops table that verbs.h's inline hot-path
 * functions call ({@code poll_cq}, {@code req_notify_cq}, {@code post_send}, {@code post_recv}).
 *
 * <p>Threading: control-path calls from any thread (libibverbs serialises them; this class keeps no scratch memory);
 * close after every object made from it is closed.
 */
public final class VerbsContext implements AutoCloseable
{
    private final IbvLibrary lib;
    private final String deviceName;
    private final int port;
    private Pointer context;
    private Pointer pd;
    private final Function pollCq;
    private final Function reqNotifyCq;
    private final Function postSend;
    private final Function postRecv;
    private final DeviceAttributes device;
    private final PortAttributes portAttributes;

    private VerbsContext(final IbvLibrary lib, final String deviceName, final int port, final Pointer context)
    {
        this.lib = lib;
        this.deviceName = deviceName;
        this.port = port;
        this.context = context;
        this.pollCq = Function.getFunction(context.getPointer(CONTEXT_POLL_CQ_OFFSET));
        this.reqNotifyCq = Function.getFunction(context.getPointer(CONTEXT_REQ_NOTIFY_CQ_OFFSET));
        this.postSend = Function.getFunction(context.getPointer(CONTEXT_POST_SEND_OFFSET));
        this.postRecv = Function.getFunction(context.getPointer(CONTEXT_POST_RECV_OFFSET));
        this.device = queryDevice(lib, context);
        this.portAttributes = queryPort(lib, context, port);
        this.pd = lib.ibv_alloc_pd(context);
        if (pd == null)
        {
            final int errno = Native.getLastError();
            lib.ibv_close_device(context);
            throw new VerbsException("ibv_alloc_pd(" + deviceName + ")", errno);
        }
    }

    /** The names of the RDMA devices libibverbs lists, in its order. */
    public static List<String> deviceNames(final IbvLibrary lib)
    {
        final IntByReference count = new IntByReference();
        final Pointer list = lib.ibv_get_device_list(count);
        if (list == null)
        {
            throw new VerbsException("ibv_get_device_list", Native.getLastError());
        }
        try
        {
            final List<String> names = new ArrayList<>();
            for (int i = 0; i < count.getValue(); i++)
            {
                names.add(lib.ibv_get_device_name(list.getPointer((long)i * Native.POINTER_SIZE)));
            }
            return names;
        }
        finally
        {
            lib.ibv_free_device_list(list);
        }
    }

    /**
     * Opens device {@code name} (empty: the first listed) and allocates its protection domain.
     *
     * @throws VerbsException when there is no such device or it does not open.
     */
    public static VerbsContext open(final IbvLibrary lib, final String name, final int port)
    {
        final IntByReference count = new IntByReference();
        final Pointer list = lib.ibv_get_device_list(count);
        if (list == null)
        {
            throw new VerbsException("ibv_get_device_list", Native.getLastError());
        }
        try
        {
            final List<String> seen = new ArrayList<>();
            for (int i = 0; i < count.getValue(); i++)
            {
                final Pointer device = list.getPointer((long)i * Native.POINTER_SIZE);
                final String deviceName = lib.ibv_get_device_name(device);
                seen.add(deviceName);
                if (name.isEmpty() || name.equals(deviceName))
                {
                    final Pointer context = lib.ibv_open_device(device);
                    if (context == null)
                    {
                        throw new VerbsException("ibv_open_device(" + deviceName + ")", Native.getLastError());
                    }
                    return new VerbsContext(lib, deviceName, port, context);
                }
            }
            throw new VerbsException("no RDMA device " + (name.isEmpty() ? "" : "named " + name + " ") + "(found: " + seen + ")", 0);
        }
        finally
        {
            lib.ibv_free_device_list(list);
        }
    }

    private static DeviceAttributes queryDevice(final IbvLibrary lib, final Pointer context)
    {
        try (Memory a = new Memory(DEVICE_ATTR_LENGTH))
        {
            a.clear();
            final int rc = lib.ibv_query_device(context, a);
            if (rc != 0)
            {
                throw new VerbsException("ibv_query_device", rc);
            }
            return new DeviceAttributes(a.getLong(DEVICE_MAX_MR_SIZE_OFFSET), a.getInt(DEVICE_MAX_QP_OFFSET),
                a.getInt(DEVICE_MAX_QP_WR_OFFSET), a.getInt(DEVICE_MAX_SGE_OFFSET), a.getInt(DEVICE_MAX_SGE_RD_OFFSET),
                a.getInt(DEVICE_MAX_CQ_OFFSET),
                a.getInt(DEVICE_MAX_CQE_OFFSET), a.getInt(DEVICE_MAX_MR_OFFSET), a.getInt(DEVICE_MAX_QP_RD_ATOM_OFFSET),
                a.getInt(DEVICE_MAX_QP_INIT_RD_ATOM_OFFSET), a.getInt(DEVICE_ATOMIC_CAP_OFFSET),
                a.getByte(DEVICE_PHYS_PORT_CNT_OFFSET) & 0xFF);
        }
    }

    static PortAttributes queryPort(final IbvLibrary lib, final Pointer context, final int port)
    {
        // ibv_query_port's exported symbol fills the compat layout, a prefix of struct ibv_port_attr; room for the whole.
        try (Memory a = new Memory(2L * PORT_ATTR_LENGTH))
        {
            a.clear();
            final int rc = lib.ibv_query_port(context, (byte)port, a);
            if (rc != 0)
            {
                throw new VerbsException("ibv_query_port(port " + port + ")", rc);
            }
            return new PortAttributes(a.getInt(PORT_STATE_OFFSET), a.getInt(PORT_MAX_MTU_OFFSET), a.getInt(PORT_ACTIVE_MTU_OFFSET),
                a.getInt(PORT_GID_TBL_LEN_OFFSET), a.getShort(PORT_LID_OFFSET) & 0xFFFF, a.getByte(PORT_LINK_LAYER_OFFSET) & 0xFF);
        }
    }

    public String deviceName()
    {
        return deviceName;
    }

    public int port()
    {
        return port;
    }

    public DeviceAttributes device()
    {
        return device;
    }

    /** The port's attributes when the context opened. */
    public PortAttributes portAttributes()
    {
        return portAttributes;
    }

    /** The port's attributes now. */
    public PortAttributes queryPort()
    {
        return queryPort(lib, context, port);
    }

    /** The GID at {@code index} of the port's table (16 bytes). */
    public byte[] gid(final int index)
    {
        try (Memory g = new Memory(GID_LENGTH))
        {
            final int rc = lib.ibv_query_gid(context, (byte)port, index, g);
            if (rc != 0)
            {
                throw new VerbsException("ibv_query_gid(" + deviceName + " port " + port + " index " + index + ")",
                    rc > 0 ? rc : Native.getLastError());
            }
            return g.getByteArray(0, GID_LENGTH);
        }
    }

    /**
     * Registers {@code direct} (a direct buffer, all of its capacity) with {@code access} ({@link Ibv#ACCESS_LOCAL_WRITE}...).
     * The region keeps the buffer reachable.
     */
    public MemoryRegion register(final ByteBuffer direct, final int access)
    {
        final NativeBlock block = new NativeBlock(direct);
        return register(block.pointer(), block.lengthBytes(), access, direct);
    }

    /** Registers a native block. */
    public MemoryRegion register(final NativeBlock block, final int access)
    {
        return register(block.pointer(), block.lengthBytes(), access, block);
    }

    private MemoryRegion register(final Pointer address, final long lengthBytes, final int access, final Object keepAlive)
    {
        final Pointer mr = lib.ibv_reg_mr(pd, address, new NativeLong(lengthBytes), access);
        if (mr == null)
        {
            throw new VerbsException("ibv_reg_mr(" + deviceName + ", address=0x" + Long.toHexString(Pointer.nativeValue(address)) +
                ", length=" + lengthBytes + ", access=" + access + ")", Native.getLastError());
        }
        return new MemoryRegion(lib, mr, keepAlive);
    }

    /** A completion channel for blocking waits. */
    public CompletionChannel createCompletionChannel()
    {
        final Pointer channel = lib.ibv_create_comp_channel(context);
        if (channel == null)
        {
            throw new VerbsException("ibv_create_comp_channel(" + deviceName + ")", Native.getLastError());
        }
        return new CompletionChannel(lib, channel);
    }

    /** A completion queue of at least {@code entries}, its events to {@code channel} (may be null). */
    public CompletionQueue createCompletionQueue(final int entries, final CompletionChannel channel)
    {
        final Pointer cq = lib.ibv_create_cq(context, entries, null, channel == null ? null : channel.pointer(), 0);
        if (cq == null)
        {
            throw new VerbsException("ibv_create_cq(" + deviceName + ", entries=" + entries + ")", Native.getLastError());
        }
        return new CompletionQueue(lib, cq, pollCq, reqNotifyCq, entries, channel);
    }

    /** A reliable-connected queue pair in RESET; {@code maxInlineBytes} may be 0. */
    public QueuePair createQueuePair(final CompletionQueue sendCq, final CompletionQueue recvCq, final int maxSendWr,
        final int maxRecvWr, final int maxSge, final int maxInlineBytes)
    {
        try (Memory init = new Memory(INIT_ATTR_LENGTH))
        {
            init.clear();
            init.setPointer(INIT_SEND_CQ_OFFSET, sendCq.pointer());
            init.setPointer(INIT_RECV_CQ_OFFSET, recvCq.pointer());
            init.setInt(INIT_MAX_SEND_WR_OFFSET, maxSendWr);
            init.setInt(INIT_MAX_RECV_WR_OFFSET, maxRecvWr);
            init.setInt(INIT_MAX_SEND_SGE_OFFSET, maxSge);
            init.setInt(INIT_MAX_RECV_SGE_OFFSET, 1);
            init.setInt(INIT_MAX_INLINE_DATA_OFFSET, maxInlineBytes);
            init.setInt(INIT_QP_TYPE_OFFSET, Ibv.QPT_RC);
            init.setInt(INIT_SQ_SIG_ALL_OFFSET, 0);
            final Pointer qp = lib.ibv_create_qp(pd, init);
            if (qp == null)
            {
                throw new VerbsException("ibv_create_qp(" + deviceName + ", send=" + maxSendWr + ", recv=" + maxRecvWr + ", sge=" +
                    maxSge + ", inline=" + maxInlineBytes + ")", Native.getLastError());
            }
            // ibv_create_qp writes back what the device granted.
            return new QueuePair(lib, qp, postSend, postRecv, init.getInt(INIT_MAX_SEND_WR_OFFSET), init.getInt(INIT_MAX_RECV_WR_OFFSET),
                init.getInt(INIT_MAX_INLINE_DATA_OFFSET));
        }
    }

    /** Deallocates the protection domain and closes the device; idempotent. */
    @Override
    public void close()
    {
        if (context != null)
        {
            final int pdRc = pd == null ? 0 : lib.ibv_dealloc_pd(pd);
            pd = null;
            final int rc = lib.ibv_close_device(context);
            context = null;
            if (pdRc != 0)
            {
                throw new VerbsException("ibv_dealloc_pd(" + deviceName + "): regions or queue pairs still open", pdRc);
            }
            if (rc != 0)
            {
                throw new VerbsException("ibv_close_device(" + deviceName + ")", rc);
            }
        }
    }
}
