package org.jmpi.internal.datatype;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CopyCostModelTest
{
    /** Figures of the order the 2-vCPU machine gives: 0.1 ns/B, 3 ns per copy step, 1 ns per packed run, 1.5 us per fragment. */
    private static final CopyCostModel TYPICAL = new CopyCostModel(0.1, 3, 1, 1500, "test");

    @TempDir
    Path dir;

    @Test
    void shouldCopyContiguousAndOneSidedScatteredLayoutsDirectly()
    {
        final LayoutStats contiguous = LayoutStats.contiguous(1 << 20);
        assertTrue(TYPICAL.preferDirect(contiguous, contiguous, 1 << 20, 1, 65536));
        final LayoutStats strided = new LayoutStats(16384, 8, 8);
        assertTrue(TYPICAL.preferDirect(LayoutStats.contiguous(131072), new LayoutStats(512, 256, 256), 131072, 1, 65536),
            "send side contiguous, receive runs of 256 B: the receiver unpacks straight into its own layout, as the pipeline would");
        assertFalse(TYPICAL.preferDirect(LayoutStats.contiguous(131072), strided, 131072, 1, 65536),
            "receive runs of one double: each written line is taken back from the peer's core, the pipeline overlaps them (FFT)");
        assertFalse(TYPICAL.preferDirect(strided, LayoutStats.contiguous(131072), 131072, 1, 65536),
            "send side finely scattered: each run is a line read from the peer's core, the sender packs faster");
        final LayoutStats coarse = new LayoutStats(16, 8192, 8192);
        assertTrue(TYPICAL.preferDirect(coarse, coarse, 131072, 1, 65536), "coarse blocks on both sides");
    }

    @Test
    void shouldCopyCoarseRunsDirectlyEvenWithLargeFragments()
    {
        // NAS_MG_z at 256 KiB and 1 MiB through the arena (64 KiB fragments), the calibration of session 10's quiet run:
        // the direct copy was 1.6-5.6x faster than the pipeline, which the model once estimated cheaper.
        final CopyCostModel quiet = new CopyCostModel(0.0089, 8.44, 0.35, 163, 0.81, "session 10");
        assertTrue(quiet.preferDirect(new LayoutStats(128, 2048, 2048), new LayoutStats(128, 2048, 2048), 262144, 1, 65536));
        assertTrue(quiet.preferDirect(new LayoutStats(256, 4096, 4096), new LayoutStats(256, 4096, 4096), 1 << 20, 1, 65536));
        // WRF_y_vec at 64 KiB: 713 runs of 92 B on each side, which the pipeline carried 1.5x faster.
        assertFalse(quiet.preferDirect(new LayoutStats(713, 92, 92), new LayoutStats(713, 92, 92), 65536, 1, 65536));
    }

    @Test
    void shouldStageFinelyScatteredLayoutsOnBothSides()
    {
        // NAS_MG_x: single doubles on both sides, where the PVAS paper's direct copy lost.
        final LayoutStats singles = new LayoutStats(16384, 8, 8);
        assertFalse(TYPICAL.preferDirect(singles, singles, 131072, 1, 65536));
        assertTrue(TYPICAL.directNs(singles, singles, 131072, 2) < TYPICAL.directNs(singles, singles, 131072, 1),
            "two copiers halve the direct estimate");
    }

    @Test
    void shouldPackAtSendOnlyShortRunsOfMessagesTheStagedPipelineWouldNotCarryFaster()
    {
        // SPECFEM3D_oc: 1,897 single floats.
        assertTrue(TYPICAL.packAtSend(new LayoutStats(1897, 4, 4), 7588, 65536));
        assertFalse(TYPICAL.packAtSend(LayoutStats.contiguous(7588), 7588, 65536), "one run: nothing to pack");
        assertFalse(TYPICAL.packAtSend(new LayoutStats(64, 128, 128), 8192, 65536), "runs of two lines: the receiver walks them");
        // NAS_MG_x largest: 65,536 single doubles, where packing, then unpacking, loses to the pipeline's overlap.
        assertFalse(TYPICAL.packAtSend(new LayoutStats(65536, 8, 8), 524288, 65536));
    }

    @Test
    void shouldReadAFileWithoutTheRemoteRunCostAsTheDefault() throws Exception
    {
        final Path file = dir.resolve("old.properties");
        Files.writeString(file, "perByteNs=0.1\nperRunCopyNs=3\nperRunPackNs=1\nperFragmentNs=1500\n");
        assertEquals(CopyCostModel.DEFAULT_PER_REMOTE_RUN_NS, CopyCostModel.load(file).perRemoteRunNs());
    }

    @Test
    void shouldChooseLargerFragmentsWhenFragmentsCostMore()
    {
        final LayoutStats contiguous = LayoutStats.contiguous(1 << 20);
        final long cheap = new CopyCostModel(0.1, 3, 1, 10, "cheap").bestFragment(contiguous, contiguous, 1 << 20, 65536);
        final long dear = new CopyCostModel(0.1, 3, 1, 100_000, "dear").bestFragment(contiguous, contiguous, 1 << 20, 65536);
        assertTrue(cheap < dear, cheap + " < " + dear);
        assertEquals(65536, dear);
        assertEquals(4096, new CopyCostModel(0.1, 3, 1, 100_000, "capped").bestFragment(contiguous, contiguous, 1 << 20, 4096));
        // A cap between the sizes (the in-JVM ring's 8 KiB record less the DATA header) is a candidate itself.
        assertEquals(8160, new CopyCostModel(0.1, 3, 1, 100_000, "ring").bestFragment(contiguous, contiguous, 1 << 20, 8160));
        assertEquals(4096, new CopyCostModel(0.1, 3, 1, 0, "free fragments").bestFragment(contiguous, contiguous, 1 << 20, 8160));
    }

    @Test
    void shouldMatchTheCursorsStatistics()
    {
        final Datatype vector = Datatype.vector(10, 2, 5, Datatype.DOUBLE).commit();
        final Convertor c = Convertor.create(BufferView.of(new double[200], "test"), 0, 3, vector);
        assertEquals(c.stats(), LayoutStats.of(vector, 3));
        assertEquals(new LayoutStats(0, 0, 0), LayoutStats.of(vector, 0));
        assertEquals(LayoutStats.contiguous(160 * 3), LayoutStats.of(Datatype.contiguous(20, Datatype.DOUBLE).commit(), 3));
    }

    @Test
    void shouldMeasureFiniteCostsQuickly()
    {
        final long t0 = System.nanoTime();
        final CopyCostModel m = CopyCostModel.calibrate(5_000_000);
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "calibration took far beyond its budget");
        assertTrue(m.perByteNs() > 0 && m.perByteNs() < 100, m.describe());
        assertTrue(m.perRunCopyNs() >= 0 && m.perRunPackNs() >= 0, m.describe());
        assertEquals(CopyCostModel.DEFAULT_PER_FRAGMENT_NS, m.perFragmentNs());
    }

    @Test
    void shouldReplaceAStartUpMeasurementOfUncompiledCodeByTheDefaults()
    {
        // The first 5 ms calibration of a JVM (the interpreter) and a compiled one, 2026-11-26.
        final CopyCostModel cold = new CopyCostModel(0.0523, 128.12, 41.66, CopyCostModel.DEFAULT_PER_FRAGMENT_NS, "cold");
        final CopyCostModel c1 = new CopyCostModel(0.0122, 16.58, 1.76, CopyCostModel.DEFAULT_PER_FRAGMENT_NS, "c1");
        final CopyCostModel compiled = new CopyCostModel(0.0101, 5.27, 0.21, CopyCostModel.DEFAULT_PER_FRAGMENT_NS, "compiled");
        for (final CopyCostModel uncompiled : new CopyCostModel[] {cold, c1})
        {
            final CopyCostModel m = CopyCostModel.compiledOrDefaults(uncompiled);
            assertEquals(CopyCostModel.DEFAULT_PER_RUN_PACK_NS, m.perRunPackNs(), m.describe());
            assertEquals(CopyCostModel.DEFAULT_PER_RUN_COPY_NS, m.perRunCopyNs(), m.describe());
            assertEquals(CopyCostModel.DEFAULT_PER_BYTE_NS, m.perByteNs(), m.describe());
            assertTrue(m.origin().startsWith("defaults: ") && m.origin().contains(uncompiled.origin()), m.origin());
        }
        assertSame(compiled, CopyCostModel.compiledOrDefaults(compiled));
        final CopyCostModel startup = CopyCostModel.startup(5_000_000);
        assertTrue(startup.perRunPackNs() <= 4 * CopyCostModel.DEFAULT_PER_RUN_PACK_NS, startup.describe());
        assertTrue(startup.perRunCopyNs() <= 4 * CopyCostModel.DEFAULT_PER_RUN_COPY_NS, startup.describe());
    }

    @Test
    void shouldReadWhatItWrites() throws Exception
    {
        final Path file = dir.resolve("sub/calibration.properties");
        TYPICAL.save(file);
        final CopyCostModel read = CopyCostModel.load(file);
        assertEquals(TYPICAL.perByteNs(), read.perByteNs(), 1e-6);
        assertEquals(TYPICAL.perRunCopyNs(), read.perRunCopyNs(), 1e-4);
        assertEquals(TYPICAL.perRunPackNs(), read.perRunPackNs(), 1e-4);
        assertEquals(TYPICAL.perFragmentNs(), read.perFragmentNs(), 0.1);
        assertEquals(TYPICAL.perRemoteRunNs(), read.perRemoteRunNs(), 0.01);
        assertTrue(read.origin().contains(file.toString()));
    }

    @Test
    void shouldNameTheFileAndKeyOfABadCalibration() throws Exception
    {
        final Path file = dir.resolve("bad.properties");
        Files.writeString(file, "perByteNs=0.1\nperRunCopyNs=3\nperRunPackNs=fast\nperFragmentNs=1500\n");
        final MpiException bad = assertThrows(MpiException.class, () -> CopyCostModel.load(file));
        assertEquals(ErrorClass.ERR_ARG, bad.errorClass());
        assertTrue(bad.getMessage().contains("bad.properties") && bad.getMessage().contains("perRunPackNs"), bad.getMessage());
        Files.writeString(file, "perByteNs=0.1\n");
        assertTrue(assertThrows(MpiException.class, () -> CopyCostModel.load(file)).getMessage().contains("perRunCopyNs"));
        Files.writeString(file, "perByteNs=-1\nperRunCopyNs=3\nperRunPackNs=1\nperFragmentNs=1500\n");
        assertTrue(assertThrows(MpiException.class, () -> CopyCostModel.load(file)).getMessage().contains("perByteNs=-1"));
        assertTrue(assertThrows(MpiException.class, () -> CopyCostModel.load(dir.resolve("missing"))).getMessage().contains("missing"));
    }
}
