package org.jmpi.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.SplittableRandom;

import org.jmpi.Datatype;
import org.jmpi.internal.datatype.testing.ReferencePacker;
import org.jmpi.internal.datatype.testing.TypeGenerator;
import org.junit.jupiter.api.Test;

/** Element counts, sizes and signature matching of generated types against the reference typemap. */
class QueriesRandomTest
{
    @Test
    void shouldCountElementsAndMatchSignaturesLikeTheReferenceTypemap()
    {
        for (int i = 0; i < 1500; i++)
        {
            final long seed = ConvertorRandomTest.BASE_SEED + 31L * i;
            final TypeGenerator g = TypeGenerator.mixed(seed);
            final Datatype t = g.next();
            final SplittableRandom random = g.random();
            final ReferencePacker.Typemap map = ReferencePacker.typemap(t);
            final String where = "seed=" + seed + " type=" + t + " contents=" + t.contents();
            assertEquals(map.size(), t.size(), where);
            assertEquals(map.basics().length, t.elementCount(), where);
            if (t.size() == 0)
            {
                continue;
            }
            for (int k = 0; k < 8; k++)
            {
                final long bytes = random.nextLong(3 * t.size() + 1);
                long elements = 0;
                long at = 0;
                outer:
                for (int item = 0; ; item++)
                {
                    for (final Datatype b : map.basics())
                    {
                        if (at + b.size() > bytes)
                        {
                            break outer;
                        }
                        at += b.size();
                        elements++;
                    }
                }
                assertEquals(elements, t.elementsIn(bytes), where + " bytes=" + bytes);
            }
            final long count = 1 + random.nextInt(3);
            final Datatype twin = t.isPredefined() ? t : t.contents().rebuild().commit();
            assertNull(Signatures.firstMismatch(t, count, twin, count), where);
            assertNull(Signatures.firstMismatch(t, count, Datatype.contiguous((int)count, t).commit(), 1), where);
        }
    }

    @Test
    void shouldFindFirstSignatureMismatchLikeANaiveElementWalk()
    {
        for (int i = 0; i < 1500; i++)
        {
            final long seed = ConvertorRandomTest.BASE_SEED + 37L * i;
            final TypeGenerator g = TypeGenerator.mixed(seed);
            final Datatype send = g.next();
            final Datatype recv = g.random().nextBoolean() ? g.next() : send;
            final int sendCount = g.random().nextInt(3);
            final int recvCount = g.random().nextInt(3);
            final String where = "seed=" + seed + " send=" + send.contents() + " recv=" + recv.contents();
            final Long expected = naiveMismatch(send, sendCount, recv, recvCount);
            final String got = Signatures.firstMismatch(send, sendCount, recv, recvCount);
            if (expected == null)
            {
                assertNull(got, where);
            }
            else
            {
                org.junit.jupiter.api.Assertions.assertNotNull(got, where + " expected mismatch at " + expected);
                org.junit.jupiter.api.Assertions.assertTrue(got.contains("basic element " + expected + ":"),
                    where + " got " + got);
            }
        }
    }

    private static Long naiveMismatch(final Datatype send, final int sendCount, final Datatype recv, final int recvCount)
    {
        if (lenient(send) || lenient(recv))
        {
            return null;
        }
        final Datatype[] s = ReferencePacker.typemap(send).basics();
        final Datatype[] r = ReferencePacker.typemap(recv).basics();
        final long n = Math.min((long)s.length * sendCount, (long)r.length * recvCount);
        for (long i = 0; i < n; i++)
        {
            final Datatype a = s[(int)(i % s.length)];
            final Datatype b = r[(int)(i % r.length)];
            if (a != b)
            {
                if (a == Datatype.PACKED || b == Datatype.PACKED)
                {
                    if (a.size() != b.size())
                    {
                        return null;
                    }
                    continue;
                }
                return i;
            }
        }
        return null;
    }

    private static boolean lenient(final Datatype t)
    {
        return t.basicType() == Datatype.BYTE || t.basicType() == Datatype.PACKED;
    }
}
