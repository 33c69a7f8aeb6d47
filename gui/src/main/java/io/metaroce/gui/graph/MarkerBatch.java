package io.metaroce.gui.graph;

import java.util.Arrays;
import javafx.scene.canvas.GraphicsContext;

/**
 * Markers of one kind drawn as one path: one fill or stroke for all of them instead of one per marker. Under the
 * software pipeline every fill or stroke is rasterised and composited on its own, at a fixed cost far above its few
 * pixels: a full-range Congestion Loop graph (a few hundred circles, crosses and CNP lines) spent about 65 ms of the
 * render thread on them, one path per kind costs a few. The shapes are {@link PsnGraph#shape}'s, in the same places;
 * where two markers of a kind overlap their ink is the same (the colours are opaque). Positions are kept in reused
 * arrays: nothing is allocated per marker.
 */
final class MarkerBatch {
    private double[] xs = new double[256], ys = new double[256];
    private int n;

    void clear() { n = 0; }

    int size() { return n; }

    double x(int i) { return xs[i]; }

    double y(int i) { return ys[i]; }

    void add(double x, double y) {
        if (n == xs.length) {
            xs = Arrays.copyOf(xs, n * 2);
            ys = Arrays.copyOf(ys, n * 2);
        }
        xs[n] = x;
        ys[n++] = y;
    }

    /** Draws the markers added since {@link #clear} as kind with half-size r (as {@link PsnGraph#shape} does one). */
    void draw(GraphicsContext gc, MarkerKind kind, double r) {
        if (n == 0) return;
        gc.setFill(PsnGraph.color(kind));
        gc.setStroke(PsnGraph.color(kind));
        gc.setLineWidth(1.6);
        gc.beginPath();
        boolean fill = false;
        for (int i = 0; i < n; i++) {
            double x = xs[i], y = ys[i];
            switch (kind.shape()) {
                case SQUARE -> {
                    gc.rect(x - r + 0.5, y - r + 0.5, 2 * r - 1, 2 * r - 1);
                    fill = true;
                }
                case DIAMOND -> {
                    gc.moveTo(x, y - r);
                    gc.lineTo(x + r, y);
                    gc.lineTo(x, y + r);
                    gc.lineTo(x - r, y);
                    gc.closePath();
                    fill = true;
                }
                case TRIANGLE_DOWN -> {
                    triangle(gc, x - r, y - r, x + r, y - r, x, y + r);
                    fill = true;
                }
                case TRIANGLE_UP -> {
                    triangle(gc, x - r, y + r, x + r, y + r, x, y - r);
                    fill = true;
                }
                case PLUS -> {
                    line(gc, x - r, y, x + r, y);
                    line(gc, x, y - r, x, y + r);
                }
                case TICK -> line(gc, x - r, y, x + r, y);
                case CROSS -> {
                    line(gc, x - r, y - r, x + r, y + r);
                    line(gc, x - r, y + r, x + r, y - r);
                }
                case CIRCLE -> {
                    // strokeOval(x - r + 0.5, y - r + 0.5, 2r - 1, 2r - 1): centred on (x, y), radius r - 0.5.
                    double rr = r - 0.5;
                    gc.moveTo(x + rr, y);
                    gc.arc(x, y, rr, rr, 0, 360);
                    gc.closePath();
                }
            }
        }
        if (fill) gc.fill();
        else gc.stroke();
        gc.beginPath();
    }

    private static void line(GraphicsContext gc, double x0, double y0, double x1, double y1) {
        gc.moveTo(x0, y0);
        gc.lineTo(x1, y1);
    }

    private static void triangle(GraphicsContext gc, double x0, double y0, double x1, double y1, double x2, double y2) {
        gc.moveTo(x0, y0);
        gc.lineTo(x1, y1);
        gc.lineTo(x2, y2);
        gc.closePath();
    }
}
