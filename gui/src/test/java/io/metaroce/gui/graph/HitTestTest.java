package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class HitTestTest {
    @Test
    void aClickSelectsTheNearestPointsFrame() {
        PointSet data = new PointSet(100_000), rtx = new PointSet(4);
        for (int i = 0; i < 100_000; i++) data.add(i * 10L, i, 1000 + i);
        rtx.add(50_005, 5_000, 7);
        Viewport v = new Viewport(0, 1_000_000, 0, 100_000, 1000, 500);
        // Exactly on data point 20,000 (frame 21,000).
        HitTest.Hit h = HitTest.nearest(List.of(rtx, data), v, v.px(200_000), v.py(20_000), 6);
        assertEquals(21_000, h.frame());
        // On the retransmission marker, which sits among data points: the marker's frame.
        h = HitTest.nearest(List.of(rtx, data), v, v.px(50_005), v.py(5_000), 6);
        assertEquals(7, h.frame());
        // Far from every point: nothing.
        assertNull(HitTest.nearest(List.of(rtx, data), v, 900, 20, 6));
    }

    /** Zoomed in so that points are far apart, a click between two picks the closer one. */
    @Test
    void betweenTwoPointsTheCloserWins() {
        PointSet s = new PointSet(3);
        s.add(100, 10, 1);
        s.add(200, 10, 2);
        s.add(300, 10, 3);
        Viewport v = new Viewport(0, 400, 0, 20, 400, 200);
        assertEquals(2, HitTest.nearest(List.of(s), v, 170, 100, 40).frame());
        assertEquals(1, HitTest.nearest(List.of(s), v, 140, 100, 40).frame());
    }
}
