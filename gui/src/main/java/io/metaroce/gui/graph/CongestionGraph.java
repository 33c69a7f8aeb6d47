package io.metaroce.gui.graph;

import io.metaroce.dissector.Addresses;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.input.MouseEvent;
import javafx.geometry.VPos;
import javafx.scene.paint.Color;
import javafx.scene.shape.Line;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Text;

/**
 * The congestion loop of one QP direction drawn: the data rate per bucket as a line (decimated per pixel column),
 * the pace (the median gap between its packets, as a rate) as a second line,
 * the CE-marked packets as circles on a lane under it and the CNPs as crosses on a lane over it, each CNP with a faint
 * line down through the rate so the cut after it (or its absence) shows, and the paused runs of the flow's PFC class
 * as shaded bands behind everything. Hovering names what is under the mouse (a marker's frame and time, else the
 * bucket's rate) with a line at the mouse's time; a click on a marker selects its frame. The hover line and text are
 * nodes over the canvas, not drawn on it: a mouse move repaints their few pixels, not the series (a full-range redraw of
 * a long flow costs the software pipeline tens of ms; docs/benchmarks.md, thirty-first session). So is the red
 * dashed line at the packet list's selected frame: moving the selection moves a node, the series stay drawn.
 */
public final class CongestionGraph extends PlotPane {
    static final Color RATE = Color.rgb(31, 119, 180), PACE = Color.rgb(148, 103, 189), PAUSED = Color.rgb(255, 127, 14, 0.22),
            PAUSED_EDGE = Color.rgb(255, 127, 14, 0.7), SELECT = Color.rgb(230, 20, 20), CNP_LINE = Color.rgb(23, 190, 207, 0.35);
    private static final double MARK = 4.5;
    /** Pixels per marker cell on a lane, and between two CNP lines. */
    private static final int CELL = 3;
    /** Up to this many CNP lines are stroked one by one, more as one path. */
    private static final int FEW = 64;

    private CongestionSeries series;
    private final Decimator decimator = new Decimator();
    private long selectedTime = -1;
    private String hover = "";
    /** The hover layer: a line at the mouse's time and the text at the plot's top right (mouse-transparent). */
    private final Line hoverLine = new Line();
    private final Text hoverLabel = new Text();
    private final Rectangle hoverBox = new Rectangle();
    /** The selected frame's line, on the same layer (under the hover nodes); placed by {@link #placeSelectedLine}. */
    private final Line selectedLine = new Line();
    private final MarkerBatch batch = new MarkerBatch();
    private final DenseLines dense = new DenseLines();
    /**
     * Draws as before the redraw was made fast (each marker, CNP line and band a shape of its own, the lines stroked
     * whole): the reference CongestionLoopGraphTest compares the fast drawing with.
     */
    boolean referenceDrawing;

    /** Pixel columns of the lines the last redraw filled instead of stroking (0: every segment stroked). */
    int denseColumns() { return referenceDrawing ? 0 : dense.columns(); }

    public CongestionGraph() {
        hoverLine.setStroke(Color.rgb(0, 0, 0, 0.35));
        hoverLine.getStrokeDashArray().setAll(3.0, 3.0);
        hoverLabel.setId("cc-hover");
        hoverLabel.setFont(FONT);
        hoverLabel.setFill(Color.rgb(30, 30, 30));
        hoverLabel.setTextOrigin(VPos.TOP);
        hoverBox.setFill(Color.rgb(255, 255, 255, 0.85));
        selectedLine.setId("cc-selected");
        selectedLine.setStroke(SELECT);
        selectedLine.setStrokeWidth(1);
        selectedLine.getStrokeDashArray().setAll(4.0, 4.0);
        for (javafx.scene.Node n : new javafx.scene.Node[] {selectedLine, hoverLine, hoverBox, hoverLabel}) {
            n.setMouseTransparent(true);
            n.setManaged(false);
            n.setVisible(false);
        }
        getChildren().addAll(selectedLine, hoverLine, hoverBox, hoverLabel);
        addEventHandler(MouseEvent.MOUSE_MOVED, e -> hoverAt(e.getX(), e.getY()));
        addEventHandler(MouseEvent.MOUSE_EXITED, e -> hoverAt(-1, -1));
    }

