package io.metaroce.dissector.stats;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A counter tree as Wireshark's stats_tree (what tshark -z plen,tree, ip_hosts,tree, ... and the GUI's Statistics >
 * Packet Lengths / IPv4 Statistics windows show): nodes with a count, optionally the average, least and largest of
 * a value (packet lengths), the rate (count per millisecond of the tree's elapsed time), the share of the parent's
 * count, and the burst rate: the most frames the node saw within any 100 ms window, measured as Wireshark does in
 * 5 ms buckets, with the time that window starts. Columns are rendered as Wireshark's default preferences render
 * them, so that the text equals tshark's.
 *
 * <p>Fed in capture order ({@link #frame} then ticks per frame): the bursts depend on it, so a tree is counted by one
 * thread. Memory: the nodes (at most {@link #MAX_NODES}; later names count under one "Other" node) and at most 21
 * burst buckets per node, whatever the number of frames.
 */
public final class StatsTree {
    /** Nodes per tree at most: names past it (hosts, QPs) count under one node, so a scan cannot grow it forever. */
    public static final int MAX_NODES = 65_536;
    /** Wireshark's burst defaults (prefs st_burst_resolution, st_burst_windowlen), in milliseconds. */
    static final double BURST_RESOLUTION = 5, BURST_WINDOW = 100;
    private static final int BURST_BUCKETS = (int) (BURST_WINDOW / BURST_RESOLUTION);

    /** The column titles, as Wireshark's. */
    public static final List<String> COLUMNS = List.of("Topic / Item", "Count", "Average", "Min Val", "Max Val",
            "Rate (ms)", "Percent", "Burst Rate", "Burst Start");

    /** One node: its name, counts and children (in the order created; {@link #sorted} orders them as shown). */
    public static final class Node {
        private final String name;
        private final Node parent;
        private final List<Node> children = new ArrayList<>();
        private Map<Object, Node> byKey;
        /** Range nodes (plen): the values they take; floor -1 for none. */
        private final long floor, ceil;
        /** Sorted before its siblings whatever the counts (Source before Destination, as Wireshark's). */
        private final boolean top;
        long count, total, min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        /** Whether the node shows the average, min and max of a value. */
        boolean values;
        // Burst buckets, oldest first: bucket number, frames, start (ms). Index 0 starts as Wireshark's dummy bucket 0.
        private final long[] bucketNo = new long[BURST_BUCKETS + 2];
        private final long[] bucketCount = new long[BURST_BUCKETS + 2];
        private final double[] bucketStart = new double[BURST_BUCKETS + 2];
        private int buckets = 1;
        private long burstCount, maxBurst;
        private double burstTime = -1;

        Node(String name, Node parent, long floor, long ceil, boolean top) {
            this.name = name;
            this.parent = parent;
            this.floor = floor;
            this.ceil = ceil;
            this.top = top;
        }

        public String name() { return name; }

        public Node parent() { return parent; }

        public long count() { return count; }

        public List<Node> children() { return children; }

        boolean range() { return floor >= 0; }
    }

    private final String title;
    private final Node root = new Node("", null, -1, 0, false);
    private int nodes;
    private double start = -1, elapsed, now;

    public StatsTree(String title) { this.title = title; }

    /** The title tshark prints above the tree (e.g. "IPv4 Statistics/All Addresses"). */
    public String title() { return title; }

    /** The top nodes, as created. */
    public List<Node> tops() { return root.children; }

    /** A frame is about to be counted, relNanos after the capture's first frame (tshark's frame.time_relative). */
    public void frame(long relNanos) {
        now = (double) (relNanos / 1_000_000_000L) * 1000 + (double) (relNanos % 1_000_000_000L) / 1_000_000;
        if (start < 0) start = now;
        elapsed = now - start;
    }

    /** A top node (created now if new). */
    public Node top(String name, boolean sortTop) {
        return child(root, name, name, sortTop);
    }

    /** The child of parent with this key, or null. */
    public Node find(Node parent, Object key) {
        return parent.byKey == null ? null : parent.byKey.get(key);
    }

    /** The child of parent with this key, created with name (key and name are often the same) if new. */
    public Node child(Node parent, Object key, String name) {
        return child(parent, key, name, false);
    }

    private Node child(Node parent, Object key, String name, boolean top) {
        if (parent.byKey == null) parent.byKey = new HashMap<>();
        Node n = parent.byKey.get(key);
        if (n != null) return n;
        if (nodes >= MAX_NODES) {
            // Bounded: what does not fit is counted under one node per parent.
            key = Other.KEY;
            n = parent.byKey.get(key);
            if (n != null) return n;
            name = "Other (over " + MAX_NODES + " items)";
        }
        n = new Node(name, parent, -1, 0, top);
        nodes++;
        parent.children.add(n);
        parent.byKey.put(key, n);
        return n;
    }

    /** The key of the node that counts what no longer fits. */
    private enum Other { KEY }

    /** Ranges under a node (floor-ceil each; ceil -1: and greater), as Wireshark's range nodes (plen). */
    public void ranges(Node parent, long[][] ranges) {
        for (long[] r : ranges) {
            String name = r[1] < 0 ? r[0] + " and greater" : r[0] + "-" + r[1];
            Node n = new Node(name, parent, r[0], r[1] < 0 ? Long.MAX_VALUE : r[1], false);
            n.values = true;
            parent.children.add(n);
            nodes++;
        }
    }

    /** Counts a frame at the node. */
    public void tick(Node n) {
        n.count++;
        burst(n);
    }

    /** Counts a frame at the node with a value (average, min, max shown from now on). */
    public void tick(Node n, long value) {
        tick(n);
        n.values = true;
        n.total += value;
        n.min = Math.min(n.min, value);
        n.max = Math.max(n.max, value);
    }

    /**
     * A value counted in the range node under n it falls in (Wireshark's stats_tree_tick_range); n, ticked before,
     * gets the value's average, min and max.
     */
    public void tickRange(Node n, long value) {
        n.values = true;
        n.total += value;
        n.min = Math.min(n.min, value);
        n.max = Math.max(n.max, value);
        for (Node c : n.children) {
            if (value >= c.floor && value <= c.ceil) {
                c.count++;
                c.total += value;
                c.min = Math.min(c.min, value);
                c.max = Math.max(c.max, value);
                burst(c);
                return;
            }
        }
    }

    /** Wireshark's update_burst_calc: the frames of the last 100 ms in 5 ms buckets, the most ever and when. */
    private void burst(Node n) {
        long current = (long) Math.floor(now / BURST_RESOLUTION);
        long[] no = n.bucketNo, cnt = n.bucketCount;
        if (current > no[n.buckets - 1]) {
            add(n, n.buckets, current);
            n.burstCount++;
            while (current >= no[0] + BURST_BUCKETS) {
                n.burstCount -= cnt[0];
                remove(n, 0);
            }
        } else if (current < no[0]) {
            // Earlier than the oldest bucket (times going back): counted only while still within the window.
            if (current + BURST_BUCKETS > no[n.buckets - 1]) {
                add(n, 0, current);
                n.burstCount++;
            }
        } else {
            int i = n.buckets - 1;
            while (current < no[i]) i--;
            if (current == no[i]) {
                cnt[i]++;
                if (n.bucketStart[i] > now) n.bucketStart[i] = now;
            } else {
                add(n, i + 1, current);
            }
            n.burstCount++;
        }
        if (n.burstCount > n.maxBurst) {
            n.maxBurst = n.burstCount;
            n.burstTime = n.bucketStart[0];
        }
    }

    private void add(Node n, int at, long bucket) {
        if (n.buckets == n.bucketNo.length) {
            // Never expected (buckets span at most the window); drop the oldest to stay bounded.
            n.burstCount -= n.bucketCount[0];
            remove(n, 0);
            at = Math.max(0, at - 1);
        }
        System.arraycopy(n.bucketNo, at, n.bucketNo, at + 1, n.buckets - at);
        System.arraycopy(n.bucketCount, at, n.bucketCount, at + 1, n.buckets - at);
        System.arraycopy(n.bucketStart, at, n.bucketStart, at + 1, n.buckets - at);
        n.bucketNo[at] = bucket;
        n.bucketCount[at] = 1;
        n.bucketStart[at] = now;
        n.buckets++;
    }

    private static void remove(Node n, int at) {
        System.arraycopy(n.bucketNo, at + 1, n.bucketNo, at, n.buckets - at - 1);
        System.arraycopy(n.bucketCount, at + 1, n.bucketCount, at, n.buckets - at - 1);
        System.arraycopy(n.bucketStart, at + 1, n.bucketStart, at, n.buckets - at - 1);
        n.buckets--;
    }

    /**
     * The children of a node as shown: ranges by their values; others with the "top" ones first, then the most
     * frames first, equal counts by name, descending (Wireshark's default sort: Count, descending).
     */
    public static List<Node> sorted(List<Node> nodes) {
        List<Node> l = new ArrayList<>(nodes);
        l.sort(new java.util.Comparator<Node>() {
            @Override
            public int compare(Node a, Node b) {
                if (a.range() && b.range()) return Long.compare(a.floor, b.floor);
                if (a.top != b.top) return a.top ? -1 : 1;
                int c = Long.compare(b.count, a.count);
                return c != 0 ? c : compareBytes(b.name, a.name);
            }
        });
        return l;
    }

    /** strcmp's order (Wireshark compares names case-sensitively, as bytes). */
    private static int compareBytes(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A node's columns after the name, as tshark prints them (empty where the column does not apply). */
    public String[] values(Node n) {
        String[] v = new String[8];
        v[0] = Long.toString(n.count);
        if (n.values) {
            if (n.count > 0) {
                v[1] = fixed((double) ((float) n.total / n.count), 2);
                v[2] = Long.toString(n.min);
                v[3] = Long.toString(n.max);
            } else {
                v[1] = v[2] = v[3] = "-";
            }
        } else {
            v[1] = v[2] = v[3] = "";
        }
        v[4] = elapsed != 0 ? fixed((float) n.count / elapsed, 4) : "";
        if (n.parent == root) v[5] = "100%";
        else if (n.parent.count > 0) v[5] = fixed(n.count * 100.0 / n.parent.count, 2) + "%";
        else v[5] = "";
        v[6] = n.maxBurst > 0 ? fixed(n.maxBurst / BURST_WINDOW, 4) : "-";
        v[7] = n.maxBurst > 0 ? fixed(n.burstTime / 1000.0, 3) : "-";
        return v;
    }

    /** printf's %.Nf: the binary value rounded exactly, ties to even. */
    static String fixed(double v, int decimals) {
        return new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** The tree in tshark's text layout (-z ...,tree): the separators, the title, the header, a line per node. */
    public String text() {
        String shortTitle = title.substring(title.lastIndexOf('/') + 1);
        int nameWidth = Math.max(Math.max(shortTitle.length(), COLUMNS.get(0).length()), nameWidth(root.children, 1));
        int width = nameWidth + 14 * (COLUMNS.size() - 1);
        StringBuilder b = new StringBuilder("\n").append("=".repeat(width)).append('\n').append(title).append(":\n");
        b.append(padRight(COLUMNS.get(0), nameWidth));
        for (int i = 1; i < COLUMNS.size(); i++) b.append(' ').append(padRight(COLUMNS.get(i), 13));
        b.append('\n').append("-".repeat(width)).append('\n');
        lines(b, root.children, 0, nameWidth);
        b.append('\n').append("-".repeat(width)).append('\n');
        return b.toString();
    }

    private static int nameWidth(List<Node> nodes, int depth) {
        int w = 0;
        for (Node n : nodes) w = Math.max(w, Math.max(n.name.length() + depth, nameWidth(n.children, depth + 1)));
        return w;
    }

    private void lines(StringBuilder b, List<Node> nodes, int depth, int nameWidth) {
        for (Node n : sorted(nodes)) {
            b.append(" ".repeat(depth)).append(padRight(n.name, nameWidth - depth));
            for (String v : values(n)) b.append(' ').append(padRight(v, 13));
            b.append('\n');
            lines(b, n.children, depth + 1, nameWidth);
        }
    }

    private static String padRight(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }
}
