package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.filter.FilterException;
import io.metaroce.gui.stats.ConversationRow;
import io.metaroce.gui.testutil.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

class IoGraphDataTest {
    /**
     * Intervals add up to the totals: all packets and bytes of the capture, the packets of a flow filter, the
     * retransmissions of an analysis.* filter, and goodput back to the flow's unique payload bytes.
     */
    @Test
    void binsSumToTheTotals() throws Exception {
        try (Sample s = Sample.open("rocev2-gbn-loss")) {
            FlowSummary data = s.session.flows().stream().filter(x -> x.counters().retransmittedPackets() > 0)
                    .findFirst().orElseThrow();
            String flow = new ConversationRow(data).filter();
            List<IoSeries> series = List.of(new IoSeries("all", "", IoSeries.Metric.PACKETS, 0),
                    new IoSeries("bytes", "", IoSeries.Metric.BYTES, 0),
                    new IoSeries("flow", flow, IoSeries.Metric.PACKETS, 0),
                    new IoSeries("rtx", "analysis.retransmission", IoSeries.Metric.PACKETS, 0),
                    new IoSeries("goodput", flow, IoSeries.Metric.GOODPUT, 0));
            long interval = 10_000;
            IoGraphData g = IoGraphData.compute(s.index, s.session, series, interval, null);
            assertEquals(s.index.size(), sum(g, 0));
            assertEquals(((Number) s.session.result().capture().get("bytes")).longValue(), sum(g, 1));
            assertEquals(data.counters().packets(), sum(g, 2));
            assertEquals(s.session.result().total("retransmitted_packets"), sum(g, 3));
            assertEquals(data.uniquePayloadBytes() * 8.0, sum(g, 4) * interval / 1e9, 1e-3);
            // The first frame of the first interval with a retransmission is one.
            for (int b = 0; b < g.bins(); b++)
                if (g.value(3, b) > 0) {
                    assertEquals(true, s.session.verdictOf(g.firstFrame(3, b)).retransmission());
                    break;
                }
        }
    }

    /** A series filter may use the GUI's own names (event, expert.*) like the display filter bar. */
    @Test
    void seriesFiltersAcceptTheGuiNames() throws Exception {
        try (Sample s = Sample.open("rocev2-gbn-loss")) {
            AnalysisEvent first = s.session.events().all().stream().filter(e -> e.frame() > 0).findFirst().orElseThrow();
            String type = first.type().label();
            long framesWithIt = s.session.events().all().stream().filter(e -> e.frame() > 0 && e.type() == first.type())
                    .mapToLong(AnalysisEvent::frame).distinct().count();
            List<IoSeries> series = List.of(new IoSeries("event", "event == \"" + type + "\"", IoSeries.Metric.PACKETS, 0),
                    new IoSeries("expert", "expert.severity == \"warn\" || expert.rule", IoSeries.Metric.PACKETS, 0));
            IoGraphData g = IoGraphData.compute(s.index, s.session, series, 10_000, null);
            assertEquals(framesWithIt, sum(g, 0), type);
            assertEquals(framesWithIt, g.matched(0));
        }
    }

    @Test
    void aBadFilterFailsWithItsColumn() throws Exception {
        try (Sample s = Sample.open("rocev2-clean")) {
            FilterException e = assertThrows(FilterException.class, () -> IoGraphData.compute(s.index, s.session,
                    List.of(new IoSeries("bad", "bth.psn ==", IoSeries.Metric.PACKETS, 0)), 1000, null));
            assertEquals(11, e.column());
        }
    }

    private static double sum(IoGraphData g, int s) {
        double t = 0;
        for (int b = 0; b < g.bins(); b++) t += g.value(s, b);
        return t;
    }
}
