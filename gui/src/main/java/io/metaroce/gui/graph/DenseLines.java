package io.metaroce.gui.graph;

import java.util.Arrays;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;

/**
 * Decimated lines ({@link Decimator}'s output) drawn where they are dense by filling pixel columns in an int buffer
 * instead of stroking: one image for all lines, plus a stroked path for the segments longer than a pixel column.
 *
 * <p>Why: where a series has many points per pixel column (the Congestion Loop's 76,022 rate buckets across 1,000
 * columns) the decimated line is a vertical run per column through the column's lowest and highest value, joined to
 * the next column by a one-pixel step. Stroking that polyline costs the software pipeline's rasteriser its length in
 * scan lines (about 50 ms of the render thread for the rate and pace lines of a 1 M-frame incast); filling the
 * same runs here costs a few milliseconds of the FX thread, and the image one composite.
 *
 * <p>What is drawn is the stroke's ink: a vertical run at x = c + 0.5 of width w covers column c fully and the
 * columns beside it by (w - 1) / 2 (the stroke's joins at its turns are bevels: flat at its ends); the one-column
 * step to the next column is rasterised per row, its ink passing from one column to the next. A column with one point
 * whose segments on both sides are long (a sparse series: buckets wider than a pixel) is left to the stroke, so sparse
 * views are drawn as before.
 * Nothing is allocated per point; the buffer and image are reused while the plot keeps its size.
 */
final class DenseLines {
    /** Segments whose ends are at most this far apart in x are part of the dense run (one pixel column apart). */
    private static final double STEP = 1.0 + 1e-9;

    private int[] argb = new int[0];
    private WritableImage image;
    private int w, h;
    private boolean inked;
    private int columns;

    /** Starts a frame for a plot area of width x height pixels (cleared buffer). */
    void begin(double width, double height) {
        int nw = Math.max(1, (int) Math.ceil(width)), nh = Math.max(1, (int) Math.ceil(height));
        if (nw != w || nh != h) {
            w = nw;
            h = nh;
            argb = new int[w * h];
            image = null;
        } else if (inked) {
            Arrays.fill(argb, 0);
        }
        inked = false;
        columns = 0;
    }

    /** Pixel column runs filled since {@link #begin} (tests: a dense view was drawn this way). */
    int columns() { return columns; }

    /**
     * Adds one decimated line: its dense runs go to the buffer, the path of its long segments is added to gc's current
     * path (the caller strokes it with the line's colour and width). Returns whether a path segment was added.
     */
    boolean add(GraphicsContext gc, double[] xs, double[] ys, int k, Color color, double width) {
        int rgb = ((int) Math.round(color.getRed() * 255) << 16) | ((int) Math.round(color.getGreen() * 255) << 8)
                | (int) Math.round(color.getBlue() * 255);
        double opacity = color.getOpacity(), half = width / 2, side = Math.max(0, (width - 1) / 2);
        boolean path = false, penDown = false;
        int i = 0;
        while (i < k) {
            double x = xs[i];
            int j = i;
            double lo = ys[i], hi = ys[i];
            while (j + 1 < k && xs[j + 1] == x) {
                j++;
                lo = Math.min(lo, ys[j]);
                hi = Math.max(hi, ys[j]);
            }
            boolean shortLeft = i > 0 && x - xs[i - 1] <= STEP, shortRight = j + 1 < k && xs[j + 1] - x <= STEP;
            if (!shortLeft && i > 0) {
                // A long segment from the column before: stroked, continuing the path when the pen is at its start.
                if (!penDown) gc.moveTo(xs[i - 1], ys[i - 1]);
                gc.lineTo(x, ys[i]);
                path = penDown = true;
            }
            int col = (int) Math.floor(x);
            if (j > i || shortLeft || shortRight) {
                columns++;
                // The column's vertical run (the stroke's joins at its turns are bevels: flat at the ends).
                span(col, lo, hi, 1.0, rgb, opacity);
                if (side > 0) {
                    span(col - 1, lo, hi, side, rgb, opacity);
                    span(col + 1, lo, hi, side, rgb, opacity);
                }
                // The stroke goes on from this column's last point only after a dense run (the vertical ink is here).
                if (j > i) penDown = false;
            }
            if (shortRight) {
                step(col, ys[j], ys[j + 1], half, rgb, opacity);
                penDown = false;
            }
            i = j + 1;
        }
        return path;
    }

