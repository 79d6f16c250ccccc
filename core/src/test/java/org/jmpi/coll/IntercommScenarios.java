package org.jmpi.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intercomm;
import org.jmpi.Op;
import org.jmpi.Request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.jmpi.coll.IntercommFixture.*;

/**
 * The intercommunicator collectives as scenarios, blocking or nonblocking, each with its check against the reference
 * ({@link IntercommFixture}); {@link #scenarios} lists them in the same order on every process.
 */
final class IntercommScenarios
{
    /** Posts one collective (blocking, or nonblocking with the request added to {@code pending}) and returns its check. */
    @FunctionalInterface
    interface Scenario
    {
        Runnable post(Ctx c, boolean nonblocking, List<Request> pending);
    }

    private IntercommScenarios()
    {
    }

    /** The root argument of this process: ROOT / PROC_NULL in the root's group, the root's rank in the other. */
    static int rootArg(final Ctx c, final boolean rootInA, final int rootIdx)
    {
        if (c.inA() == rootInA)
        {
            return c.rank() == rootIdx ? Intercomm.ROOT : Comm.PROC_NULL;
        }
        return rootIdx;
    }

    static Scenario barrier(final AtomicInteger arrived)
    {
        return (c, nb, p) ->
        {
            arrived.incrementAndGet();
            post(nb, p, () -> c.inter().barrier(), () -> c.inter().ibarrier());
            final int total = c.local().length + c.remote().length;
            return () -> assertEquals(total, arrived.get(), "barrier: a process left before every process had arrived");
        };
    }

    static Scenario bcast(final boolean rootInA, final int rootIdx, final int count)
    {
        return (c, nb, p) ->
        {
            final int rootWorld = c.group(rootInA)[rootIdx];
            final int root = rootArg(c, rootInA, rootIdx);
            final long[] buf = guarded(count + 2);
            if (root == Intercomm.ROOT)
            {
                System.arraycopy(values(rootWorld, count), 0, buf, 1, count);
            }
            post(nb, p, () -> c.inter().bcast(buf, 1, count, Datatype.LONG, root),
                () -> c.inter().ibcast(buf, 1, count, Datatype.LONG, root));
            return () ->
            {
                final String what = "bcast from " + rootWorld + " count " + count;
                if (root == Comm.PROC_NULL)
                {
                    assertGuarded(what, buf);
                }
                else
                {
                    assertBlocks(what, buf, new int[] {1}, new long[][] {values(rootWorld, count)});
                }
            };
        };
    }

    static Scenario gather(final boolean rootInA, final int rootIdx, final int count)
    {
        return (c, nb, p) ->
        {
            final int root = rootArg(c, rootInA, rootIdx);
            final int r = c.remote().length;
            final long[] send = root >= 0 ? values(c.world(), count) : null;
            final long[] recv = root == Intercomm.ROOT ? guarded(r * count + 2) : null;
            post(nb, p, () -> c.inter().gather(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root),
                () -> c.inter().igather(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root));
            return () ->
            {
                if (root == Intercomm.ROOT)
                {
                    final long[][] want = new long[r][];
                    final int[] displs = new int[r];
                    for (int j = 0; j < r; j++)
                    {
                        want[j] = values(c.remote()[j], count);
                        displs[j] = 1 + j * count;
                    }
                    assertBlocks("gather at " + c.world() + " count " + count, recv, displs, want);
                }
            };
        };
    }

    /** Rank k of a group contributes ((k + 1) % 3) * unit items: zero blocks included. */
    static int vcount(final int k, final int unit)
    {
        return (k + 1) % 3 * unit;
    }

    static int[] vcounts(final int blocks, final int unit)
    {
        return IntStream.range(0, blocks).map(k -> vcount(k, unit)).toArray();
    }

