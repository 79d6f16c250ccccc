package org.jmpi.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intercomm;
import org.jmpi.Op;
import org.jmpi.Request;

import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.jmpi.coll.IntercommFixture.*;

/**
 * The persistent intercommunicator collectives ({@code ...Init}) as scenarios: each initialised once, then filled,
 * started and checked per epoch. Epoch e's data is the blocking scenarios' data of "world rank" {@code key(w, e)},
 * so every start moves other values, and the references are the same functions over the keys.
 */
final class IntercommPersistentScenarios
{
    /** Starts of each persistent collective. */
    static final int EPOCHS = 12;

    /** One process's persistent request, how to fill its buffers for an epoch, and how to check them after it. */
    record Persistent(Request request, IntConsumer fill, IntConsumer check)
    {
    }

    /** Initialises one persistent collective on this process. */
    @FunctionalInterface
    interface PersistentScenario
    {
        Persistent init(Ctx c);
    }

    private IntercommPersistentScenarios()
    {
    }

    static int key(final int world, final int epoch)
    {
        return world + 1000 * epoch;
    }

    static int[] keys(final int[] worlds, final int epoch)
    {
        return IntStream.of(worlds).map(w -> key(w, epoch)).toArray();
    }

    static void put(final long[] dst, final int at, final long[] src)
    {
        System.arraycopy(src, 0, dst, at, src.length);
    }

    static void reset(final long[] buf)
    {
        if (buf != null)
        {
            java.util.Arrays.fill(buf, GUARD);
        }
    }

    static PersistentScenario barrier(final AtomicInteger arrived)
    {
        return c ->
        {
            final int total = c.local().length + c.remote().length;
            return new Persistent(c.inter().barrierInit(), e -> arrived.incrementAndGet(),
                e -> assertTrue(arrived.get() >= total * (e + 1), "barrier " + e + ": a process left before every process had arrived"));
        };
    }

    static PersistentScenario bcast(final boolean rootInA, final int rootIdx, final int count)
    {
        return c ->
        {
            final int rootWorld = c.group(rootInA)[rootIdx];
            final int root = IntercommScenarios.rootArg(c, rootInA, rootIdx);
            final long[] buf = guarded(count + 2);
            return new Persistent(c.inter().bcastInit(buf, 1, count, Datatype.LONG, root), e ->
            {
                reset(buf);
                if (root == Intercomm.ROOT)
                {
                    put(buf, 1, values(key(rootWorld, e), count));
                }
            }, e ->
            {
                final String what = "bcastInit from " + rootWorld + " count " + count + " start " + e;
                if (root == Comm.PROC_NULL)
                {
                    assertGuarded(what, buf);
                }
                else
                {
                    assertBlocks(what, buf, new int[] {1}, new long[][] {values(key(rootWorld, e), count)});
                }
            });
        };
    }

    static PersistentScenario gather(final boolean rootInA, final int rootIdx, final int count)
    {
        return c ->
        {
            final int root = IntercommScenarios.rootArg(c, rootInA, rootIdx);
            final int r = c.remote().length;
            final long[] send = root >= 0 ? new long[count] : null;
            final long[] recv = root == Intercomm.ROOT ? guarded(r * count + 2) : null;
            return new Persistent(c.inter().gatherInit(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root), e ->
            {
                reset(recv);
                if (send != null)
                {
                    put(send, 0, values(key(c.world(), e), count));
                }
            }, e ->
            {
                if (recv != null)
                {
                    final long[][] want = new long[r][];
                    final int[] displs = new int[r];
                    for (int j = 0; j < r; j++)
                    {
                        want[j] = values(key(c.remote()[j], e), count);
                        displs[j] = 1 + j * count;
                    }
                    assertBlocks("gatherInit at " + c.world() + " start " + e, recv, displs, want);
                }
            });
        };
    }

    static PersistentScenario gatherv(final boolean rootInA, final int rootIdx, final int unit)
    {
        return c ->
        {
            final int root = IntercommScenarios.rootArg(c, rootInA, rootIdx);
            final int r = c.remote().length;
            final int[] counts = IntercommScenarios.vcounts(r, unit);
            final int[] displs = reversedDispls(counts);
            final int mine = IntercommScenarios.vcount(c.rank(), unit);
            final long[] send = root >= 0 ? new long[mine] : null;
            final long[] recv = root == Intercomm.ROOT ? guarded(span(counts)) : null;
            return new Persistent(c.inter().gathervInit(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG, root), e ->
            {
                reset(recv);
                if (send != null)
                {
                    put(send, 0, values(key(c.world(), e), mine));
                }
            }, e ->
            {
                if (recv != null)
                {
                    final long[][] want = new long[r][];
                    for (int j = 0; j < r; j++)
                    {
                        want[j] = values(key(c.remote()[j], e), counts[j]);
                    }
                    assertBlocks("gathervInit at " + c.world() + " start " + e, recv, displs, want);
                }
            });
        };
    }

