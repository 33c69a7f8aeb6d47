package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.dissector.DissectorConfig;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --tap auto} on a file is resolved from the pass's own first frames ({@link TapHold}) instead of a separate
 * pre-read: the tap, its note and every flow result must be what the pre-read ({@link Analyzer#resolveTap}) and an
 * analysis with that tap given explicitly produce, on one thread and on two, including when the decision depends
 * on exactly where the pre-read stops and when RoCE frames are too rare to hold them all.
 */
@Timeout(300)
class TapHoldTest {
    private static final Path SAMPLES = Path.of("../samples/captures");
    private final long oldThreshold = AnalysisSession.pipelineMinBytes;

    @AfterEach
    void restore() {
        AnalysisSession.pipelineMinBytes = oldThreshold;
    }

    @Test
    void everySampleGetsThePreReadsTapOnOneAndTwoThreads() throws Exception {
        List<Path> samples = new ArrayList<>();
        try (DirectoryStream<Path> d = Files.newDirectoryStream(SAMPLES, "*.pcapng")) {
            d.forEach(samples::add);
        }
        assertNotEquals(0, samples.size());
        for (Path f : samples) assertSameAsPreRead(f);
    }

    /**
     * The first PRESCAN_FRAMES RoCE frames are one host pair (10.0.0.1 sends with an initial TTL); after them a second
     * pair appears, which would turn the decision into "mirror" had more frames been read. Non-RoCE frames among the
     * first ones do not count.
     */
    @Test
    void theTapIsDecidedAtExactlyThePreReadsFrameCount() throws Exception {
        Cap c = new Cap();
        for (int i = 0; i < 100; i++) c.add(1_000, notRoce(i), 0);
        for (int i = 0; i < Analyzer.PRESCAN_FRAMES; i++) {
            c.add(1_000, i % 2 == 0 ? Pkt.of(Pkt.SEND_ONLY).from("10.0.0.1", "10.0.0.2").qp(0x11).psn(i / 2).payload(32).ttl(64)
                    : Pkt.of(Pkt.ACK).from("10.0.0.2", "10.0.0.1").qp(0x12).psn(i / 2).aeth(0, 31, 0).ttl(62));
        }
        for (int i = 0; i < 200; i++) c.add(1_000, Pkt.of(Pkt.SEND_ONLY).from("10.0.0.3", "10.0.0.4").qp(0x21).psn(i).payload(32));
        Path f = c.write();
        TapChoice t = assertSameAsPreRead(f);
        assertEquals("host:10.0.0.1", t.tap().toString(), t.how());
    }

    /** Past MAX_HELD frames without enough RoCE frames the tap comes from a pre-read after all: the same tap. */
    @Test
    void rareRoceFramesAreNotAllHeld() throws Exception {
        Cap c = new Cap();
        for (int i = 0; i < TapHold.MAX_HELD + 1000; i++) {
            c.add(1_000, i % 1000 == 0 ? Pkt.of(Pkt.SEND_ONLY).from("10.0.0.5", "10.0.0.6").qp(0x31).psn(i / 1000).payload(16).ttl(64).build()
                    : i % 1000 == 500 ? Pkt.of(Pkt.ACK).from("10.0.0.6", "10.0.0.5").qp(0x32).psn(i / 1000).aeth(0, 31, 0).ttl(62).build()
                    : notRoce(i), 0);
        }
        Path f = c.write();
        TapChoice t = assertSameAsPreRead(f);
        assertEquals("host:10.0.0.5", t.tap().toString(), t.how());
        // The hold gives up at MAX_HELD frames, not later.
        TapHold h = new TapHold(f, new DissectorConfig(AnalysisSettings.DEFAULT.rocePorts(), true));
        FrameFacts other = new FrameFacts();
        for (int i = 1; i < TapHold.MAX_HELD; i++) h.add(other);
        assertFalse(h.resolved());
        h.add(other);
        assertTrue(h.resolved());
        assertEquals(t, h.choice());
        assertEquals(TapHold.MAX_HELD, h.drain().size());
    }

    /**
     * validate's pre-read (frame stages cannot hold frames) reads the pass's own mapping through a second reader:
     * the same tap as a pre-read that opens the file, decided at the same frame, and the pass's source still at
     * its first frame afterwards (it has no rewind).
     */
    @Test
    void thePreReadOverThePassesMappingLeavesThePassesSourceUnread() throws Exception {
        Cap c = new Cap();
        for (int i = 0; i < Analyzer.PRESCAN_FRAMES; i++) {
            c.add(1_000, i % 2 == 0 ? Pkt.of(Pkt.SEND_ONLY).from("10.0.0.1", "10.0.0.2").qp(0x11).psn(i / 2).payload(32).ttl(64)
                    : Pkt.of(Pkt.ACK).from("10.0.0.2", "10.0.0.1").qp(0x12).psn(i / 2).aeth(0, 31, 0).ttl(62));
        }
        for (int i = 0; i < 10; i++) c.add(1_000, Pkt.of(Pkt.SEND_ONLY).from("10.0.0.3", "10.0.0.4").qp(0x21).psn(i).payload(32));
        List<Path> files = new ArrayList<>(List.of(c.write()));
        try (DirectoryStream<Path> d = Files.newDirectoryStream(SAMPLES, "*.pcap*")) {
            d.forEach(files::add);
        }
        DissectorConfig dc = new DissectorConfig(AnalysisSettings.DEFAULT.rocePorts(), AnalysisSettings.DEFAULT.checkIcrc());
        for (Path f : files) {
            try (io.metaroce.capture.PacketSource pass = io.metaroce.capture.CaptureFiles.open(f)) {
                TapChoice t = Analyzer.resolveTap(pass, f, dc);
                assertEquals(Analyzer.resolveTap(f, dc), t, f.toString());
                assertTrue(pass.next(), f.toString());
                assertEquals(1, pass.frameNumber(), f + ": the pre-read moved the pass's source");
            }
        }
        assertEquals("host:10.0.0.1", Analyzer.resolveTap(files.get(0), dc).tap().toString());
    }

    /**
     * The pre-read reads each common frame where the pass does, in the reader's window
     * ({@link FastFacts#fill(FrameFacts, io.metaroce.capture.PacketSource)}): no slice of the mapping per frame
     * ({@code data()}, which it called for every frame before), so the pass's own entry is what it compiles. Frames
     * FastFacts declines still get their dissection from {@code data()}: the same tap either way.
     */
    @Test
    void thePreReadReadsCommonFramesInTheReadersWindow() throws Exception {
        Cap c = new Cap();
        for (int i = 0; i < 5; i++) c.add(1_000, notRoce(i), 0);
        for (int i = 0; i < 3_000; i++) {
            c.add(1_000, i % 2 == 0 ? Pkt.of(Pkt.SEND_ONLY).from("10.0.0.1", "10.0.0.2").qp(0x11).psn(i / 2).payload(32).ttl(64)
                    : Pkt.of(Pkt.ACK).from("10.0.0.2", "10.0.0.1").qp(0x12).psn(i / 2).aeth(0, 31, 0).ttl(62));
        }
        Path f = c.write();
        DissectorConfig dc = new DissectorConfig(AnalysisSettings.DEFAULT.rocePorts(), AnalysisSettings.DEFAULT.checkIcrc());
        int[] slices = {0};
        try (io.metaroce.capture.PacketSource src = io.metaroce.capture.CaptureFiles.open(f)) {
            TapChoice t = Analyzer.resolveTap(new CountingSource(src, slices), dc);
            assertEquals(Analyzer.resolveTap(f, dc), t);
            assertEquals("host:10.0.0.1", t.tap().toString(), t.how());
        }
        // The five frames FastFacts declines (not RoCE: UDP to port 5000), not one of the 3,000 RoCE frames.
        assertEquals(5, slices[0]);
    }

    /** A source that counts the calls of {@link io.metaroce.capture.PacketSource#data()} and passes everything on. */
    private record CountingSource(io.metaroce.capture.PacketSource s, int[] slices) implements io.metaroce.capture.PacketSource {
        @Override public boolean next() { return s.next(); }
        @Override public long frameNumber() { return s.frameNumber(); }
        @Override public long timestampNanos() { return s.timestampNanos(); }
        @Override public int capturedLength() { return s.capturedLength(); }
        @Override public long originalLength() { return s.originalLength(); }
        @Override public int linkType() { return s.linkType(); }
        @Override public int fcsLength() { return s.fcsLength(); }
        @Override public int interfaceId() { return s.interfaceId(); }
        @Override public int sectionIndex() { return s.sectionIndex(); }
        @Override public java.lang.foreign.MemorySegment data() {
            slices[0]++;
            return s.data();
        }
        @Override public byte[] frameBuffer() { return s.frameBuffer(); }
        @Override public int frameBufferOffset() { return s.frameBufferOffset(); }
        @Override public io.metaroce.capture.CurrentFrame current() { return s.current(); }
        @Override public java.lang.foreign.MemorySegment mapping() { return s.mapping(); }
        @Override public long dataOffset() { return s.dataOffset(); }
        @Override public long recordOffset() { return s.recordOffset(); }
        @Override public String comment() { return s.comment(); }
        @Override public io.metaroce.capture.CaptureFormat format() { return s.format(); }
        @Override public List<io.metaroce.capture.CaptureProblem> problems() { return s.problems(); }
        @Override public io.metaroce.capture.CaptureStats stats() { return s.stats(); }
        @Override public void close() { s.close(); }
    }

    /** Analyzes f with --tap auto on one and two threads and compares with the pre-read and an explicit tap. */
    private static TapChoice assertSameAsPreRead(Path f) throws Exception {
        TapChoice pre = Analyzer.resolveTap(f, new DissectorConfig(AnalysisSettings.DEFAULT.rocePorts(), AnalysisSettings.DEFAULT.checkIcrc()));
        AnalysisSession.pipelineMinBytes = Long.MAX_VALUE;
        AnalysisResult explicit = new AnalysisSession(AnalysisSettings.DEFAULT.withTap(pre.tap()), AnalysisSession.Options.RESULTS).run(f);
        for (long threshold : new long[] {Long.MAX_VALUE, 0}) {
            AnalysisSession.pipelineMinBytes = threshold;
            AnalysisResult auto = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).run(f);
            String what = f.getFileName() + (threshold == 0 ? " (two threads)" : " (one thread)");
            Map<?, ?> tap = (Map<?, ?>) auto.capture().get("tap");
            assertEquals(pre.tap().toString(), tap.get("resolved"), what);
            assertEquals(pre.how(), tap.get("how"), what);
            assertEquals(explicit.flows(), auto.flows(), what);
            assertEquals(explicit.capture().get("frames"), auto.capture().get("frames"), what);
        }
        return pre;
    }

    /** A UDP datagram to a port that is not RoCE's: not a RoCE frame. */
    private static byte[] notRoce(int i) {
        byte[] b = Pkt.of(Pkt.SEND_ONLY).from("192.168.0.1", "192.168.0.2").qp(0x99).psn(i).payload(16).build();
        b[14 + 20 + 2] = 0x13; // UDP destination port 0x1388 (5000)
        b[14 + 20 + 3] = (byte) 0x88;
        return b;
    }
}