    public void setSeries(CongestionSeries s) {
        series = s;
        hoverAt(-1, -1);
        contentChanged(true);
    }

    public CongestionSeries series() { return series; }

    /** The highest value the lines reach (the top of the rate axis; the CNP lane sits above it). */
    private long top() { return series == null ? 1 : series.maxRateOrPace(); }

    /**
     * Marks a time (ns from the capture's first frame; the packet list's selected frame), -1 for none: moves the
     * line's node, the canvas is not redrawn ({@link #redraws()} does not change).
     */
    public void setSelectedTime(long t) {
        if (t == selectedTime) return;
        selectedTime = t;
        placeSelectedLine(viewport());
    }

    public long selectedTime() { return selectedTime; }

    /** The selected frame's line's x in pane coordinates, NaN when hidden (no selection, or outside the view). */
    double selectedLineX() { return selectedLine.isVisible() ? selectedLine.getStartX() : Double.NaN; }

    /** The selected frame's line at its time in view v (the one drawn or being drawn), hidden outside it. */
    private void placeSelectedLine(Viewport v) {
        boolean on = series != null && selectedTime >= 0 && v != null && selectedTime >= v.x0() && selectedTime <= v.x1();
        selectedLine.setVisible(on);
        if (!on) return;
        double x = LEFT + v.px(selectedTime);
        selectedLine.setStartX(x);
        selectedLine.setEndX(x);
        selectedLine.setStartY(TOP);
        selectedLine.setEndY(TOP + v.height());
    }

    /** What the hover line says now ("" when the mouse is elsewhere). */
    public String hover() { return hover; }

    /** The hover layer's text node (tests read where it is and what it shows). */
    Text hoverLabel() { return hoverLabel; }

    /** The hover line's x in pane coordinates, NaN when hidden. */
    double hoverLineX() { return hoverLine.isVisible() ? hoverLine.getStartX() : Double.NaN; }

    /**
     * The mouse at pane coordinates (x, y): the hover text and line follow it, on their own layer (the canvas is not
     * redrawn: {@link #redraws()} does not change).
     */
    void hoverAt(double x, double y) {
        String s = hoverText(x - LEFT, y - TOP);
        boolean on = !s.isEmpty();
        hoverLine.setVisible(on);
        if (on) {
            double lx = Math.round(x) + 0.5;
            hoverLine.setStartX(lx);
            hoverLine.setEndX(lx);
            hoverLine.setStartY(TOP);
            hoverLine.setEndY(TOP + plotHeight());
        }
        if (s.equals(hover)) return;
        hover = s;
        hoverLabel.setText(s);
        hoverLabel.setVisible(on);
        hoverBox.setVisible(on);
        placeHoverLabel();
    }

    /** The hover text at the plot area's top right, as it was drawn on the canvas before. */
    private void placeHoverLabel() {
        if (!hoverLabel.isVisible()) return;
        double w = hoverLabel.getLayoutBounds().getWidth(), h = hoverLabel.getLayoutBounds().getHeight();
        double x = LEFT + plotWidth() - w - 6;
        hoverLabel.setX(x);
        hoverLabel.setY(TOP + 4);
        hoverBox.setX(x - 5);
        hoverBox.setY(TOP + 2);
        hoverBox.setWidth(w + 10);
        hoverBox.setHeight(h + 4);
    }

    @Override
    protected void layoutChildren() {
        super.layoutChildren();
        placeHoverLabel();
        if (hoverLine.isVisible()) hoverLine.setEndY(TOP + plotHeight());
    }

