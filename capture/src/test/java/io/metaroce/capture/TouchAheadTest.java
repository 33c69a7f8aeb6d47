package io.metaroce.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readers touch the mapping one {@link MappedCapture#TOUCH_BLOCK} ahead and release the pages far behind
 * ({@link MappedCapture#RESIDENT_WINDOW}) from {@code next()}: records that straddle block boundaries, a file that
 * ends inside a block or exactly on one, and a file long enough for the release all read back frame for frame, from
 * the mapping and from the read-ahead window ({@link PacketSource#frameBuffer}), which holds every record of up to a
 * block and none that it does not hold whole.
 */
class TouchAheadTest {
    @TempDir
    Path dir;

    private static final long T0 = 1_700_000_000_000_000_000L;

    /** Frame lengths from 60 bytes to jumbo, so that records start and end anywhere in a block. */
    private static List<byte[]> frames(int count, long seed) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = r.nextInt(8) == 0 ? 9000 - r.nextInt(200) : 60 + r.nextInt(1455);
            out.add(Blocks.frame(length, i));
        }
        return out;
    }

    private Path writePcap(String name, List<byte[]> frames) throws Exception {
        Path file = dir.resolve(name);
        try (PcapWriter w = new PcapWriter(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), CaptureFormat.PCAP_NS, LinkTypes.ETHERNET, 65535,
                ByteOrder.LITTLE_ENDIAN)) {
            for (int i = 0; i < frames.size(); i++) w.write(T0 + i, frames.get(i));
        }
        return file;
    }

    /**
     * The current frame as the frame buffer holds it: its bytes, which must be the slice's; null when not held. The
     * reader's {@link PacketSource#current()} must say what its accessors say, field for field.
     */
    private static byte[] fromBuffer(PacketSource s) {
        CurrentFrame c = s.current();
        assertEquals(s.frameNumber(), c.number);
        assertEquals(s.timestampNanos(), c.timestampNanos);
        assertEquals(s.originalLength(), c.originalLength);
        assertEquals(s.capturedLength(), c.capturedLength);
        assertEquals(s.linkType(), c.linkType);
        assertEquals(s.fcsLength(), c.fcsLength);
        assertSame(s.frameBuffer(), c.buffer);
        assertEquals(s.frameBufferOffset(), c.bufferOffset, "frame " + s.frameNumber() + ": where the buffer holds it");
        int at = s.frameBufferOffset();
        if (s.capturedLength() <= MappedCapture.HELD - 64) assertTrue(at >= 0, "a record of up to HELD is held whole");
        if (at < 0) return null;
        byte[] held = Arrays.copyOfRange(s.frameBuffer(), at, at + s.capturedLength());
        assertArrayEquals(s.data().toArray(ValueLayout.JAVA_BYTE), held, "frame " + s.frameNumber() + " in the frame buffer");
        return held;
    }

    private static void readsBack(PacketSource s, List<byte[]> frames) {
        long previousEnd = PcapReader.FILE_HEADER_LENGTH;
        assertEquals(-1, s.frameBufferOffset(), "no current frame");
        for (int i = 0; i < frames.size(); i++) {
            assertTrue(s.next(), "frame " + (i + 1));
            assertEquals(i + 1, s.frameNumber());
            assertEquals(T0 + i, s.timestampNanos());
            assertArrayEquals(frames.get(i), s.data().toArray(ValueLayout.JAVA_BYTE), "frame " + (i + 1));
            fromBuffer(s);
            assertEquals(previousEnd, s.recordOffset(), "records follow each other");
            previousEnd = s.dataOffset() + s.capturedLength();
        }
        assertFalse(s.next());
        assertEquals(-1, s.current().bufferOffset, "no frame in the buffer after the end (the window moved on)");
        assertFalse(s.next());
        assertTrue(s.problems().isEmpty(), s.problems().toString());
    }

    @Test
    void pcapAcrossManyBlocksEndingInsideOne() throws Exception {
        List<byte[]> frames = frames(1500, 1);
        Path file = writePcap("blocks.pcap", frames);
        long size = Files.size(file);
        assertTrue(size > 20 * MappedCapture.TOUCH_BLOCK, "spans many touch blocks: " + size);
        assertNotEquals(0, size % MappedCapture.TOUCH_BLOCK);
        try (PacketSource s = CaptureFiles.open(file)) {
            readsBack(s, frames);
        }
    }

    @Test
    void pcapEndingExactlyOnABlockBoundary() throws Exception {
        // 24-byte file header, then records of 16 + 1008 bytes: 64 of them end 24 bytes into the next block, so
        // the last frame is shortened by those 24 bytes to end the file on the boundary.
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 63; i++) frames.add(Blocks.frame(1008, i));
        frames.add(Blocks.frame(1008 - 24, 63));
        Path file = writePcap("boundary.pcap", frames);
        assertEquals(MappedCapture.TOUCH_BLOCK, Files.size(file));
        try (PacketSource s = CaptureFiles.open(file)) {
            readsBack(s, frames);
        }
    }

    @Test
    void pcapngLongerThanTheResidentWindowTwice() throws Exception {
        // Past 2 x RESIDENT_WINDOW the reader also drops the pages behind it; frames read after that are whole.
        List<byte[]> frames = frames(40_000, 2);
        Path file = dir.resolve("long.pcapng");
        try (PcapngWriter w = new PcapngWriter(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), ByteOrder.LITTLE_ENDIAN, null, null)) {
            w.addInterface(LinkTypes.ETHERNET, 65535);
            for (int i = 0; i < frames.size(); i++) w.write(0, T0 + i * 1000L, frames.get(i));
        }
        assertTrue(Files.size(file) > 2 * MappedCapture.RESIDENT_WINDOW + MappedCapture.TOUCH_BLOCK, "size " + Files.size(file));
        try (PacketSource s = CaptureFiles.open(file)) {
            long previousEnd = -1;
            for (int i = 0; i < frames.size(); i++) {
                assertTrue(s.next(), "frame " + (i + 1));
                assertArrayEquals(frames.get(i), s.data().toArray(ValueLayout.JAVA_BYTE), "frame " + (i + 1));
                assertArrayEquals(frames.get(i), fromBuffer(s), "frame " + (i + 1) + " in the frame buffer");
                assertTrue(s.recordOffset() > previousEnd);
                previousEnd = s.recordOffset();
            }
            assertFalse(s.next());
            assertEquals(-1, s.current().bufferOffset, "no frame in the buffer after the end");
            assertTrue(s.problems().isEmpty(), s.problems().toString());
        }
    }

    @Test
    void recordsLongerThanABlockAreNotInTheFrameBuffer() throws Exception {
        // Records of 200,000 bytes among short ones: longer than the window (two blocks), so it cannot hold them
        // (the slice must be read), and the short record after each is held again.
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 12; i++) frames.add(Blocks.frame(i % 3 == 0 ? 60 : 200_000, i));
        Path file = dir.resolve("long-records.pcap");
        try (PcapWriter w = new PcapWriter(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), CaptureFormat.PCAP_NS, LinkTypes.ETHERNET, 524_288,
                ByteOrder.LITTLE_ENDIAN)) {
            for (int i = 0; i < frames.size(); i++) w.write(T0 + i, frames.get(i));
        }
        int held = 0;
        try (PacketSource s = CaptureFiles.open(file)) {
            for (int i = 0; i < frames.size(); i++) {
                assertTrue(s.next());
                byte[] b = fromBuffer(s);
                if (frames.get(i).length > 2 * MappedCapture.TOUCH_BLOCK) assertEquals(null, b, "frame " + (i + 1));
                if (b != null) held++;
            }
        }
        assertEquals(4, held, "the four short records");
    }

    /**
     * A pcap file longer than twice the {@link MappedCapture#RESIDENT_WINDOW} (so the reader also releases what lies
     * behind it), and its frames.
     */
    private List<byte[]> bigPcap(Path file) throws Exception {
        List<byte[]> frames = frames(40_000, 4);
        try (PcapWriter w = new PcapWriter(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), CaptureFormat.PCAP_NS, LinkTypes.ETHERNET, 65535,
                ByteOrder.LITTLE_ENDIAN)) {
            for (int i = 0; i < frames.size(); i++) w.write(T0 + i, frames.get(i));
        }
        assertTrue(Files.size(file) > 2 * MappedCapture.RESIDENT_WINDOW + MappedCapture.TOUCH_BLOCK, "size " + Files.size(file));
        return frames;
    }

    @Test
    void aFileIsReadThroughReadCallsNotOutOfItsMapping() throws Exception {
        // A file opened by path fills its window by read(2): every byte of it once, none copied out of the mapping;
        // contents in memory have no file to read and are copied out of their segment.
        Path file = dir.resolve("big.pcap");
        List<byte[]> frames = bigPcap(file);
        try (PacketSource s = CaptureFiles.open(file)) {
            MappedCapture m = (MappedCapture) s;
            readsBack(s, frames);
            assertEquals(Files.size(file), m.bytesRead, "bytes read through read(2)");
            assertEquals(0, m.bytesCopied, "bytes copied out of the mapping");
        }
        // A second reader over an open source's mapping (validate's pre-read of --tap auto): read(2) too, and closing
        // it leaves the first reader's mapping readable.
        try (PacketSource first = CaptureFiles.open(file)) {
            try (PacketSource second = CaptureFiles.open(file, first.mapping())) {
                readsBack(second, frames);
                assertEquals(Files.size(file), ((MappedCapture) second).bytesRead, "second reader: bytes read through read(2)");
                assertEquals(0, ((MappedCapture) second).bytesCopied, "second reader: bytes copied out of the mapping");
            }
            readsBack(first, frames);
        }
        List<byte[]> small = frames(20, 3);
        byte[] bytes = Files.readAllBytes(writePcap("small.pcap", small));
        try (PacketSource s = CaptureFiles.open("small.pcap", MemorySegment.ofArray(bytes))) {
            readsBack(s, small);
            assertEquals(0, ((MappedCapture) s).bytesRead);
            assertEquals(bytes.length, ((MappedCapture) s).bytesCopied);
        }
    }

    @Test
    void anInterruptedReaderKeepsReading() throws Exception {
        // A pipeline that fails interrupts its decoding thread; the reader must still read the file (a FileChannel
        // would close itself on the interrupt) and leave the interrupt for its caller.
        Path file = dir.resolve("interrupted.pcap");
        List<byte[]> frames = bigPcap(file);
        try (PacketSource s = CaptureFiles.open(file)) {
            Thread.currentThread().interrupt();
            try {
                readsBack(s, frames);
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is left set");
            } finally {
                Thread.interrupted();
            }
            assertEquals(Files.size(file), ((MappedCapture) s).bytesRead);
        }
    }

    @Test
    void aReadThatFailsFallsBackToTheMapping() throws Exception {
        // The file closed under the reader halfway: read(2) fails, and the rest of the window comes out of the
        // mapping, frame for frame the same.
        Path file = dir.resolve("failing.pcap");
        List<byte[]> frames = bigPcap(file);
        try (PacketSource s = CaptureFiles.open(file)) {
            MappedCapture m = (MappedCapture) s;
            for (int i = 0; i < frames.size(); i++) {
                if (i == frames.size() / 2) m.in.close();
                assertTrue(s.next(), "frame " + (i + 1));
                assertArrayEquals(frames.get(i), s.data().toArray(ValueLayout.JAVA_BYTE), "frame " + (i + 1));
                fromBuffer(s);
            }
            assertFalse(s.next());
            assertTrue(s.problems().isEmpty(), s.problems().toString());
            assertTrue(m.bytesRead > 0 && m.bytesCopied > 0, m.bytesRead + " read, " + m.bytesCopied + " copied");
            assertEquals(Files.size(file), m.bytesRead + m.bytesCopied, "every byte once");
        }
    }

    @Test
    void aPrefetchedFileIsTakenByTheFirstOpenOfItsPath() throws Exception {
        Path file = dir.resolve("prefetched.pcap");
        List<byte[]> frames = bigPcap(file);
        CaptureFiles.prefetch(file);
        PacketSource ahead = CaptureFiles.prefetchedSource();
        assertTrue(ahead != null, "opened before anyone asked for it");
        try (PacketSource s = CaptureFiles.open(file)) {
            assertSame(ahead, s, "the prefetched source, not a second one");
            readsBack(s, frames);
        }
        // Taken once: the next open opens the file again.
        try (PacketSource s = CaptureFiles.open(file)) {
            assertNotSame(ahead, s);
            readsBack(s, frames);
        }
    }

    @Test
    void aPrefetchThatFailsLeavesTheErrorToOpen() throws Exception {
        Path missing = dir.resolve("missing.pcap");
        CaptureFiles.prefetch(missing);
        CaptureException e = org.junit.jupiter.api.Assertions.assertThrows(CaptureException.class, () -> CaptureFiles.open(missing));
        assertEquals(missing + ": no such file", e.getMessage());
        // A prefetch of another file does not stand in for this one.
        Path other = dir.resolve("other.pcap");
        bigPcap(other);
        List<byte[]> frames = frames(20, 6);
        Path small = writePcap("small.pcap", frames);
        CaptureFiles.prefetch(other);
        PacketSource ahead = CaptureFiles.prefetchedSource();
        try (PacketSource s = CaptureFiles.open(small)) {
            assertNotSame(ahead, s);
            readsBack(s, frames);
        }
        try (PacketSource s = CaptureFiles.open(other)) { // takes the prefetched source
            assertSame(ahead, s);
        }
        // A prefetched small file is left to open() too.
        CaptureFiles.prefetch(small);
        try (PacketSource s = CaptureFiles.open(small)) {
            readsBack(s, frames);
        }
    }

    @Test
    void inMemoryContentsShorterThanABlock() throws Exception {
        List<byte[]> frames = frames(20, 3);
        byte[] bytes = Files.readAllBytes(writePcap("small.pcap", frames));
        assertTrue(bytes.length < MappedCapture.TOUCH_BLOCK);
        try (PacketSource s = CaptureFiles.open("small.pcap", MemorySegment.ofArray(bytes))) {
            readsBack(s, frames);
        }
    }
}