    static Scenario gatherv(final boolean rootInA, final int rootIdx, final int unit)
    {
        return (c, nb, p) ->
        {
            final int root = rootArg(c, rootInA, rootIdx);
            final int r = c.remote().length;
            final int[] counts = vcounts(r, unit);
            final int[] displs = reversedDispls(counts);
            final int mine = vcount(c.rank(), unit);
            final long[] send = root >= 0 ? values(c.world(), mine) : null;
            final long[] recv = root == Intercomm.ROOT ? guarded(span(counts)) : null;
            post(nb, p, () -> c.inter().gatherv(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG, root),
                () -> c.inter().igatherv(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG, root));
            return () ->
            {
                if (root == Intercomm.ROOT)
                {
                    final long[][] want = new long[r][];
                    for (int j = 0; j < r; j++)
                    {
                        want[j] = values(c.remote()[j], counts[j]);
                    }
                    assertBlocks("gatherv at " + c.world() + " unit " + unit, recv, displs, want);
                }
            };
        };
    }

    static Scenario scatter(final boolean rootInA, final int rootIdx, final int count)
    {
        return (c, nb, p) ->
        {
            final int root = rootArg(c, rootInA, rootIdx);
            final int r = c.remote().length;
            long[] send = null;
            if (root == Intercomm.ROOT)
            {
                send = new long[r * count];
                for (int j = 0; j < r; j++)
                {
                    System.arraycopy(values(c.remote()[j], count), 0, send, j * count, count);
                }
            }
            final long[] s = send;
            final long[] recv = root >= 0 ? guarded(count + 2) : null;
            post(nb, p, () -> c.inter().scatter(s, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root),
                () -> c.inter().iscatter(s, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root));
            return () ->
            {
                if (root >= 0)
                {
                    assertBlocks("scatter to " + c.world() + " count " + count, recv, new int[] {1},
                        new long[][] {values(c.world(), count)});
                }
            };
        };
    }

    static Scenario scatterv(final boolean rootInA, final int rootIdx, final int unit)
    {
        return (c, nb, p) ->
        {
            final int root = rootArg(c, rootInA, rootIdx);
            final int r = c.remote().length;
            final int[] counts = vcounts(r, unit);
            final int[] displs = reversedDispls(counts);
            final long[] send = root == Intercomm.ROOT ? guarded(span(counts)) : null;
            if (send != null)
            {
                for (int j = 0; j < r; j++)
                {
                    System.arraycopy(values(c.remote()[j], counts[j]), 0, send, displs[j], counts[j]);
                }
            }
            final int mine = vcount(c.rank(), unit);
            final long[] recv = root >= 0 ? guarded(mine + 2) : null;
            post(nb, p, () -> c.inter().scatterv(send, 0, counts, displs, Datatype.LONG, recv, 1, mine, Datatype.LONG, root),
                () -> c.inter().iscatterv(send, 0, counts, displs, Datatype.LONG, recv, 1, mine, Datatype.LONG, root));
            return () ->
            {
                if (root >= 0)
                {
                    assertBlocks("scatterv to " + c.world() + " unit " + unit, recv, new int[] {1},
                        new long[][] {values(c.world(), mine)});
                }
            };
        };
    }

    static Scenario reduceSum(final boolean rootInA, final int rootIdx, final int count)
    {
        return (c, nb, p) ->
        {
            final int root = rootArg(c, rootInA, rootIdx);
            final long[] send = root >= 0 ? values(c.world(), count) : null;
            final long[] recv = root == Intercomm.ROOT ? guarded(count + 2) : null;
            post(nb, p, () -> c.inter().reduce(send, 0, recv, 1, count, Datatype.LONG, Op.SUM, root),
                () -> c.inter().ireduce(send, 0, recv, 1, count, Datatype.LONG, Op.SUM, root));
            return () ->
            {
                if (root == Intercomm.ROOT)
                {
                    assertBlocks("reduce(SUM) at " + c.world() + " count " + count, recv, new int[] {1},
                        new long[][] {sums(c.remote(), count)});
                }
            };
        };
    }

    static Scenario reduceAffine(final boolean rootInA, final int rootIdx, final int count)
    {
        return (c, nb, p) ->
        {
            final int root = rootArg(c, rootInA, rootIdx);
            final long[] send = root >= 0 ? affine(c.world(), count) : null;
            final long[] recv = root == Intercomm.ROOT ? guarded(2 * count + 2) : null;
            post(nb, p, () -> c.inter().reduce(send, 0, recv, 2, count, PAIR, AFFINE, root),
                () -> c.inter().ireduce(send, 0, recv, 2, count, PAIR, AFFINE, root));
            return () ->
            {
                if (root == Intercomm.ROOT)
                {
                    assertBlocks("reduce(non-commutative) at " + c.world() + " count " + count, recv, new int[] {2},
                        new long[][] {affineFold(c.remote(), count)});
                }
            };
        };
    }

