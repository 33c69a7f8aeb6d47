package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class ViewportTest {
    private final Viewport v = new Viewport(1000, 2000, 0, 100, 500, 200);

    @Test
    void dataAndPixelsMapBothWays() {
        assertEquals(0, v.px(1000), 1e-9);
        assertEquals(500, v.px(2000), 1e-9);
        assertEquals(200, v.py(0), 1e-9);
        assertEquals(0, v.py(100), 1e-9);
        assertEquals(1500, v.dataX(250), 1e-9);
        assertEquals(25, v.dataY(150), 1e-9);
    }

    /** The wheel zooms around the mouse: the data point under it stays under it. */
    @Test
    void zoomKeepsThePointUnderTheMouse() {
        Viewport z = v.zoom(0.5, 100, 50);
        assertEquals(v.dataX(100), z.dataX(100), 1e-9);
        assertEquals(v.dataY(50), z.dataY(50), 1e-9);
        assertEquals(500, z.x1() - z.x0(), 1e-9);
        assertEquals(50, z.y1() - z.y0(), 1e-9);
        Viewport zx = v.zoomX(0.1, 400);
        assertEquals(v.dataX(400), zx.dataX(400), 1e-9);
        assertEquals(v.y0(), zx.y0());
    }

    /** Dragging moves the data with the mouse: after a 50-pixel drag right, what was at 0 is at 50. */
    @Test
    void panFollowsTheDrag() {
        Viewport p = v.pan(50, -20);
        assertEquals(v.dataX(0), p.dataX(50), 1e-9);
        assertEquals(v.dataY(100), p.dataY(80), 1e-9);
    }

    @Test
    void boxZoomShowsTheBox() {
        Viewport b = v.box(400, 20, 100, 120);
        assertEquals(v.dataX(100), b.x0(), 1e-9);
        assertEquals(v.dataX(400), b.x1(), 1e-9);
        assertEquals(v.dataY(120), b.y0(), 1e-9);
        assertEquals(v.dataY(20), b.y1(), 1e-9);
        assertSame(v, v.box(10, 10, 11, 80), "a click is not a box");
    }
}
