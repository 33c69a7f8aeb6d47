package io.metaroce.gui.graph;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;

/**
 * The PSN-vs-time (Stevens) graph of one QP flow: the data packets as a line (decimated per pixel column) with
 * dots where they are far enough apart to tell, the analysis' markers in their shapes on top (at most one per
 * pixel and kind, so a million markers cost what the screen has pixels), and the selected frame ringed with a
 * crosshair and its PSN.
 */
public final class PsnGraph extends PlotPane {
    private static final Color LINE = Color.rgb(31, 119, 180), SELECT = Color.rgb(230, 20, 20);
    private static final double MARK = 4.5;

    private FlowSeries series;
    private final Decimator decimator = new Decimator();
    private final Set<MarkerKind> shown = EnumSet.allOf(MarkerKind.class);
    private int selectedFrame;
    /** Where the selected frame is drawn (found once per selection, not per redraw): its set and index, or null. */
    private PointSet selectedSet;
    private int selectedIndex;

    public void setSeries(FlowSeries s) {
        series = s;
        locateSelection();
        contentChanged(true);
    }

    public FlowSeries series() { return series; }

    /** Hides or shows one kind of marker (the legend's check boxes). */
    public void setShown(MarkerKind k, boolean show) {
        if (show) shown.add(k);
        else shown.remove(k);
        redraw();
    }

    /** Marks a frame (the packet list's selection); 0 clears the mark. */
    /** The marker kinds shown now (what Save As... as CSV writes besides the data points). */
    public java.util.Set<MarkerKind> shownKinds() { return EnumSet.copyOf(shown); }

    public void setSelectedFrame(int frame) {
        if (frame == selectedFrame) return;
        selectedFrame = frame;
        locateSelection();
        redraw();
    }

    private void locateSelection() {
        selectedSet = null;
        if (selectedFrame <= 0 || series == null) return;
        for (PointSet s : allSets()) {
            int i = s.indexOfFrame(selectedFrame);
            if (i >= 0) {
                selectedSet = s;
                selectedIndex = i;
                return;
            }
        }
    }

    /** Whether the selected frame is a point of this graph (a frame of another flow is not). */
    public boolean selectionShown() { return selectedSet != null; }

    public int selectedFrame() { return selectedFrame; }

    @Override
    protected Viewport fullView(double w, double h) {
        if (series == null || series.data().size() == 0) return new Viewport(0, 1000, 0, 10, w, h);
        PointSet d = series.data();
        double lo = d.minValue(), hi = d.maxValue();
        double t0 = d.time(0), t1 = d.time(d.size() - 1);
        for (MarkerKind k : MarkerKind.values()) {
            PointSet m = series.markers(k);
            if (m.size() == 0) continue;
            lo = Math.min(lo, m.minValue());
            hi = Math.max(hi, m.maxValue());
            t0 = Math.min(t0, m.time(0));
            t1 = Math.max(t1, m.time(m.size() - 1));
        }
        return Viewport.fit(t0, t1, lo, hi, w, h);
    }

    @Override
    protected String yLabel() {
        return series == null ? "PSN" : String.format("PSN - 0x%06x (first PSN)", series.firstPsn());
    }

    @Override
    protected void drawContent(GraphicsContext gc, Viewport v) {
        if (series == null) return;
        PointSet d = series.data();
        int k = decimator.decimate(d.times(), d.values(), d.size(), v);
        gc.setStroke(LINE);
        gc.setLineWidth(1);
        gc.strokePolyline(decimator.xs(), decimator.ys(), k);
        // Dots only where points stand apart: at full range a million dots would be one blue band.
        if (k < v.width() / 3) {
            gc.setFill(LINE);
            for (int i = 0; i < k; i++) gc.fillOval(decimator.xs()[i] - 1.5, decimator.ys()[i] - 1.5, 3, 3);
        }
        int w = (int) Math.ceil(v.width()) + 1, h = (int) Math.ceil(v.height()) + 1;
        BitSet occupied = new BitSet(w * h);
        for (MarkerKind kind : drawOrder()) {
            if (!shown.contains(kind)) continue;
            PointSet m = series.markers(kind);
            occupied.clear();
            int from = Math.max(0, Decimator.lowerBound(m.times(), m.size(), (long) Math.floor(v.x0())) - 1);
            for (int i = from; i < m.size() && m.time(i) <= v.x1() + 1; i++) {
                double px = v.px(m.time(i)), py = v.py(m.value(i));
                int cx = (int) px, cy = (int) py;
                if (cx < -5 || cy < -5 || cx >= w + 5 || cy >= h + 5) continue;
                if (cx >= 0 && cy >= 0 && cx < w && cy < h) {
                    if (occupied.get(cy * w + cx)) continue;
                    occupied.set(cy * w + cx);
                }
                shape(gc, kind, px, py, MARK);
            }
        }
        drawSelection(gc, v);
    }