    static Scenario allgather(final int count)
    {
        return (c, nb, p) ->
        {
            final int r = c.remote().length;
            final long[] send = values(c.world(), count);
            final long[] recv = guarded(r * count + 2);
            post(nb, p, () -> c.inter().allgather(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG),
                () -> c.inter().iallgather(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG));
            return () ->
            {
                final long[][] want = new long[r][];
                final int[] displs = new int[r];
                for (int j = 0; j < r; j++)
                {
                    want[j] = values(c.remote()[j], count);
                    displs[j] = 1 + j * count;
                }
                assertBlocks("allgather at " + c.world() + " count " + count, recv, displs, want);
            };
        };
    }

    static Scenario allgatherv(final int unit)
    {
        return (c, nb, p) ->
        {
            final int r = c.remote().length;
            final int[] counts = vcounts(r, unit);
            final int[] displs = reversedDispls(counts);
            final int mine = vcount(c.rank(), unit);
            final long[] send = values(c.world(), mine);
            final long[] recv = guarded(span(counts));
            post(nb, p, () -> c.inter().allgatherv(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG),
                () -> c.inter().iallgatherv(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG));
            return () ->
            {
                final long[][] want = new long[r][];
                for (int j = 0; j < r; j++)
                {
                    want[j] = values(c.remote()[j], counts[j]);
                }
                assertBlocks("allgatherv at " + c.world() + " unit " + unit, recv, displs, want);
            };
        };
    }

    static Scenario alltoall(final int count)
    {
        return (c, nb, p) ->
        {
            final int r = c.remote().length;
            final long[] send = new long[r * count];
            for (int j = 0; j < r; j++)
            {
                for (int i = 0; i < count; i++)
                {
                    send[j * count + i] = pairValue(c.world(), c.remote()[j], i);
                }
            }
            final long[] recv = guarded(r * count + 2);
            post(nb, p, () -> c.inter().alltoall(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG),
                () -> c.inter().ialltoall(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG));
            return () ->
            {
                final long[][] want = new long[r][count];
                final int[] displs = new int[r];
                for (int j = 0; j < r; j++)
                {
                    for (int i = 0; i < count; i++)
                    {
                        want[j][i] = pairValue(c.remote()[j], c.world(), i);
                    }
                    displs[j] = 1 + j * count;
                }
                assertBlocks("alltoall at " + c.world() + " count " + count, recv, displs, want);
            };
        };
    }

    /** The pair (local rank k of one group, local rank j of the other) exchanges ((k + j) % 3) * unit items each way. */
    static int[] pairCounts(final Ctx c, final int unit)
    {
        return IntStream.range(0, c.remote().length).map(j -> (c.rank() + j) % 3 * unit).toArray();
    }

    static Scenario alltoallv(final int unit)
    {
        return (c, nb, p) ->
        {
            final int r = c.remote().length;
            final int[] counts = pairCounts(c, unit);
            final int[] displs = reversedDispls(counts);
            final long[] send = guarded(span(counts));
            for (int j = 0; j < r; j++)
            {
                for (int i = 0; i < counts[j]; i++)
                {
                    send[displs[j] + i] = pairValue(c.world(), c.remote()[j], i);
                }
            }
            final int[] rdispls = new int[r];
            for (int j = 0; j < r; j++)
            {
                rdispls[j] = 1 + IntStream.of(counts).limit(j).sum();
            }
            final long[] recv = guarded(IntStream.of(counts).sum() + 2);
            post(nb, p, () -> c.inter().alltoallv(send, 0, counts, displs, Datatype.LONG, recv, 0, counts, rdispls, Datatype.LONG),
                () -> c.inter().ialltoallv(send, 0, counts, displs, Datatype.LONG, recv, 0, counts, rdispls, Datatype.LONG));
            return () -> assertBlocks("alltoallv at " + c.world() + " unit " + unit, recv, rdispls, expectedPairs(c, counts));
        };
    }

