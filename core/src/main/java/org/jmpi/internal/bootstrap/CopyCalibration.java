package org.jmpi.internal.bootstrap;

import org.jmpi.internal.datatype.CopyCostModel;

import java.io.IOException;
import java.nio.file.Path;

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
        final CopyCostModel model = CopyCostModel.calibrate(CALIBRATE_NS);
        model.save(file);
        return model.describe();
    }
}
