package org.jmpi.internal.bootstrap;

import org.jmpi.internal.datatype.CopyCostModel;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The launcher's entry point to {@code jmpirun --calibrate} (the launcher reaches the runtime only through this
 * package): measures the copy cost model of {@code jmpi.pvas.mode=auto} long enough for the JIT to compile the copy
 * loops, and writes it where {@code jmpi.pvas.calibration} will name it (docs/pvas.md).
 *
 * <p>Stateless; any thread.
 */
public final class CopyCalibration
{
    /** How long {@code --calibrate} measures: long enough for the JIT to compile the copy loops. */
    static final long CALIBRATE_NS = 2_000_000_000L;
    /** A measured exchange figure above this many times its default is taken for a busy machine's and not kept. */
    static final double PLAUSIBLE_FACTOR = 5;

    private CopyCalibration()
    {
    }

    /**
     * Measures and writes {@code file} (its directories created).
     *
     * @return one line describing the figures written
     * @throws IOException when the file cannot be written
     */
    public static String write(final Path file) throws IOException
    {
        final CopyCostModel copies = CopyCostModel.calibrate(CALIBRATE_NS);
        // The fragment and remote-run costs need two ranks: measured between two threads of this JVM.
        final double fragmentNs = PathCalibration.perFragmentNs();
        final double remoteRunNs = PathCalibration.perRemoteRunNs(copies.perRunPackNs());
        // A figure far off the defaults is a busy machine's, not the copy's: keep the default and say so in the file.
        final boolean fragmentOk = fragmentNs <= PLAUSIBLE_FACTOR * CopyCostModel.DEFAULT_PER_FRAGMENT_NS;
        final boolean remoteOk = remoteRunNs <= PLAUSIBLE_FACTOR * CopyCostModel.DEFAULT_PER_REMOTE_RUN_NS;
        final CopyCostModel model = copies.withMeasured(fragmentOk ? fragmentNs : CopyCostModel.DEFAULT_PER_FRAGMENT_NS,
            remoteOk ? remoteRunNs : CopyCostModel.DEFAULT_PER_REMOTE_RUN_NS,
            "perFragment " + (fragmentOk ? "measured" : String.format(Locale.ROOT, "default (%.0f ns measured: machine busy)", fragmentNs)) +
            ", perRemoteRun " + (remoteOk ? "measured" : String.format(Locale.ROOT, "default (%.1f ns measured: machine busy)", remoteRunNs)) +
            " between two threads");
        model.save(file);
        return model.describe();
    }
}
