package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.protocol.OpcodeDef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The analysis on real captures (issue 9, item 1): no retransmission where a PSN was sent once. */
class ExternalCapturesAnalysisTest {
    static final List<EventType> RETX = List.of(EventType.RETRANSMISSION, EventType.TIMEOUT_RETRANSMISSION,
            EventType.SPURIOUS_RETRANSMISSION);

    static List<AnalysisEvent> events(Path f, AnalysisSettings s) throws Exception {
        List<AnalysisEvent> l = new ArrayList<>();
        Analyzer.analyze(f, s, false, l::add);
        return l;
    }

    /** ibdump wrote 8 ACKs a few microseconds before the request they acknowledge. */
    @Test
    void nvmeDiscoverAcksAheadOfTheirRequestsAreCaptureReordering() throws Exception {
        Path f = ExternalCaptures.file("m3_nvme-discover.pcap");
        Assumptions.assumeTrue(f != null, ExternalCaptures.SKIP);
        for (String tap : new String[] {"mirror", "host:2.2.2.1", "host:2.2.2.3"}) {
            AnalysisSettings s = AnalysisSettings.DEFAULT.withTap(AnalysisSettings.Tap.parse(tap));
            List<AnalysisEvent> ev = events(f, s);
            List<Long> reordered = new ArrayList<>();
            for (AnalysisEvent e : ev) {
                assertTrue(!RETX.contains(e.type()) && e.type() != EventType.ACK_OF_UNSEEN, tap + ": " + e);
                if (e.type() == EventType.ACK_BEFORE_REQUEST) reordered.add(e.frame());
            }
            assertEquals(List.of(18L, 20L, 30L, 32L, 46L, 52L, 53L, 62L), reordered, tap);
            AnalysisResult r = Analyzer.analyze(f, s, false, null);
            assertEquals(0L, r.count("2.2.2.1>2.2.2.3/0x00008d", "capture_gaps"), tap);
            assertEquals(0L, r.count("2.2.2.3>2.2.2.1/0x0000dc", "capture_gaps"), tap);
        }
    }

    @Test
    void rcSmallFrame20IsNotARetransmission() throws Exception {
        Path f = ExternalCaptures.file("m3_rc-small.pcap");
        Assumptions.assumeTrue(f != null, ExternalCaptures.SKIP);
        List<AnalysisEvent> ev = events(f, AnalysisSettings.DEFAULT);
        assertTrue(ev.stream().noneMatch(e -> RETX.contains(e.type())), ev.toString());
        assertTrue(ev.stream().anyMatch(e -> e.type() == EventType.ACK_BEFORE_REQUEST && e.frame() == 20), ev.toString());
    }

    /** Every capture of the folder: a retransmission always repeats a request PSN the capture shows twice or more. */
    @Test
    void noRetransmissionOfAPsnSentOnce() throws Exception {
        Path dir = ExternalCaptures.dir();
        Assumptions.assumeTrue(dir != null, ExternalCaptures.SKIP);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted().toList();
        }
        assertTrue(files.size() >= 10, "too few captures in " + dir);
        for (Path f : files) {
            AnalysisFrameFields provider = Analyzer.frameFields(f, AnalysisSettings.DEFAULT);
            Map<String, Integer> copies = new HashMap<>();
            List<String> retx = new ArrayList<>();
            Dissector dis = new Dissector();
            Dissection d = new Dissection();
            try (PacketSource src = CaptureFiles.open(f)) {
                while (src.next()) {
                    dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    provider.attach(d);
                    OpcodeDef op = d.opcode();
                    int fi = d.extra().indexOf(AnalysisFrameFields.FLOW);
                    if (op == null || op.role() != OpcodeDef.Role.REQUEST || fi < 0) continue;
                    String key = d.extra().stringValue(fi) + "#" + new FrameFacts().from(d).psn;
                    copies.merge(key, 1, Integer::sum);
                    int ri = d.extra().indexOf(AnalysisFrameFields.RETX), ii = d.extra().indexOf(AnalysisFrameFields.INFERRED);
                    if (ri >= 0 && d.extra().longValue(ri) != 0 && ii < 0) retx.add(key + " frame " + d.number());
                }
            }
            for (String k : retx) {
                String key = k.substring(0, k.indexOf(" frame"));
                assertTrue(copies.get(key) >= 2, f.getFileName() + ": retransmission of a PSN sent once: " + k);
            }
        }
    }
}
