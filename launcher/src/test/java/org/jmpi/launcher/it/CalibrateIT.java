package org.jmpi.launcher.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jmpirun --calibrate}: writes the copy cost model where {@code pvas.calibration} says, and a job reads it. */
@Timeout(400)
class CalibrateIT
{
    @TempDir
    Path dir;

    @Test
    void shouldWriteACalibrationThatAJobReads() throws Exception
    {
        final Path file = dir.resolve("calibration.properties");
        // The calibration now also runs two-rank exchanges (PathCalibration): up to a minute and a half on a loaded machine.
        final Jmpirun.Result result = Jmpirun.run("calibrate", env -> { }, null, 150_000, List.of("--calibrate", "--param",
            "pvas.calibration=" + file));
        assertEquals(0, result.exitCode(), result::toString);
        assertTrue(result.stdout().contains("use it with --param pvas.calibration=" + file), result::toString);
        final String text = Files.readString(file);
        assertTrue(text.contains("perByteNs=") && text.contains("perRunCopyNs=") && text.contains("perFragmentNs=") &&
            text.contains("perRemoteRunNs="), text);
        final Jmpirun.Result job = Jmpirun.run("calibrate-job", env -> { }, null, 120_000, List.of("--threads", "-np", "2",
            "--param", "pvas.calibration=" + file, "--param", "pvas.stats=true", "-cp", Jmpirun.TEST_CLASSES,
            "org.jmpi.launcher.it.SlurmProgram"));
        assertEquals(0, job.exitCode(), job::toString);
        assertTrue(job.stderr().contains("model perByte=") && job.stderr().contains("(file " + file), job::toString);
    }

    @Test
    void shouldRefuseOtherOptions() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("calibrate-usage", "--calibrate", "-np", "2");
        assertEquals(2, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("--calibrate takes only --param pvas.calibration=FILE"), result::toString);
    }
}
