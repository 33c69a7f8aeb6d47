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
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PcapngFormatTest {
    @TempDir
    Path dir;

    private static final int OPT_COMMENT = 1;
    private static final int SHB_USERAPPL = 4;
    private static final int IF_NAME = 2;
    private static final int IF_DESCRIPTION = 3;
    private static final int IF_TSRESOL = 9;
    private static final int IF_FCSLEN = 13;
    private static final int IF_TSOFFSET = 14;
    private static final int EPB_FLAGS = 2;

    /**
     * Two sections of different byte order; in the first, two interfaces with 10^-6 and 2^-20 resolution (the
     * second with if_tsoffset), EPB/SPB/obsolete PB, comments, skipped NRB and custom blocks, ISB drop counts.
     */
    @Test
    void sectionsInterfacesBlockTypesAndOptions() throws Exception {
        Blocks b = new Blocks(ByteOrder.LITTLE_ENDIAN);
        b.shb(ByteOrder.LITTLE_ENDIAN, OPT_COMMENT, "first section", SHB_USERAPPL, "handmade");
        b.idb(LinkTypes.ETHERNET, 96, IF_NAME, "eth0", IF_FCSLEN, (byte) 4);
        b.idb(LinkTypes.IPV4, 0, IF_TSRESOL, (byte) 0x94, IF_TSOFFSET, 1_700_000_000L, IF_DESCRIPTION, "binary clock");
        b.block(4, new byte[] {1, 0, 8, 0, 10, 0, 0, 1, 'h', 'o', 's', 't', 0, 0, 0, 0, 0, 0, 0, 0}, new byte[0]); // NRB

        byte[] f1 = Blocks.frame(90, 1);
        long off1 = b.size();
        b.epb(0, 1_700_000_000_123_456L, f1, 90, OPT_COMMENT, "hello \u00e9");

        byte[] f2 = Blocks.frame(41, 2);
        long off2 = b.size();
        b.epb(1, 5L * (1 << 20) + (1 << 19), f2, 41);

        byte[] f3 = Blocks.frame(96, 3);
        long off3 = b.size();
        b.spb(200, f3);

        byte[] f4 = Blocks.frame(57, 4);
        long off4 = b.size();
        b.pb(1, 3, 1L << 20, f4, 60, OPT_COMMENT, "old block");

        b.block(0x00000BAD, new byte[] {0, 0, 0x7E, (byte) 0x9B, 1, 2, 3}, new byte[0]); // custom block, skipped

        byte[] f5 = Blocks.frame(64, 5);
        b.epb(0, 1_700_000_001_000_000L, f5, 64, EPB_FLAGS, (2 << 5)); // per-packet FCS length 2 overrides 4
        b.isb(0, 0, 4, 1000L, 5, 7L, 7, 11L);
        b.isb(1, 0, 5, 1L);

        // Section 2: big-endian, 10^-9 with a negative offset
        b.shb(ByteOrder.BIG_ENDIAN, OPT_COMMENT, "second section");
        b.idb(LinkTypes.ETHERNET, 65535, IF_TSRESOL, (byte) 9, IF_TSOFFSET, -10L);
        byte[] f6 = Blocks.frame(70, 6);
        long off6 = b.size();
        b.epb(0, 20_000_000_001L, f6, 70);
        b.block(0x0000000A, new byte[] {'K', 'S', 'L', 'T', 0, 0, 0, 0}, new byte[0]); // DSB, skipped
        long offBad = b.size();
        b.epb(1, 1, Blocks.frame(10, 9), 10); // interface 1 does not exist in this section
        byte[] f7 = Blocks.frame(61, 7);
        b.epb(0, 30_000_000_000L, f7, 61, OPT_COMMENT, "last");

        try (PacketSource s = CaptureFiles.open(write(dir, "multi.pcapng", b.bytes()))) {
            assertEquals(CaptureFormat.PCAPNG, s.format());

            assertTrue(s.next());
            assertEquals(1, s.frameNumber());
            assertEquals(off1, s.recordOffset());
            assertEquals(1_700_000_000_123_456_000L, s.timestampNanos());
            assertArrayEquals(f1, data(s));
            assertEquals(0, s.interfaceId());
            assertEquals(0, s.sectionIndex());
            assertEquals(LinkTypes.ETHERNET, s.linkType());
            assertEquals(4, s.fcsLength());
            assertEquals("hello \u00e9", s.comment());

            assertTrue(s.next());
            assertEquals(off2, s.recordOffset());
            assertEquals(1_700_000_005_500_000_000L, s.timestampNanos(), "2^-20 ticks plus if_tsoffset");
            assertEquals(1, s.interfaceId());
            assertEquals(LinkTypes.IPV4, s.linkType());
            assertEquals(-1, s.fcsLength());
            assertArrayEquals(f2, data(s));
            assertNull(s.comment());

            assertTrue(s.next());
            assertEquals(off3, s.recordOffset());
            assertEquals(0, s.timestampNanos(), "SPB has no timestamp");
            assertEquals(96, s.capturedLength(), "min(snaplen 96, original 200)");
            assertEquals(200, s.originalLength());
            assertEquals(0, s.interfaceId());
            assertArrayEquals(f3, data(s));

            assertTrue(s.next());
            assertEquals(off4, s.recordOffset());
            assertEquals(1_700_000_001_000_000_000L, s.timestampNanos());
            assertEquals(57, s.capturedLength());
            assertEquals(60, s.originalLength());
            assertEquals(1, s.interfaceId());
            assertEquals("old block", s.comment());
            assertArrayEquals(f4, data(s));

            assertTrue(s.next());
            assertEquals(1_700_000_001_000_000_000L, s.timestampNanos());
            assertEquals(2, s.fcsLength(), "epb_flags FCS length");
            assertArrayEquals(f5, data(s));

            CaptureStats mid = s.stats();
            assertEquals(1, mid.sectionCount());
            assertEquals(-1, mid.interfaces().get(0).ifDropped(), "the ISB comes later in the file");

            assertTrue(s.next());
            assertEquals(off6, s.recordOffset());
            assertEquals(1, s.sectionIndex());
            assertEquals(0, s.interfaceId());
            assertEquals(10_000_000_001L, s.timestampNanos(), "10^-9 with if_tsoffset -10 s");
            assertArrayEquals(f6, data(s));

            assertTrue(s.next(), "a packet for an unknown interface is skipped, not fatal");
            assertEquals(7, s.frameNumber());
            assertEquals(20_000_000_000L, s.timestampNanos());
            assertEquals("last", s.comment());
            assertArrayEquals(f7, data(s));
            assertFalse(s.next());

            List<CaptureProblem> problems = s.problems();
            assertEquals(1, problems.size(), problems.toString());
            assertEquals(offBad, problems.get(0).offset());
            assertTrue(problems.get(0).message().contains("byte " + offBad), problems.get(0).message());
            assertTrue(problems.get(0).message().contains("interface 1"), problems.get(0).message());

            CaptureStats st = s.stats();
            assertEquals(7, st.framesRead());
            assertEquals(2, st.sectionCount());
            assertEquals(3, st.interfaceCount());
            assertEquals(List.of("first section", "second section"), st.fileComments());
            assertEquals("handmade", st.captureApplication());
            assertEquals(1, st.problemCount());
            CaptureInterface eth0 = st.interfaces().get(0);
            assertEquals("eth0", eth0.name());
            assertEquals(96, eth0.snapLength());
            assertEquals(4, eth0.fcsLength());
            assertEquals(1000, eth0.ifReceived());
            assertEquals(7, eth0.ifDropped());
            assertEquals(11, eth0.osDropped());
            assertEquals(3, eth0.framesRead());
            CaptureInterface bin = st.interfaces().get(1);
            assertTrue(bin.binaryResolution());
            assertEquals(0x94, bin.tsResolution());
            assertEquals(1_700_000_000L, bin.tsOffsetSeconds());
            assertEquals("binary clock", bin.description());
            assertEquals(1, bin.ifDropped());
            assertEquals(-1, bin.osDropped());
            assertEquals(2, bin.framesRead());
            CaptureInterface second = st.interfaces().get(2);
            assertEquals(1, second.section());
            assertEquals(0, second.interfaceId());
            assertEquals(-1, second.ifDropped());
            assertEquals(8, st.totalIfDropped());
            assertEquals(11, st.totalOsDropped());
        }
    }

    /**
     * Several comments on one packet (the GUI's packet comments): an opt_comment each, read back in order by
     * comments() in both byte orders (comment() the first); the packets around keep theirs or none.
     */
    @Test
    void severalCommentsOnOnePacketRoundTrip() throws Exception {
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (PcapngWriter w = new PcapngWriter(Channels.newChannel(bos), order, "sim", null)) {
                int eth = w.addInterface(LinkTypes.ETHERNET, 0);
                MemorySegment f = MemorySegment.ofArray(Blocks.frame(61, 1));
                w.writeWithComments(eth, 1L, f, 0, 61, 61, List.of("first NAK", "", "three\nlines"));
                w.writeWithComments(eth, 2L, f, 0, 61, 61, List.of());
                w.writeWithComments(eth, 3L, f, 0, 61, 61, List.of("only"));
            }
            try (PacketSource s = CaptureFiles.open(write(dir, "c-" + order + ".pcapng", bos.toByteArray()))) {
                assertTrue(s.next());
                assertEquals("first NAK", s.comment());
                assertEquals(List.of("first NAK", "", "three\nlines"), s.comments());
                assertArrayEquals(Blocks.frame(61, 1), data(s));
                assertTrue(s.next());
                assertEquals(List.of(), s.comments());
                assertTrue(s.next());
                assertEquals(List.of("only"), s.comments());
                assertFalse(s.next());
                assertTrue(s.problems().isEmpty(), s.problems().toString());
            }
        }
    }

    @Test
    void writerRoundTripBothByteOrders() throws Exception {
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            byte[] big = Blocks.frame(1500, 1);
            try (PcapngWriter w = new PcapngWriter(Channels.newChannel(bos), order, "sim", "run 42")) {
                int eth = w.addInterface(LinkTypes.ETHERNET, 1024, "roce0", 4);
                int raw = w.addInterface(LinkTypes.RAW, 0);
                w.write(eth, 1_700_000_000_000_000_001L, big, 0, 1500, 1500, "cut to snaplen");
                w.write(raw, 2L, Blocks.frame(3, 2));
                w.write(eth, 3L, MemorySegment.ofArray(Blocks.frame(20, 3)), 5, 15, 19, null);
                w.writeStatistics(eth, 4L, 3, 12, 34);
                w.writeStatistics(raw, 4L, -1, 0, -1);
                assertEquals(3, w.framesWritten());
            }
            try (PacketSource s = CaptureFiles.open(write(dir, "w-" + order + ".pcapng", bos.toByteArray()))) {
                assertTrue(s.next());
                assertEquals(1_700_000_000_000_000_001L, s.timestampNanos());
                assertEquals(1024, s.capturedLength());
                assertEquals(1500, s.originalLength());
                assertArrayEquals(Arrays.copyOf(big, 1024), data(s));
                assertEquals("cut to snaplen", s.comment());
                assertEquals(4, s.fcsLength());
                assertTrue(s.next());
                assertEquals(1, s.interfaceId());
                assertEquals(LinkTypes.RAW, s.linkType());
                assertArrayEquals(Blocks.frame(3, 2), data(s));
                assertNull(s.comment());
                assertTrue(s.next());
                assertEquals(19, s.originalLength());
                assertArrayEquals(Arrays.copyOfRange(Blocks.frame(20, 3), 5, 20), data(s));
                assertFalse(s.next());
                assertTrue(s.problems().isEmpty(), s.problems().toString());
                CaptureStats st = s.stats();
                assertEquals("sim", st.captureApplication());
                assertEquals(List.of("run 42"), st.fileComments());
                assertEquals("roce0", st.interfaces().get(0).name());
                assertEquals(9, st.interfaces().get(0).tsResolution());
                assertEquals(3, st.interfaces().get(0).ifReceived());
                assertEquals(12, st.interfaces().get(0).ifDropped());
                assertEquals(34, st.interfaces().get(0).osDropped());
                assertEquals(0, st.interfaces().get(1).ifDropped());
                assertEquals(12, st.totalIfDropped());
            }
        }
    }

    @Test
    void writerIsDeterministic() throws Exception {
        byte[][] runs = new byte[2][];
        for (int i = 0; i < 2; i++) {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (PcapngWriter w = PcapngWriter.create(bos)) {
                w.addInterface(1, 65535);
                w.write(0, 42, Blocks.frame(61, 1));
            }
            runs[i] = bos.toByteArray();
        }
        assertArrayEquals(runs[0], runs[1]);
    }

    @Test
    void timestampResolutions() {
        InterfaceState i = new InterfaceState(0, 0, 1, 0);
        assertEquals(1_000, i.toNanos(1), "default 10^-6");
        i.setTimestampFormat(0, 0);
        assertEquals(7_000_000_000L, i.toNanos(7), "10^0 = seconds");
        i.setTimestampFormat(12, 0);
        assertEquals(5, i.toNanos(5_999), "10^-12 truncates to ns");
        i.setTimestampFormat(12, 0);
        assertEquals(Long.divideUnsigned(-1L, 1000), i.toNanos(-1L), "ticks are unsigned");
        i.setTimestampFormat(0x80, 0);
        assertEquals(3_000_000_000L, i.toNanos(3), "2^0");
        i.setTimestampFormat(0x80 | 30, 0);
        assertEquals(1_500_000_000L, i.toNanos(3L << 29), "2^-30");
        i.setTimestampFormat(0x80 | 64, 0);
        assertEquals(500_000_000L, i.toNanos(1L << 63), "2^-64 needs 128-bit arithmetic");
        i.setTimestampFormat(0x80 | 127, 0);
        assertEquals(0, i.toNanos(-1L));
        i.setTimestampFormat(0x7F, 0);
        assertEquals(0, i.toNanos(-1L), "10^-127");
        i.setTimestampFormat(9, 2);
        assertEquals(2_000_000_001L, i.toNanos(1));
        i.setTimestampFormat(9, Long.MIN_VALUE);
        assertEquals(Long.MIN_VALUE + 1, i.toNanos(1), "a hostile offset saturates instead of throwing");
    }

    @Test
    void fcsLengthOptionBitsOrBytes() {
        assertEquals(4, PcapngReader.fcsBytes(4));
        assertEquals(4, PcapngReader.fcsBytes(32));
        assertEquals(2, PcapngReader.fcsBytes(16));
        assertEquals(0, PcapngReader.fcsBytes(0));
    }
}