    static PersistentScenario scatter(final boolean rootInA, final int rootIdx, final int count)
    {
        return c ->
        {
            final int root = IntercommScenarios.rootArg(c, rootInA, rootIdx);
            final int r = c.remote().length;
            final long[] send = root == Intercomm.ROOT ? new long[r * count] : null;
            final long[] recv = root >= 0 ? guarded(count + 2) : null;
            return new Persistent(c.inter().scatterInit(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root), e ->
            {
                reset(recv);
                if (send != null)
                {
                    for (int j = 0; j < r; j++)
                    {
                        put(send, j * count, values(key(c.remote()[j], e), count));
                    }
                }
            }, e ->
            {
                if (recv != null)
                {
                    assertBlocks("scatterInit to " + c.world() + " start " + e, recv, new int[] {1},
                        new long[][] {values(key(c.world(), e), count)});
                }
            });
        };
    }

    static PersistentScenario scatterv(final boolean rootInA, final int rootIdx, final int unit)
    {
        return c ->
        {
            final int root = IntercommScenarios.rootArg(c, rootInA, rootIdx);
            final int r = c.remote().length;
            final int[] counts = IntercommScenarios.vcounts(r, unit);
            final int[] displs = reversedDispls(counts);
            final int mine = IntercommScenarios.vcount(c.rank(), unit);
            final long[] send = root == Intercomm.ROOT ? guarded(span(counts)) : null;
            final long[] recv = root >= 0 ? guarded(mine + 2) : null;
            return new Persistent(c.inter().scattervInit(send, 0, counts, displs, Datatype.LONG, recv, 1, mine, Datatype.LONG, root), e ->
            {
                reset(recv);
                if (send != null)
                {
                    for (int j = 0; j < r; j++)
                    {
                        put(send, displs[j], values(key(c.remote()[j], e), counts[j]));
                    }
                }
            }, e ->
            {
                if (recv != null)
                {
                    assertBlocks("scattervInit to " + c.world() + " start " + e, recv, new int[] {1},
                        new long[][] {values(key(c.world(), e), mine)});
                }
            });
        };
    }

    static PersistentScenario reduce(final boolean rootInA, final int rootIdx, final int count, final boolean affine)
    {
        return c ->
        {
            final int root = IntercommScenarios.rootArg(c, rootInA, rootIdx);
            final int width = affine ? 2 : 1;
            final long[] send = root >= 0 ? new long[width * count] : null;
            final long[] recv = root == Intercomm.ROOT ? guarded(width * count + 2) : null;
            final Request request = affine ? c.inter().reduceInit(send, 0, recv, 1, count, PAIR, AFFINE, root)
                : c.inter().reduceInit(send, 0, recv, 1, count, Datatype.LONG, Op.SUM, root);
            return new Persistent(request, e ->
            {
                reset(recv);
                if (send != null)
                {
                    put(send, 0, affine ? affine(key(c.world(), e), count) : values(key(c.world(), e), count));
                }
            }, e ->
            {
                if (recv != null)
                {
                    final int[] from = keys(c.remote(), e);
                    assertBlocks("reduceInit(" + (affine ? "non-commutative" : "SUM") + ") at " + c.world() + " start " + e, recv,
                        new int[] {1}, new long[][] {affine ? affineFold(from, count) : sums(from, count)});
                }
            });
        };
    }

    static PersistentScenario allgather(final int count)
    {
        return c ->
        {
            final int r = c.remote().length;
            final long[] send = new long[count];
            final long[] recv = guarded(r * count + 2);
            return new Persistent(c.inter().allgatherInit(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG), e ->
            {
                reset(recv);
                put(send, 0, values(key(c.world(), e), count));
            }, e ->
            {
                final long[][] want = new long[r][];
                final int[] displs = new int[r];
                for (int j = 0; j < r; j++)
                {
                    want[j] = values(key(c.remote()[j], e), count);
                    displs[j] = 1 + j * count;
                }
                assertBlocks("allgatherInit at " + c.world() + " start " + e, recv, displs, want);
            });
        };
    }