    /** The text for the mouse at plot-area pixel (px, py): the marker under it, else the rate of its bucket. */
    String hoverText(double px, double py) {
        if (series == null) return "";
        Viewport v = viewport();
        if (px < 0 || py < 0 || px > v.width() || py > v.height()) return "";
        HitTest.Hit h = HitTest.nearest(List.of(series.cnp(), series.ce()), v, px, py, 8);
        double t = v.dataX(px);
        if (h != null) {
            String what = h.set() == series.cnp() ? "CNP" : "CE-marked packet";
            return String.format(Locale.ROOT, "%s: frame %d at %s us (click selects it)", what, h.frame(), us(h.set().time(h.index())));
        }
        PointSet r = series.rate();
        int i = Decimator.lowerBound(r.times(), r.size(), (long) Math.floor(t) + 1) - 1;
        StringBuilder b = new StringBuilder();
        if (i >= 0 && t < r.time(r.size() - 1) + series.bucketNs()) {
            b.append(String.format(Locale.ROOT, "%s us: %s Mb/s in the %s us from %s us", us(t), Ticks.number(r.value(i)),
                    us(series.bucketNs()), us(r.time(i))));
            PointSet p = series.pace();
            int j = Decimator.lowerBound(p.times(), p.size(), r.time(i));
            if (j < p.size() && p.time(j) == r.time(i)) b.append(", pace ").append(Ticks.number(p.value(j))).append(" Mb/s");
        } else {
            b.append(us(t)).append(" us");
        }
        for (long[] p : series.paused()) {
            if (p[0] <= t && t < p[1]) {
                b.append(String.format(Locale.ROOT, "; paused %s us from %s us", us(p[1] - p[0]), us(p[0])));
                break;
            }
        }
        return b.toString();
    }

    private static String us(double ns) { return String.format(Locale.ROOT, "%.3f", ns / 1e3); }

    @Override
    protected Viewport fullView(double w, double h) {
        if (series == null || series.rate().size() + series.ce().size() + series.cnp().size() == 0) {
            return new Viewport(0, 1000, 0, 10, w, h);
        }
        long max = top();
        double t0 = Double.MAX_VALUE, t1 = -Double.MAX_VALUE;
        for (PointSet p : List.of(series.rate(), series.ce(), series.cnp())) {
            if (p.size() == 0) continue;
            t0 = Math.min(t0, p.time(0));
            t1 = Math.max(t1, p.time(p.size() - 1));
        }
        if (series.rate().size() > 0) t1 = Math.max(t1, series.rate().time(series.rate().size() - 1) + series.bucketNs());
        return Viewport.fit(t0, t1, CongestionSeries.ceLane(max), CongestionSeries.cnpLane(max), w, h);
    }

    @Override
    protected String yLabel() { return "data rate (Mb/s)"; }

    /** The rate axis' labels: none on the two marker lanes (below 0, above the highest rate). */
    @Override
    protected List<Double> yTicks(Viewport v) {
        List<Double> l = new ArrayList<>();
        double top = series == null ? v.y1() : top();
        for (double y : super.yTicks(v)) if (y >= 0 && y <= top) l.add(y);
        return l;
    }

