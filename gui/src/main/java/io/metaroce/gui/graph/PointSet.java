package io.metaroce.gui.graph;

import java.util.Arrays;

/**
 * Points of one kind as primitive columns (time in ns from the capture's first frame, y in plot units, frame
 * number), in time order: no object per point, so a million points cost 20 bytes each.
 */
public final class PointSet {
    private long[] t, y;
    private int[] frame;
    private int n;

    public PointSet(int capacity) {
        int c = Math.max(4, capacity);
        t = new long[c];
        y = new long[c];
        frame = new int[c];
    }

    public void add(long time, long value, int frameNumber) {
        if (n == t.length) {
            int c = n * 2;
            t = Arrays.copyOf(t, c);
            y = Arrays.copyOf(y, c);
            frame = Arrays.copyOf(frame, c);
        }
        t[n] = time;
        y[n] = value;
        frame[n++] = frameNumber;
    }

    /** Sorts by time when points were added out of order (events decided late); stable for equal times. */
    PointSet sorted() {
        boolean ordered = true;
        for (int i = 1; i < n && ordered; i++) ordered = t[i - 1] <= t[i];
        if (ordered) return this;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Long.compare(t[a], t[b]));
        PointSet s = new PointSet(n);
        for (int i : order) s.add(t[i], y[i], frame[i]);
        return s;
    }

    public int size() { return n; }

    public long time(int i) { return t[i]; }

    public long value(int i) { return y[i]; }

    public int frame(int i) { return frame[i]; }

    /** The time column (shared, valid up to size()): for decimation and binary search. */
    long[] times() { return t; }

    long[] values() { return y; }

    /** Index of the point of this frame, or -1. */
    public int indexOfFrame(int frameNumber) {
        for (int i = 0; i < n; i++) if (frame[i] == frameNumber) return i;
        return -1;
    }

    public long minValue() {
        long m = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) m = Math.min(m, y[i]);
        return m;
    }

    public long maxValue() {
        long m = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) m = Math.max(m, y[i]);
        return m;
    }
}
