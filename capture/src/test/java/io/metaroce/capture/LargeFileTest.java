package io.metaroce.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offsets beyond 2 GiB and 4 GiB, without writing gigabytes: a sparse file where two huge custom blocks (holes
 * of zeros on disk, so they cost no space) push packets past those offsets.
 */
class LargeFileTest {
    @TempDir
    Path dir;

    @Test
    void packetsBeyondFourGibibytes() throws Exception {
        Path file = dir.resolve("sparse.pcapng");
        byte[] head = new Blocks(ByteOrder.LITTLE_ENDIAN).shb(ByteOrder.LITTLE_ENDIAN).idb(1, 0)
                .epb(0, 1, Blocks.frame(60, 1), 60).bytes();
        long skipLength = 0xC000_0000L; // 3 GiB custom block, almost all hole
        byte[] f2 = Blocks.frame(70, 2);
        byte[] f3 = Blocks.frame(80, 3);
        long secondOffset;
        long thirdOffset;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.write(head);
            long pos = head.length;
            pos = hugeBlock(raf, pos, skipLength);
            secondOffset = pos;
            byte[] epb2 = new Blocks(ByteOrder.LITTLE_ENDIAN).epb(0, 2, f2, 70, 1, "past 3 GiB").bytes();
            raf.seek(pos);
            raf.write(epb2);
            pos += epb2.length;
            pos = hugeBlock(raf, pos, skipLength);
            thirdOffset = pos;
            raf.seek(pos);
            raf.write(new Blocks(ByteOrder.LITTLE_ENDIAN).epb(0, 3, f3, 80).bytes());
        }
        assertTrue(thirdOffset > 0x1_0000_0000L);
        try (PacketSource s = CaptureFiles.open(file)) {
            assertTrue(s.next());
            assertTrue(s.next());
            assertEquals(secondOffset, s.recordOffset());
            assertEquals(secondOffset + 28, s.dataOffset());
            assertArrayEquals(f2, s.data().toArray(ValueLayout.JAVA_BYTE));
            assertEquals("past 3 GiB", s.comment());
            assertTrue(s.next());
            assertEquals(thirdOffset, s.recordOffset());
            assertArrayEquals(f3, s.data().toArray(ValueLayout.JAVA_BYTE));
            assertEquals(3, s.frameNumber());
            assertFalse(s.next());
            assertTrue(s.problems().isEmpty(), s.problems().toString());
        }
    }

    /** Writes only the header and trailer of a custom block (type 0xBAD) of the given length. */
    private static long hugeBlock(RandomAccessFile raf, long pos, long length) throws Exception {
        raf.seek(pos);
        raf.write(new Blocks(ByteOrder.LITTLE_ENDIAN).u32(0x0BAD).u32(length).bytes());
        raf.seek(pos + length - 4);
        raf.write(new Blocks(ByteOrder.LITTLE_ENDIAN).u32(length).bytes());
        return pos + length;
    }
}