    @Override
    protected void drawContent(GraphicsContext gc, Viewport v) {
        if (series == null) {
            placeSelectedLine(v);
            return;
        }
        bands(gc, v);
        // The zero line and the lanes' separators.
        long max = top();
        gc.setStroke(Color.rgb(0, 0, 0, 0.25));
        gc.setLineWidth(1);
        double zero = Math.round(v.py(0)) + 0.5, top = Math.round(v.py(max)) + 0.5;
        gc.strokeLine(0, zero, v.width(), zero);
        gc.setLineDashes(2, 4);
        gc.strokeLine(0, top, v.width(), top);
        gc.setLineDashes();
        int w = (int) Math.ceil(v.width()) + 1;
        // A faint line down from each CNP, one per CELL pixels: each stroke costs the software pipeline about as much
        // as the whole rate line, and lines closer than that are one band anyway.
        PointSet cnp = series.cnp();
        BitSet columns = new BitSet(w / CELL + 1);
        gc.setStroke(CNP_LINE);
        batch.clear();
        for (int i = first(cnp, v); i < cnp.size() && cnp.time(i) <= v.x1() + 1; i++) {
            int cx = (int) v.px(cnp.time(i));
            if (cx < 0 || cx >= w || columns.get(cx / CELL)) continue;
            columns.set(cx / CELL);
            batch.add(cx + 0.5, v.py(cnp.value(i)));
        }
        // Many lines as one path; a few one by one: a path is rasterised over its whole bounding box (the plot), a
        // line over its own (a zoomed-in view with a few CNPs drew slower as one path).
        if (referenceDrawing || batch.size() <= FEW) {
            for (int i = 0; i < batch.size(); i++) gc.strokeLine(batch.x(i), batch.y(i), batch.x(i), zero);
        } else {
            gc.beginPath();
            for (int i = 0; i < batch.size(); i++) {
                gc.moveTo(batch.x(i), batch.y(i));
                gc.lineTo(batch.x(i), zero);
            }
            gc.stroke();
            gc.beginPath();
        }
        lines(gc, v);
        markers(gc, v, series.ce(), MarkerKind.CE, w);
        markers(gc, v, cnp, MarkerKind.CNP, w);
        placeSelectedLine(v);   // a new view (zoom, pan, resize) moves the line with the series
    }

    /**
     * The pace line, then the rate line over it. Their dense runs (more than one bucket per pixel column: every
     * full-range view of a long flow) are filled into one image ({@link DenseLines}), the rest stroked, in the same order:
     * the pace's strokes, the image (pace, then rate), the rate's strokes.
     */
    private void lines(GraphicsContext gc, Viewport v) {
        PointSet p = series.pace(), r = series.rate();
        if (referenceDrawing) {
            if (p.size() > 0) {
                int k = decimator.decimate(p.times(), p.values(), p.size(), v);
                gc.setStroke(PACE);
                gc.setLineWidth(1);
                gc.strokePolyline(decimator.xs(), decimator.ys(), k);
            }
            int k = decimator.decimate(r.times(), r.values(), r.size(), v);
            gc.setStroke(RATE);
            gc.setLineWidth(1.2);
            gc.strokePolyline(decimator.xs(), decimator.ys(), k);
            return;
        }
        dense.begin(v.width(), v.height());
        if (p.size() > 0) {
            int k = decimator.decimate(p.times(), p.values(), p.size(), v);
            gc.beginPath();
            if (dense.add(gc, decimator.xs(), decimator.ys(), k, PACE, 1)) {
                gc.setStroke(PACE);
                gc.setLineWidth(1);
                gc.stroke();
            }
        }
        int k = decimator.decimate(r.times(), r.values(), r.size(), v);
        gc.beginPath();
        boolean strokes = dense.add(gc, decimator.xs(), decimator.ys(), k, RATE, 1.2);
        dense.draw(gc);
        if (strokes) {
            gc.setStroke(RATE);
            gc.setLineWidth(1.2);
            gc.stroke();
        }
        gc.beginPath();
    }

    private static int first(PointSet p, Viewport v) {
        return Math.max(0, Decimator.lowerBound(p.times(), p.size(), (long) Math.floor(v.x0())) - 1);
    }

    /**
     * One marker per CELL pixels of the lane (a lane is one row; markers are 9 pixels wide, so closer ones would only
     * overdraw): a million CE marks cost a third of what the plot is wide. Measured on a 1M-frame incast (132,541 CE
     * marks on one flow): a full-range redraw took 300 ms with one per pixel column, nearly all of it the ovals.
     */
    private void markers(GraphicsContext gc, Viewport v, PointSet m, MarkerKind kind, int w) {
        BitSet occupied = new BitSet(w / CELL + 1);
        batch.clear();
        for (int i = first(m, v); i < m.size() && m.time(i) <= v.x1() + 1; i++) {
            double px = v.px(m.time(i));
            int cx = (int) px;
            if (cx < -5 || cx >= w + 5) continue;
            if (cx >= 0 && cx < w) {
                if (occupied.get(cx / CELL)) continue;
                occupied.set(cx / CELL);
            }
            if (referenceDrawing) PsnGraph.shape(gc, kind, px, v.py(m.value(i)), MARK);
            else batch.add(px, v.py(m.value(i)));
        }
        batch.draw(gc, kind, MARK);
    }

