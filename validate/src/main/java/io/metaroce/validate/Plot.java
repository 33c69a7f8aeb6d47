package io.metaroce.validate;

import java.util.ArrayList;
import java.util.List;

/**
 * Picture data of one QP flow for the HTML report: PSN over time of its request packets, decimated to at most
 * {@link #MAX_POINTS} (halving the resolution whenever full, so memory stays flat), and marks for
 * retransmissions, NAKs, CNPs, CE marks and findings (at most {@link #MAX_MARKS}).
 */
final class Plot {
    static final int MAX_POINTS = 1500, MAX_MARKS = 600;
    long origin = Long.MIN_VALUE;
    long[] t = new long[64], y = new long[64], fr = new long[64];
    int n, stride = 1;
    long counter, total;
    final List<Mark> marks = new ArrayList<>();
    long droppedMarks;

    /** kind: retransmission, spurious, timeout, nak, cnp, ce, error, warn, note. */
    record Mark(long t, long y, String kind, long frame, String label) {}

    synchronized void point(long time, long u, long frame) {
        if (origin == Long.MIN_VALUE) origin = u;
        total++;
        if (counter++ % stride != 0) return;
        if (n == MAX_POINTS) {
            int k = 0;
            for (int i = 0; i < n; i += 2) {
                t[k] = t[i];
                y[k] = y[i];
                fr[k] = fr[i];
                k++;
            }
            n = k;
            stride *= 2;
        }
        if (n == t.length) {
            t = java.util.Arrays.copyOf(t, n * 2);
            y = java.util.Arrays.copyOf(y, n * 2);
            fr = java.util.Arrays.copyOf(fr, n * 2);
        }
        t[n] = time;
        y[n] = u - origin;
        fr[n] = frame;
        n++;
    }

    /** The plotted y of a frame (kept points only), or Long.MIN_VALUE. */
    synchronized long yOf(long frame) {
        int i = java.util.Arrays.binarySearch(fr, 0, n, frame);
        return i >= 0 ? y[i] : Long.MIN_VALUE;
    }

    /** A mark whose y is already relative to the origin. */
    synchronized void markRelative(long time, long yRel, String kind, long frame, String label) {
        if (marks.size() >= MAX_MARKS) {
            droppedMarks++;
            return;
        }
        marks.add(new Mark(time, yRel, kind, frame, label));
    }

    synchronized void mark(long time, long u, String kind, long frame, String label) {
        if (marks.size() >= MAX_MARKS) {
            droppedMarks++;
            return;
        }
        marks.add(new Mark(time, origin == Long.MIN_VALUE || u == Long.MIN_VALUE ? Long.MIN_VALUE : u - origin, kind, frame, label));
    }
}
