package mpi;

import static mpi.Job.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Datatype constructors and queries (in Open MPI's base-type units), derived types on the wire, Struct. */
class DatatypeTest
{
    /** A struct with an int, a double and two shorts. */
    static final class Particle extends Struct
    {
        final int id = addInt();
        final int mass = addDouble();
        final int flags = addShort(2);

        @Override
        protected Data newData()
        {
            return new Data();
        }

        final class Data extends Struct.Data
        {
            int id()
            {
                return getInt(id);
            }

            double mass()
            {
                return getDouble(mass);
            }

            short flag(final int i)
            {
                return getShort(flags, i);
            }

            void set(final int i, final double m, final short f0, final short f1)
            {
                putInt(id, i);
                putDouble(mass, m);
                putShort(flags, 0, f0);
                putShort(flags, 1, f1);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldAnswerQueriesInBaseTypeUnits(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            assertEquals(1, MPI.INT.getSize());
            assertEquals(1, MPI.DOUBLE.getExtent());
            final Datatype contig = Datatype.createContiguous(3, MPI.INT);
            assertEquals(3, contig.getSize());
            assertEquals(3, contig.getExtent());
            final Datatype vec = Datatype.createVector(2, 2, 5, MPI.INT);
            assertEquals(4, vec.getSize());
            assertEquals(7, vec.getExtent());
            assertEquals(0, vec.getLb());
            final Datatype hvec = Datatype.createHVector(2, 1, 12, MPI.INT);
            assertEquals(4, hvec.getExtent());
            final Datatype idx = Datatype.createIndexed(new int[] {1, 2}, new int[] {1, 4}, MPI.INT);
            assertEquals(3, idx.getSize());
            assertEquals(1, idx.getLb());
            assertEquals(5, idx.getExtent());
            assertEquals(1, idx.getTrueLb());
            assertEquals(5, idx.getTrueExtent());
            final Datatype hidx = Datatype.createHIndexed(new int[] {1, 1}, new int[] {0, 16}, MPI.INT);
            assertEquals(5, hidx.getExtent());
            final Datatype blk = Datatype.createIndexedBlock(2, new int[] {0, 3}, MPI.INT);
            assertEquals(5, blk.getExtent());
            final Datatype res = Datatype.createResized(MPI.INT, 0, 16);
            assertEquals(4, res.getExtent());
            assertEquals(1, res.getSize());
            final Datatype sub = Datatype.createSubarray(new int[] {4, 4}, new int[] {2, 2}, new int[] {1, 1}, MPI.ORDER_C, MPI.INT);
            assertEquals(4, sub.getSize());
            assertEquals(16, sub.getExtent());
            final Datatype darray = Datatype.createDarray(n, rank, new int[] {4 * n}, new int[] {MPI.DISTRIBUTE_BLOCK},
                new int[] {MPI.DISTRIBUTE_DFLT_DARG}, new int[] {n}, MPI.ORDER_C, MPI.INT);
            assertEquals(4, darray.getSize());
            final Datatype struct = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.DOUBLE});
            assertEquals(12, struct.getSize());
            assertEquals(16, struct.getExtent());
            final Datatype dup = vec.dup();
            assertEquals(7, dup.getExtent());
            dup.setName("my vector");
            assertEquals("my vector", dup.getName());
            assertEquals("MPI_INT", MPI.INT.getName());
            assertEquals("MPI_DOUBLE_COMPLEX", MPI.DOUBLE_COMPLEX.getName());
            assertEquals("", vec.getName());
            dup.free();
            assertTrue(dup.isNull());
            assertMpiError(MPI.ERR_TYPE, dup::getExtent);
            assertMpiError(MPI.ERR_TYPE, MPI.INT::free);
            assertMpiError(MPI.ERR_ARG, () -> Datatype.createSubarray(new int[] {4}, new int[] {2}, new int[] {0}, 99, MPI.INT));
            assertMpiError(MPI.ERR_COUNT, () -> Datatype.createContiguous(-1, MPI.INT));
            assertTrue(MPI.DATATYPE_NULL.isNull());
            // attributes: serialised copies
            final int key = Datatype.createKeyval();
            vec.setAttr(key, "hello");
            assertEquals("hello", vec.getAttr(key));
            vec.deleteAttr(key);
            assertNull(vec.getAttr(key));
            Datatype.freeKeyval(key);
            assertMpiError(MPI.ERR_KEYVAL, () -> vec.getAttr(key));
            world.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldSendDerivedTypes(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int next = (rank + 1) % n;
            final int prev = (rank + n - 1) % n;
            final Datatype column = Datatype.createVector(3, 1, 3, MPI.INT);
            column.commit();
            final int[] matrix = new int[9];
            for (int i = 0; i < 9; i++)
            {
                matrix[i] = rank * 100 + i;
            }
            final int[] got = new int[3];
            world.sendRecv(matrix, 1, column, next, 1, got, 3, MPI.INT, prev, 1);
            assertArrayEquals(new int[] {prev * 100, prev * 100 + 3, prev * 100 + 6}, got);
            // an array of Particles in a ByteBuffer, sent with the struct's type
            final Particle p = new Particle();
            final Datatype pt = p.getType();
            assertEquals(16, p.getExtent()); // int at 0, double at 4, shorts at 12; padded to the double's alignment
            final ByteBuffer out = MPI.newByteBuffer(2 * p.getExtent());
            for (int i = 0; i < 2; i++)
            {
                final Particle.Data d = p.getData(out, i);
                d.set(rank * 10 + i, rank + i * 0.25, (short)i, (short)-i);
            }
            final ByteBuffer in = MPI.newByteBuffer(2 * p.getExtent());
            world.sendRecv(out, 2, pt, next, 2, in, 2, pt, prev, 2);
            for (int i = 0; i < 2; i++)
            {
                final Particle.Data d = p.getData(in, i);
                assertEquals(prev * 10 + i, d.id());
                assertEquals(prev + i * 0.25, d.mass());
                assertEquals(i, d.flag(0));
                assertEquals(-i, d.flag(1));
            }
            final Particle.Data second = p.getData(in, 1);
            assertEquals(prev * 10 + 1, second.getBuffer().getInt(0));
            final Status st = world.sendRecv(out, 1, pt, next, 3, in, 2, pt, prev, 3);
            assertEquals(1, st.getCount(pt));
            assertEquals(4, st.getElements(pt));
            assertEquals(4L, st.getElementsX(pt).getCount());
            assertFalse(pt.isNull());
        });
    }
}
