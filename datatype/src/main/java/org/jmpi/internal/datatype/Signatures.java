package org.jmpi.internal.datatype;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * MPI type matching: the sequence of basic types a sender's type produces must equal the receiver's,
 * element by element. BYTE and PACKED on either side match anything (PACKED as MPI defines it, BYTE
 * leniently, because Java programs routinely receive raw bytes). Pair types are their own basic types.
 * <p>
 * Stateless; any thread.
 */
public final class Signatures
{
    private static final int BYTE = BasicType.BYTE.code();
    private static final int PACKED = BasicType.PACKED.code();

    private Signatures()
    {
    }

    /** Code (1..17, fits a byte) of the single basic type of {@code type}, or 0 if mixed or empty. */
    public static int homogeneousCode(final Datatype type)
    {
        final Datatype basic = type.basicType();
        return basic == null ? 0 : BasicType.of(basic).code();
    }

    /**
     * Cheap check on homogeneous codes: equal codes; or either side 0 (mixed, not checked here); or
     * either side PACKED or BYTE.
     */
    public static boolean compatible(final int sendCode, final int recvCode)
    {
        return sendCode == recvCode || sendCode == 0 || recvCode == 0 || sendCode == PACKED || recvCode == PACKED ||
            sendCode == BYTE || recvCode == BYTE;
    }

    /**
     * Compares the signatures of two committed typemaps over the shorter of the two streams.
     * Steps: 1. homogeneous types compare their codes; 2. otherwise walk both typed programs run by run,
     * skipping the common whole elements of equal runs, until the codes differ or a stream ends.
     *
     * @return null if they match, else a message naming the first mismatching basic element (0-based) and both types
     */
    public static String firstMismatch(final Datatype sendType, final long sendCount, final Datatype recvType,
        final long recvCount)
    {
        final int sendCode = homogeneousCode(sendType);
        final int recvCode = homogeneousCode(recvType);
        if (sendCode == BYTE || sendCode == PACKED || recvCode == BYTE || recvCode == PACKED ||
            sendCount == 0 || recvCount == 0 || sendType.size() == 0 || recvType.size() == 0)
        {
            return null;
        }
        if (sendCode != 0 && recvCode != 0)
        {
            return sendCode == recvCode ? null : message(0, sendCode, recvCode, sendType, recvType);
        }
        final Convertor send = Convertor.virtual(sendType, sendCount, true);
        final Convertor recv = Convertor.virtual(recvType, recvCount, true);
        long element = 0;
        while (send.runLength() > 0 && recv.runLength() > 0)
        {
            final int s = send.runCode();
            final int r = recv.runCode();
            if (s != r && s != PACKED && r != PACKED)
            {
                return message(element, s, r, sendType, recvType);
            }
            final long size = BasicType.ofCode(s).size();
            if (s != r && BasicType.ofCode(r).size() != size)
            {
                return null;
            }
            final long bytes = Math.min(send.runLength(), recv.runLength()) / size * size;
            send.skipRun(bytes);
            recv.skipRun(bytes);
            element += bytes / size;
        }
        return null;
    }

    /**
     * {@link #firstMismatch} as an error: throws {@code MpiException(ERR_TYPE)} with its message if the
     * signatures differ.
     */
    public static void requireMatch(final Datatype sendType, final long sendCount, final Datatype recvType,
        final long recvCount)
    {
        final String mismatch = firstMismatch(sendType, sendCount, recvType, recvCount);
        if (mismatch != null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, mismatch);
        }
    }

    private static String message(final long element, final int s, final int r, final Datatype sendType,
        final Datatype recvType)
    {
        return "type signatures differ at basic element " + element + ": send " + BasicType.ofCode(s) + " (type " +
            sendType.name() + "), receive " + BasicType.ofCode(r) + " (type " + recvType.name() + ")";
    }

    /** Complete basic elements in the first {@code bytes} (&lt; size) bytes of one item of {@code type}. */
    public static long elementsInPrefix(final Datatype type, final long bytes)
    {
        final Convertor walk = Convertor.virtual(type, 1, true);
        long left = bytes;
        long elements = 0;
        while (left > 0 && walk.runLength() > 0)
        {
            final long n = Math.min(left, walk.runLength());
            elements += n / BasicType.ofCode(walk.runCode()).size();
            left -= n;
            if (left > 0)
            {
                walk.skipRun(n);
            }
        }
        return elements;
    }
}
