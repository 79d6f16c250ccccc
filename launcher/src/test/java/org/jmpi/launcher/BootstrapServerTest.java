package org.jmpi.launcher;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.EnvBootstrap;
import org.jmpi.internal.bootstrap.TcpBootstrap;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.Params;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class BootstrapServerTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);

    private final LinkedBlockingQueue<String> aborts = new LinkedBlockingQueue<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void closeAll() throws Exception
    {
        for (final AutoCloseable closeable : closeables)
        {
            closeable.close();
        }
        executor.shutdownNow();
    }

    @Test
    void shouldExchangeValuesBetweenRanks()
    {
        final BootstrapServer server = server(2);
        final Bootstrap rank0 = connect(server, 0);
        final Bootstrap rank1 = connect(server, 1);
        rank0.put("addr.0", bytes("zero"));
        assertArrayEquals(bytes("zero"), rank1.get("addr.0", WAIT_NS));
        assertEquals(1, rank1.rank());
        assertEquals(2, rank1.size());
        assertEquals(server.jobId(), rank1.jobId());
    }

    @Test
    void shouldBlockGetUntilKeyIsPublished() throws Exception
    {
        final BootstrapServer server = server(2);
        final Bootstrap rank0 = connect(server, 0);
        final Bootstrap rank1 = connect(server, 1);
        final CompletableFuture<byte[]> got = CompletableFuture.supplyAsync(() -> rank1.get("late", WAIT_NS), executor);
        assertFalse(got.isDone());
        rank0.put("late", bytes("value"));
        assertArrayEquals(bytes("value"), got.get(20, TimeUnit.SECONDS));
    }

    @Test
    void shouldTimeOutGetNamingTheKey()
    {
        final BootstrapServer server = server(1);
        final Bootstrap rank0 = connect(server, 0);
        final MpiException ex = assertThrows(MpiException.class, () -> rank0.get("never", TimeUnit.MILLISECONDS.toNanos(20)));
        assertEquals(ErrorClass.ERR_OTHER, ex.errorClass());
        assertTrue(ex.getMessage().contains("never") && ex.getMessage().contains("timed out"), ex.getMessage());
    }

    @Test
    void shouldReleaseFenceOnlyWhenEveryRankArrivesAndAllowRepeats() throws Exception
    {
        final int size = 3;
        final BootstrapServer server = server(size);
        final List<Bootstrap> ranks = new ArrayList<>();
        for (int rank = 0; rank < size; rank++)
        {
            ranks.add(connect(server, rank));
        }
        for (int round = 0; round < 3; round++)
        {
            final CompletableFuture<Void> first = CompletableFuture.runAsync(() -> ranks.get(0).fence(WAIT_NS), executor);
            final CompletableFuture<Void> second = CompletableFuture.runAsync(() -> ranks.get(1).fence(WAIT_NS), executor);
            assertFalse(first.isDone() || second.isDone());
            ranks.get(2).fence(WAIT_NS);
            first.get(20, TimeUnit.SECONDS);
            second.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldFailWaitingFenceWhenARankDiesBeforeFinalize() throws Exception
    {
        final BootstrapServer server = server(3);
        final Bootstrap rank0 = connect(server, 0);
        connect(server, 1);
        final Bootstrap rank2 = connect(server, 2);
        rank2.put(BootstrapEnv.FINALIZED_KEY_PREFIX + 2, new byte[0]);
        server.rankExited(2, "exited with code 0");
        final CompletableFuture<Void> fence = CompletableFuture.runAsync(() -> rank0.fence(WAIT_NS), executor);
        server.rankExited(1, "killed by signal 9 (SIGKILL)");
        final ExecutionException ex = assertThrows(ExecutionException.class, () -> fence.get(20, TimeUnit.SECONDS));
        final MpiException cause = assertInstanceOf(MpiException.class, ex.getCause());
        assertEquals(ErrorClass.ERR_PROC_ABORTED, cause.errorClass());
        assertTrue(cause.getMessage().contains("rank 1 killed by signal 9 (SIGKILL)"), cause.getMessage());
        assertThrows(MpiException.class, () -> rank0.get("missing", WAIT_NS));
    }

    @Test
    void shouldTrackInitAndFinalizeKeys()
    {
        final BootstrapServer server = server(2);
        final Bootstrap rank1 = connect(server, 1);
        assertFalse(server.initialized(1));
        rank1.put(BootstrapEnv.INIT_KEY_PREFIX + 1, new byte[0]);
        assertTrue(server.initialized(1));
        assertFalse(server.finalized(1));
        rank1.put(BootstrapEnv.FINALIZED_KEY_PREFIX + 1, new byte[0]);
        assertTrue(server.finalized(1));
        assertFalse(server.initialized(0));
    }

    @Test
    void shouldReportAbortAndFailOtherRanksWaits() throws Exception
    {
        final BootstrapServer server = server(2);
        final Bootstrap rank0 = connect(server, 0);
        final Bootstrap rank1 = connect(server, 1);
        final CompletableFuture<byte[]> waiting = CompletableFuture.supplyAsync(() -> rank0.get("never", WAIT_NS), executor);
        rank1.abort(7, "out of cheese");
        assertEquals("1:7:out of cheese", aborts.poll(20, TimeUnit.SECONDS));
        final ExecutionException ex = assertThrows(ExecutionException.class, () -> waiting.get(20, TimeUnit.SECONDS));
        assertTrue(ex.getCause().getMessage().contains("rank 1 called abort with code 7: out of cheese"), ex.getCause().getMessage());
    }

    @Test
    void shouldDeliverAbortWhileTheSameRankIsBlockedInFence() throws Exception
    {
        final BootstrapServer server = server(2);
        final Bootstrap rank0 = connect(server, 0);
        connect(server, 1);
        final CompletableFuture<Void> fence = CompletableFuture.runAsync(() -> rank0.fence(WAIT_NS), executor);
        rank0.abort(3, "from another thread");
        assertEquals("0:3:from another thread", aborts.poll(20, TimeUnit.SECONDS));
        assertThrows(ExecutionException.class, () -> fence.get(20, TimeUnit.SECONDS));
    }

    @Test
    void shouldRefuseWrongTicketWrongJobIdAndRankOutOfRangeAlikeSayingOnlyRefused()
    {
        final BootstrapServer server = server(2);
        final List<MpiException> refusals = List.of(
            assertThrows(MpiException.class, () -> TcpBootstrap.connect(server.address(), 0, 2, server.jobId(), BootstrapAuth.newSecret(), WAIT_NS)),
            assertThrows(MpiException.class, () -> TcpBootstrap.connect(server.address(), 0, 2, "otherjob", server.ticket(0), WAIT_NS)),
            assertThrows(MpiException.class, () -> TcpBootstrap.connect(server.address(), 2, 3, server.jobId(), server.ticket(1), WAIT_NS)),
            assertThrows(MpiException.class, () -> TcpBootstrap.connect(server.address(), 1, 2, server.jobId(), server.ticket(0), WAIT_NS)));
        for (final MpiException ex : refusals)
        {
            assertEquals(ErrorClass.ERR_OTHER, ex.errorClass());
            assertTrue(ex.getMessage().contains("authentication failed") && ex.getMessage().contains(": refused"), ex.getMessage());
            assertFalse(ex.getMessage().contains("size=2") || ex.getMessage().contains("wrong"), ex.getMessage());
        }
        connect(server, 0);
    }

    @Test
    void shouldSpendTheTicketOnTheFirstConnectionSoAnInheritedCopyOpensNothing()
    {
        final BootstrapServer server = server(2);
        final Map<String, String> env = new HashMap<>(server.rankEnvironment(1));
        env.remove(BootstrapEnv.LAUNCHER_PID_ENV_NAME);
        final Bootstrap rank1 = EnvBootstrap.fromEnvironment(env);
        closeables.add(rank1);
        final MpiException child = assertThrows(MpiException.class, () -> EnvBootstrap.fromEnvironment(env));
        assertTrue(child.getMessage().contains("refused") && child.getMessage().contains("credential=ticket"), child.getMessage());
        rank1.put("still", bytes("works"));
        assertArrayEquals(bytes("works"), rank1.get("still", WAIT_NS));
    }

    @Test
    void shouldOpenFurtherConnectionsOfARankWithItsRankKeyUpToTheCap()
    {
        final BootstrapServer server = server(2);
        final TcpBootstrap rank0 = (TcpBootstrap)connect(server, 0);
        final List<TcpBootstrap> extra = new ArrayList<>();
        for (int i = 1; i < BootstrapServer.MAX_CONNECTIONS_PER_RANK; i++)
        {
            final TcpBootstrap more = rank0.newConnection(WAIT_NS);
            closeables.add(0, more);
            extra.add(more);
        }
        extra.get(0).put("from.extra", bytes("x"));
        assertArrayEquals(bytes("x"), rank0.get("from.extra", WAIT_NS));
        final MpiException over = assertThrows(MpiException.class, () -> rank0.newConnection(WAIT_NS));
        assertTrue(over.getMessage().contains("refused"), over.getMessage());
        extra.get(0).close();
        final long deadline = System.nanoTime() + WAIT_NS;
        TcpBootstrap again = null;
        while (again == null)
        {
            try
            {
                again = rank0.newConnection(WAIT_NS);
            }
            catch (final MpiException ex)
            {
                // The closed connection's thread may not have ended yet.
                assertTrue(System.nanoTime() - deadline < 0, "no connection after one was closed: " + ex.getMessage());
                Thread.onSpinWait();
            }
        }
        closeables.add(0, again);
    }

    @Test
    void shouldConnectFromTheEnvironmentItPublishes()
    {
        final BootstrapServer server = server(2);
        final Map<String, String> env = new HashMap<>(server.rankEnvironment(1));
        env.remove(BootstrapEnv.LAUNCHER_PID_ENV_NAME);
        final Bootstrap rank1 = EnvBootstrap.fromEnvironment(env);
        closeables.add(rank1);
        assertEquals(1, rank1.rank());
        rank1.put("k", bytes("v"));
        assertArrayEquals(bytes("v"), connect(server, 0).get("k", WAIT_NS));
    }

    @Test
    void shouldAdvertiseEveryAddressAcrossHostsAndLetTheRankTakeTheFirstThatAnswers()
    {
        final BootstrapServer server = BootstrapServer.start(2, BootstrapEnv.newJobId(), (rank, code, message) -> { },
            BootstrapServer.Config.acrossHosts(new Params(Map.of())), System.err::println);
        closeables.add(server);
        final Map<String, String> env = new HashMap<>(server.rankEnvironment(1));
        final String advertised = env.get(BootstrapEnv.BOOTSTRAP_ENV_NAME);
        assertTrue(advertised.endsWith(",127.0.0.1:" + server.address().getPort()) || advertised.equals("127.0.0.1:" + server.address().getPort()),
            advertised);
        // a closed port first: refused at once, the next address is tried
        env.put(BootstrapEnv.BOOTSTRAP_ENV_NAME, "127.0.0.1:1," + advertised);
        env.remove(BootstrapEnv.LAUNCHER_PID_ENV_NAME);
        final Bootstrap rank1 = EnvBootstrap.fromEnvironment(env);
        closeables.add(0, rank1);
        rank1.put("k", bytes("v"));
        assertArrayEquals(bytes("v"), connect(server, 0).get("k", WAIT_NS));
    }

    @Test
    void shouldCountARankWithHeartbeatsAliveAndNameItOnceItFallsSilent() throws Exception
    {
        final BootstrapServer server = server(2);
        final Map<String, String> env = new HashMap<>(server.rankEnvironment(1));
        env.remove(BootstrapEnv.LAUNCHER_PID_ENV_NAME);
        env.put(BootstrapEnv.HEARTBEAT_ENV_NAME, "300");
        final Bootstrap rank1 = EnvBootstrap.fromEnvironment(env);
        final long silenceNs = TimeUnit.MILLISECONDS.toNanos(300);
        final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(900);
        while (System.nanoTime() - until < 0)
        {
            assertEquals(-1, server.silentRank(silenceNs), "rank 1 beats every 100 ms");
            Thread.sleep(20);
        }
        rank1.close();
        Thread.sleep(500);
        assertEquals(1, server.silentRank(silenceNs), "closed before finalize: silent");
        server.rankExited(1, "exited with code 0");
        assertEquals(-1, server.silentRank(silenceNs), "an exited rank is the exit's business");
    }

    @Test
    void shouldFailRequestsAfterServerCloses()
    {
        final BootstrapServer server = server(2);
        final Bootstrap rank0 = connect(server, 0);
        server.close();
        assertThrows(MpiException.class, () -> rank0.get("k", WAIT_NS));
    }

    @Test
    void shouldFailRequestsAfterClientCloses()
    {
        final BootstrapServer server = server(1);
        final Bootstrap rank0 = connect(server, 0);
        rank0.close();
        rank0.close();
        assertThrows(MpiException.class, () -> rank0.put("k", bytes("v")));
    }

    private BootstrapServer server(final int size)
    {
        final BootstrapServer server = BootstrapServer.start(size, BootstrapEnv.newJobId(),
            (rank, code, message) -> aborts.add(rank + ":" + code + ":" + message));
        closeables.add(server);
        return server;
    }

    private Bootstrap connect(final BootstrapServer server, final int rank)
    {
        final int size = Integer.parseInt(server.rankEnvironment(0).get(BootstrapEnv.SIZE_ENV_NAME));
        final TcpBootstrap bootstrap = TcpBootstrap.connect(server.address(), rank, size, server.jobId(), server.ticket(rank), WAIT_NS);
        closeables.add(0, bootstrap);
        return bootstrap;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
