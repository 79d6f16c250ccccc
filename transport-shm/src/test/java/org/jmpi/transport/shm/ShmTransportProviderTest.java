package org.jmpi.transport.shm;

import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.Params;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmTransportProviderTest
{
    @TempDir
    Path dir;

    private record Context(int rank, int size, Params params, IntFunction<String> nodes, IntFunction<String> jvms)
        implements TransportContext
    {
        @Override
        public String jobId()
        {
            return "t0";
        }

        @Override
        public Bootstrap bootstrap()
        {
            throw new AssertionError("probe must not use the bootstrap");
        }

        @Override
        public String nodeId(final int rank)
        {
            return nodes.apply(rank);
        }

        @Override
        public String jvmId(final int rank)
        {
            return jvms.apply(rank);
        }

        @Override
        public Runnable waker()
        {
            return () -> { };
        }

        @Override
        public java.util.concurrent.ConcurrentMap<String, Object> jvmShared()
        {
            return new java.util.concurrent.ConcurrentHashMap<>();
        }
    }

    private Context context(final int rank, final IntFunction<String> nodes, final IntFunction<String> jvms, final Map<String, String> params)
    {
        return new Context(rank, 4, new Params(params, Map.of()), nodes, jvms);
    }

    private Map<String, String> inDir()
    {
        return Map.of(ShmParams.DIR.name(), dir.toString());
    }

    @Test
    void shouldBeFoundByTheServiceLoader()
    {
        assertTrue(ServiceLoader.load(TransportProvider.class).stream().anyMatch(p -> p.type() == ShmTransportProvider.class));
        final ShmTransportProvider provider = new ShmTransportProvider();
        assertEquals("shm", provider.name());
        assertEquals(50, provider.priority());
    }

    @Test
    void shouldDescribeEveryParameter()
    {
        assertEquals(6, new ShmTransportProvider().params().size());
        for (final ParamSpec spec : new ShmTransportProvider().params())
        {
            assertTrue(spec.name().startsWith("jmpi.shm."), spec.name());
            assertTrue(!spec.description().isBlank() && !spec.unit().isBlank(), spec.name());
            new Params(Map.of(), Map.of()).get(spec);
        }
        final ShmConfig defaults = ShmConfig.from(new Params(Map.of(), Map.of()));
        assertEquals(new ShmConfig(Path.of("/dev/shm"), 1 << 18, 8, 32 * 1024 + 256, 4 * 1024 + 256, false), defaults);
    }

    @Test
    void shouldEngageWhenAPeerOnTheNodeRunsInAnotherJvm()
    {
        final Context ctx = context(1, r -> r < 2 ? "a" : "b", r -> "jvm-" + r, inDir());
        assertNull(new ShmTransportProvider().probe(ctx));
    }

    @Test
    void shouldRefuseWhenEveryLocalPeerSharesThisJvm()
    {
        final Context ctx = context(1, r -> r < 2 ? "a" : "b", r -> r < 2 ? "jvm-a" : "jvm-" + r, inDir());
        final String reason = new ShmTransportProvider().probe(ctx);
        assertTrue(reason != null && reason.contains("another JVM"), reason);
    }

    @Test
    void shouldRefuseWhenTheDirectoryIsMissing()
    {
        final Context ctx = context(0, r -> "a", r -> "jvm-" + r, Map.of(ShmParams.DIR.name(), dir.resolve("missing").toString()));
        final String reason = new ShmTransportProvider().probe(ctx);
        assertTrue(reason != null && reason.contains("not a directory"), reason);
    }

    @Test
    void shouldRefuseWhenTheDirectoryIsAFile() throws Exception
    {
        final Path file = Files.createFile(dir.resolve("f"));
        final Context ctx = context(0, r -> "a", r -> "jvm-" + r, Map.of(ShmParams.DIR.name(), file.toString()));
        final String reason = new ShmTransportProvider().probe(ctx);
        assertTrue(reason != null && reason.contains("not a directory"), reason);
    }

    @Test
    void shouldRefuseBadParametersWithTheirNameAndValueInsteadOfThrowing()
    {
        final ShmTransportProvider provider = new ShmTransportProvider();
        final IntFunction<String> node = r -> "a";
        final IntFunction<String> jvm = r -> "jvm-" + r;
        final String ring = provider.probe(context(0, node, jvm, Map.of(ShmParams.RING_SIZE.name(), "1000")));
        assertTrue(ring != null && ring.contains("jmpi.shm.ring.size=1000"), ring);
        final String slots = provider.probe(context(0, node, jvm, Map.of(ShmParams.POOL_SLOTS.name(), "0")));
        assertTrue(slots != null && slots.contains("jmpi.shm.pool.slots=0"), slots);
        final String inline = provider.probe(context(0, node, jvm, Map.of(ShmParams.INLINE_MAX.name(), "64k")));
        assertTrue(inline != null && inline.contains("jmpi.shm.inline.max=65536"), inline);
        final String garbage = provider.probe(context(0, node, jvm, Map.of(ShmParams.SLOT_SIZE.name(), "lots")));
        assertTrue(garbage != null && garbage.contains("jmpi.shm.slot.size"), garbage);
    }
}
