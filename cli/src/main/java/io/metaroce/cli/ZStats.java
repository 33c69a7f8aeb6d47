package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.stats.ProtocolHierarchy;
import io.metaroce.dissector.stats.ServiceResponseTime;
import io.metaroce.dissector.stats.StatsTrees;
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
 * dissect -z: tshark's statistics over every frame read (tshark's taps count the frames -Y hides too), printed after
 * the frames, the last -z first (tshark's order). Each worker counts its own
 * frames (the wrapped sink prints them as before); the counts are merged at the end, so the order in which workers ran
 * changes nothing. Supported: io,phs (protocol hierarchy, tshark's layout, our headers as the protocols),
 * io,stat,INTERVAL[,COLUMN]... ({@link IoStat}), conv,TYPE and endpoints,TYPE
 * (tshark's conversation and endpoint tables, {@link ConversationTable}) and expert (the expert items and the
 * analysis' findings, grouped as tshark -z expert). io,phs, conv, endpoints and expert take a display filter after
 * them, as tshark: only the frames that match it count.
 */
final class ZStats implements DissectCommand.FrameSink {
    /** What -z takes here (-z help lists it). */
    static final List<String> SUPPORTED = List.of("conv,eth[,FILTER]", "conv,ip[,FILTER]", "conv,ipv6[,FILTER]",
            "conv,udp[,FILTER]", "endpoints,eth[,FILTER]", "endpoints,ip[,FILTER]", "endpoints,ipv6[,FILTER]",
            "endpoints,udp[,FILTER]", "expert[,error|warn|note|chat|comment][,FILTER]", "flow,any|roce,standard|network[,FILTER]",
            "follow,roce,ascii|hex|raw|yaml,STREAM[,RANGE] (a QP connection's payload; STREAM: its number or a flow id)", "io,phs[,FILTER]",
            "io,stat,INTERVAL[,FILTER|FUNC(FIELD)FILTER]... (FUNC: COUNT, SUM, MIN, MAX, AVG; FRAMES, BYTES)",
            "plen,tree[,FILTER]", "ptype,tree[,FILTER]", "ip_hosts,tree[,FILTER]", "ip_srcdst,tree[,FILTER]",
            "dests,tree[,FILTER]", "ipv6_hosts,tree[,FILTER]", "ipv6_srcdst,tree[,FILTER]", "ipv6_dests,tree[,FILTER]",
            "roce_ops,tree[,FILTER] (RDMA operations by transport, opcode and AETH kind)",
            "roce,srt[,FILTER] (service response time of RDMA operations; FILTER on the requests)");

    /** One -z table's counts in one worker: fed the frames that pass -Y, merged with the other workers' at the end. */
    interface Tally {
        void frame(Dissection d, FrameFields ff);

        /** Adds another worker's counts of the same -z argument. */
        void merge(Tally other);

        void print(ByteOut out);
    }

    private final DissectCommand.FrameSink inner;
    /** One per -z argument, in the order given. */
    final List<Tally> tallies;

    /** Frames still to count: -c N (the run then has one worker, which dissects whole batches past the N-th frame). */
    private long budget;

    ZStats(DissectCommand.FrameSink inner, List<Tally> tallies, long budget) {
        this.budget = budget;
        this.inner = inner;
        this.tallies = tallies;
    }

    @Override
    public void batch(FrameBatch batch) {
        inner.batch(batch);
    }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        inner.frame(d, ff);
        if (budget-- <= 0) return;
        for (Tally t : tallies) t.frame(d, ff);
    }

    /**
     * A frame that -Y hides: counted all the same, as tshark's taps see every frame read whatever -Y says (tshark -Y
     * 'frame.number <= 10' -z io,phs counts the whole capture). With -c N, until the N-th frame shown.
     */
    void hidden(Dissection d, FrameFields ff) {
        if (budget <= 0) return;
        for (Tally t : tallies) t.frame(d, ff);
    }

    /** io,phs: the dissector's {@link ProtocolHierarchy} over the frames that match its filter, in tshark's text. */
    static final class Phs implements Tally {
        final ProtocolHierarchy tree = new ProtocolHierarchy();
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
            tree.add(d);
        }

        @Override
        public void merge(Tally other) {
            tree.merge(((Phs) other).tree);
        }

        /** io,phs in tshark's layout: each protocol under its parent, in the order met, with its frames and bytes. */
        @Override
        public void print(ByteOut out) {
            out.ascii("\n===================================================================\n");
            out.ascii("Protocol Hierarchy Statistics\nFilter: ").str(filterText == null ? "" : filterText).ascii("\n\n");
            for (ProtocolHierarchy.Row r : tree.rows()) {
                StringBuilder line = new StringBuilder("  ".repeat(r.depth())).append(r.protocol());
                while (line.length() < 41) line.append(' ');
                out.str(line.toString()).ascii("frames:").num(r.frames()).ascii(" bytes:").num(r.bytes()).ch('\n');
            }
            out.ascii("===================================================================\n");
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

    /**
     * NAME,tree: one of the dissector's {@link StatsTrees} (tshark's plen, ptype, ip_hosts, ip_srcdst, dests and their
     * IPv6 kin, our roce_ops) over the frames that match its filter, in tshark's text. Its burst rates need the frames
     * in capture order: dissect then runs one worker (zNeedsOrder), whose tree the merge takes.
     */
    static final class Tree implements Tally {
        private StatsTrees trees;
        private final DisplayFilter filter;

        Tree(StatsTrees.Kind kind, DisplayFilter filter) {
            this.trees = new StatsTrees(kind);
            this.filter = filter;
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            if (filter != null && !filter.matches(ff)) return;
            trees.add(d);
        }

        /** The one worker's tree (the frames in order): taken whole, as bursts cannot be added up. */
        @Override
        public void merge(Tally other) {
            trees = ((Tree) other).trees;
        }

        @Override
        public void print(ByteOut out) {
            out.str(trees.tree().text());
        }
    }

    /**
     * roce,srt: the {@link ServiceResponseTime} of the requests that match its filter, in tshark's srt layout. It adds
     * up the analysis' pairing (analysis.ack_rtt_ns), so dissect runs the analysis pass first.
     */
    static final class Srt implements Tally {
        final ServiceResponseTime table = new ServiceResponseTime();
        private final DisplayFilter filter;

        Srt(DisplayFilter filter) {
            this.filter = filter;
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            if (ServiceResponseTime.procedure(d.opcode()) < 0) return;
            if (filter != null && !filter.matches(ff)) return;
            table.add(d, ff);
        }

        @Override
        public void merge(Tally other) {
            table.merge(((Srt) other).table);
        }

        @Override
        public void print(ByteOut out) {
            out.str(table.text());
        }
    }

    /** Adds another worker's counts to these. */
    void merge(ZStats o) {
        for (int i = 0; i < tallies.size(); i++) tallies.get(i).merge(o.tallies.get(i));
    }

    /**
     * -z io,stat,INTERVAL[,COL]...: tshark's IO statistics. A column is a display filter (frames and bytes of the
     * frames that match it; empty: every frame), FRAMES or BYTES, or FUNC(FIELD)FILTER with FUNC one of COUNT, SUM,
     * MIN, MAX, AVG over the field's values in the frames that match FILTER. Times are cut into intervals from the
     * capture's first frame, rounded to the microsecond as tshark does; INTERVAL 0 is the whole capture. The layout
     * (widths, the header, the centred labels, the rounding of the duration) is tshark 4's, so that a script reading
     * tshark's table reads this one.
     */
    static final class IoStat implements Tally {
        /** tshark's calc types, by the word that names them (FRAMES_AND_BYTES: a column that is only a filter). */
        static final int FRAMES_AND_BYTES = -1, FRAMES = 0, BYTES = 1, COUNT = 2, SUM = 3, MIN = 4, MAX = 5, AVG = 6;
        static final List<String> FUNCTIONS = List.of("FRAMES", "BYTES", "COUNT", "SUM", "MIN", "MAX", "AVG");

        /** One column: the text given (its "Col N:" line, null when empty), its calc type, field and filter. */
        record Column(String text, int type, FieldDef field, DisplayFilter filter) {}

        /** Cell slots: frames, the value (bytes, count, sum, max, or the least value for MIN), AVG's number of values
         * (MIN: 1 once a value was seen), MIN's first frame, that frame's least value, whether it had one, and AVG's
         * largest running mean (tshark sizes the column by it). */
        private static final int N = 0, V = 1, NUM = 2, FIRST = 3, FIRST_MIN = 4, FIRST_HAS = 5, RUN_MAX = 6;

        private static final FieldDef RELATIVE = FieldCatalog.get().field("frame.time_relative"),
                EPOCH = FieldCatalog.get().field("frame.time_epoch");

        final long intervalUs; // 0: one interval over the whole capture
        final int precision;   // the decimals of the interval as given (tshark's invl_prec)
        final List<Column> columns;
        /** Per column: interval index -> cell. */
        final List<Map<Long, long[]>> cells = new ArrayList<>();
        long elapsedNs = Long.MIN_VALUE;
        /**
         * -t's format for the first column: r (intervals from the first frame), or one of tshark's absolute formats
         * (a, ad, adoy, u, ud, udoy), where each row is the time its interval starts, in whole seconds.
         */
        final String timeMode;
        /** The first frame a column counted (tshark's start time: the first frame its taps saw) and its time. */
        long firstNumber = Long.MAX_VALUE, firstEpochNs;

        IoStat(long intervalUs, int precision, List<Column> columns, String timeMode) {
            this.intervalUs = intervalUs;
            this.precision = precision;
            this.columns = columns;
            this.timeMode = timeMode;
            for (int i = 0; i < columns.size(); i++) cells.add(new HashMap<>());
        }

        /** The -t formats tshark's io,stat takes (tshark refuses e, d and dd there). */
        static final List<String> TIME_MODES = List.of("r", "a", "ad", "adoy", "u", "ud", "udoy");

        /** Whether a column needs the frames in capture order (AVG: tshark sizes it by its running mean). */
        boolean needsOrder() {
            for (Column c : columns) if (c.type() == AVG) return true;
            return false;
        }

        private static boolean time(Column c) {
            return c.field() != null && c.field().type() == ValueType.TIME;
        }

        /** a < b, as the field's values compare (times signed, integers unsigned). */
        private static boolean less(Column c, long a, long b) {
            return time(c) ? a < b : Long.compareUnsigned(a, b) < 0;
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            long rel = ff.longValue(RELATIVE, 0);
            if (rel < 0) return; // a frame before the first: tshark leaves out frames in the past
            elapsedNs = Math.max(elapsedNs, rel);
            long us = rel / 1_000_000_000L * 1_000_000L + (rel % 1_000_000_000L + 500) / 1000;
            long bucket = intervalUs == 0 ? 0 : us / intervalUs;
            for (int j = 0; j < columns.size(); j++) {
                Column c = columns.get(j);
                if (c.filter() != null && !c.filter().matches(ff)) continue;
                if (d.number() < firstNumber) {
                    firstNumber = d.number();
                    firstEpochNs = ff.longValue(EPOCH, 0);
                }
                long[] cell = cells.get(j).computeIfAbsent(bucket, k -> newCell());
                cell[N]++;
                FieldDef f = c.field();
                int n = f == null ? 0 : ff.count(f);
                switch (c.type()) {
                    case FRAMES_AND_BYTES, FRAMES, BYTES -> cell[V] += d.originalLength();
                    case COUNT -> cell[V] += n;
                    case SUM -> {
                        for (int i = 0; i < n; i++) cell[V] += ff.longValue(f, i);
                    }
                    case MAX -> {
                        for (int i = 0; i < n; i++) {
                            long v = ff.longValue(f, i);
                            if (less(c, cell[V], v)) cell[V] = v;
                        }
                    }
                    case MIN -> {
                        if (n == 0) {
                            if (d.number() < cell[FIRST]) {
                                cell[FIRST] = d.number();
                                cell[FIRST_HAS] = 0;
                            }
                            continue;
                        }
                        long least = ff.longValue(f, 0);
                        for (int i = 1; i < n; i++) {
                            long v = ff.longValue(f, i);
                            if (less(c, v, least)) least = v;
                        }
                        if (cell[NUM] == 0 || less(c, least, cell[V])) cell[V] = least;
                        cell[NUM] = 1;
                        if (d.number() < cell[FIRST]) {
                            cell[FIRST] = d.number();
                            cell[FIRST_MIN] = least;
                            cell[FIRST_HAS] = 1;
                        }
                    }
                    case AVG -> {
                        for (int i = 0; i < n; i++) {
                            cell[V] += ff.longValue(f, i);
                            cell[NUM]++;
                        }
                        if (cell[NUM] > 0) cell[RUN_MAX] = Math.max(cell[RUN_MAX], mean(c, cell));
                    }
                    default -> { }
                }
            }
        }

        private static long[] newCell() {
            long[] c = new long[7];
            c[FIRST] = Long.MAX_VALUE;
            return c;
        }

        /** AVG's mean as tshark sizes its column: times in whole seconds, rounded. */
        private static long mean(Column c, long[] cell) {
            long m = time(c) ? cell[V] / cell[NUM] : Long.divideUnsigned(cell[V], cell[NUM]);
            return time(c) ? (m + 500_000_000L) / 1_000_000_000L : m;
        }

        @Override
        public void merge(Tally other) {
            IoStat o = (IoStat) other;
            elapsedNs = Math.max(elapsedNs, o.elapsedNs);
            if (o.firstNumber < firstNumber) {
                firstNumber = o.firstNumber;
                firstEpochNs = o.firstEpochNs;
            }
            for (int j = 0; j < columns.size(); j++) {
                Column c = columns.get(j);
                for (var e : o.cells.get(j).entrySet()) {
                    long[] a = cells.get(j).computeIfAbsent(e.getKey(), k -> newCell()), b = e.getValue();
                    a[N] += b[N];
                    switch (c.type()) {
                        case MAX -> {
                            if (less(c, a[V], b[V])) a[V] = b[V];
                        }
                        case MIN -> {
                            if (b[NUM] != 0 && (a[NUM] == 0 || less(c, b[V], a[V]))) a[V] = b[V];
                            a[NUM] |= b[NUM];
                            if (b[FIRST] < a[FIRST]) {
                                a[FIRST] = b[FIRST];
                                a[FIRST_MIN] = b[FIRST_MIN];
                                a[FIRST_HAS] = b[FIRST_HAS];
                            }
                        }
                        default -> {
                            a[V] += b[V];
                            a[NUM] += b[NUM];
                        }
                    }
                    a[RUN_MAX] = Math.max(a[RUN_MAX], b[RUN_MAX]);
                }
            }
        }

        /** A cell's value as printed: MIN is 0 when the first frame of its interval had no value (as tshark's). */
        private static long value(Column c, long[] cell) {
            return switch (c.type()) {
                case FRAMES -> cell[N];
                case MIN -> cell[FIRST_HAS] == 1 ? cell[V] : 0;
                case AVG -> cell[NUM] == 0 ? 0 : time(c) ? cell[V] / cell[NUM] : Long.divideUnsigned(cell[V], cell[NUM]);
                default -> cell[V];
            };
        }

        /** tshark's magnitude(): the digits of v, at least 1, at most max. */
        private static int magnitude(long v, int max) {
            int mag = 0;
            for (int i = 0; i < max; i++) {
                mag++;
                if ((v = Long.divideUnsigned(v, 10)) == 0) break;
            }
            return mag;
        }

        private static String pad(int width, String s) {
            return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
        }

        /** tshark's printcenter(): a label centred over a column of the given width (nothing when far too wide). */
        private static String center(String label, int width) {
            int len = 6 - ((width - label.length()) / 2 + 1);
            if (len > 0 && len < 6) {
                String sp = " ".repeat(6 - len);
                return (width - label.length()) % 2 == 0 ? sp + label + sp + "|" : sp + " " + label + sp + "|";
            }
            return len > 0 && len <= 15 ? label + "|" : "";
        }

        /** A line padded to the border with its closing bar, as tshark's "%*s" of "|". */
        private static String close(String line, int borderlen) {
            return line + pad(borderlen - line.length(), "|");
        }

        @Override
        public void print(ByteOut out) {
            int cols = columns.size();
            long elapsed = Math.max(0, elapsedNs);
            long duration = elapsed / 1_000_000_000L * 1_000_000L + (elapsed % 1_000_000_000L + 500) / 1000;
            boolean whole = intervalUs == 0 || intervalUs > duration;
            long interval = whole ? duration : intervalUs;
            int durMag = magnitude(duration / 1_000_000L, 5);
            int invlMag = magnitude(interval / 1_000_000L, 5);
            int prec;
            int borderlen;
            if (interval == duration) {
                prec = durMag >= 2 ? 1 : durMag == 1 ? 3 : 6;
                borderlen = 30 + durMag + (prec == 0 ? 0 : prec + 1);
            } else {
                prec = precision;
                borderlen = 25 + Math.max(invlMag, durMag) + (prec == 0 ? 0 : prec + 1);
            }
            long dv = 1_000_000L;
            for (int i = 0; i < prec; i++) dv /= 10;
            // tshark rounds the duration to the interval's decimals when it is over the half; the rows end there.
            if (duration % dv > 5 * (dv / 10)) {
                duration = (duration + 5 * (dv / 10)) / dv * dv;
                durMag = magnitude(duration / 1_000_000L, 5);
            }
            if (whole) interval = duration;
            int invlColW = Math.max(12, prec == 0 ? 2 * durMag + 8 : 2 * durMag + 2 * prec + 10);
            boolean absolute = !timeMode.equals("r"), dated = timeMode.length() > 1;
            // tshark widens the column for a date, never for a time alone (its rows of hh:mm:ss then stay narrower
            // than the header; so do these).
            if (dated) invlColW = Math.max(invlColW, 23);

            // Each column's widths: the largest value of any interval decides, as in tshark.
            int[] fr = new int[cols], val = new int[cols];
            int tabrow = invlColW;
            for (int j = 0; j < cols; j++) {
                Column c = columns.get(j);
                long maxFrames = 0, maxVal = 0;
                for (long[] cell : cells.get(j).values()) {
                    maxFrames = Math.max(maxFrames, cell[N]);
                    long v = switch (c.type()) {
                        case MIN -> cell[FIRST_HAS] == 1 ? cell[FIRST_MIN] : 0;
                        case AVG -> cell[RUN_MAX];
                        default -> cell[V];
                    };
                    if (Long.compareUnsigned(v, maxVal) > 0) maxVal = v;
                }
                switch (c.type()) {
                    case FRAMES_AND_BYTES -> {
                        fr[j] = Math.max(6, magnitude(maxFrames, 15));
                        val[j] = Math.max(5, magnitude(maxVal, 15));
                        tabrow += fr[j] + 3 + val[j] + 3;
                        continue;
                    }
                    case FRAMES -> {
                        fr[j] = Math.max(6, magnitude(maxFrames, 15));
                        tabrow += fr[j] + 3;
                        continue;
                    }
                    case BYTES, COUNT -> val[j] = Math.max(5, magnitude(maxVal, 15));
                    default -> {
                        if (time(c)) {
                            if (c.type() != AVG) maxVal = (maxVal + 500_000_000L) / 1_000_000_000L;
                            fr[j] = magnitude(maxVal, 15); // the whole seconds' width
                            val[j] = fr[j] + 7;
                        } else {
                            val[j] = Math.max(FUNCTIONS.get(c.type()).length(), magnitude(maxVal, 15));
                        }
                    }
                }
                tabrow += val[j] + 3;
            }
            borderlen = Math.max(borderlen, tabrow);
            int maxFilter = 0;
            for (Column c : columns) maxFilter = Math.max(maxFilter, c.text() == null ? 26 : c.text().length() + 11);
            if (maxFilter > borderlen && borderlen < 102) borderlen = Math.min(maxFilter, 102);
            if (borderlen - tabrow == 1) borderlen++; // no double right border

            StringBuilder b = new StringBuilder("\n");
            b.append("=".repeat(borderlen)).append('\n');
            b.append('|').append(String.format(java.util.Locale.ROOT, "%-" + (borderlen - 2) + "s", " IO Statistics")).append("|\n");
            b.append('|').append(" ".repeat(borderlen - 2)).append("|\n");
            int durPrec = prec == 0 ? 6 : prec;
            long unit = 1;
            for (int i = durPrec; i < 9; i++) unit *= 10;
            long rounded = (elapsed + unit / 2) / unit * unit;
            int durW = magnitude(elapsed / 1_000_000_000L, 5) + (prec == 0 ? 0 : prec + 1);
            b.append(close("| Duration: " + pad(durW, seconds(rounded, durPrec)) + " secs", borderlen)).append('\n');
            b.append(close("| Interval: " + pad(durW, seconds(interval * 1000, prec)) + " secs", borderlen)).append('\n');
            b.append('|').append(" ".repeat(borderlen - 2)).append("|\n");
            for (int j = 0; j < cols; j++) {
                StringBuilder line = new StringBuilder(j == 0 ? "| Col" : "|    ").append(String.format(java.util.Locale.ROOT, "%2d: ", j + 1));
                String text = columns.get(j).text();
                if (text == null) {
                    line.append("Frames and bytes");
                } else {
                    // A filter wider than the table wraps at its last space that fits (or where it must).
                    int maxW = borderlen - 11;
                    while (text.length() > maxW) {
                        int space = text.lastIndexOf(' ', maxW - 1);
                        int len = space >= 0 ? space : maxW;
                        line.append(text, 0, len);
                        b.append(close(line.toString(), borderlen)).append('\n');
                        line = new StringBuilder("|         ");
                        text = text.substring(space >= 0 ? len + 1 : len);
                    }
                    line.append(text);
                }
                b.append(close(line.toString(), borderlen)).append('\n');
            }
            b.append("|-").append("-".repeat(borderlen - 3)).append("|\n");

            String filler = tabrow < borderlen ? pad(borderlen - tabrow, "|") : "";
            b.append('|').append(pad(invlColW - 1, "|"));
            for (int j = 0; j < cols; j++) {
                int type = columns.get(j).type();
                int padding = type == FRAMES_AND_BYTES ? fr[j] + val[j] + 3 : type == FRAMES ? fr[j] : val[j];
                b.append(String.format(java.util.Locale.ROOT, "%-2d", j + 1)).append(" ".repeat(padding)).append('|');
            }
            b.append(filler).append('\n');
            String label = !absolute ? "| Interval" : dated ? "| Date and time" : "| Time";
            b.append(label).append(pad(invlColW - label.length(), "|"));
            for (int j = 0; j < cols; j++) {
                Column c = columns.get(j);
                if (c.type() == FRAMES_AND_BYTES) b.append(center("Frames", fr[j])).append(center("Bytes", val[j]));
                else if (c.type() == FRAMES) b.append(center("FRAMES", fr[j]));
                else b.append(center(FUNCTIONS.get(c.type()), val[j]));
            }
            b.append(filler).append("\n|-").append("-".repeat(tabrow - 3)).append('|').append(filler).append('\n');
            out.str(b.toString());

            long lastBucket = -1;
            for (Map<Long, long[]> m : cells) for (long k : m.keySet()) lastBucket = Math.max(lastBucket, k);
            String bound = "%" + durMag + "d" + (prec == 0 ? "" : ".%0" + prec + "d");
            for (long i = 0; ; i++) {
                long t = i * interval;
                // tshark's rows end at the rounded duration; a frame exactly there (or a capture of one instant) still
                // gets its row here, where tshark leaves it out.
                if (!(t < duration || i <= lastBucket) || (interval == 0 && i > 0)) break;
                long end = t + interval;
                boolean lastRow = end >= duration;
                if (lastRow) end = Math.max(duration, t);
                StringBuilder row = new StringBuilder();
                if (absolute) {
                    row.append("| ").append(absoluteTime(i * interval)).append(" |");
                } else if (prec == 0) {
                    if (lastRow) {
                        row.append("| ").append(durMag == 1 ? " " : "").append(String.format(java.util.Locale.ROOT, bound, t / 1_000_000L))
                                .append(" <> ").append(String.format(java.util.Locale.ROOT, "%-" + (durMag >= 3 ? durMag + 1 : 3) + "s|", "Dur"));
                    } else {
                        String sp = durMag == 1 ? "  " : " ";
                        row.append('|').append(sp).append(String.format(java.util.Locale.ROOT, bound, t / 1_000_000L)).append(" <> ")
                                .append(String.format(java.util.Locale.ROOT, bound, end / 1_000_000L)).append(sp).append('|');
                    }
                } else {
                    row.append("| ").append(String.format(java.util.Locale.ROOT, bound, t / 1_000_000L, t % 1_000_000L / dv)).append(" <> ")
                            .append(String.format(java.util.Locale.ROOT, bound, end / 1_000_000L, end % 1_000_000L / dv)).append(" |");
                }
                for (int j = 0; j < cols; j++) {
                    Column c = columns.get(j);
                    long[] cell = cells.get(j).get(interval == 0 ? 0 : i);
                    long frames = cell == null ? 0 : cell[N], v = cell == null ? 0 : value(c, cell);
                    switch (c.type()) {
                        case FRAMES_AND_BYTES -> row.append(' ').append(pad(fr[j], Long.toString(frames))).append(" | ")
                                .append(pad(val[j], Long.toUnsignedString(v))).append(" |");
                        case FRAMES -> row.append(' ').append(pad(fr[j], Long.toString(frames))).append(" |");
                        default -> {
                            if (time(c)) {
                                long us = (v + 500) / 1000;
                                row.append(' ').append(pad(fr[j], Long.toString(us / 1_000_000L))).append('.')
                                        .append(String.format(java.util.Locale.ROOT, "%06d", us % 1_000_000L)).append(" |");
                            } else {
                                row.append(' ').append(pad(val[j], Long.toUnsignedString(v))).append(" |");
                            }
                        }
                    }
                }
                if (tabrow < borderlen) row.append(pad(borderlen - tabrow, "|"));
                out.str(row.append('\n').toString());
            }
            out.ascii("=".repeat(borderlen)).ch('\n');
        }

        /**
         * The row of an interval that starts sinceFirstUs after the first frame, as tshark's io,stat writes it under
         * an absolute -t: the first frame's whole second plus the offset, cut to the second (tshark adds the offset
         * to the truncated second, so 43.9 s + 2.5 s is 45, not 46); local time for a and adoy, UTC for u, ud, udoy.
         */
        private String absoluteTime(long sinceFirstUs) {
            long sec = Math.floorDiv(firstNumber == Long.MAX_VALUE ? 0 : firstEpochNs, 1_000_000_000L) + sinceFirstUs / 1_000_000L;
            java.time.ZoneId zone = timeMode.startsWith("u") ? java.time.ZoneOffset.UTC : java.time.ZoneId.systemDefault();
            java.time.LocalDateTime t = java.time.LocalDateTime.ofInstant(java.time.Instant.ofEpochSecond(sec), zone);
            String hms = String.format(java.util.Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
            if (timeMode.endsWith("doy")) {
                return String.format(java.util.Locale.ROOT, "%04d/%03d %s", t.getYear(), t.getDayOfYear(), hms);
            }
            if (timeMode.endsWith("d")) {
                return String.format(java.util.Locale.ROOT, "%04d-%02d-%02d %s", t.getYear(), t.getMonthValue(), t.getDayOfMonth(), hms);
            }
            return hms;
        }

        /** ns as seconds with the given decimals (cut, as tshark's display_signed_time). */
        private static String seconds(long ns, int decimals) {
            long unit = 1;
            for (int i = decimals; i < 9; i++) unit *= 10;
            String frac = decimals == 0 ? "" : "." + String.format(java.util.Locale.ROOT, "%0" + decimals + "d", ns % 1_000_000_000L / unit);
            return ns / 1_000_000_000L + frac;
        }
    }
}
