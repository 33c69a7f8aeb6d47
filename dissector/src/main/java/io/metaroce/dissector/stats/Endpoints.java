package io.metaroce.dissector.stats;

import io.metaroce.dissector.Dissection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The endpoints of one {@link ConversationType}, counted frame by frame: what {@code dissect -z endpoints,TYPE}
 * prints and the GUI's Endpoints window shows. Every header of the type in a frame counts, its source as a sender
 * and its destination as a receiver of the frame's length on the wire. Memory grows with the endpoints, not with the
 * frames. Not thread safe: one per worker, {@link #merge}d.
 */
public final class Endpoints {
    /** An endpoint as shown: its address and port (-1: none), the frames and bytes it sent (tx) and received (rx). */
    public record Endpoint(ConversationType type, String address, int port, long txFrames, long txBytes, long rxFrames,
                           long rxBytes) {
        public long frames() { return txFrames + rxFrames; }

        public long bytes() { return txBytes + rxBytes; }

        /** The endpoint's frames, as Wireshark's "Apply as Filter" writes it. */
        public String filter() {
            String f = type.addressField(address) + ".addr==" + address;
            return type == ConversationType.UDP ? f + " && udp.port==" + port : f;
        }
    }

    /** An endpoint being counted, with where it was first seen. */
    private static final class Point {
        final End end;
        final long order;
        long txFrames, txBytes, rxFrames, rxBytes;

        Point(End end, long order) {
            this.end = end;
            this.order = order;
        }
    }

    private final ConversationType type;
    private final Map<End, Point> points = new HashMap<>();

    public Endpoints(ConversationType type) { this.type = type; }

    public ConversationType type() { return type; }

    /** Counts a frame: once per header of the type in it. */
    public void add(Dissection d) {
        for (int i = 0; i < d.layerCount(); i++) {
            if (d.layerHeader(i) != type.header()) continue;
            End src = End.of(type, d, i, true);
            if (src == null) continue;
            End dst = End.of(type, d, i, false);
            // Order of first appearance, kept across workers: the frame, then the header in it, then source before
            // destination (tshark adds the source endpoint first).
            long order = d.number() * 256 + i * 2L;
            long len = d.originalLength();
            Point s = points.get(src);
            if (s == null) points.put(src, s = new Point(src, order));
            s.txFrames++;
            s.txBytes += len;
            Point r = points.get(dst);
            if (r == null) points.put(dst, r = new Point(dst, order + 1));
            r.rxFrames++;
            r.rxBytes += len;
        }
    }

    /** Adds another worker's counts (workers see disjoint frames): the earlier first appearance orders the rows. */
    public void merge(Endpoints o) {
        for (Point p : o.points.values()) {
            Point mine = points.get(p.end);
            if (mine == null || p.order < mine.order) {
                Point q = new Point(p.end, p.order);
                if (mine != null) addPoint(q, mine);
                addPoint(q, p);
                points.put(p.end, q);
            } else {
                addPoint(mine, p);
            }
        }
    }

    private static void addPoint(Point to, Point from) {
        to.txFrames += from.txFrames;
        to.txBytes += from.txBytes;
        to.rxFrames += from.rxFrames;
        to.rxBytes += from.rxBytes;
    }

    /** The endpoints in tshark's order: the most frames first, equal counts in the order first seen. */
    public List<Endpoint> rows() {
        List<Point> sorted = new ArrayList<>(points.values());
        sorted.sort(Comparator.comparingLong((Point p) -> -(p.txFrames + p.rxFrames)).thenComparingLong(p -> p.order));
        List<Endpoint> rows = new ArrayList<>(sorted.size());
        for (Point p : sorted) {
            rows.add(new Endpoint(type, p.end.address(type), p.end.port(), p.txFrames, p.txBytes, p.rxFrames, p.rxBytes));
        }
        return rows;
    }
}
