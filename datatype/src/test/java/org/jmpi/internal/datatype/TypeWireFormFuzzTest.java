package org.jmpi.internal.datatype;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes {@link TypeWireForm#decode}: a peer's bytes rebuild into a committed type or raise
 * {@link MpiException} ERR_TYPE; never another exception, never a hang (a decode over
 * {@link #SLOW_NS} fails), never an allocation beyond the fuzz JVM's 512 MiB heap. A type that decodes
 * encodes into a form that decodes into a type of the same size, bounds and extents, and encodes to the
 * very same bytes again (the form is canonical after one round).
 *
 * <p>Run by Jazzer (docs/security.md, "Fuzzing"): seeds and regression inputs under
 * {@code src/test/resources/org/jmpi/internal/datatype/TypeWireFormFuzzTestInputs/decode/}.
 */
class TypeWireFormFuzzTest
{
    private static final long SLOW_NS = TimeUnit.SECONDS.toNanos(10);

    @FuzzTest(maxDuration = "5s")
    void decode(final byte[] data)
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(data);
        final long start = System.nanoTime();
        final Datatype type;
        try
        {
            type = TypeWireForm.decode(bytes, 0, data.length);
        }
        catch (final MpiException ex)
        {
            assertEquals(ErrorClass.ERR_TYPE, ex.errorClass(), ex.getMessage());
            return;
        }
        finally
        {
            final long tookNs = System.nanoTime() - start;
            assertTrue(tookNs < SLOW_NS, "decode took " + TimeUnit.NANOSECONDS.toMillis(tookNs) + " ms");
        }
        assertTrue(type.isCommitted() || type.isPredefined(), "not committed: " + type);
        assertTrue(type.size() >= 0, "size " + type.size());

        final byte[] once = encode(type);
        final Datatype again = TypeWireForm.decode(new UnsafeBuffer(once), 0, once.length);
        assertEquals(type.size(), again.size(), "size");
        assertEquals(type.lb(), again.lb(), "lb");
        assertEquals(type.extent(), again.extent(), "extent");
        assertEquals(type.trueLb(), again.trueLb(), "true lb");
        assertEquals(type.trueExtent(), again.trueExtent(), "true extent");
        assertArrayEquals(once, encode(again), "the form after one round");
    }

    private static byte[] encode(final Datatype type)
    {
        final byte[] form = new byte[TypeWireForm.encodedLength(type)];
        assertEquals(form.length, TypeWireForm.encode(type, new UnsafeBuffer(form), 0), "bytes written");
        return form;
    }
}
