package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FrameFields;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.ValueType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * dissect -z: tshark's statistics over the frames that pass -Y, printed after the frames. Each worker counts its own
 * frames (the wrapped sink prints them as before); the counts are merged at the end, so the order in which workers ran
 * changes nothing. Supported: io,phs (protocol hierarchy, tshark's layout, our headers as the protocols),
 * io,stat,INTERVAL (frames and bytes per interval of seconds since the first frame), conv,TYPE and endpoints,TYPE
 * (tshark's conversation and endpoint tables, {@link ConversationTable}) and expert (the expert items and the
 * analysis' findings, grouped as tshark -z expert). io,phs, conv, endpoints and expert take a display filter after
 * them, as tshark: only the frames that match it count.
 */
final class ZStats implements DissectCommand.FrameSink {
    /** What -z takes here (-z help lists it). */
    static final List<String> SUPPORTED = List.of("conv,eth[,FILTER]", "conv,ip[,FILTER]", "conv,ipv6[,FILTER]",
            "conv,udp[,FILTER]", "endpoints,eth[,FILTER]", "endpoints,ip[,FILTER]", "endpoints,ipv6[,FILTER]",
            "endpoints,udp[,FILTER]", "expert[,error|warn|note][,FILTER]", "io,phs[,FILTER]", "io,stat,INTERVAL");

    /** One -z table's counts in one worker: fed the frames that pass -Y, merged with the other workers' at the end. */
    interface Tally {
        void frame(Dissection d, FrameFields ff);

        /** Adds another worker's counts of the same -z argument. */
        void merge(Tally other);

        void print(ByteOut out);
    }

    private final DissectCommand.FrameSink inner;
    private final long intervalNanos; // 0: no io,stat
    private long firstTime = Long.MIN_VALUE;
    /** One per -z argument, in the order given (null for io,stat, counted here). */
    final List<Tally> tallies;
    /** io,stat: interval index -> {frames, bytes}. */
    final Map<Long, long[]> intervals = new HashMap<>();
    long lastTime = Long.MIN_VALUE;

    /** Frames still to count: -c N (the run then has one worker, which dissects whole batches past the N-th frame). */
    private long budget;

    ZStats(DissectCommand.FrameSink inner, List<Tally> tallies, long intervalNanos, long budget) {
        this.budget = budget;
        this.inner = inner;
        this.tallies = tallies;
        this.intervalNanos = intervalNanos;
    }

    @Override
    public void batch(FrameBatch batch) {
        firstTime = batch.captureStartNanos();
        inner.batch(batch);
    }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        inner.frame(d, ff);
        if (budget-- <= 0) return;
        if (firstTime == Long.MIN_VALUE) firstTime = d.timeNanos();
        for (Tally t : tallies) if (t != null) t.frame(d, ff);
        if (intervalNanos > 0) {
            // As tshark's io,stat: times rounded to the microsecond before they are cut into intervals (a frame 99.6 µs
            // after the first is in the interval from 100 µs on).
            long rel = Math.max(0, micros(d.timeNanos()) - micros(firstTime)) * 1000;
            long[] c = intervals.computeIfAbsent(rel / (Math.max(1, intervalNanos / 1000) * 1000), k -> new long[2]);
            c[0]++;
            c[1] += d.originalLength();
            lastTime = Math.max(lastTime, d.timeNanos() - firstTime);
        }
    }

    private static long micros(long ns) {
        return Math.floorDiv(ns, 1_000_000_000L) * 1_000_000L + (Math.floorMod(ns, 1_000_000_000L) + 500) / 1000;
    }

    /** io,phs: "eth:ip:udp" -> {frames, bytes, first frame number}, over the frames that match its filter. */
    static final class Phs implements Tally {
        final Map<String, long[]> paths = new HashMap<>();
        private final StringBuilder path = new StringBuilder();
        private final DisplayFilter filter;
        /** The filter line: io,phs's own filter, or else -Y's (what this table always printed). */
        private final String filterText;

        Phs(DisplayFilter filter, String filterText) {
            this.filter = filter;
            this.filterText = filterText;
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            if (filter != null && !filter.matches(ff)) return;
            path.setLength(0);
            for (int i = 0; i < d.layerCount(); i++) {
                if (i > 0) path.append(':');
                path.append(d.layer(i).id());
                long[] c = paths.computeIfAbsent(path.toString(), k -> new long[] {0, 0, Long.MAX_VALUE});
                c[0]++;
                c[1] += d.originalLength();
                c[2] = Math.min(c[2], d.number());
            }
        }

        @Override
        public void merge(Tally other) {
            ((Phs) other).paths.forEach((k, v) -> {
                long[] c = paths.computeIfAbsent(k, x -> new long[] {0, 0, Long.MAX_VALUE});
                c[0] += v[0];
                c[1] += v[1];
                c[2] = Math.min(c[2], v[2]);
            });
        }

        /** io,phs in tshark's layout: each protocol under its parent, in the order met, with its frames and bytes. */
        @Override
        public void print(ByteOut out) {
            out.ascii("\n===================================================================\n");
            out.ascii("Protocol Hierarchy Statistics\nFilter: ").str(filterText == null ? "" : filterText).ascii("\n\n");
            List<String> sorted = new ArrayList<>(paths.keySet());
            // Depth first, siblings in the order of their first frame (tshark: the order in which they were met).
            sorted.sort((a, b) -> compareTree(a, b));
            for (String p : sorted) {
                int depth = (int) p.chars().filter(ch -> ch == ':').count();
                String name = "  ".repeat(depth) + p.substring(p.lastIndexOf(':') + 1);
                StringBuilder line = new StringBuilder(name);
                while (line.length() < 41) line.append(' ');
                long[] c = paths.get(p);
                out.str(line.toString()).ascii("frames:").num(c[0]).ascii(" bytes:").num(c[1]).ch('\n');
            }
            out.ascii("===================================================================\n");
        }

        private int compareTree(String a, String b) {
            String[] x = a.split(":"), y = b.split(":");
            for (int i = 0; i < Math.min(x.length, y.length); i++) {
                if (x[i].equals(y[i])) continue;
                String pa = String.join(":", java.util.Arrays.copyOf(x, i + 1)), pb = String.join(":", java.util.Arrays.copyOf(y, i + 1));
                return Long.compare(paths.get(pa)[2], paths.get(pb)[2]);
            }
            return Integer.compare(x.length, y.length);
        }
    }

    /**
     * -z expert: the frames' expert items and the analysis' findings on them (analysis.retransmission, ...), counted
     * per severity, protocol and summary as tshark -z expert, in the order first met. The kinds are the spec's
     * expert table and a fixed list of analysis flags, so the table stays small whatever the capture.
     */
    static final class Expert implements Tally {
        /** An analysis flag read as an expert item: severity and group as the GUI's Expert Info shows the events. */
        record Finding(FieldDef field, Severity severity, String group) {}

        static final List<Finding> FINDINGS = findings();

        private static List<Finding> findings() {
            List<Finding> l = new ArrayList<>();
            String[][] rows = {{"analysis.retransmission", "NOTE", "Sequence"}, {"analysis.spurious", "NOTE", "Sequence"},
                    {"analysis.out_of_order", "WARN", "Sequence"}, {"analysis.duplicate", "NOTE", "Sequence"},
                    {"analysis.psn_gap", "WARN", "Sequence"}, {"analysis.ack_of_unseen", "WARN", "Sequence"},
                    {"analysis.ce_without_cnp", "WARN", "Congestion"}, {"analysis.repeated_response", "NOTE", "Sequence"},
                    {"analysis.ack_before_request", "NOTE", "Sequence"}};
            for (String[] r : rows) {
                FieldDef f = FieldCatalog.get().field(r[0]);
                if (f != null) l.add(new Finding(f, Severity.valueOf(r[1]), r[2]));
            }
            return List.copyOf(l);
        }

        /** One line of the table: its texts, how often, and where first met (frame * 64 + item in the frame). */
        static final class Line {
            final Severity severity;
            final String group, protocol, summary;
            long count, order;

            Line(Severity severity, String group, String protocol, String summary, long order) {
                this.severity = severity;
                this.group = group;
                this.protocol = protocol;
                this.summary = summary;
                this.order = order;
            }
        }

        final Map<String, Line> lines = new LinkedHashMap<>();
        private final DisplayFilter filter;
        private final Severity lowest;

        Expert(DisplayFilter filter, Severity lowest) {
            this.filter = filter;
            this.lowest = lowest;
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            if (filter != null && !filter.matches(ff)) return;
            int k = 0;
            for (ExpertItem e : d.expert()) {
                String g = e.group().name();
                add(e.severity(), g.charAt(0) + g.substring(1).toLowerCase(java.util.Locale.ROOT), protocol(d, e),
                        e.def().summary(), d.number() * 64 + k++);
            }
            for (Finding f : FINDINGS) {
                // Present only when true (or, for a number such as psn_gap, when there is something to say).
                if (ff.count(f.field()) == 0) continue;
                if (f.field().type() != ValueType.STRING && ff.longValue(f.field(), 0) == 0) continue;
                add(f.severity(), f.group(), "analysis", f.field().label(), d.number() * 64 + k++);
            }
        }

        /**
         * The protocol column: the header the item is about (its layer, its field's header, or the header its id
         * names, as icrc.bad), else frame.
         */
        private static String protocol(Dissection d, ExpertItem e) {
            if (e.layer() >= 0) return d.layer(e.layer()).id();
            if (e.field() >= 0) return io.metaroce.protocol.Spec.HEADERS.get(io.metaroce.protocol.Spec.FIELDS.get(e.field()).header()).id();
            int dot = e.id().indexOf('.');
            var h = dot < 0 ? null : FieldCatalog.get().protocol(e.id().substring(0, dot));
            return h != null ? h.id() : "frame";
        }

        private void add(Severity s, String group, String protocol, String summary, long order) {
            if (s.compareTo(lowest) < 0) return;
            Line l = lines.computeIfAbsent(s.ordinal() + "\0" + protocol + "\0" + summary, x -> new Line(s, group, protocol, summary, order));
            l.count++;
            l.order = Math.min(l.order, order);
        }

        @Override
        public void merge(Tally other) {
            for (var e : ((Expert) other).lines.entrySet()) {
                Line o = e.getValue();
                Line l = lines.computeIfAbsent(e.getKey(), x -> new Line(o.severity, o.group, o.protocol, o.summary, o.order));
                l.count += o.count;
                l.order = Math.min(l.order, o.order);
            }
        }

        /** tshark's layout: Errors, Warns, Notes, each with its total, then a line per group, protocol and summary. */
        @Override
        public void print(ByteOut out) {
            String[] titles = {"Notes", "Warns", "Errors"};
            for (int s = Severity.values().length - 1; s >= 0; s--) {
                List<Line> rows = new ArrayList<>();
                long total = 0;
                for (Line l : lines.values()) {
                    if (l.severity.ordinal() != s) continue;
                    rows.add(l);
                    total += l.count;
                }
                if (rows.isEmpty()) continue;
                rows.sort(java.util.Comparator.comparingLong(l -> l.order));
                out.ascii("\n").ascii(titles[s]).ascii(" (").num(total).ascii(")\n=============\n");
                out.ascii("   Frequency      Group           Protocol  Summary\n");
                for (Line l : rows) {
                    out.str(String.format(java.util.Locale.ROOT, "%12d %10s %18s  %s\n", l.count, l.group, l.protocol, l.summary));
                }
            }
        }
    }

    /** Adds another worker's counts to these. */
    void merge(ZStats o) {
        for (int i = 0; i < tallies.size(); i++) if (tallies.get(i) != null) tallies.get(i).merge(o.tallies.get(i));
        o.intervals.forEach((k, v) -> {
            long[] c = intervals.computeIfAbsent(k, x -> new long[2]);
            c[0] += v[0];
            c[1] += v[1];
        });
        lastTime = Math.max(lastTime, o.lastTime);
    }

    /** io,stat: one row per interval from the first frame to the last, frames and bytes (tshark's columns). */
    void printIoStat(ByteOut out, long intervalNanos, String intervalText) {
        out.ascii("\n========================================\n| IO Statistics\n|\n");
        out.ascii("| Duration: ").ascii(secs(lastTime == Long.MIN_VALUE ? 0 : lastTime)).ascii(" secs\n");
        out.ascii("| Interval: ").ascii(intervalText).ascii(" secs\n|\n| Col 1: Frames and bytes\n");
        out.ascii("|--------------------------------------\n| Interval           | Frames |  Bytes |\n");
        out.ascii("|--------------------------------------\n");
        long last = lastTime == Long.MIN_VALUE ? -1 : lastTime / intervalNanos;
        for (long i = 0; i <= last; i++) {
            long[] c = intervals.getOrDefault(i, new long[2]);
            long end = (i + 1) * intervalNanos;
            out.ascii("| ").ascii(secs(i * intervalNanos)).ascii(" <> ").ascii(secs(i == last ? Math.min(end, lastTime) : end))
                    .ascii(" | ").ascii(String.format(java.util.Locale.ROOT, "%6d", c[0])).ascii(" | ").ascii(String.format(java.util.Locale.ROOT, "%6d", c[1])).ascii(" |\n");
        }
        out.ascii("========================================\n");
    }

    private static String secs(long ns) {
        return String.format(java.util.Locale.ROOT, "%.5f", ns / 1e9);
    }
}
