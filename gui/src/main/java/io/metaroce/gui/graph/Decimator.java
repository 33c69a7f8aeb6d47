package io.metaroce.gui.graph;

import java.util.Arrays;

/**
 * Per-pixel-column decimation of a time series ("M4"): for each pixel column the first, lowest, highest and last
 * point, so a polyline through at most four points per column draws exactly the picture of all points (every
 * extreme is kept, every column's ink is the same). The spike measured 1M points in 5-8 ms this way against 17 s
 * for a LineChart. x must be sorted ascending (capture order); nothing is copied, the output arrays are reused.
 */
public final class Decimator {
    private double[] xs = new double[1024], ys = new double[1024];
    private int count;

    /** Points of the last {@link #decimate} call, in pixels: valid up to {@link #count()}. */
    public double[] xs() { return xs; }

    public double[] ys() { return ys; }

    public int count() { return count; }

    /**
     * Decimates the points of x/y (n of them) visible in the viewport's x range, plus one point on each side so the
     * line runs to the plot's edges. Returns the number of pixel points written.
     */
    public int decimate(long[] x, long[] y, int n, Viewport v) {
        count = 0;
        if (n == 0) return 0;
        int from = Math.max(0, lowerBound(x, n, (long) Math.floor(v.x0())) - 1);
        int to = Math.min(n, lowerBound(x, n, (long) Math.ceil(v.x1()) + 1) + 1);
        int i = from;
        while (i < to) {
            int col = (int) Math.floor(v.px(x[i]));
            // The points of this column: up to the first x that maps to the next column.
            int j = i + 1;
            long first = y[i], lo = y[i], hi = y[i];
            int loAt = i, hiAt = i;
            while (j < to && (int) Math.floor(v.px(x[j])) == col) {
                long yy = y[j];
                if (yy < lo) { lo = yy; loAt = j; }
                if (yy > hi) { hi = yy; hiAt = j; }
                j++;
            }
            long last = y[j - 1];
            double cx = col + 0.5;
            add(cx, v.py(first));
            // Min and max in the order they occurred, so the line's shape inside the column stays true.
            if (loAt <= hiAt) {
                if (loAt != i) add(cx, v.py(lo));
                if (hiAt != i && hiAt != j - 1) add(cx, v.py(hi));
            } else {
                if (hiAt != i) add(cx, v.py(hi));
                if (loAt != i && loAt != j - 1) add(cx, v.py(lo));
            }
            if (j - 1 != i) add(cx, v.py(last));
            i = j;
        }
        return count;
    }

    private void add(double x, double y) {
        if (count == xs.length) {
            xs = Arrays.copyOf(xs, count * 2);
            ys = Arrays.copyOf(ys, count * 2);
        }
        xs[count] = x;
        ys[count++] = y;
    }

    /** Index of the first element of a[0..n) that is >= key (n when none). */
    public static int lowerBound(long[] a, int n, long key) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
