package org.jmpi.transport.verbs.ibv;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The exported functions of libibverbs that the control path calls (JNA interface mapping: set-up only;
 * the hot path calls the context's ops table through {@link com.sun.jna.Function}s, see {@link VerbsContext}).
 * Functions that fail return null or an errno value; JNA keeps errno for {@link Native#getLastError()}.
 *
 * <p>Threading: libibverbs is thread-safe; callers serialise per object as verbs requires.
 */
public interface IbvLibrary extends Library
{
    /** The library's name as JNA finds it ({@code libibverbs.so}, or the runtime's {@code libibverbs.so.1}). */
    String NAME = "ibverbs";

    Pointer ibv_get_device_list(IntByReference numDevices);

    void ibv_free_device_list(Pointer list);

    String ibv_get_device_name(Pointer device);

    Pointer ibv_open_device(Pointer device);

    int ibv_close_device(Pointer context);

    int ibv_query_device(Pointer context, Pointer deviceAttr);

    int ibv_query_port(Pointer context, byte portNum, Pointer portAttr);

    int ibv_query_gid(Pointer context, byte portNum, int index, Pointer gid);

    Pointer ibv_alloc_pd(Pointer context);

    int ibv_dealloc_pd(Pointer pd);

    Pointer ibv_reg_mr(Pointer pd, Pointer addr, NativeLong length, int access);

    int ibv_dereg_mr(Pointer mr);

    Pointer ibv_create_comp_channel(Pointer context);

    int ibv_destroy_comp_channel(Pointer channel);

    Pointer ibv_create_cq(Pointer context, int cqe, Pointer cqContext, Pointer channel, int compVector);

    int ibv_destroy_cq(Pointer cq);

    int ibv_get_cq_event(Pointer channel, PointerByReference cq, PointerByReference cqContext);

    void ibv_ack_cq_events(Pointer cq, int events);

    Pointer ibv_create_qp(Pointer pd, Pointer initAttr);

    int ibv_modify_qp(Pointer qp, Pointer attr, int attrMask);

    int ibv_destroy_qp(Pointer qp);

    /**
     * Loads libibverbs, trying the development name then the runtime soname (hosts with only the runtime
     * package have no {@code libibverbs.so} link).
     *
     * @throws UnsatisfiedLinkError when neither loads.
     */
    static IbvLibrary load(final String name)
    {
        try
        {
            return Native.load(name, IbvLibrary.class);
        }
        catch (final UnsatisfiedLinkError first)
        {
            if (!NAME.equals(name))
            {
                throw first;
            }
            try
            {
                return Native.load("libibverbs.so.1", IbvLibrary.class);
            }
            catch (final UnsatisfiedLinkError second)
            {
                first.addSuppressed(second);
                throw first;
            }
        }
    }
}