    /**
     * The paused runs in view as shaded bands with an edge at each start: one fill and one stroke for all of them
     * (FlowControl keeps up to 4096 runs; one shape per band cost the software pipeline as much as a marker each).
     */
    private void bands(GraphicsContext gc, Viewport v) {
        gc.setFill(PAUSED);
        gc.setStroke(PAUSED_EDGE);
        gc.setLineWidth(1);
        if (referenceDrawing) {
            for (long[] p : series.paused()) {
                if (p[1] < v.x0() || p[0] > v.x1()) continue;
                double x0 = v.px(p[0]), x1 = Math.max(x0 + 1, v.px(p[1]));
                gc.fillRect(x0, 0, x1 - x0, v.height());
                gc.strokeLine(Math.round(x0) + 0.5, 0, Math.round(x0) + 0.5, v.height());
            }
            return;
        }
        gc.beginPath();
        boolean any = false;
        for (long[] p : series.paused()) {
            if (p[1] < v.x0() || p[0] > v.x1()) continue;
            double x0 = v.px(p[0]), x1 = Math.max(x0 + 1, v.px(p[1]));
            gc.rect(x0, 0, x1 - x0, v.height());
            any = true;
        }
        if (!any) return;
        gc.fill();
        gc.beginPath();
        for (long[] p : series.paused()) {
            if (p[1] < v.x0() || p[0] > v.x1()) continue;
            double x = Math.round(v.px(p[0])) + 0.5;
            gc.moveTo(x, 0);
            gc.lineTo(x, v.height());
        }
        gc.stroke();
        gc.beginPath();
    }

    @Override
    protected int hit(Viewport v, double px, double py) {
        if (series == null) return 0;
        HitTest.Hit h = HitTest.nearest(List.of(series.cnp(), series.ce()), v, px, py, 8);
        return h == null ? 0 : h.frame();
    }

    @Override
    protected void drawLegend(GraphicsContext gc, double x, double y) {
        double at = x;
        gc.setStroke(RATE);
        gc.setLineWidth(1.5);
        gc.strokeLine(at, y, at + 16, y);
        gc.setFill(Color.rgb(40, 40, 40));
        String rate = series == null ? "Data rate" : String.format(Locale.ROOT, "Data rate per %s us", us(series.bucketNs()));
        gc.fillText(rate, at + 20, y);
        at += 28 + rate.length() * 6.3;
        if (series == null) return;
        if (series.pace().size() > 0) {
            gc.setStroke(PACE);
            gc.strokeLine(at, y, at + 16, y);
            gc.setFill(Color.rgb(40, 40, 40));
            gc.fillText("Pace", at + 20, y);
            at += 58;
        }
        for (MarkerKind k : new MarkerKind[] {MarkerKind.CE, MarkerKind.CNP}) {
            PointSet m = k == MarkerKind.CE ? series.ce() : series.cnp();
            PsnGraph.shape(gc, k, at + 5, y, MARK);
            gc.setFill(Color.rgb(40, 40, 40));
            String label = k.label() + "s (" + m.size() + ")";
            gc.fillText(label, at + 13, y);
            at += 24 + label.length() * 6.3;
        }
        if (!series.paused().isEmpty()) {
            gc.setFill(PAUSED);
            gc.fillRect(at, y - 6, 16, 12);
            gc.setFill(Color.rgb(40, 40, 40));
            String label = "Paused (" + (series.priority() >= 0 ? "priority " + series.priority() + " or link" : "any class")
                    + (series.dstMac() >= 0 ? " from " + Addresses.mac(series.dstMac()) : "") + ", " + series.paused().size() + " runs)";
            gc.fillText(label, at + 20, y);
        }
    }
}
