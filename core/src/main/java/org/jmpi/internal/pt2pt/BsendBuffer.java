package org.jmpi.internal.pt2pt;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.BufferView;

import java.util.TreeMap;

/**
 * The user's buffer for buffered sends (MPI_Buffer_attach): messages are packed into it and sent from
 * there, each costing its size plus {@link #OVERHEAD_BYTES}. First-fit allocation over the attached
 * bytes; a region is freed when its send completes.
 *
 * <p>Threading: allocation on caller threads, release on the engine thread: synchronized.
 */
public final class BsendBuffer
{
    /** Bytes of bookkeeping each buffered message costs (MPI_BSEND_OVERHEAD). */
    public static final int OVERHEAD_BYTES = 64;

    private Object buffer;
    private BufferView view;
    private long capacity;
    /** Allocated regions: start offset to end offset. */
    private final TreeMap<Long, Long> used = new TreeMap<>();

    public synchronized void attach(final Object buffer)
    {
        if (this.buffer != null)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "bufferAttach: a buffer is already attached (" + capacity + " bytes)");
        }
        final BufferView v = BufferView.of(buffer, "bsend buffer");
        if (!v.byteAddressed() && v.elementSize() != 1)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "bufferAttach: needs a byte[] or ByteBuffer, got " + buffer.getClass().getName());
        }
        this.buffer = buffer;
        this.view = v;
        this.capacity = v.capacityBytes();
    }

    /** Detaches once every buffered message has left; the caller waits for {@link #isEmpty()} first. */
    public synchronized Object detach()
    {
        final Object b = buffer;
        buffer = null;
        view = null;
        capacity = 0;
        return b;
    }

    public synchronized boolean isEmpty()
    {
        return used.isEmpty();
    }

    public synchronized boolean attached()
    {
        return buffer != null;
    }

    synchronized BufferView view()
    {
        return view;
    }

    synchronized Object buffer()
    {
        return buffer;
    }

    /** Reserves {@code bytes} + overhead; returns the offset of the message's bytes. */
    synchronized long allocate(final long bytes)
    {
        if (buffer == null)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "bsend: no buffer attached (call Mpi.bufferAttach first)");
        }
        final long need = bytes + OVERHEAD_BYTES;
        long start = 0;
        for (final var e : used.entrySet())
        {
            if (e.getKey() - start >= need)
            {
                break;
            }
            start = e.getValue();
        }
        if (start + need > capacity)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "bsend: attached buffer full: message=" + bytes +
                " bytes + overhead=" + OVERHEAD_BYTES + ", capacity=" + capacity + " bytes, in use=" + inUse());
        }
        used.put(start, start + need);
        return start + OVERHEAD_BYTES;
    }

    synchronized void release(final long messageOffset)
    {
        used.remove(messageOffset - OVERHEAD_BYTES);
    }

    private long inUse()
    {
        long total = 0;
        for (final var e : used.entrySet())
        {
            total += e.getValue() - e.getKey();
        }
        return total;
    }
}