    static PersistentScenario allgatherv(final int unit)
    {
        return c ->
        {
            final int r = c.remote().length;
            final int[] counts = IntercommScenarios.vcounts(r, unit);
            final int[] displs = reversedDispls(counts);
            final int mine = IntercommScenarios.vcount(c.rank(), unit);
            final long[] send = new long[mine];
            final long[] recv = guarded(span(counts));
            return new Persistent(c.inter().allgathervInit(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG), e ->
            {
                reset(recv);
                put(send, 0, values(key(c.world(), e), mine));
            }, e ->
            {
                final long[][] want = new long[r][];
                for (int j = 0; j < r; j++)
                {
                    want[j] = values(key(c.remote()[j], e), counts[j]);
                }
                assertBlocks("allgathervInit at " + c.world() + " start " + e, recv, displs, want);
            });
        };
    }

    static PersistentScenario alltoall(final int count)
    {
        return c ->
        {
            final int r = c.remote().length;
            final long[] send = new long[r * count];
            final long[] recv = guarded(r * count + 2);
            return new Persistent(c.inter().alltoallInit(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG), e ->
            {
                reset(recv);
                for (int j = 0; j < r; j++)
                {
                    for (int i = 0; i < count; i++)
                    {
                        send[j * count + i] = pairValue(key(c.world(), e), c.remote()[j], i);
                    }
                }
            }, e ->
            {
                final long[][] want = new long[r][count];
                final int[] displs = new int[r];
                for (int j = 0; j < r; j++)
                {
                    for (int i = 0; i < count; i++)
                    {
                        want[j][i] = pairValue(key(c.remote()[j], e), c.world(), i);
                    }
                    displs[j] = 1 + j * count;
                }
                assertBlocks("alltoallInit at " + c.world() + " count " + count + " start " + e, recv, displs, want);
            });
        };
    }

    /** alltoallvInit, or alltoallwInit with {@code w} (same blocks, displacements in bytes). */
    static PersistentScenario alltoallv(final int unit, final boolean w)
    {
        return c ->
        {
            final int r = c.remote().length;
            final int[] counts = IntercommScenarios.pairCounts(c, unit);
            final int[] displs = reversedDispls(counts);
            final int[] rdispls = new int[r];
            final long[] sbytes = new long[r];
            final long[] rbytes = new long[r];
            final Datatype[] types = new Datatype[r];
            for (int j = 0; j < r; j++)
            {
                rdispls[j] = 1 + IntStream.of(counts).limit(j).sum();
                sbytes[j] = displs[j] * 8L;
                rbytes[j] = rdispls[j] * 8L;
                types[j] = Datatype.LONG;
            }
            final long[] send = guarded(span(counts));
            final long[] recv = guarded(IntStream.of(counts).sum() + 2);
            final Request request = w ? c.inter().alltoallwInit(send, 0, counts, sbytes, types, recv, 0, counts, rbytes, types)
                : c.inter().alltoallvInit(send, 0, counts, displs, Datatype.LONG, recv, 0, counts, rdispls, Datatype.LONG);
            return new Persistent(request, e ->
            {
                reset(recv);
                for (int j = 0; j < r; j++)
                {
                    for (int i = 0; i < counts[j]; i++)
                    {
                        send[displs[j] + i] = pairValue(key(c.world(), e), c.remote()[j], i);
                    }
                }
            }, e ->
            {
                final long[][] want = new long[r][];
                for (int j = 0; j < r; j++)
                {
                    want[j] = new long[counts[j]];
                    for (int i = 0; i < counts[j]; i++)
                    {
                        want[j][i] = pairValue(key(c.remote()[j], e), c.world(), i);
                    }
                }
                assertBlocks((w ? "alltoallwInit" : "alltoallvInit") + " at " + c.world() + " start " + e, recv, rdispls, want);
            });
        };
    }

