package io.metaroce.gui.graph;

import java.util.List;
import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import javafx.scene.text.TextAlignment;

/**
 * The path heatmap: one image pixel per (path, interval) cell drawn scaled with smoothing off (the spike's 15 ms
 * update-to-paint), paths as rows (path 0 at the top), time along x; zoom and pan move along time only. A click
 * on a cell selects its first data frame; the selected frame's interval is marked with a vertical line.
 */
public final class PathHeatmapView extends PlotPane {
    private PathHeatmap map;
    private HeatMetric metric = HeatMetric.LOSS;
    private WritableImage image;
    private double scaleMax;
    private long selectedTime = -1;

    public void setHeatmap(PathHeatmap m) {
        map = m;
        repaintImage();
        contentChanged(true);
    }

    public PathHeatmap heatmap() { return map; }

    public void setMetric(HeatMetric m) {
        metric = m;
        repaintImage();
        redraw();
    }

    public HeatMetric metric() { return metric; }

    /** The highest value the colour scale shows (the hottest colour). */
    public double scaleMax() { return scaleMax; }

    /** The colour (ARGB) of a cell as drawn. */
    public int cellArgb(int path, int bin) { return image.getPixelReader().getArgb(bin, path); }

    public void setSelectedTime(long timeNs) {
        selectedTime = timeNs;
        redraw();
    }

    private void repaintImage() {
        if (map == null) return;
        ColorScale scale = ColorScale.of(metric);
        scaleMax = map.max(metric);
        // Loss and CE are fractions: a scale to at least 1 % keeps a clean capture green, not a noise-driven red.
        if (metric != HeatMetric.RTT) scaleMax = Math.max(scaleMax, 0.01);
        int[] argb = new int[map.bins() * map.paths()];
        for (int p = 0; p < map.paths(); p++)
            for (int b = 0; b < map.bins(); b++) argb[p * map.bins() + b] = scale.argb(map.value(metric, p, b), scaleMax);
        image = new WritableImage(map.bins(), map.paths());
        image.getPixelWriter().setPixels(0, 0, map.bins(), map.paths(), PixelFormat.getIntArgbInstance(), argb, 0, map.bins());
    }

    // x: ns since the flow's first packet, relative to the capture origin the heatmap was built with; y: path index
    // with 0 at the top (py grows down, so y runs from paths at the bottom edge to 0 at the top: flipped below).
    @Override
    protected Viewport fullView(double w, double h) {
        if (map == null) return new Viewport(0, 1, 0, 1, w, h);
        return new Viewport(0, (double) map.bins() * map.binNs(), 0, map.paths(), w, h);
    }

    @Override
    protected boolean zoomsY() { return false; }

    @Override
    protected String xLabel(Ticks.TimeUnit unit) { return "time since the flow's first packet (" + unit.label() + ")"; }

    @Override
    protected String yLabel() { return "path_id"; }

    @Override
    protected List<Double> yTicks(Viewport v) {
        if (map == null) return List.of();
        int step = Math.max(1, (int) Math.ceil(map.paths() / (v.height() / 18)));
        java.util.ArrayList<Double> l = new java.util.ArrayList<>();
        // Row p spans [paths - p - 1, paths - p): its label sits in the middle.
        for (int p = 0; p < map.paths(); p += step) l.add(map.paths() - p - 0.5);
        return l;
    }

    @Override
    protected String formatY(double y) {
        return map == null ? "" : Integer.toString((int) Math.floor(map.paths() - y));
    }

    @Override
    protected void drawContent(GraphicsContext gc, Viewport v) {
        if (map == null || image == null) return;
        gc.setImageSmoothing(false);
        double x0 = v.px(0), x1 = v.px((double) map.bins() * map.binNs());
        gc.drawImage(image, x0, v.py(map.paths()), x1 - x0, v.py(0) - v.py(map.paths()));
        if (map.paths() <= 64) {
            gc.setStroke(Color.rgb(255, 255, 255, 0.6));
            gc.setLineWidth(1);
            for (int p = 1; p < map.paths(); p++) gc.strokeLine(0, v.py(p), v.width(), v.py(p));
        }
        if (selectedTime >= 0) {
            double x = v.px(selectedTime - map.originNs());
            gc.setStroke(Color.WHITE);
            gc.setLineWidth(3);
            gc.strokeLine(x, 0, x, v.height());
            gc.setStroke(Color.rgb(230, 20, 20));
            gc.setLineWidth(1.5);
            gc.strokeLine(x, 0, x, v.height());
        }
    }

    /** The (path, interval) cell under plot pixel (px, py), or null outside the grid. */
    public int[] cellAt(Viewport v, double px, double py) {
        if (map == null) return null;
        double x = v.dataX(px), y = v.dataY(py);
        int bin = (int) Math.floor(x / map.binNs()), path = (int) Math.floor(map.paths() - y);
        if (bin < 0 || bin >= map.bins() || path < 0 || path >= map.paths()) return null;
        return new int[] {path, bin};
    }

    /** Centre of a cell in pane coordinates (tests click it). */
    public double[] cellCentre(int path, int bin) {
        Viewport v = viewport();
        return new double[] {LEFT + v.px((bin + 0.5) * map.binNs()), TOP + v.py(map.paths() - path - 0.5)};
    }

    @Override
    protected int hit(Viewport v, double px, double py) {
        int[] c = cellAt(v, px, py);
        return c == null ? 0 : map.firstFrame(c[0], c[1]);
    }

    @Override
    protected void drawLegend(GraphicsContext gc, double x, double y) {
        if (map == null) return;
        ColorScale scale = ColorScale.of(metric);
        gc.setFill(Color.rgb(40, 40, 40));
        String title = "colour: " + metric.label();
        gc.fillText(title, x, y);
        double bx = x + 20 + title.length() * 6.3, bw = 200;
        for (int i = 0; i < bw; i++) {
            int c = scale.at(i / (bw - 1));
            gc.setFill(Color.rgb((c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF));
            gc.fillRect(bx + i, y - 6, 1, 12);
        }
        gc.setFill(Color.rgb(40, 40, 40));
        gc.setTextAlign(TextAlignment.RIGHT);
        gc.fillText(format(0), bx - 4, y);
        gc.setTextAlign(TextAlignment.LEFT);
        gc.fillText(format(scaleMax), bx + bw + 4, y);
        double ex = bx + bw + 70;
        int e = ColorScale.EMPTY;
        gc.setFill(Color.rgb((e >> 16) & 0xFF, (e >> 8) & 0xFF, e & 0xFF));
        gc.fillRect(ex, y - 6, 12, 12);
        gc.setFill(Color.rgb(40, 40, 40));
        gc.setTextBaseline(VPos.CENTER);
        gc.fillText("no data", ex + 16, y);
    }

    private String format(double v) {
        if (metric == HeatMetric.RTT) {
            Ticks.TimeUnit u = Ticks.timeUnit(v * 10);
            return u.format(v) + " " + u.label();
        }
        return Math.round(v * 1000) / 10.0 + " %";
    }
}
