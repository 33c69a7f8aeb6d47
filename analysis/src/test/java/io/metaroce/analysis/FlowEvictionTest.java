package io.metaroce.analysis;

import static io.metaroce.analysis.Pkt.WRITE_ONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The flow bound (issue 14, part 3): beyond {@link AnalysisSettings#maxFlows} flows the least recently active
 * are evicted; the capture summary still counts them and their losses, the flow list keeps the recent ones.
 */
class FlowEvictionTest {
    static final long US = 1_000;
    static final int QPS = 10;

    /** QP 1..10 one after the other, each losing PSN 1 before the receiver's tap and resending it. */
    private static Cap capture() {
        Cap c = new Cap();
        for (int q = 1; q <= QPS; q++) {
            c.add(US, Pkt.of(WRITE_ONLY).from("10.0.0.1", "10.0.0.2").qp(q).psn(0).payload(256));
            c.add(US, Pkt.of(WRITE_ONLY).from("10.0.0.1", "10.0.0.2").qp(q).psn(2).payload(256));
            c.add(100 * US, Pkt.of(WRITE_ONLY).from("10.0.0.1", "10.0.0.2").qp(q).psn(1).payload(256));
        }
        return c;
    }

    private static AnalysisSettings receiverTap() {
        return AnalysisSettings.DEFAULT.withTap(AnalysisSettings.Tap.host("10.0.0.2"));
    }

    @Test
    void evictedFlowsStayInTheCaptureTotals() {
        Map<String, Object> all = capture().analyze(receiverTap()).result.capture();
        assertNull(all.get("evicted_flows"), "nothing evicted under the default bound");
        assertEquals((long) QPS, all.get("flows"));

        Cap.Run r = capture().analyze(receiverTap().withMaxFlows(4));
        Map<String, Object> cap = r.result.capture();
        long evicted = (Long) cap.get("evicted_flows");
        int rows = r.result.flows().size();
        assertTrue(rows <= 4 && rows > 0, "rows: " + rows);
        assertEquals(QPS, rows + evicted);
        // Every total of the capture is the same as without eviction.
        for (String k : new String[] {"flows", "frames", "roce_frames", "network_losses", "capture_gaps", "sampling"}) {
            assertEquals(all.get(k), cap.get(k), k);
        }
        // The least recently active went: the last QP is kept, with its full verdicts.
        FlowSummary last = r.result.flow("10.0.0.1>10.0.0.2/0x00000a");
        assertNotNull(last);
        assertEquals(1, last.counters().retransmittedPackets());
        assertNull(r.result.flow("10.0.0.1>10.0.0.2/0x000001"));
        // Frames of an evicted flow keep the verdicts decided while it was held.
        assertTrue(r.session.verdictOf(3).retransmission(), r.dump());
        assertTrue(r.flag(30, "retransmission"), r.dump());
    }

    @Test
    void aBoundBelowTwoIsRefused() {
        try {
            receiverTap().withMaxFlows(1);
        } catch (IllegalArgumentException e) {
            return;
        }
        throw new AssertionError("max flows 1 accepted");
    }
    /**
     * A session's eviction listener gets each evicted flow's result and frames, as the unbounded run has them
     * (the flow index gives evicted flows a document too); the recorder lets go of their frames.
     */
    @Test
    void evictedFlowsAreHandedOutWithTheirFrames() throws Exception {
        Cap.Run all = capture().analyze(receiverTap());
        java.nio.file.Path f = all.file;
        java.util.Map<String, FlowSummary> evicted = new java.util.LinkedHashMap<>();
        java.util.Map<String, FrameList> frames = new java.util.HashMap<>();
        AnalysisSession s = new AnalysisSession(receiverTap().withMaxFlows(4), new AnalysisSession.Options(false, false, true))
                .onEviction((flow, fl) -> {
                    evicted.put(flow.id(), flow);
                    frames.put(flow.id(), fl);
                });
        AnalysisResult bounded = s.run(f);
        assertEquals(((Long) bounded.capture().get("evicted_flows")).intValue(), evicted.size());
        assertEquals(QPS, evicted.size() + bounded.flows().size());
        for (FlowSummary want : all.result.flows()) {
            FlowSummary got = evicted.containsKey(want.id()) ? evicted.get(want.id()) : bounded.flow(want.id());
            assertNotNull(got, want.id());
            assertEquals(want.toJsonMap(), got.toJsonMap(), want.id());
            FrameList wf = all.session.framesOf(want.id()), gf = evicted.containsKey(want.id()) ? frames.get(want.id()) : s.framesOf(want.id());
            assertEquals(java.util.Arrays.toString(wf.frames()), java.util.Arrays.toString(gf.frames()), want.id());
            assertEquals(java.util.Arrays.toString(wf.offsets()), java.util.Arrays.toString(gf.offsets()), want.id());
            assertEquals(3, gf.size(), want.id());
        }
    }
}