    /**
     * The one-column step from (col + 0.5, y0) to (col + 1.5, y1), stroked with half-width half: per pixel row its
     * centre moves right by 1 / |y1 - y0|, so the ink passes from column col to col + 1 (half in each at the middle);
     * a step of less than a row is a short horizontal bar, half in each column.
     */
    private void step(int col, double y0, double y1, double half, int rgb, double opacity) {
        double dy = y1 - y0;
        if (Math.abs(dy) < 1) {
            double mid = (y0 + y1) / 2;
            span(col, mid - half, mid + half, 0.5, rgb, opacity);
            span(col + 1, mid - half, mid + half, 0.5, rgb, opacity);
            return;
        }
        double top = Math.min(y0, y1), bottom = Math.max(y0, y1);
        // The horizontal half-width of a stroke of half-width half on a line of slope dy per column.
        double hw = half * Math.sqrt(1 + 1 / (dy * dy));
        int r0 = (int) Math.max(0, Math.floor(top)), r1 = (int) Math.min(h, Math.ceil(bottom));
        for (int r = r0; r < r1; r++) {
            double f = Math.min(bottom, r + 1) - Math.max(top, r);
            if (f <= 0) continue;
            double yc = Math.clamp(r + 0.5, top, bottom), xc = col + 0.5 + (yc - y0) / dy;
            for (int c = col - 1; c <= col + 2; c++) {
                double cov = Math.min(c + 1, xc + hw) - Math.max(c, xc - hw);
                if (cov > 0) pixel(c, r, cov * f * opacity, rgb);
            }
        }
    }

    /** Paints column col from y0 to y1 (pixels, fractional ends) with coverage cov, over what is there. */
    private void span(int col, double y0, double y1, double cov, int rgb, double opacity) {
        if (col < 0 || col >= w || y1 <= 0 || y0 >= h) return;
        int r0 = (int) Math.max(0, Math.floor(y0)), r1 = (int) Math.min(h, Math.ceil(y1));
        int a = (int) Math.round(Math.min(1, cov * opacity) * 255);
        for (int r = r0; r < r1; r++) {
            if (r > y0 && r + 1 < y1) {
                // A whole row: the common case, an opaque line's own column stored without blending.
                int at = r * w + col;
                argb[at] = a == 255 ? 0xFF000000 | rgb : over(argb[at], rgb, a);
                inked = true;
            } else {
                pixel(col, r, (Math.min(y1, r + 1) - Math.max(y0, r)) * cov * opacity, rgb);
            }
        }
    }

    private void pixel(int col, int row, double coverage, int rgb) {
        if (coverage <= 0 || col < 0 || col >= w || row < 0 || row >= h) return;
        int at = row * w + col;
        argb[at] = over(argb[at], rgb, (int) Math.round(Math.min(1, coverage) * 255));
        inked = true;
    }

    /** Premultiplied source-over of colour rgb at alpha a onto dst. */
    private static int over(int dst, int rgb, int a) {
        int inv = 255 - a;
        int da = dst >>> 24, dr = (dst >> 16) & 0xFF, dg = (dst >> 8) & 0xFF, db = dst & 0xFF;
        int sr = ((rgb >> 16) & 0xFF) * a / 255, sg = ((rgb >> 8) & 0xFF) * a / 255, sb = (rgb & 0xFF) * a / 255;
        return ((a + da * inv / 255) << 24) | ((sr + dr * inv / 255) << 16) | ((sg + dg * inv / 255) << 8) | (sb + db * inv / 255);
    }

    /** Draws the buffer at the plot area's origin (gc is translated there); nothing when no run was dense. */
    void draw(GraphicsContext gc) {
        if (!inked) return;
        if (image == null) image = new WritableImage(w, h);
        image.getPixelWriter().setPixels(0, 0, w, h, PixelFormat.getIntArgbPreInstance(), argb, 0, w);
        gc.drawImage(image, 0, 0);
    }
}
