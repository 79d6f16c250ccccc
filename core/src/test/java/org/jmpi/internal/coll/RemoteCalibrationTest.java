package org.jmpi.internal.coll;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The device calibration file of the put/get model between nodes (pure logic: loading, t_sync per rank count, errors). */
class RemoteCalibrationTest
{
    private static final String COPIES = "put_fixed_ns=5000\nput_per_byte_ns=0.25\nget_fixed_ns=4000\nget_per_byte_ns=0.5\n";

    @Test
    void shouldGiveNoCalibrationWithoutAFile()
    {
        assertNull(RemoteCalibration.load("", 4));
        assertNull(RemoteCalibration.load(null, 4));
    }

    @Test
    void shouldTakeTheNearestMeasuredRankCountAtOrAbove(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("device.properties");
        Files.writeString(file, COPIES + "sync_ns.2=1000\nsync_ns.4=3000\nsync_ns.8=9000\nsync_ns.x=1\n");
        final PersistentCostModel.Calibration at4 = RemoteCalibration.load(file.toString(), 4);
        assertEquals(3000, at4.syncNs());
        assertEquals(5000 + 0.25 * 1024, at4.putNs(1024));
        assertEquals(4000 + 0.5 * 1024, at4.getNs(1024));
        assertEquals(3000, RemoteCalibration.load(file.toString(), 3).syncNs(), "3 ranks: the 4-rank handoff");
        assertEquals(9000, RemoteCalibration.load(file.toString(), 16).syncNs(), "past the largest measured: the largest");
        assertEquals(0, RemoteCalibration.load(file.toString(), 1).syncNs());
    }

    @Test
    void shouldChooseByTheDeviceConstants(@TempDir final Path dir) throws Exception
    {
        // Gets dearer per byte than puts: at 1 MiB put wins despite its higher fixed cost; at 8 B the handoffs decide.
        final Path file = dir.resolve("device.properties");
        Files.writeString(file, COPIES + "sync_ns.4=3000\n");
        final PersistentCostModel.Calibration c = RemoteCalibration.load(file.toString(), 4);
        assertEquals("put", PersistentCostModel.choose("bcast", 4, 1 << 20, true, c));
        // put: 2*5000 + 2*3000 = 16000; get: 2*4000 + 3*3000 = 17000: within the tie band, which goes to get.
        assertEquals("get", PersistentCostModel.choose("bcast", 4, 8, true, c));
    }

    @Test
    void shouldRefuseAFileItCannotUse(@TempDir final Path dir) throws Exception
    {
        final MpiException missing = assertThrows(MpiException.class, () -> RemoteCalibration.load(dir.resolve("none").toString(), 2));
        assertEquals(ErrorClass.ERR_FILE, missing.errorClass());
        final Path noSync = dir.resolve("nosync.properties");
        Files.writeString(noSync, COPIES);
        final MpiException lacking = assertThrows(MpiException.class, () -> RemoteCalibration.load(noSync.toString(), 2));
        assertTrue(lacking.getMessage().contains("sync_ns.P"), lacking.getMessage());
        final Path noCopies = dir.resolve("nocopies.properties");
        Files.writeString(noCopies, "sync_ns.2=1000\nput_fixed_ns=1\n");
        final MpiException lackingCopies = assertThrows(MpiException.class, () -> RemoteCalibration.load(noCopies.toString(), 2));
        assertTrue(lackingCopies.getMessage().contains("get_fixed_ns"), lackingCopies.getMessage());
    }
}
