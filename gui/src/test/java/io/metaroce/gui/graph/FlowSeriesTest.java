package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.EventType;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.gui.testutil.Sample;
import org.junit.jupiter.api.Test;

class FlowSeriesTest {
    /**
     * The spray sample's data flow: its PSNs wrap from 0xFFFFF7 through 0, yet the graph runs from 0 upwards without a
     * jump; the markers are the analysis' events of the flow (5 retransmissions, 3 spurious, 1 NACK) and the peer's
     * SACKs (the flow's sack counter).
     */
    @Test
    void sprayFlowUnwrapsPsnsAndMarksTheEvents() throws Exception {
        try (Sample s = Sample.open("metaroce-spray-lossy-path")) {
            String id = "10.0.0.1>10.0.0.2/0x000013";
            FlowSeries fs = FlowSeries.build(s.index, s.session, id, s.frames(id), s.peerFrames(id), null);
            FlowSummary f = s.session.flow(id);
            assertEquals(16777207, fs.firstPsn());
            assertEquals(f.counters().dataPackets(), fs.data().size());
            long prevT = Long.MIN_VALUE;
            for (int i = 0; i < fs.data().size(); i++) {
                assertTrue(fs.data().time(i) >= prevT);
                prevT = fs.data().time(i);
                long y = fs.data().value(i);
                assertTrue(y >= 0 && y < 200, "unwrapped relative PSN " + y + " at " + i);
            }
            assertEquals(s.session.events().of(EventType.RETRANSMISSION).size(), fs.markers(MarkerKind.RETRANSMISSION).size());
            assertEquals(5, fs.markers(MarkerKind.RETRANSMISSION).size());
            assertEquals(3, fs.markers(MarkerKind.SPURIOUS).size());
            assertEquals(1, fs.markers(MarkerKind.NACK).size());
            assertEquals(f.counters().sacks(), fs.markers(MarkerKind.SACK).size());
            // A retransmission sits at the PSN of its first copy: frame 45 repeats PSN 16777209 (relative 2) of frame 6.
            PointSet r = fs.markers(MarkerKind.RETRANSMISSION);
            int i = r.indexOfFrame(45);
            assertEquals(2, r.value(i));
            assertEquals(16777209, fs.rawPsn(r.value(i)));
            assertEquals(fs.data().value(fs.data().indexOfFrame(6)), r.value(i));
        }
    }

    /** RoCEv2 go-back-N: NAKs and CNP-free; every NAK event of the flow is a NAK marker. */
    @Test
    void gbnFlowHasItsNaks() throws Exception {
        try (Sample s = Sample.open("rocev2-gbn-loss")) {
            FlowSummary data = s.session.flows().stream().filter(x -> x.counters().dataPackets() > 0 && x.counters().naks() > 0)
                    .findFirst().orElseThrow();
            FlowSeries fs = FlowSeries.build(s.index, s.session, data.id(), s.frames(data.id()), s.peerFrames(data.id()), null);
            long naks = s.session.events().all().stream().filter(e -> e.flow().equals(data.id()) && e.type() == EventType.NAK).count();
            assertTrue(naks > 0);
            assertEquals(naks, fs.markers(MarkerKind.NAK).size());
            assertEquals(data.counters().retransmittedPackets(),
                    fs.markers(MarkerKind.RETRANSMISSION).size() + fs.markers(MarkerKind.SPURIOUS).size());
        }
    }

    @Test
    void unwrapCrossesTheWrapBothWays() {
        assertEquals(9, FlowSeries.unwrapNear(5, 0xFFFFF0, 0xFFFFF9));
        assertEquals(16, FlowSeries.unwrapNear(14, 0xFFFFF0, 0));
        assertEquals(-2, FlowSeries.unwrapNear(0, 5, 3));
    }
}