    static PersistentScenario allreduce(final int count, final boolean affine)
    {
        return c ->
        {
            final int width = affine ? 2 : 1;
            final long[] send = new long[width * count];
            final long[] recv = guarded(width * count + 2);
            final Request request = affine ? c.inter().allreduceInit(send, 0, recv, 1, count, PAIR, AFFINE)
                : c.inter().allreduceInit(send, 0, recv, 1, count, Datatype.LONG, Op.SUM);
            return new Persistent(request, e ->
            {
                reset(recv);
                put(send, 0, affine ? affine(key(c.world(), e), count) : values(key(c.world(), e), count));
            }, e ->
            {
                final int[] from = keys(c.remote(), e);
                assertBlocks("allreduceInit(" + (affine ? "non-commutative" : "SUM") + ") at " + c.world() + " start " + e, recv,
                    new int[] {1}, new long[][] {affine ? affineFold(from, count) : sums(from, count)});
            });
        };
    }

    /** Vectors of L_A * L_B * k items in both groups, as {@link Scenarios#reduceScatterBlockSum}. */
    static PersistentScenario reduceScatterBlock(final int k, final boolean affine)
    {
        return c ->
        {
            final int width = affine ? 2 : 1;
            final int l = c.local().length;
            final int block = c.remote().length * k;
            final long[] send = new long[width * l * block];
            final long[] recv = guarded(width * block + 2);
            final Request request = affine ? c.inter().reduceScatterBlockInit(send, 0, recv, 1, block, PAIR, AFFINE)
                : c.inter().reduceScatterBlockInit(send, 0, recv, 1, block, Datatype.LONG, Op.SUM);
            return new Persistent(request, e ->
            {
                reset(recv);
                put(send, 0, affine ? affine(key(c.world(), e), l * block) : values(key(c.world(), e), l * block));
            }, e ->
            {
                final int[] from = keys(c.remote(), e);
                final long[] all = affine ? affineFold(from, l * block) : sums(from, l * block);
                assertBlocks("reduceScatterBlockInit(" + (affine ? "non-commutative" : "SUM") + ") at " + c.world() + " start " + e,
                    recv, new int[] {1}, new long[][] {java.util.Arrays.copyOfRange(all, width * c.rank() * block,
                        width * (c.rank() + 1) * block)});
            });
        };
    }

    static PersistentScenario reduceScatter(final int total)
    {
        return c ->
        {
            final int[] counts = IntercommScenarios.unevenCounts(c.local().length, total);
            final int mine = counts[c.rank()];
            final int start = IntStream.of(counts).limit(c.rank()).sum();
            final long[] send = new long[total];
            final long[] recv = guarded(mine + 2);
            return new Persistent(c.inter().reduceScatterInit(send, 0, recv, 1, counts, Datatype.LONG, Op.SUM), e ->
            {
                reset(recv);
                put(send, 0, values(key(c.world(), e), total));
            }, e ->
            {
                final long[] all = sums(keys(c.remote(), e), total);
                assertBlocks("reduceScatterInit(SUM) at " + c.world() + " start " + e, recv, new int[] {1},
                    new long[][] {java.util.Arrays.copyOfRange(all, start, start + mine)});
            });
        };
    }

    /** The persistent scenarios, in the same order on every process. */
    static List<PersistentScenario> persistentScenarios(final Ctx c, final AtomicInteger arrived)
    {
        final List<PersistentScenario> list = new ArrayList<>();
        list.add(barrier(arrived));
        for (final boolean rootInA : new boolean[] {true, false})
        {
            final int rootGroupSize = c.group(rootInA).length;
            for (final int rootIdx : rootGroupSize > 1 ? new int[] {0, rootGroupSize - 1} : new int[] {0})
            {
                list.add(bcast(rootInA, rootIdx, 3));
                list.add(gather(rootInA, rootIdx, 3));
                list.add(gatherv(rootInA, rootIdx, 2));
                list.add(scatter(rootInA, rootIdx, 3));
                list.add(scatterv(rootInA, rootIdx, 2));
                list.add(reduce(rootInA, rootIdx, 3, false));
                list.add(reduce(rootInA, rootIdx, 3, true));
            }
            list.add(bcast(rootInA, 0, LARGE));
        }
        for (final int count : new int[] {1, 4})
        {
            list.add(allgather(count));
            list.add(allgatherv(count));
            list.add(alltoall(count));
            list.add(alltoallv(count, false));
            list.add(alltoallv(count, true));
            list.add(allreduce(count, false));
            list.add(allreduce(count, true));
            list.add(reduceScatterBlock(count, false));
            list.add(reduceScatterBlock(count, true));
            list.add(reduceScatter(count * 5 + 1));
        }
        list.add(alltoall(LARGE));
        return list;
    }
}
