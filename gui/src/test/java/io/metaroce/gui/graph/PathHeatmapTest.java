package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.FlowSummary;
import io.metaroce.gui.testutil.Sample;
import org.junit.jupiter.api.Test;

class PathHeatmapTest {
    /**
     * The cells of each path add up to the analysis' per-path totals: packets, packets retransmitted from the path
     * (the truth puts every loss on path 2) and CE marks; the lossy path is the hottest row.
     */
    @Test
    void cellsSumToThePathTotals() throws Exception {
        try (Sample s = Sample.open("metaroce-spray-lossy-path")) {
            String id = "10.0.0.1>10.0.0.2/0x000013";
            FlowSummary f = s.session.flow(id);
            PathHeatmap h = PathHeatmap.build(s.index, s.session, id, s.frames(id), 40, null);
            assertEquals(4, h.paths());
            assertEquals(40, h.bins());
            for (var p : f.metaRoce().paths().values()) {
                assertEquals(p.packets(), h.totalPackets(p.id()), "packets of path " + p.id());
                assertEquals(p.retransmittedFrom(), h.totalLost(p.id()), "losses of path " + p.id());
                assertEquals(p.ceMarks(), h.totalCe(p.id()), "CE of path " + p.id());
            }
            assertEquals(5, h.totalLost(2));
            double worst = 0;
            int worstPath = -1;
            for (int p = 0; p < 4; p++) {
                double sum = 0;
                for (int b = 0; b < h.bins(); b++) {
                    double v = h.value(HeatMetric.LOSS, p, b);
                    if (!Double.isNaN(v)) sum += v;
                }
                if (sum > worst) { worst = sum; worstPath = p; }
            }
            assertEquals(2, worstPath);
            // RTT: path 3 is the slow one (4 us extra in the scenario).
            assertTrue(mean(h, 3) > mean(h, 0) + 3000, "path 3 RTT " + mean(h, 3) + " vs path 0 " + mean(h, 0));
        }
    }

    private static double mean(PathHeatmap h, int p) {
        double s = 0;
        int n = 0;
        for (int b = 0; b < h.bins(); b++) {
            double v = h.value(HeatMetric.RTT, p, b);
            if (!Double.isNaN(v)) { s += v; n++; }
        }
        return s / n;
    }

    @Test
    void onlyMetaRoceFlowsHaveAHeatmap() throws Exception {
        try (Sample s = Sample.open("rocev2-clean")) {
            for (FlowSummary f : s.session.flows()) assertFalse(PathHeatmap.applies(f));
        }
    }

    @Test
    void colourScalesRunFromCoolToHot() {
        ColorScale c = ColorScale.of(HeatMetric.LOSS);
        assertEquals(ColorScale.EMPTY, c.argb(Double.NaN, 1));
        int cool = c.argb(0, 1), hot = c.argb(1, 1);
        assertTrue(((hot >> 16) & 0xFF) > ((cool >> 16) & 0xFF), "hot is redder");
        assertEquals(c.at(0.5), c.argb(5, 10));
    }
}
