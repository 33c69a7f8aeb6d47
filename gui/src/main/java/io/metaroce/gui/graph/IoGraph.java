package io.metaroce.gui.graph;

import java.util.ArrayList;
import java.util.List;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;

/**
 * The IO graph: one line per series over the capture's intervals (decimated per pixel column like the PSN
 * graph, so a million intervals draw as fast as a hundred), a legend with each series' filter, and the
 * selected frame's interval marked. A click selects the first frame of the nearest interval of a series.
 */
public final class IoGraph extends PlotPane {
    private IoGraphData data;
    private final List<PointSet> lines = new ArrayList<>();
    private final Decimator decimator = new Decimator();
    private long originNs;
    private int selectedFrame;
    private long selectedTime = -1;

    /**
     * Shows new data; originNs is the capture's first frame time (interval 0 starts there).
     */
    public void setData(IoGraphData d, long originNs) {
        data = d;
        this.originNs = originNs;
        lines.clear();
        for (int s = 0; s < d.series().size(); s++) {
            PointSet p = new PointSet(d.bins());
            for (int b = 0; b < d.bins(); b++) p.add(b * d.intervalNs(), Math.round(d.value(s, b)), d.firstFrame(s, b));
            lines.add(p);
        }
        contentChanged(true);
    }

    public IoGraphData data() { return data; }

    /** Marks the interval of a frame: selectedTimeNs is its capture time; 0 frame clears. */
    public void setSelected(int frame, long timeNs) {
        selectedFrame = frame;
        selectedTime = frame <= 0 ? -1 : timeNs - originNs;
        redraw();
    }

    @Override
    protected Viewport fullView(double w, double h) {
        if (data == null || data.bins() == 0) return new Viewport(0, 1e6, 0, 10, w, h);
        double hi = 1;
        for (int s = 0; s < data.series().size(); s++) hi = Math.max(hi, data.max(s));
        double x1 = Math.max(1, (double) (data.bins() - 1) * data.intervalNs());
        return new Viewport(-x1 * 0.01, x1 * 1.01, 0, hi * 1.08, w, h);
    }

    @Override
    protected String yLabel() {
        if (data == null || data.series().isEmpty()) return "per interval";
        IoSeries.Metric m = data.series().getFirst().metric();
        for (IoSeries s : data.series()) if (s.metric() != m) return "per interval (see legend)";
        return m.unit();
    }

    @Override
    protected void drawContent(GraphicsContext gc, Viewport v) {
        if (data == null) return;
        if (selectedTime >= 0) {
            long b = selectedTime / data.intervalNs() * data.intervalNs();
            double x0 = v.px(b), x1 = Math.max(x0 + 2, v.px(b + data.intervalNs()));
            gc.setFill(Color.rgb(230, 20, 20, 0.15));
            gc.fillRect(x0, 0, x1 - x0, v.height());
            gc.setStroke(Color.rgb(230, 20, 20));
            gc.setLineWidth(1);
            gc.strokeLine(v.px(selectedTime), 0, v.px(selectedTime), v.height());
        }
        for (int s = 0; s < lines.size(); s++) {
            PointSet p = lines.get(s);
            int k = decimator.decimate(p.times(), p.values(), p.size(), v);
            Color c = color(data.series().get(s).argb());
            gc.setStroke(c);
            gc.setLineWidth(1.5);
            gc.strokePolyline(decimator.xs(), decimator.ys(), k);
            if (k < v.width() / 4) {
                gc.setFill(c);
                for (int i = 0; i < k; i++) gc.fillOval(decimator.xs()[i] - 2, decimator.ys()[i] - 2, 4, 4);
            }
        }
    }

    @Override
    protected int hit(Viewport v, double px, double py) {
        HitTest.Hit h = HitTest.nearest(lines, v, px, py, 8);
        return h == null ? 0 : h.frame();
    }

    @Override
    protected void drawLegend(GraphicsContext gc, double x, double y) {
        if (data == null) return;
        double at = x;
        for (int s = 0; s < data.series().size(); s++) {
            IoSeries ser = data.series().get(s);
            gc.setStroke(color(ser.argb()));
            gc.setLineWidth(2);
            gc.strokeLine(at, y, at + 16, y);
            gc.setFill(Color.rgb(40, 40, 40));
            String label = ser.name() + " [" + ser.metric().name().toLowerCase() + "]"
                    + (ser.filter().isEmpty() ? "" : ": " + ser.filter());
            if (label.length() > 60) label = label.substring(0, 57) + "...";
            gc.fillText(label, at + 20, y);
            at += 34 + label.length() * 6.3;
        }
        gc.fillText("interval " + Ticks.timeUnit(data.intervalNs() * 10.0).format(data.intervalNs()) + " "
                + Ticks.timeUnit(data.intervalNs() * 10.0).label(), Math.max(at, getWidth() - 150), y);
    }

    static Color color(int argb) {
        return Color.rgb((argb >> 16) & 0xFF, (argb >> 8) & 0xFF, argb & 0xFF);
    }
}
