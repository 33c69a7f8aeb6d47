package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.FlowSummary.ByCause;
import io.metaroce.analysis.FlowSummary.Counters;
import io.metaroce.analysis.FlowSummary.LatencySummary;
import io.metaroce.analysis.FlowSummary.Latencies;
import io.metaroce.analysis.FlowSummary.MetaRoce;
import io.metaroce.analysis.FlowSummary.PathSummary;
import io.metaroce.analysis.FrameList;
import io.metaroce.analysis.View;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spill of evicted flows gives back each flow's result and frames exactly, in order: the documents made from
 * them are the documents made from the flows themselves.
 */
class EvictedFlowSpillTest {
    @TempDir
    Path tmp;

    /** Every flow of every bundled sample (RoCEv2 and MetaRoCE, all services and taps) through the spill. */
    @Test
    void theSamplesFlowsComeBackAsTheyWere() throws Exception {
        List<Map.Entry<FlowSummary, FrameList>> in = new ArrayList<>();
        List<Path> samples;
        try (Stream<Path> s = Files.list(Path.of("../samples/captures"))) {
            samples = s.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted().toList();
        }
        assertTrue(samples.size() > 10, samples.toString());
        for (Path p : samples) {
            AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, new AnalysisSession.Options(false, false, true));
            s.run(p);
            for (FlowSummary f : s.flows()) in.add(Map.entry(f, s.framesOf(f.id())));
        }
        assertTrue(in.stream().anyMatch(e -> e.getKey().metaRoce() != null), "a MetaRoCE flow among them");
        assertTrue(in.stream().anyMatch(e -> e.getKey().srcQps() != null), "a UD flow among them");
        roundTrip(in);
    }

    /** Every nullable value both ways, values at the edges of a varint, a flow of 200,000 frames (above the buffers). */
    @Test
    void everyValueAndALongFlowComeBackAsTheyWere() throws Exception {
        List<Map.Entry<FlowSummary, FrameList>> in = new ArrayList<>();
        long[] frames = new long[200_000], offsets = new long[200_000];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = 3L * i + 1;
            offsets[i] = i % 7 == 0 ? -1 : 24L + 1_000_003L * i;
        }
        in.add(Map.entry(summary("a", true, Long.MAX_VALUE), FrameList.of(frames, offsets)));
        in.add(Map.entry(summary("b", false, Long.MIN_VALUE), FrameList.of(new long[0], new long[0])));
        in.add(Map.entry(summary("c\u00e9>\u2603/0x000001", true, -1), FrameList.of(new long[] {5}, new long[] {-1})));
        roundTrip(in);
    }

    @Test
    void anEmptySpillReadsAsNothingAndLeavesNoFile() throws Exception {
        try (EvictedFlowSpill s = new EvictedFlowSpill(tmp)) {
            assertFalse(s.flows().iterator().hasNext());
        }
        try (Stream<Path> l = Files.list(tmp)) {
            assertEquals(0, l.count());
        }
    }

    private void roundTrip(List<Map.Entry<FlowSummary, FrameList>> in) throws Exception {
        IndexedCapture cap = new IndexedCapture("/x/c.pcap", 1, "0123456789abcdef", "pcap", "mirror", 1L, 2L, 3L);
        try (EvictedFlowSpill s = new EvictedFlowSpill(tmp)) {
            for (var e : in) s.add(e.getKey(), e.getValue());
            assertEquals(in.size(), s.size());
            // The scratch file is gone from the directory while open (POSIX): a killed run leaves nothing.
            try (Stream<Path> l = Files.list(tmp)) {
                assertEquals(0, l.count());
            }
            int i = 0;
            for (var e : s.flows()) {
                var want = in.get(i++);
                assertEquals(want.getKey(), e.getKey());
                assertArrayEquals(want.getValue().frames(), e.getValue().frames(), want.getKey().id());
                assertArrayEquals(want.getValue().offsets(), e.getValue().offsets(), want.getKey().id());
                assertEquals(FlowDocuments.of(cap, want.getKey(), want.getValue(), Set.of("nak"), Set.of(), 1_000),
                        FlowDocuments.of(cap, e.getKey(), e.getValue(), Set.of("nak"), Set.of(), 1_000));
            }
            assertEquals(in.size(), i);
        }
    }

    private static FlowSummary summary(String id, boolean full, long big) {
        LatencySummary l = full ? new LatencySummary(3, 1, 2, big, Long.MAX_VALUE) : null;
        Counters c = new Counters(1, 2, 3, 4, big, Long.MIN_VALUE, 7, 8, 9, new ByCause(1, 2, 3, 4, 5), 10, 11, 12, 13, 14, 15,
                16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, full ? 30L : null, full ? -31L : null, full, 32, 33, 34,
                35, 36);
        MetaRoce m = null;
        if (full) {
            TreeMap<Integer, PathSummary> paths = new TreeMap<>();
            paths.put(0, new PathSummary(0, 1, 2, 3, 4L, 0.25, null, 5, 6, l, 7, 8, null, false, null));
            paths.put(3, new PathSummary(3, 1, 2, 3, null, null, 9L, 5, 6, null, 7, 8, Double.NaN, true, "probes unanswered"));
            m = new MetaRoce(true, 4L, paths);
        }
        return new FlowSummary(id, "10.0.0.1", full ? "fe80::1" : "10.0.0.2", 0xFFFFFF, full ? "peer" : null, full ? "cm" : null,
                full ? "metaroce" : null, full ? "rc" : null, full ? View.RECEIVER : View.MIRROR, full ? List.of(1, 0xFFFFFF) : null,
                c, new Latencies(l, null, l, null, l), full ? big : null, big, m);
    }
}
