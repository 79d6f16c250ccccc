package org.jmpi.transport.verbs.ibv;

import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * A registered memory region ({@code ibv_reg_mr}): the device may read and write {@code [address, address +
 * length)} under its keys until {@link #deregister()}. Whoever registered the memory keeps it alive and
 * unmoved (a direct buffer or native block held by the region's owner).
 *
 * <p>Not thread-safe: one owner.
 */
public final class MemoryRegion implements AutoCloseable
{
    private final IbvLibrary lib;
    private Pointer mr;
    private final long address;
    private final long lengthBytes;
    private final int lkey;
    private final int rkey;
    private final Object keepAlive;

    MemoryRegion(final IbvLibrary lib, final Pointer mr, final Object keepAlive)
    {
        this.lib = lib;
        this.mr = mr;
        this.address = Pointer.nativeValue(mr.getPointer(ControlDescriptor.MR_ADDR_OFFSET));
        this.lengthBytes = mr.getLong(ControlDescriptor.MR_LENGTH_OFFSET);
        this.lkey = mr.getInt(ControlDescriptor.MR_LKEY_OFFSET);
        this.rkey = mr.getInt(ControlDescriptor.MR_RKEY_OFFSET);
        this.keepAlive = keepAlive;
    }

    public long address()
    {
        return address;
    }

    public long lengthBytes()
    {
        return lengthBytes;
    }

    /** The key this process's work requests name the region by. */
    public int lkey()
    {
        return lkey;
    }

    /** The key peers' RDMA operations name the region by. */
    public int rkey()
    {
        return rkey;
    }

    /** What the region keeps reachable (the registered buffer). */
    public Object memory()
    {
        return keepAlive;
    }

    public boolean registered()
    {
        return mr != null;
    }

    /** Deregisters; idempotent. */
    public void deregister()
    {
        if (mr != null)
        {
            final int rc = lib.ibv_dereg_mr(mr);
            mr = null;
            if (rc != 0)
            {
                throw new VerbsException("ibv_dereg_mr(address=0x" + Long.toHexString(address) + ", length=" + lengthBytes + ")",
                    rc > 0 ? rc : Native.getLastError());
            }
        }
    }

    @Override
    public void close()
    {
        deregister();
    }
}