    static Scenario alltoallw(final int unit)
    {
        return (c, nb, p) ->
        {
            final int r = c.remote().length;
            final int[] counts = pairCounts(c, unit);
            final int[] displs = reversedDispls(counts);
            final long[] send = guarded(span(counts));
            final long[] sbytes = new long[r];
            final long[] rbytes = new long[r];
            final int[] rdispls = new int[r];
            final Datatype[] types = new Datatype[r];
            for (int j = 0; j < r; j++)
            {
                for (int i = 0; i < counts[j]; i++)
                {
                    send[displs[j] + i] = pairValue(c.world(), c.remote()[j], i);
                }
                sbytes[j] = displs[j] * 8L;
                rdispls[j] = 1 + IntStream.of(counts).limit(j).sum();
                rbytes[j] = rdispls[j] * 8L;
                types[j] = Datatype.LONG;
            }
            final long[] recv = guarded(IntStream.of(counts).sum() + 2);
            post(nb, p, () -> c.inter().alltoallw(send, 0, counts, sbytes, types, recv, 0, counts, rbytes, types),
                () -> c.inter().ialltoallw(send, 0, counts, sbytes, types, recv, 0, counts, rbytes, types));
            return () -> assertBlocks("alltoallw at " + c.world() + " unit " + unit, recv, rdispls, expectedPairs(c, counts));
        };
    }

    static long[][] expectedPairs(final Ctx c, final int[] counts)
    {
        final long[][] want = new long[counts.length][];
        for (int j = 0; j < counts.length; j++)
        {
            want[j] = new long[counts[j]];
            for (int i = 0; i < counts[j]; i++)
            {
                want[j][i] = pairValue(c.remote()[j], c.world(), i);
            }
        }
        return want;
    }

    static Scenario allreduceSum(final int count)
    {
        return (c, nb, p) ->
        {
            final long[] send = values(c.world(), count);
            final long[] recv = guarded(count + 2);
            post(nb, p, () -> c.inter().allreduce(send, 0, recv, 1, count, Datatype.LONG, Op.SUM),
                () -> c.inter().iallreduce(send, 0, recv, 1, count, Datatype.LONG, Op.SUM));
            return () -> assertBlocks("allreduce(SUM) at " + c.world() + " count " + count, recv, new int[] {1},
                new long[][] {sums(c.remote(), count)});
        };
    }

    static Scenario allreduceAffine(final int count)
    {
        return (c, nb, p) ->
        {
            final long[] send = affine(c.world(), count);
            final long[] recv = guarded(2 * count + 2);
            post(nb, p, () -> c.inter().allreduce(send, 0, recv, 1, count, PAIR, AFFINE),
                () -> c.inter().iallreduce(send, 0, recv, 1, count, PAIR, AFFINE));
            return () -> assertBlocks("allreduce(non-commutative) at " + c.world() + " count " + count, recv, new int[] {1},
                new long[][] {affineFold(c.remote(), count)});
        };
    }

    /** Vectors of L_A * L_B * k items in both groups: blocks of R * k items here (L * (R * k) = the same total). */
    static Scenario reduceScatterBlockSum(final int k)
    {
        return (c, nb, p) ->
        {
            final int l = c.local().length;
            final int r = c.remote().length;
            final int block = r * k;
            final long[] send = values(c.world(), l * block);
            final long[] recv = guarded(block + 2);
            post(nb, p, () -> c.inter().reduceScatterBlock(send, 0, recv, 1, block, Datatype.LONG, Op.SUM),
                () -> c.inter().ireduceScatterBlock(send, 0, recv, 1, block, Datatype.LONG, Op.SUM));
            return () ->
            {
                final long[] all = sums(c.remote(), l * block);
                assertBlocks("reduceScatterBlock(SUM) at " + c.world() + " k " + k, recv, new int[] {1},
                    new long[][] {java.util.Arrays.copyOfRange(all, c.rank() * block, (c.rank() + 1) * block)});
            };
        };
    }

