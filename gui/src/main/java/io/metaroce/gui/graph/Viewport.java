package io.metaroce.gui.graph;

/**
 * The visible data rectangle of a plot and its mapping to pixels: x in data units (nanoseconds) left to right, y in
 * data units bottom to top. Immutable: zoom and pan return a new viewport, so a redraw always sees one consistent
 * state. Pixel coordinates are relative to the plot area (0,0 its top left), width and height in pixels.
 */
public record Viewport(double x0, double x1, double y0, double y1, double width, double height) {
    /** Smallest span a zoom may reach (one data unit over the whole plot): deeper zooms show nothing new. */
    private static final double MIN_SPAN = 1e-3;

    public Viewport {
        if (!(x1 > x0)) x1 = x0 + 1;
        if (!(y1 > y0)) y1 = y0 + 1;
        width = Math.max(1, width);
        height = Math.max(1, height);
    }

    /** A viewport framing [x0, x1] x [y0, y1] with a margin of 2 % on each side, so extreme points are not cut. */
    public static Viewport fit(double x0, double x1, double y0, double y1, double width, double height) {
        double mx = Math.max((x1 - x0) * 0.02, 0.5), my = Math.max((y1 - y0) * 0.04, 0.5);
        return new Viewport(x0 - mx, x1 + mx, y0 - my, y1 + my, width, height);
    }

    public double px(double x) { return (x - x0) / (x1 - x0) * width; }

    public double py(double y) { return height - (y - y0) / (y1 - y0) * height; }

    public double dataX(double px) { return x0 + px / width * (x1 - x0); }

    public double dataY(double py) { return y0 + (height - py) / height * (y1 - y0); }

    /** Data units per pixel column. */
    public double xPerPixel() { return (x1 - x0) / width; }

    public Viewport resized(double w, double h) { return new Viewport(x0, x1, y0, y1, w, h); }

    /**
     * Zooms by factor (< 1 in, > 1 out) around the pixel (px, py), which keeps showing the same data point (the
     * mouse wheel's behaviour in every plotting tool).
     */
    public Viewport zoom(double factor, double px, double py) {
        double cx = dataX(px), cy = dataY(py);
        double nx = Math.max((x1 - x0) * factor, MIN_SPAN), ny = Math.max((y1 - y0) * factor, MIN_SPAN);
        double fx = px / width, fy = (height - py) / height;
        return new Viewport(cx - fx * nx, cx + (1 - fx) * nx, cy - fy * ny, cy + (1 - fy) * ny, width, height);
    }

    /** Zooms the x axis only (wheel with a modifier), around pixel column px. */
    public Viewport zoomX(double factor, double px) {
        double cx = dataX(px), nx = Math.max((x1 - x0) * factor, MIN_SPAN), fx = px / width;
        return new Viewport(cx - fx * nx, cx + (1 - fx) * nx, y0, y1, width, height);
    }

    /** Moves the view by a drag of (dx, dy) pixels: the data under the mouse follows it. */
    public Viewport pan(double dx, double dy) {
        double ux = dx / width * (x1 - x0), uy = dy / height * (y1 - y0);
        return new Viewport(x0 - ux, x1 - ux, y0 + uy, y1 + uy, width, height);
    }

    /** The view of a box dragged between two pixel corners (any order); a box under 3 pixels is ignored. */
    public Viewport box(double ax, double ay, double bx, double by) {
        if (Math.abs(ax - bx) < 3 || Math.abs(ay - by) < 3) return this;
        return new Viewport(dataX(Math.min(ax, bx)), dataX(Math.max(ax, bx)), dataY(Math.max(ay, by)),
                dataY(Math.min(ay, by)), width, height);
    }
}