    /** Frequent, small kinds first so the rarer, more telling ones are drawn over them. */
    private static List<MarkerKind> drawOrder() {
        return List.of(MarkerKind.ACK, MarkerKind.SACK, MarkerKind.CE, MarkerKind.CNP, MarkerKind.NACK, MarkerKind.NAK,
                MarkerKind.RETRANSMISSION, MarkerKind.SPURIOUS);
    }

    private void drawSelection(GraphicsContext gc, Viewport v) {
        PointSet set = selectedSet;
        int at = selectedIndex;
        if (set == null || series == null) return;
        double px = v.px(set.time(at)), py = v.py(set.value(at));
        gc.setStroke(Color.rgb(230, 20, 20, 0.45));
        gc.setLineWidth(1);
        gc.setLineDashes(4, 4);
        gc.strokeLine(px, 0, px, v.height());
        gc.strokeLine(0, py, v.width(), py);
        gc.setLineDashes();
        gc.setStroke(SELECT);
        gc.setLineWidth(2);
        gc.strokeOval(px - 7, py - 7, 14, 14);
        gc.setFill(SELECT);
        String label = "frame " + selectedFrame + "  PSN " + series.rawPsn(set.value(at));
        double lx = px + 10 > v.width() - 150 ? px - 160 : px + 10;
        gc.fillText(label, lx, Math.max(14, py - 10));
    }

    /** Markers before data, so a click on a marker drawn over a data point selects the marker's frame. */
    private List<PointSet> allSets() {
        List<PointSet> l = new ArrayList<>();
        List<MarkerKind> order = new ArrayList<>(drawOrder());
        java.util.Collections.reverse(order);
        for (MarkerKind k : order) if (shown.contains(k)) l.add(series.markers(k));
        l.add(series.data());
        return l;
    }

    @Override
    protected int hit(Viewport v, double px, double py) {
        if (series == null) return 0;
        HitTest.Hit h = HitTest.nearest(allSets(), v, px, py, 8);
        return h == null ? 0 : h.frame();
    }

    @Override
    protected void drawLegend(GraphicsContext gc, double x, double y) {
        double at = x;
        gc.setStroke(LINE);
        gc.setLineWidth(1.5);
        gc.strokeLine(at, y, at + 16, y);
        gc.setFill(Color.rgb(40, 40, 40));
        gc.fillText("Data", at + 20, y);
        at += 60;
        for (MarkerKind k : MarkerKind.values()) {
            if (series == null || series.markers(k).size() == 0) continue;
            shape(gc, k, at + 5, y, MARK);
            gc.setFill(shown.contains(k) ? Color.rgb(40, 40, 40) : Color.rgb(160, 160, 160));
            String label = k.label() + " (" + series.markers(k).size() + ")";
            gc.fillText(label, at + 13, y);
            at += 22 + label.length() * 6.3;
        }
    }

    static Color color(MarkerKind k) {
        int c = k.argb();
        return Color.rgb((c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF);
    }

    /** Draws one marker centred on (x, y) with half-size r. */
    static void shape(GraphicsContext gc, MarkerKind k, double x, double y, double r) {
        Color c = color(k);
        gc.setFill(c);
        gc.setStroke(c);
        gc.setLineWidth(1.6);
        switch (k.shape()) {
            case SQUARE -> gc.fillRect(x - r + 0.5, y - r + 0.5, 2 * r - 1, 2 * r - 1);
            case DIAMOND -> gc.fillPolygon(new double[] {x, x + r, x, x - r}, new double[] {y - r, y, y + r, y}, 4);
            case TRIANGLE_DOWN -> gc.fillPolygon(new double[] {x - r, x + r, x}, new double[] {y - r, y - r, y + r}, 3);
            case TRIANGLE_UP -> gc.fillPolygon(new double[] {x - r, x + r, x}, new double[] {y + r, y + r, y - r}, 3);
            case PLUS -> {
                gc.strokeLine(x - r, y, x + r, y);
                gc.strokeLine(x, y - r, x, y + r);
            }
            case TICK -> gc.strokeLine(x - r, y, x + r, y);
            case CROSS -> {
                gc.strokeLine(x - r, y - r, x + r, y + r);
                gc.strokeLine(x - r, y + r, x + r, y - r);
            }
            case CIRCLE -> gc.strokeOval(x - r + 0.5, y - r + 0.5, 2 * r - 1, 2 * r - 1);
        }
    }
}
