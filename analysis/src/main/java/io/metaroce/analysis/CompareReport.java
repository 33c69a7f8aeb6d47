package io.metaroce.analysis;

import io.metaroce.analysis.CompareMatcher.Dir;
import io.metaroce.analysis.CompareMatcher.Histogram;
import io.metaroce.analysis.CompareMatcher.Unmatched;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code metaroce compare} reports from a finished {@link CompareMatcher}: the clock offset and each flow's
 * direction (which point is upstream), then per flow the losses between the points, the packets seen downstream only,
 * the resends and the one-way delays; summaries per direction, host pair and MetaRoCE path. One model (a JSON
 * object of maps and lists) and its text form.
 *
 * <p>Offset and direction, as NTP estimates them: for a host pair seen both ways at both points, x = t2 - t1 over
 * one direction's matched packets and y = t1 - t2 over the other's. The direction whose packets reach point 2 after
 * point 1 is the one with x + y > 0 (decided on the medians, which a few outliers do not move). The offset (x - y) / 2
 * and one-way delay (x + y) / 2 are then taken from the minimum-delay packet of each direction, as NTP's clock filter
 * keeps the sample of least delay: queueing only ever adds delay, so the fastest packet is the one closest to the
 * path's fixed delay, and the medians of a congested run would carry its queueing into the offset. Symmetric paths
 * assumed (NTP's assumption too): an asymmetry of d shifts the offset by d / 2.
 */
final class CompareReport {
    private static final int TEXT_RANGES = 8, JSON_RANGES = 1000;

    private final CompareMatcher m;
    /** The offset the merge used (histograms hold t2 - t1 - offset0). */
    private final long offset0;
    private final String how;
    private final long windowNs;
    private final String[] files;
    private final long[] frames;
    /** Each file's first frame (epoch ns): loss times are also given relative to it, as tshark -t r shows them. */
    private final long[] firstFrameNs;
    private final List<Dir> flows;
    private final Map<String, HostDir> hostDirs = new LinkedHashMap<>();
    /** The offset (point 2's clock minus point 1's) the report uses, and how it was found. */
    private long offset;
    private String offsetHow;
    private final List<Map<String, Object>> pairs = new ArrayList<>();

    /** The matched packets of one host direction (src > dst, every QP). */
    private static final class HostDir {
        final String src, dst;
        final Histogram c = new Histogram();
        long rawMin = Long.MAX_VALUE, rawMax = Long.MIN_VALUE, matched;
        final long[] packets = new long[2];
        /** true: point 1 is upstream; null: not known. */
        Boolean forward;

        HostDir(String src, String dst) {
            this.src = src;
            this.dst = dst;
        }
    }

    CompareReport(CompareMatcher m, long offset0, String how, long windowNs, String[] files, long[] frames, long[] firstFrameNs) {
        this.m = m;
        this.offset0 = offset0;
        this.how = how;
        this.windowNs = windowNs;
        this.files = files;
        this.frames = frames;
        this.firstFrameNs = firstFrameNs;
        this.flows = m.flows();
        for (Dir d : flows) {
            HostDir h = hostDirs.computeIfAbsent(d.key.src() + ">" + d.key.dst(), k -> new HostDir(d.key.src(), d.key.dst()));
            h.c.addAll(d.raw);
            h.matched += d.matched;
            h.rawMin = Math.min(h.rawMin, d.rawMin);
            h.rawMax = Math.max(h.rawMax, d.rawMax);
            h.packets[0] += d.packets[0];
            h.packets[1] += d.packets[1];
        }
        Long est = estimate();
        if (how.equals("given")) {
            offset = offset0;
            offsetHow = "given (--time-shift)";
        } else if (est != null) {
            offset = est;
            offsetHow = "estimated (NTP: minimum-delay packets of both directions)";
        } else {
            offset = offset0;
            offsetHow = "assumed 0: no host pair was matched in both directions, so the offset cannot be told from the delay";
        }
        directions();
    }

    private HostDir reverse(HostDir h) { return hostDirs.get(h.dst + ">" + h.src); }

    /** Per host pair matched both ways: its direction, offset and delay; the offset of the pair with most matches. */
    private Long estimate() {
        Long best = null;
        long bestMatched = -1;
        for (HostDir f : hostDirs.values()) {
            HostDir r = reverse(f);
            if (f.matched == 0 || r == null || r.matched == 0 || f.src.compareTo(f.dst) > 0) continue;
            boolean forward = f.c.quantile(0.5) - r.c.quantile(0.5) >= 0;
            long x = forward ? f.rawMin : f.rawMax, y = forward ? -r.rawMax : -r.rawMin;
            long off = Math.floorDiv(x - y, 2), delay = Math.abs(x + y) / 2;
            f.forward = forward;
            r.forward = !forward;
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("hosts", f.src + "<>" + f.dst);
            p.put("upstream_of_" + f.src + ">" + f.dst, forward ? 1 : 2);
            p.put("offset_ns", off);
            p.put("one_way_delay_ns", delay);
            p.put("matched", f.matched + r.matched);
            pairs.add(p);
            if (f.matched + r.matched > bestMatched) {
                bestMatched = f.matched + r.matched;
                best = off;
            }
        }
        return best;
    }

    /** The offset this report found (null when no host pair was matched both ways). */
    Long estimatedOffset() {
        return offsetHow.startsWith("estimated") ? offset : null;
    }

    /** Per flow: which point is upstream (dirs), decided as the class comment says. */
    private final Map<Dir, Integer> upstream = new LinkedHashMap<>();

    private void directions() {
        // Host directions not decided by a pair matched both ways (or under --time-shift): by the sign of the delay.
        for (HostDir h : hostDirs.values()) {
            if (how.equals("given") || h.forward == null) {
                if (h.matched > 0) h.forward = h.c.quantile(0.5) + offset0 - offset >= 0;
            }
        }
        for (HostDir h : hostDirs.values()) {
            HostDir r = reverse(h);
            if (h.forward == null && r != null && r.forward != null) h.forward = !r.forward;
        }
        for (Dir d : flows) {
            HostDir h = hostDirs.get(d.key.src() + ">" + d.key.dst());
            HostDir r = reverse(h);
            int up;
            if (d.matched > 0) {
                boolean forward = !how.equals("given") && r != null && r.matched > 0
                        ? d.raw.quantile(0.5) - r.c.quantile(0.5) >= 0
                        : d.raw.quantile(0.5) + offset0 - offset >= 0;
                up = forward ? CompareMatcher.P1 : CompareMatcher.P2;
            } else if (h.forward != null) {
                up = h.forward ? CompareMatcher.P1 : CompareMatcher.P2;
            } else {
                up = -1;
            }
            upstream.put(d, up);
        }
    }

    /** Whether the hosts of a flow were seen at both points (else the flow is other traffic at one point). */
    private boolean compared(Dir d) {
        HostDir h = hostDirs.get(d.key.src() + ">" + d.key.dst());
        HostDir r = reverse(h);
        long p1 = h.packets[0] + (r == null ? 0 : r.packets[0]), p2 = h.packets[1] + (r == null ? 0 : r.packets[1]);
        return p1 > 0 && p2 > 0 && upstream.get(d) >= 0;
    }

    boolean common() {
        for (Dir d : flows) if (compared(d)) return true;
        return false;
    }

    /**
     * Whether an unmatched packet of point p at common time t may lie where the other point's capture could not have
     * seen it: its copy would have passed there (between the smallest and the largest one-way delay seen before or
     * after t) before the other capture started or after it ended. In doubt, not counted as lost.
     */
    private boolean outside(int p, int up, long t) {
        int o = 1 - p;
        long min = m.minDelayNs(), max = m.maxDelayNs() + 1;
        if (p == up) return t + max > m.last[o] || t + min < m.first[o];
        return t - min > m.last[o] || t - max < m.first[o];
    }

    Map<String, Object> model(List<String> problems) {
        Map<String, Object> root = new LinkedHashMap<>();
        List<Object> points = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            Map<String, Object> pt = new LinkedHashMap<>();
            pt.put("point", p + 1);
            pt.put("file", files[p]);
            pt.put("frames", frames[p]);
            pt.put("roce_packets", m.roce[p]);
            pt.put("first_frame_ns", frames[p] == 0 ? null : firstFrameNs[p]);
            points.add(pt);
        }
        root.put("points", points);
        Map<String, Object> clock = new LinkedHashMap<>();
        clock.put("offset_ns", offset);
        clock.put("offset_s", seconds(offset));
        clock.put("how", offsetHow);
        clock.put("meaning", "point 2's clock minus point 1's; one-way delay = (x + y) / 2 and offset = (x - y) / 2 as NTP "
                + "estimates them (symmetric paths assumed)");
        clock.put("host_pairs", pairs);
        root.put("clock", clock);
        root.put("window_ns", windowNs);
        root.put("largest_one_way_delay_ns", m.maxDelayNs());
        root.put("pending_peak", m.pendingPeak());

        List<Object> rows = new ArrayList<>();
        Map<String, long[]> byDirection = new TreeMap<>(), byHosts = new TreeMap<>();
        Map<String, long[]> byPath = new TreeMap<>();
        List<String> oneSide = new ArrayList<>();
        for (Dir d : flows) {
            if (!compared(d)) {
                oneSide.add(d.id);
                continue;
            }
            int up = upstream.get(d), down = 1 - up;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("flow", d.id);
            r.put("direction", up == 0 ? "1>2" : "2>1");
            r.put("upstream_packets", d.packets[up]);
            r.put("downstream_packets", d.packets[down]);
            r.put("matched", d.matched);
            Loss lost = loss(d.unmatched[up], up, up), appeared = loss(d.unmatched[down], down, up);
            r.put("lost_between", lost.json());
            r.put("appeared_downstream_only", appeared.json());
            r.put("resent_already_downstream", d.again[up]);
            r.put("outside_other_capture", lost.outside + appeared.outside);
            r.put("one_way_delay_ns", delays(d, up));
            if (!d.paths.isEmpty()) {
                List<Object> ps = new ArrayList<>();
                for (var e : d.paths.entrySet()) {
                    Map<String, Object> pm = new LinkedHashMap<>();
                    pm.put("path_id", e.getKey());
                    pm.put("upstream_packets", e.getValue()[up]);
                    long l = lost.byPath.getOrDefault(e.getKey(), 0L);
                    pm.put("lost_between", l);
                    ps.add(pm);
                    long[] agg = byPath.computeIfAbsent((up == 0 ? "1>2" : "2>1") + " path " + e.getKey(), k -> new long[2]);
                    agg[0] += e.getValue()[up];
                    agg[1] += l;
                }
                r.put("paths", ps);
            }
            rows.add(r);
            long[] dir = byDirection.computeIfAbsent(up == 0 ? "1>2" : "2>1", k -> new long[4]);
            dir[0] += d.packets[up];
            dir[1] += d.matched;
            dir[2] += lost.count;
            dir[3] += appeared.count;
            long[] hp = byHosts.computeIfAbsent(d.key.src() + ">" + d.key.dst() + " " + (up == 0 ? "1>2" : "2>1"), k -> new long[4]);
            hp[0] += d.packets[up];
            hp[1] += d.matched;
            hp[2] += lost.count;
            hp[3] += appeared.count;
        }
        root.put("flows", rows);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("directions", totals(byDirection, "direction"));
        List<Object> hosts = new ArrayList<>();
        for (var e : byHosts.entrySet()) {
            String[] k = e.getKey().split(" ");
            Map<String, Object> h = new LinkedHashMap<>();
            h.put("hosts", k[0]);
            h.put("direction", k[1]);
            put(h, e.getValue());
            hosts.add(h);
        }
        summary.put("host_pairs", hosts);
        List<Object> paths = new ArrayList<>();
        for (var e : byPath.entrySet()) {
            String[] k = e.getKey().split(" ");
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("direction", k[0]);
            p.put("path_id", Integer.parseInt(k[2]));
            p.put("upstream_packets", e.getValue()[0]);
            p.put("lost_between", e.getValue()[1]);
            paths.add(p);
        }
        summary.put("paths", paths);
        summary.put("flows_at_one_point_only", oneSide);
        root.put("summary", summary);
        root.put("problems", problems);
        return root;
    }

    private static List<Object> totals(Map<String, long[]> m, String name) {
        List<Object> l = new ArrayList<>();
        for (var e : m.entrySet()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put(name, e.getKey());
            put(t, e.getValue());
            l.add(t);
        }
        return l;
    }

    private static void put(Map<String, Object> t, long[] v) {
        t.put("upstream_packets", v[0]);
        t.put("matched", v[1]);
        t.put("lost_between", v[2]);
        t.put("appeared_downstream_only", v[3]);
    }

    /** The unmatched packets of one point, outside the other capture's span left out. */
    private final class Loss {
        long count, outside, firstNs = -1, lastNs = -1;
        /** The first frame of the capture the packets were seen in (the relative times count from it). */
        long baseNs;
        final List<int[]> ranges = new ArrayList<>();
        /**
         * PSNs lost more than once in a row (an original and its resend both lost): {psn, times, index of the range
         * it ends}. The ranges hold each PSN once, so that a repeat would otherwise not show.
         */
        final List<int[]> repeats = new ArrayList<>();
        final Map<Integer, Long> byPath = new TreeMap<>();

        Map<String, Object> json() {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("count", count);
            List<Object> rs = new ArrayList<>();
            for (int i = 0; i < ranges.size() && i < JSON_RANGES; i++) {
                int[] r = ranges.get(i);
                rs.add(r[0] == r[1] ? (Object) (long) r[0] : List.of((long) r[0], (long) r[1]));
            }
            j.put("psns", rs);
            if (ranges.size() > JSON_RANGES) j.put("psn_ranges_left_out", ranges.size() - JSON_RANGES);
            List<Object> rp = new ArrayList<>();
            for (int[] r : repeats) {
                if (r[2] >= JSON_RANGES) break;
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("psn", (long) r[0]);
                x.put("times", (long) r[1]);
                x.put("entry", (long) r[2]);   // the entry of psns it ends (a PSN can be lost again later, apart)
                rp.add(x);
            }
            j.put("psn_repeats", rp);
            j.put("first_ns", count == 0 ? null : firstNs);
            j.put("last_ns", count == 0 ? null : lastNs);
            // Seconds since the first frame of the capture that saw them (analyze's started_s, tshark's -t r).
            j.put("first_s", count == 0 ? null : (firstNs - baseNs) / 1e9);
            j.put("last_s", count == 0 ? null : (lastNs - baseNs) / 1e9);
            return j;
        }
    }

    private Loss loss(Unmatched u, int p, int up) {
        Loss l = new Loss();
        l.baseNs = firstFrameNs[p];
        for (int i = 0; i < u.n; i++) {
            if (outside(p, up, u.common[i])) {
                l.outside++;
                continue;
            }
            l.count++;
            if (l.firstNs < 0) l.firstNs = u.t[i];
            l.lastNs = u.t[i];
            int psn = u.psn[i];
            int[] last = l.ranges.isEmpty() ? null : l.ranges.get(l.ranges.size() - 1);
            if (last != null && ((last[1] + 1) & 0xFFFFFF) == psn) last[1] = psn;
            else if (last == null || last[1] != psn) l.ranges.add(new int[] {psn, psn});
            else {
                // The same PSN again right after itself: its resend was lost too.
                int[] rep = l.repeats.isEmpty() ? null : l.repeats.get(l.repeats.size() - 1);
                if (rep != null && rep[2] == l.ranges.size() - 1 && rep[0] == psn) rep[1]++;
                else l.repeats.add(new int[] {psn, 2, l.ranges.size() - 1});
            }
            if (u.path[i] >= 0) l.byPath.merge(u.path[i], 1L, Long::sum);
        }
        return l;
    }

    /** One-way delays of a flow's matches: downstream time minus upstream time, the offset removed. */
    private Map<String, Object> delays(Dir d, int up) {
        Map<String, Object> j = new LinkedHashMap<>();
        if (d.matched == 0) return null;
        long k = offset - offset0, min, median, p99, max;
        if (up == 0) {
            min = d.rawMin - offset;
            max = d.rawMax - offset;
            median = d.raw.quantile(0.5) - k;
            p99 = d.raw.quantile(0.99) - k;
        } else {
            min = offset - d.rawMax;
            max = offset - d.rawMin;
            median = k - d.raw.quantile(0.5);
            p99 = k - d.raw.quantile(0.01);
        }
        // A quantile is its bucket's middle: kept within the exact min and max.
        j.put("min", min);
        j.put("median", Math.max(min, Math.min(max, median)));
        j.put("p99", Math.max(min, Math.min(max, p99)));
        j.put("max", max);
        return j;
    }

    private static String seconds(long ns) { return CaptureCompare.seconds(ns); }

    // ------------------------------------------------------------------ text

    private static final String RULE = "=".repeat(100);

    @SuppressWarnings("unchecked")
    String text(Map<String, Object> model) {
        StringBuilder b = new StringBuilder();
        b.append(RULE).append('\n').append("Two capture points\n");
        for (Object o : (List<Object>) model.get("points")) {
            Map<String, Object> p = (Map<String, Object>) o;
            b.append("Point ").append(p.get("point")).append(": ").append(p.get("file")).append("   frames ")
                    .append(p.get("frames")).append(", RoCE ").append(p.get("roce_packets")).append('\n');
        }
        b.append("Clock offset (point 2 - point 1): ").append(signedSeconds(offset)).append(" s, ").append(offsetHow).append('\n');
        for (Map<String, Object> p : pairs) {
            b.append("  hosts ").append(p.get("hosts")).append(": offset ").append(signedSeconds((Long) p.get("offset_ns")))
                    .append(" s, one-way delay ").append(us((Long) p.get("one_way_delay_ns"))).append(" us, ")
                    .append(p.get("matched")).append(" matched\n");
        }
        b.append("Window: ").append(seconds(windowNs)).append(" s plus the largest one-way delay (")
                .append(us(m.maxDelayNs())).append(" us)\n");
        b.append("Direction 1>2: point 1 is upstream (the sender's side), 2>1: point 2 is\n");
        List<Object> flowRows = (List<Object>) model.get("flows");
        Table t = new Table("Flow", "Dir", "Upstream", "Downstream", "Matched", "Lost", "Appeared", "Resent-seen",
                "Outside", "One-way delay (us) min/median/p99/max");
        for (Object o : flowRows) {
            Map<String, Object> r = (Map<String, Object>) o;
            Map<String, Object> dl = (Map<String, Object>) r.get("one_way_delay_ns");
            t.row(r.get("flow"), r.get("direction"), r.get("upstream_packets"), r.get("downstream_packets"), r.get("matched"),
                    ((Map<String, Object>) r.get("lost_between")).get("count"),
                    ((Map<String, Object>) r.get("appeared_downstream_only")).get("count"), r.get("resent_already_downstream"),
                    r.get("outside_other_capture"),
                    dl == null ? "-" : us((Long) dl.get("min")) + "/" + us((Long) dl.get("median")) + "/" + us((Long) dl.get("p99"))
                            + "/" + us((Long) dl.get("max")));
        }
        b.append(RULE).append('\n').append("Flows at both points\n");
        t.print(b);
        Table lt = new Table("Flow", "Dir", "What", "Count", "PSNs", "First(s)", "Last(s)", "First (UTC)");
        for (Object o : flowRows) {
            Map<String, Object> r = (Map<String, Object>) o;
            lossRow(lt, r, "lost_between", "lost between");
            lossRow(lt, r, "appeared_downstream_only", "downstream only");
        }
        b.append(RULE).append('\n').append("Lost between the points (seen upstream, never downstream) and seen downstream only\n");
        if (!lt.rows.isEmpty()) {
            b.append("Times: seconds since the first frame of the capture that saw the packets (tshark -t r), and UTC (-t ud)\n");
        }
        if (lt.rows.isEmpty()) b.append("none\n");
        else lt.print(b);
        Map<String, Object> summary = (Map<String, Object>) model.get("summary");
        b.append(RULE).append('\n').append("Summary\n");
        Table st = new Table("Direction", "Hosts", "Upstream", "Matched", "Lost", "Appeared");
        for (Object o : (List<Object>) summary.get("directions")) {
            Map<String, Object> r = (Map<String, Object>) o;
            st.row(r.get("direction"), "all", r.get("upstream_packets"), r.get("matched"), r.get("lost_between"),
                    r.get("appeared_downstream_only"));
        }
        for (Object o : (List<Object>) summary.get("host_pairs")) {
            Map<String, Object> r = (Map<String, Object>) o;
            st.row(r.get("direction"), r.get("hosts"), r.get("upstream_packets"), r.get("matched"), r.get("lost_between"),
                    r.get("appeared_downstream_only"));
        }
        st.print(b);
        List<Object> paths = (List<Object>) summary.get("paths");
        if (!paths.isEmpty()) {
            b.append("MetaRoCE paths (which path loses)\n");
            Table pt = new Table("Direction", "Path", "Upstream", "Lost", "Lost%");
            for (Object o : paths) {
                Map<String, Object> r = (Map<String, Object>) o;
                long n = (Long) r.get("upstream_packets"), l = (Long) r.get("lost_between");
                pt.row(r.get("direction"), r.get("path_id"), n, l, n == 0 ? "-" : String.format(Locale.ROOT, "%.1f", 100.0 * l / n));
            }
            pt.print(b);
        }
        List<Object> one = (List<Object>) summary.get("flows_at_one_point_only");
        if (!one.isEmpty()) b.append("Flows whose hosts were seen at one point only (not compared): ").append(one.size()).append('\n');
        return b.toString();
    }

    @SuppressWarnings("unchecked")
    private static void lossRow(Table t, Map<String, Object> r, String key, String what) {
        Map<String, Object> l = (Map<String, Object>) r.get(key);
        long n = (Long) l.get("count");
        if (n == 0) return;
        StringBuilder ps = new StringBuilder();
        List<Object> rs = (List<Object>) l.get("psns");
        Map<Long, Long> times = new java.util.HashMap<>();
        for (Object o : (List<Object>) l.get("psn_repeats")) {
            Map<String, Object> x = (Map<String, Object>) o;
            times.put((Long) x.get("entry"), (Long) x.get("times"));
        }
        for (int i = 0; i < rs.size() && i < TEXT_RANGES; i++) {
            if (i > 0) ps.append(',');
            Object x = rs.get(i);
            Long end = x instanceof List<?> range ? (Long) range.get(1) : (Long) x;
            if (x instanceof List<?> range) ps.append(range.get(0)).append('-').append(range.get(1));
            else ps.append(x);
            // A PSN lost again right after itself (original and resend): "24 (x2)", "5-7 (7 x2)".
            Long k = times.get((long) i);
            if (k != null) ps.append(x instanceof List<?> ? " (" + end + " x" + k + ")" : " (x" + k + ")");
        }
        if (rs.size() > TEXT_RANGES) ps.append(",... (").append(rs.size() - TEXT_RANGES).append(" more ranges)");
        t.row(r.get("flow"), r.get("direction"), what, n, ps, fixed((Double) l.get("first_s")), fixed((Double) l.get("last_s")),
                utc((Long) l.get("first_ns")));
    }

    /** Relative seconds with nine decimals (the other times of this report). */
    private static String fixed(double s) {
        return String.format(Locale.ROOT, "%.9f", s);
    }

    /** An epoch time as tshark -t ud prints it: 2026-01-01 00:00:00.000013400. */
    private static String utc(long ns) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT)
                .format(java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(ns, 1_000_000_000L), 0, java.time.ZoneOffset.UTC))
                + String.format(Locale.ROOT, ".%09d", Math.floorMod(ns, 1_000_000_000L));
    }

    private static String us(long ns) {
        return String.format(Locale.ROOT, "%.3f", ns / 1e3);
    }

    private static String signedSeconds(long ns) {
        return (ns >= 0 ? "+" : "-") + seconds(Math.abs(ns));
    }

    /** Left-aligned first columns, right-aligned numbers, two spaces apart (analyze's tables). */
    private static final class Table {
        final String[] head;
        final List<String[]> rows = new ArrayList<>();

        Table(String... head) { this.head = head; }

        void row(Object... cells) {
            String[] r = new String[cells.length];
            for (int i = 0; i < cells.length; i++) r[i] = String.valueOf(cells[i]);
            rows.add(r);
        }

        void print(StringBuilder b) {
            int[] w = new int[head.length];
            for (int i = 0; i < head.length; i++) w[i] = head[i].length();
            for (String[] r : rows) for (int i = 0; i < r.length; i++) w[i] = Math.max(w[i], r[i].length());
            line(b, head, w, true);
            for (String[] r : rows) line(b, r, w, false);
        }

        private static void line(StringBuilder b, String[] r, int[] w, boolean head) {
            StringBuilder l = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                if (i > 0) l.append("  ");
                boolean number = !head && !r[i].isEmpty() && (Character.isDigit(r[i].charAt(0)) || r[i].equals("-"))
                        && !r[i].contains(">");
                if (number) l.append(" ".repeat(w[i] - r[i].length())).append(r[i]);
                else l.append(r[i]).append(i < r.length - 1 ? " ".repeat(w[i] - r[i].length()) : "");
            }
            b.append(l.toString().stripTrailing()).append('\n');
        }
    }
}
