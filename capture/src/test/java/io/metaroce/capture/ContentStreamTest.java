package io.metaroce.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PacketSource#streamContent}: a reader hands the whole file to the sink, in order and each byte once, by the
 * time {@code next()} returned false, while the frames still read back as written: records longer than a touch block
 * (the reader jumps past whole blocks), a file ending on a block boundary, a pcapng past the resident window, a file
 * damaged in the middle (the reader stops there; the rest is streamed all the same).
 */
class ContentStreamTest {
    @TempDir
    Path dir;

    private static final long T0 = 1_700_000_000_000_000_000L;

    /** What a sink received, with each block's length. */
    private static final class Collected implements PacketSource.ContentSink {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Integer> lengths = new ArrayList<>();
        /** Frames the reader served from its window (PacketSource.frameBuffer) while feeding this sink. */
        int framesInWindow;

        @Override
        public void accept(byte[] block, int offset, int length) {
            assertTrue(length > 0, "no empty block");
            bytes.write(block, offset, length);
            lengths.add(length);
        }
    }

    private Path writePcap(String name, List<byte[]> frames, int snapLength) throws Exception {
        Path file = dir.resolve(name);
        try (PcapWriter w = new PcapWriter(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), CaptureFormat.PCAP_NS, LinkTypes.ETHERNET, snapLength,
                ByteOrder.LITTLE_ENDIAN)) {
            for (int i = 0; i < frames.size(); i++) w.write(T0 + i, frames.get(i));
        }
        return file;
    }

    /** Reads every frame (checking each against frames, when given), then the whole file must have been streamed. */
    private static Collected readAll(Path file, List<byte[]> frames) throws Exception {
        Collected sink = new Collected();
        int inWindow = 0;
        try (PacketSource s = CaptureFiles.open(file)) {
            assertTrue(s.streamContent(sink));
            int i = 0;
            while (s.next()) {
                if (frames != null) assertArrayEquals(frames.get(i), s.data().toArray(ValueLayout.JAVA_BYTE), "frame " + (i + 1));
                // The sink is fed from the reader's window, which still serves the frame (all but records
                // longer than it).
                int at = s.frameBufferOffset();
                if (at >= 0) {
                    assertArrayEquals(s.data().toArray(ValueLayout.JAVA_BYTE),
                            java.util.Arrays.copyOfRange(s.frameBuffer(), at, at + s.capturedLength()), "frame " + (i + 1));
                    inWindow++;
                }
                i++;
            }
            if (frames != null) assertEquals(frames.size(), i);
            assertFalse(s.next());
        }
        assertArrayEquals(Files.readAllBytes(file), sink.bytes.toByteArray(), "every byte once, in file order");
        sink.framesInWindow = inWindow;
        return sink;
    }

    @Test
    void mixedFramesAcrossManyBlocks() throws Exception {
        Random r = new Random(5);
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 1500; i++) frames.add(Blocks.frame(r.nextInt(8) == 0 ? 9000 : 60 + r.nextInt(1455), i));
        Path file = writePcap("mixed.pcap", frames, 65535);
        assertTrue(Files.size(file) > 20 * MappedCapture.TOUCH_BLOCK);
        // Every record is shorter than MappedCapture.HELD: index's hash feeds from the same window that serves the
        // frames to the analysis (FastFacts), so none is read through a slice of the mapping.
        assertEquals(frames.size(), readAll(file, frames).framesInWindow);
    }

    @Test
    void recordsLongerThanABlockSkipNothing() throws Exception {
        // Frames of 200,000 bytes: one record spans three touch blocks, so the reader's next record starts two
        // blocks past what was touched; the streamed content must still hold the blocks in between.
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 12; i++) frames.add(Blocks.frame(i % 3 == 0 ? 60 : 200_000, i));
        readAll(writePcap("long-records.pcap", frames, 262_144), frames);
    }

    @Test
    void aFileEndingExactlyOnABlockBoundary() throws Exception {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 63; i++) frames.add(Blocks.frame(1008, i));
        frames.add(Blocks.frame(1008 - 24, 63));
        Path file = writePcap("boundary.pcap", frames, 65535);
        assertEquals(MappedCapture.TOUCH_BLOCK, Files.size(file));
        assertEquals(List.of(MappedCapture.TOUCH_BLOCK), readAll(file, frames).lengths);
    }

    @Test
    void pcapngLongerThanTheResidentWindowTwice() throws Exception {
        Random r = new Random(7);
        Path file = dir.resolve("long.pcapng");
        List<byte[]> frames = new ArrayList<>();
        try (PcapngWriter w = new PcapngWriter(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), ByteOrder.LITTLE_ENDIAN, null, null)) {
            w.addInterface(LinkTypes.ETHERNET, 65535);
            for (int i = 0; i < 40_000; i++) {
                byte[] f = Blocks.frame(60 + r.nextInt(3600), i);
                frames.add(f);
                w.write(0, T0 + i * 1000L, f);
            }
        }
        assertTrue(Files.size(file) > 2 * MappedCapture.RESIDENT_WINDOW + MappedCapture.TOUCH_BLOCK);
        readAll(file, frames);
    }

    @Test
    void aFileDamagedInTheMiddleIsStreamedToItsEnd() throws Exception {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 400; i++) frames.add(Blocks.frame(1000, i));
        Path file = writePcap("damaged.pcap", frames, 65535);
        // Record 100's captured length becomes 0x7FFFFFFF: the reader stops there, a third of the way in.
        long record100 = PcapReader.FILE_HEADER_LENGTH + 100L * (16 + 1000);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {-1, -1, -1, 0x7F}), record100 + 8);
        }
        Collected sink = new Collected();
        try (PacketSource s = CaptureFiles.open(file)) {
            assertTrue(s.streamContent(sink));
            int n = 0;
            while (s.next()) n++;
            assertEquals(100, n);
            assertFalse(s.problems().isEmpty());
        }
        assertArrayEquals(Files.readAllBytes(file), sink.bytes.toByteArray());
    }

    /**
     * A file whose header is cut short (a pcap of 10 bytes, a pcapng section header of 6) has no frame, and its reader
     * is finished when it opens: it still takes the sink and hands it the whole file, so that {@code metaroce index}
     * reports the damage and indexes what was readable, as for damage further in, instead of failing inside
     * ("does not stream its content", an internal error and no message about the file).
     */
    @Test
    void aFileCutInItsHeaderIsStreamedWhole() throws Exception {
        byte[] pcap = Files.readAllBytes(writePcap("whole.pcap", List.of(Blocks.frame(100, 0)), 65535));
        Path cutPcap = Files.write(dir.resolve("cut10.pcap"), java.util.Arrays.copyOf(pcap, 10));
        Path cutShb = Files.write(dir.resolve("cut6.pcapng"), new byte[] {0x0A, 0x0D, 0x0D, 0x0A, 0x1C, 0x00});
        for (Path file : List.of(cutPcap, cutShb)) {
            Collected sink = new Collected();
            try (PacketSource s = CaptureFiles.open(file)) {
                assertTrue(s.streamContent(sink), file.toString());
                assertFalse(s.next());
                assertTrue(s.problems().get(0).message().startsWith("truncated "), s.problems().toString());
            }
            assertArrayEquals(Files.readAllBytes(file), sink.bytes.toByteArray(), file.toString());
        }
    }

    @Test
    void onlyBeforeTheFirstFrame() throws Exception {
        Path file = writePcap("late.pcap", List.of(Blocks.frame(100, 0), Blocks.frame(100, 1)), 65535);
        try (PacketSource s = CaptureFiles.open(file)) {
            assertTrue(s.next());
            assertFalse(s.streamContent(new Collected()), "reading has begun: the sink would miss the start");
        }
    }
}
