package org.jmpi.transport.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.MpiException;
import org.jmpi.spi.Params;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmSegmentTest
{
    private static final ShmConfig CONFIG = ShmConfig.from(new Params(Map.of(ShmParams.RING_SIZE.name(), "64k"), Map.of()));
    private static final int[] LOCAL_RANKS = {3, 5, 8};

    @TempDir
    Path dir;

    @Test
    void shouldCreateTheFileWithOwnerOnlyPermissionsWhateverTheUmask() throws Exception
    {
        final Path path = dir.resolve("jmpi-t1-00000000");
        try (ShmSegment segment = ShmSegment.create(path, 1 << 20))
        {
            assertTrue(segment.creator());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS)));
            assertEquals(1 << 20, Files.size(path));
        }
        assertFalse(Files.exists(path), "the creator deletes the file on close");
    }

    @Test
    void shouldRefuseToCreateAFileThatExists() throws Exception
    {
        final Path path = Files.createFile(dir.resolve("jmpi-t2-00000000"));
        final MpiException ex = assertThrows(MpiException.class, () -> ShmSegment.create(path, 4096));
        assertTrue(ex.getMessage().contains(path.toString()), ex.getMessage());
        assertTrue(Files.exists(path), "someone else's file must be left alone");
    }

    @Test
    void shouldRefuseToAttachAFileOthersCanRead() throws Exception
    {
        final Path path = Files.createFile(dir.resolve("jmpi-t3-00000000"));
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-r--r--"));
        final MpiException ex = assertThrows(MpiException.class, () -> ShmSegment.attach(path));
        assertTrue(ex.getMessage().contains("rw-r--r--"), ex.getMessage());
    }

    @Test
    void shouldVerifyTheHeaderTheCreatorWrote()
    {
        final long length = CONFIG.fileLength(LOCAL_RANKS.length);
        final Path path = dir.resolve("jmpi-t4-00000000");
        try (ShmSegment creator = ShmSegment.create(path, length))
        {
            final UnsafeBuffer header = creator.map(0, ShmFileDescriptor.headerLength(LOCAL_RANKS.length));
            ShmSegment.writeHeader(header, length, 42L, CONFIG, LOCAL_RANKS);
            try (ShmSegment attacher = ShmSegment.attach(path))
            {
                final UnsafeBuffer view = attacher.map(0, ShmFileDescriptor.headerLength(LOCAL_RANKS.length));
                attacher.verifyHeader(view, length, 42L, CONFIG, LOCAL_RANKS);

                final MpiException wrongInstance = assertThrows(MpiException.class,
                    () -> attacher.verifyHeader(view, length, 43L, CONFIG, LOCAL_RANKS));
                assertTrue(wrongInstance.getMessage().contains("instance id expected=43, found=42"), wrongInstance.getMessage());

                final MpiException wrongRanks = assertThrows(MpiException.class,
                    () -> attacher.verifyHeader(view, length, 42L, CONFIG, new int[]{3, 6, 8}));
                assertTrue(wrongRanks.getMessage().contains("world rank of local rank 1 expected=6, found=5"), wrongRanks.getMessage());

                final ShmConfig checksums = new ShmConfig(CONFIG.dir(), CONFIG.ringCapacity(), CONFIG.slotCount(),
                    CONFIG.slotLength(), CONFIG.inlineMax(), true);
                final MpiException otherChecksums = assertThrows(MpiException.class,
                    () -> attacher.verifyHeader(view, length, 42L, checksums, LOCAL_RANKS));
                assertTrue(otherChecksums.getMessage().contains("flags (jmpi.shm.checksum is bit 0) expected=1, found=0"),
                    otherChecksums.getMessage());

                view.putInt(ShmFileDescriptor.VERSION_OFFSET, ShmFileDescriptor.VERSION + 1, ShmFileDescriptor.BYTE_ORDER);
                final MpiException wrongVersion = assertThrows(MpiException.class,
                    () -> attacher.verifyHeader(view, length, 42L, CONFIG, LOCAL_RANKS));
                assertTrue(wrongVersion.getMessage().contains("version expected=" + ShmFileDescriptor.VERSION + ", found=" + (ShmFileDescriptor.VERSION + 1)),
                    wrongVersion.getMessage());
            }
        }
    }

    @Test
    void shouldNameTheFileAfterTheJobAndAShortNodeHash()
    {
        final String name = ShmSegment.fileName("abc123", "host-1");
        assertTrue(name.matches("jmpi-abc123-[0-9a-f]{8}"), name);
        assertEquals(name, ShmSegment.fileName("abc123", "host-1"));
        assertFalse(name.equals(ShmSegment.fileName("abc123", "host-2")));
    }
}
