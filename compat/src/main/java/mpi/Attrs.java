package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.jmpi.ErrorClass;
import org.jmpi.Keyval;

/**
 * Attribute keys as Open MPI's Java API numbers them ({@code int}), mapped to jmpi's {@link Keyval}s. As in
 * Open MPI, values are stored as a serialised copy (so {@code getAttr} returns a copy, and a value must be
 * {@link java.io.Serializable}); a communicator's attributes are copied by {@code dup}.
 *
 * <p>Thread-safe; the key numbers are unique in the JVM (ranks as threads share them, which is harmless:
 * a key made on one rank means nothing on another).
 */
final class Attrs
{
    static final int TAG_UB = 1;
    static final int WTIME_IS_GLOBAL = 2;
    static final int HOST = 3;
    static final int IO = 4;
    static final int APPNUM = 5;
    static final int LASTUSEDCODE = 6;
    static final int UNIVERSE_SIZE = 7;
    static final int WIN_BASE = 8;
    static final int WIN_SIZE = 9;
    static final int WIN_DISP_UNIT = 10;
    static final int KEYVAL_INVALID = -1;

    private static final AtomicInteger NEXT = new AtomicInteger(64);
    private static final Map<Integer, Keyval> KEYS = new ConcurrentHashMap<>();

    private Attrs()
    {
    }

    static int createKeyval()
    {
        final int id = NEXT.getAndIncrement();
        KEYS.put(id, Keyval.create(Keyval.DUP, null));
        return id;
    }

    static void freeKeyval(final int keyval) throws MPIException
    {
        final Keyval key = KEYS.remove(keyval);
        if (key == null)
        {
            throw MPIException.of(ErrorClass.ERR_KEYVAL, "freeKeyval: " + keyval + " is not a key made by createKeyval (or was freed)");
        }
        key.free();
    }

    static void checkKeyval(final int keyval) throws MPIException
    {
        if (!KEYS.containsKey(keyval))
        {
            throw MPIException.of(ErrorClass.ERR_KEYVAL, "attribute key " + keyval + " is not a key made by createKeyval (or was freed)");
        }
    }

    /** The jmpi key of a compat key: a predefined one or one made by {@link #createKeyval}. */
    static Keyval keyval(final int keyval) throws MPIException
    {
        switch (keyval)
        {
            case TAG_UB:
                return Keyval.TAG_UB;
            case WTIME_IS_GLOBAL:
                return Keyval.WTIME_IS_GLOBAL;
            case HOST:
                return Keyval.HOST;
            case IO:
                return Keyval.IO;
            case APPNUM:
                return Keyval.APPNUM;
            default:
                final Keyval key = KEYS.get(keyval);
                if (key == null)
                {
                    throw MPIException.of(ErrorClass.ERR_KEYVAL, "attribute key " + keyval + " is not a key made by createKeyval (or was freed)");
                }
                return key;
        }
    }

    static boolean isPredefined(final int keyval)
    {
        return keyval >= TAG_UB && keyval <= WIN_DISP_UNIT;
    }

    static byte[] serialize(final Object value) throws MPIException
    {
        try (ByteArrayOutputStream bytes = new ByteArrayOutputStream(); ObjectOutputStream out = new ObjectOutputStream(bytes))
        {
            out.writeObject(value);
            out.flush();
            return bytes.toByteArray();
        }
        catch (final IOException ex)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "setAttr: the value cannot be serialised (" + ex + ")");
        }
    }

    static Object deserialize(final byte[] bytes) throws MPIException
    {
        if (bytes == null)
        {
            return null;
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)))
        {
            return in.readObject();
        }
        catch (final IOException | ClassNotFoundException ex)
        {
            throw MPIException.of(ErrorClass.ERR_OTHER, "getAttr: the stored value cannot be read back (" + ex + ")");
        }
    }
}
