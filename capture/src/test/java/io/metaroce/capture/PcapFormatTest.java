package io.metaroce.capture;

import static io.metaroce.capture.TestSupport.data;
import static io.metaroce.capture.TestSupport.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PcapFormatTest {
    @TempDir
    Path dir;

    private static final long T0 = 1_700_000_000_123_456_789L;

    @ParameterizedTest
    @EnumSource(value = CaptureFormat.class, names = {"PCAP_US", "PCAP_NS"})
    void writerRoundTripLittleAndBigEndian(CaptureFormat resolution) throws Exception {
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            Path file = dir.resolve(resolution + "-" + order + ".pcap");
            try (PcapWriter w = new PcapWriter(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING), resolution,
                    LinkTypes.ETHERNET, 65535, order)) {
                w.write(T0, Blocks.frame(60, 1));
                w.write(T0 + 1_500, Blocks.frame(1514, 2), 0, 200, 1514); // sliced frame
                w.write(T0 + 2_000_000_000L, MemorySegment.ofArray(Blocks.frame(100, 3)), 10, 90, 90);
            }
            byte[] head = Files.readAllBytes(file);
            int expectedMagicFirstByte = order == ByteOrder.BIG_ENDIAN ? 0xA1 : (resolution == CaptureFormat.PCAP_NS ? 0x4D : 0xD4);
            assertEquals(expectedMagicFirstByte, head[0] & 0xFF);

            long unit = resolution == CaptureFormat.PCAP_NS ? 1 : 1000;
            try (PacketSource s = CaptureFiles.open(file)) {
                assertEquals(resolution, s.format());
                assertTrue(s.next());
                assertEquals(1, s.frameNumber());
                assertEquals(T0 / unit * unit, s.timestampNanos());
                assertEquals(60, s.capturedLength());
                assertEquals(60, s.originalLength());
                assertArrayEquals(Blocks.frame(60, 1), data(s));
                assertEquals(LinkTypes.ETHERNET, s.linkType());
                assertEquals(-1, s.fcsLength());
                assertEquals(0, s.interfaceId());
                assertEquals(24, s.recordOffset());
                assertNull(s.comment());

                assertTrue(s.next());
                assertEquals((T0 + 1_500) / unit * unit, s.timestampNanos());
                assertEquals(200, s.capturedLength());
                assertEquals(1514, s.originalLength());
                byte[] expected = java.util.Arrays.copyOf(Blocks.frame(1514, 2), 200);
                assertArrayEquals(expected, data(s));
                assertEquals(24 + 16 + 60, s.recordOffset());

                assertTrue(s.next());
                assertEquals((T0 + 2_000_000_000L) / unit * unit, s.timestampNanos());
                assertArrayEquals(java.util.Arrays.copyOfRange(Blocks.frame(100, 3), 10, 100), data(s));
                assertFalse(s.next());
                assertFalse(s.next(), "next() stays false at the end");
                assertTrue(s.problems().isEmpty(), s.problems().toString());
                CaptureStats st = s.stats();
                assertEquals(3, st.framesRead());
                assertEquals(1, st.interfaces().size());
                assertEquals(65535, st.interfaces().get(0).snapLength());
                assertEquals(3, st.interfaces().get(0).framesRead());
            }
        }
    }

    /** Big-endian files assembled byte by byte, independent of PcapWriter. */
    @Test
    void handWrittenBigEndianMicroAndNano() throws Exception {
        for (boolean nanos : new boolean[] {false, true}) {
            byte[] f1 = Blocks.frame(64, 7);
            byte[] f2 = Blocks.frame(33, 8);
            byte[] bytes = new Blocks(ByteOrder.BIG_ENDIAN).pcapHeader(nanos, 262144, LinkTypes.LINUX_SLL2)
                    .pcapRecord(1_700_000_000L, nanos ? 999_999_999 : 999_999, f1, 64)
                    .pcapRecord(0xFFFF_FFF0L, 1, f2, 4000).bytes();
            assertEquals(0xA1, bytes[0] & 0xFF);
            try (PacketSource s = CaptureFiles.open(write(dir, "be" + nanos + ".pcap", bytes))) {
                assertEquals(nanos ? CaptureFormat.PCAP_NS : CaptureFormat.PCAP_US, s.format());
                assertTrue(s.next());
                assertEquals(1_700_000_000_999_999_999L - (nanos ? 0 : 999), s.timestampNanos());
                assertEquals(LinkTypes.LINUX_SLL2, s.linkType(), "link type passed through");
                assertArrayEquals(f1, data(s));
                assertTrue(s.next());
                // seconds are unsigned 32-bit: a value above 2^31 must not turn negative
                assertEquals(0xFFFF_FFF0L * 1_000_000_000L + (nanos ? 1 : 1000), s.timestampNanos());
                assertEquals(4000, s.originalLength());
                assertArrayEquals(f2, data(s));
                assertFalse(s.next());
                assertEquals(262144, s.stats().interfaces().get(0).snapLength());
            }
        }
    }

    @Test
    void fcsBitsInLinkTypeField() throws Exception {
        // libpcap encoding (P bit 26, length nibble 28..31 in 16-bit units), the old draft's f bit, and none.
        int[][] cases = {
            {LinkTypes.pcapLinkTypeWithFcs(LinkTypes.ETHERNET, 4), 4},
            {LinkTypes.pcapLinkTypeWithFcs(LinkTypes.ETHERNET, 2), 2},
            {LinkTypes.pcapLinkTypeWithFcs(LinkTypes.ETHERNET, 0), 0},
            {LinkTypes.ETHERNET | 0x1000_0000 | (2 << 29), 4},
            {LinkTypes.ETHERNET, -1},
        };
        for (int[] c : cases) {
            byte[] bytes = new Blocks(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, 65535, c[0])
                    .pcapRecord(1, 0, Blocks.frame(64, 1), 64).bytes();
            try (PacketSource s = CaptureFiles.open(write(dir, "fcs.pcap", bytes))) {
                assertTrue(s.next());
                assertEquals(LinkTypes.ETHERNET, s.linkType(), "FCS bits are not part of the link type");
                assertEquals(c[1], s.fcsLength(), () -> "field " + Integer.toHexString(c[0]));
                assertEquals(c[1], s.stats().interfaces().get(0).fcsLength());
            }
        }
    }

    @Test
    void writerCutsToSnapLengthAndWritesToStreams() throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (PcapWriter w = PcapWriter.create(bos, CaptureFormat.PCAP_NS, LinkTypes.RAW, 100)) {
            w.write(5, Blocks.frame(300, 1));
            assertEquals(1, w.framesWritten());
        }
        try (PacketSource s = CaptureFiles.open(write(dir, "snap.pcap", bos.toByteArray()))) {
            assertTrue(s.next());
            assertEquals(100, s.capturedLength());
            assertEquals(300, s.originalLength());
            assertEquals(LinkTypes.RAW, s.linkType());
            assertEquals(5, s.timestampNanos());
        }
    }

    /** Frames larger than the writer's 64 KiB buffer, from an array and from a segment. */
    @Test
    void framesLargerThanTheWriteBuffer() throws Exception {
        byte[] big = Blocks.frame(200_000, 9);
        Path file = dir.resolve("big.pcap");
        try (PcapWriter w = PcapWriter.create(file, CaptureFormat.PCAP_NS, 1, 262144)) {
            w.write(1, Blocks.frame(10, 1));
            w.write(2, big);
            w.write(3, MemorySegment.ofArray(big), 1, 199_999, 199_999);
        }
        try (PacketSource s = CaptureFiles.open(file)) {
            assertTrue(s.next());
            assertTrue(s.next());
            assertArrayEquals(big, data(s));
            assertTrue(s.next());
            assertArrayEquals(java.util.Arrays.copyOfRange(big, 1, big.length), data(s));
            assertFalse(s.next());
        }
    }

    @Test
    void outputIsDeterministic() throws Exception {
        byte[][] runs = new byte[2][];
        for (int i = 0; i < 2; i++) {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (PcapWriter w = new PcapWriter(Channels.newChannel(bos), CaptureFormat.PCAP_US, 1, 65535,
                    ByteOrder.LITTLE_ENDIAN)) {
                w.write(T0, Blocks.frame(80, 4));
            }
            runs[i] = bos.toByteArray();
        }
        assertArrayEquals(runs[0], runs[1]);
        assertEquals(24 + 16 + 80, runs[0].length);
    }

    /** Frames are slices of the mapping that stay valid after later next() calls, until close(). */
    @Test
    void dataSlicesOutliveNext() throws Exception {
        Path file = dir.resolve("many.pcap");
        try (PcapWriter w = PcapWriter.create(file, CaptureFormat.PCAP_NS, 1, 0)) {
            for (int i = 0; i < 500; i++) {
                w.write(i, Blocks.frame(60 + i % 50, i));
            }
        }
        List<MemorySegment> kept = new ArrayList<>();
        try (PacketSource s = CaptureFiles.open(file)) {
            while (s.next()) {
                kept.add(s.data());
                assertEquals(s.dataOffset(), s.recordOffset() + 16);
                assertEquals(s.mapping().get(ValueLayout.JAVA_BYTE, s.dataOffset()), s.data().get(ValueLayout.JAVA_BYTE, 0));
            }
            // Decode on another thread, as a parallel dissector would; get() rethrows its assertion failures.
            try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
                pool.submit(() -> {
                    for (int i = 0; i < kept.size(); i++) {
                        assertArrayEquals(Blocks.frame(60 + i % 50, i), kept.get(i).toArray(ValueLayout.JAVA_BYTE));
                    }
                    return null;
                }).get();
            }
            assertEquals(500, kept.size());
        }
    }
}
