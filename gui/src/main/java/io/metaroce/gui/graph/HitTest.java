package io.metaroce.gui.graph;

import java.util.Collection;

/**
 * Which frame a click on a plot means: the point nearest to the click in pixels, within a radius, among the data
 * points and the shown markers. Only the points in the radius' time window are looked at (a binary search on the
 * time column), so a click costs the same at 1k and 10M points.
 */
public final class HitTest {
    private HitTest() {}

    /** A point found: its frame, its set and index there, and its pixel distance from the click. */
    public record Hit(int frame, PointSet set, int index, double distance) {}

    /** The nearest point to (px, py) within radius pixels, or null. */
    public static Hit nearest(Collection<PointSet> sets, Viewport v, double px, double py, double radius) {
        Hit best = null;
        long from = (long) Math.floor(v.dataX(px - radius)), to = (long) Math.ceil(v.dataX(px + radius));
        for (PointSet s : sets) {
            int i = Decimator.lowerBound(s.times(), s.size(), from);
            for (; i < s.size() && s.time(i) <= to; i++) {
                double dx = v.px(s.time(i)) - px, dy = v.py(s.value(i)) - py;
                double dist = Math.sqrt(dx * dx + dy * dy);
                // Ties go to the set listed first (markers before data): a marker drawn over a data point wins.
                if (dist <= radius && (best == null || dist < best.distance())) best = new Hit(s.frame(i), s, i, dist);
            }
        }
        return best;
    }
}