    static Scenario reduceScatterBlockAffine(final int k)
    {
        return (c, nb, p) ->
        {
            final int l = c.local().length;
            final int r = c.remote().length;
            final int block = r * k;
            final long[] send = affine(c.world(), l * block);
            final long[] recv = guarded(2 * block + 2);
            post(nb, p, () -> c.inter().reduceScatterBlock(send, 0, recv, 1, block, PAIR, AFFINE),
                () -> c.inter().ireduceScatterBlock(send, 0, recv, 1, block, PAIR, AFFINE));
            return () ->
            {
                final long[] all = affineFold(c.remote(), l * block);
                assertBlocks("reduceScatterBlock(non-commutative) at " + c.world() + " k " + k, recv, new int[] {1},
                    new long[][] {java.util.Arrays.copyOfRange(all, 2 * c.rank() * block, 2 * (c.rank() + 1) * block)});
            };
        };
    }

    /** Counts of a group of {@code size} summing to {@code total}: rank 0 gets none, the last one the remainder. */
    static int[] unevenCounts(final int size, final int total)
    {
        final int[] counts = new int[size];
        if (size == 1)
        {
            counts[0] = total;
            return counts;
        }
        final int base = total / size;
        int given = 0;
        for (int i = 1; i < size - 1; i++)
        {
            counts[i] = base + (i % 2);
            given += counts[i];
        }
        counts[size - 1] = Math.max(0, total - given);
        if (given > total)
        {
            java.util.Arrays.fill(counts, 0);
            counts[size - 1] = total;
        }
        return counts;
    }

    static Scenario reduceScatterSum(final int total)
    {
        return (c, nb, p) ->
        {
            final int[] counts = unevenCounts(c.local().length, total);
            assertEquals(total, IntStream.of(counts).sum());
            final int mine = counts[c.rank()];
            final int start = IntStream.of(counts).limit(c.rank()).sum();
            final long[] send = values(c.world(), total);
            final long[] recv = guarded(mine + 2);
            post(nb, p, () -> c.inter().reduceScatter(send, 0, recv, 1, counts, Datatype.LONG, Op.SUM),
                () -> c.inter().ireduceScatter(send, 0, recv, 1, counts, Datatype.LONG, Op.SUM));
            return () ->
            {
                final long[] all = sums(c.remote(), total);
                assertBlocks("reduceScatter(SUM) at " + c.world() + " total " + total, recv, new int[] {1},
                    new long[][] {java.util.Arrays.copyOfRange(all, start, start + mine)});
            };
        };
    }

    /** The same list, in the same order, on every process. */
    static List<Scenario> scenarios(final Ctx c, final AtomicInteger arrived)
    {
        final List<Scenario> list = new ArrayList<>();
        list.add(barrier(arrived));
        for (final boolean rootInA : new boolean[] {true, false})
        {
            final int rootGroupSize = c.group(rootInA).length;
            for (final int rootIdx : rootGroupSize > 1 ? new int[] {0, rootGroupSize - 1} : new int[] {0})
            {
                for (final int count : new int[] {0, 3})
                {
                    list.add(bcast(rootInA, rootIdx, count));
                    list.add(gather(rootInA, rootIdx, count));
                    list.add(gatherv(rootInA, rootIdx, count));
                    list.add(scatter(rootInA, rootIdx, count));
                    list.add(scatterv(rootInA, rootIdx, count));
                    list.add(reduceSum(rootInA, rootIdx, count));
                    list.add(reduceAffine(rootInA, rootIdx, count));
                }
            }
            list.add(bcast(rootInA, 0, LARGE));
        }
        for (final int count : new int[] {0, 1, 4})
        {
            list.add(allgather(count));
            list.add(allgatherv(count));
            list.add(alltoall(count));
            list.add(alltoallv(count));
            list.add(alltoallw(count));
            list.add(allreduceSum(count));
            list.add(allreduceAffine(count));
            list.add(reduceScatterBlockSum(count));
            list.add(reduceScatterBlockAffine(count));
            list.add(reduceScatterSum(count * 5 + 3 * count % 2));
        }
        list.add(alltoall(LARGE));
        list.add(reduceScatterSum(0));
        return list;
    }
}
