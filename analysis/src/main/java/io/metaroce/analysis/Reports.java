package io.metaroce.analysis;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders an {@link AnalysisResult}: the JSON object of {@code metaroce analyze -T json}
 * ({@code {"capture": {...}, "flows": [...], "events": [...]}}) and the tshark-style text tables of
 * {@code -T text} (QP conversations, reliability, latency, expert summary, paths, capture integrity).
 */
public final class Reports {
    private Reports() {}

    /**
     * Collects events as serialized JSON lines: in memory up to a limit, then in a temporary file, so a capture
     * with millions of events does not hold millions of objects.
     */
    public static final class EventBuffer implements AnalysisEngine.EventListener, AutoCloseable {
        private static final int MEMORY_LIMIT = 16 << 20;
        private final StringBuilder mem = new StringBuilder();
        private final boolean keep;

        /** Keeps the events (for the JSON report). */
        public EventBuffer() { this(true); }

        /** keep = false: only counts them (the text report needs no more). */
        public EventBuffer(boolean keep) { this.keep = keep; }
        private Path spill;
        private BufferedWriter spillOut;
        private long count;
        private final long[] byType = new long[EventType.values().length];

        @Override
        public void event(AnalysisEvent e) {
            count++;
            byType[e.type().ordinal()]++;
            if (!keep) return;
            try {
                if (spillOut == null && mem.length() > MEMORY_LIMIT) {
                    spill = Files.createTempFile("metaroce-events", ".jsonl");
                    spill.toFile().deleteOnExit();
                    spillOut = Files.newBufferedWriter(spill, StandardCharsets.UTF_8);
                }
                if (spillOut != null) {
                    spillOut.write(e.toJson());
                    spillOut.write('\n');
                } else {
                    mem.append(e.toJson()).append('\n');
                }
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
        }

        public long count() { return count; }

        public long count(EventType t) { return byType[t.ordinal()]; }

        /** Writes the events as the elements of a JSON array body (comma separated, one per line). */
        void writeArrayBody(Appendable out, String indent) throws IOException {
            boolean[] first = {true};
            forEachLine(line -> {
                try {
                    if (!first[0]) out.append(",\n");
                    first[0] = false;
                    out.append(indent).append(line);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
        }

        /** Every event line, in order. */
        public void forEachLine(java.util.function.Consumer<String> c) throws IOException {
            int s = 0;
            for (int i = 0; i < mem.length(); i++) {
                if (mem.charAt(i) == '\n') {
                    c.accept(mem.substring(s, i));
                    s = i + 1;
                }
            }
            if (spillOut != null) {
                spillOut.flush();
                try (Reader r = Files.newBufferedReader(spill, StandardCharsets.UTF_8);
                     java.io.BufferedReader br = new java.io.BufferedReader(r)) {
                    String line;
                    while ((line = br.readLine()) != null) c.accept(line);
                }
            }
        }

        @Override
        public void close() {
            try {
                if (spillOut != null) spillOut.close();
                if (spill != null) Files.deleteIfExists(spill);
            } catch (IOException ignored) {
                // best effort
            }
        }
    }

    /** {@code {"capture": ..., "flows": [...], "events": [...]}}; events may be null (then an empty array). */
    public static void json(AnalysisResult r, EventBuffer events, Appendable out, boolean pretty) throws IOException {
        json(r, events, Map.of(), out, pretty);
    }

    /** As {@link #json(AnalysisResult, EventBuffer, Appendable, boolean)}, with more top-level members after events. */
    public static void json(AnalysisResult r, EventBuffer events, Map<String, Object> more, Appendable out, boolean pretty)
            throws IOException {
        json(r, events, more, Map.of(), out, pretty);
    }

    /**
     * As {@link #json(AnalysisResult, EventBuffer, Map, Appendable, boolean)}, each flow with {@code src_name} and
     * {@code dst_name} after its addresses where hostNames (address text to name: analyze -H) knows them.
     */
    public static void json(AnalysisResult r, EventBuffer events, Map<String, Object> more, Map<String, String> hostNames,
                            Appendable out, boolean pretty) throws IOException {
        out.append('{');
        out.append(pretty ? "\n  \"capture\": " : "\"capture\":");
        JsonOut j = new JsonOut(out, false);
        j.value(r.capture());
        out.append(pretty ? ",\n  \"flows\": [" : ",\"flows\":[");
        boolean first = true;
        for (FlowSummary f : r.flows()) {
            if (!first) out.append(',');
            first = false;
            if (pretty) out.append("\n    ");
            new JsonOut(out, false).value(hostNames.isEmpty() ? f.toJsonMap() : withNames(f, hostNames));
        }
        if (pretty && !r.flows().isEmpty()) out.append("\n  ");
        out.append(pretty ? "],\n  \"events\": [" : "],\"events\":[");
        if (events != null && events.count() > 0) {
            if (pretty) out.append('\n');
            events.writeArrayBody(out, pretty ? "    " : "");
            if (pretty) out.append("\n  ");
        }
        out.append(']');
        // Only when the capture held PAUSE/PFC frames: every other report stays as it was.
        if (r.flowControl() != null) {
            out.append(pretty ? ",\n  \"flow_control\": " : ",\"flow_control\":");
            new JsonOut(out, false).value(r.flowControl());
        }
        for (Map.Entry<String, Object> m : more.entrySet()) {
            out.append(pretty ? ",\n  " : ",");
            new JsonOut(out, false).value(m.getKey());
            out.append(pretty ? ": " : ":");
            new JsonOut(out, false).value(m.getValue());
        }
        out.append(pretty ? "\n}\n" : "}\n");
    }

    // ------------------------------------------------------------------ text

    /**
     * What the note on evicted flows says of the bound: nothing at the settings' bound (the note as it always was), its
     * size and how to raise it where the heap lowered it ({@link FlowBudget}).
     */
    public static String boundClause(Map<String, Object> cap) {
        if (!(cap.get("flow_bound_heap_mib") instanceof Number mib)) return "";
        long g = Math.max(2, 2 * ((mib.longValue() + 1023) / 1024));
        return ", " + str(cap.get("flow_bound")) + " flows in a heap of " + mib + " MiB; METAROCE_JAVA_OPTS=-Xmx" + g + "g allows more";
    }

    /** The flow's JSON object with src_name and dst_name after dst, each only when the address has a name. */
    private static Map<String, Object> withNames(FlowSummary f, Map<String, String> hostNames) {
        Map<String, Object> m = f.toJsonMap();
        String src = hostNames.get(f.src()), dst = hostNames.get(f.dst());
        if (src == null && dst == null) return m;
        Map<String, Object> named = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, Object> e : m.entrySet()) {
            named.put(e.getKey(), e.getValue());
            if (e.getKey().equals("dst")) {
                if (src != null) named.put("src_name", src);
                if (dst != null) named.put("dst_name", dst);
            }
        }
        return named;
    }

    /** The flow's hosts by name ("gpu-node-01>gpu-node-02"), an address standing for a host with no name. */
    private static String hosts(FlowSummary f, Map<String, String> hostNames) {
        return hostNames.getOrDefault(f.src(), f.src()) + ">" + hostNames.getOrDefault(f.dst(), f.dst());
    }

    public static void text(AnalysisResult r, EventBuffer events, Appendable out) throws IOException {
        text(r, events, Map.of(), out);
    }

    /** As {@link #text(AnalysisResult, EventBuffer, Appendable)}, the QP Conversations with a Hosts column when hostNames (analyze -H) has names. */
    public static void text(AnalysisResult r, EventBuffer events, Map<String, String> hostNames, Appendable out) throws IOException {
        Map<String, Object> cap = r.capture();
        String rule = RULE;
        @SuppressWarnings("unchecked")
        Map<String, Object> tap = (Map<String, Object>) cap.get("tap");
        out.append(rule).append("QP Conversations\n");
        out.append("Capture: ").append(str(cap.get("file"))).append("   tap: ").append(str(tap.get("resolved")));
        if (tap.get("how") != null) out.append(" (").append(str(tap.get("how"))).append(')');
        out.append("\nView: S = at the flow's sender, R = at its receiver, M = mid-path (mirror)\n");
        if (cap.get("evicted_flows") != null) {
            out.append("Note: ").append(str(cap.get("evicted_flows"))).append(" of ").append(str(cap.get("flows")))
                    .append(" flows were evicted (more QPs than the flow bound").append(boundClause(cap))
                    .append("): they count in the capture totals, not in these tables\n");
        }
        boolean named = !hostNames.isEmpty();
        table(out, named ? new String[] {"Flow", "Peer", "Transport", "Svc", "V", "Frames", "Bytes", "Data", "Msgs", "Done",
                "Duration(s)", "Goodput", "Hosts"} : new String[] {"Flow", "Peer", "Transport", "Svc", "V", "Frames", "Bytes", "Data", "Msgs", "Done",
                "Duration(s)", "Goodput"}, r.flows(), f -> named ? new Object[] {f.id(), f.peer() == null ? "-" : f.peer(),
                f.transport(), f.service(), f.view().letter(), f.counters().packets(), f.counters().bytes(),
                f.counters().dataPackets(), f.counters().messages(), f.counters().messagesCompleted(),
                seconds(f.counters().lastNs() - f.counters().firstNs()), rate(f.goodputBps()), hosts(f, hostNames)}
                : new Object[] {f.id(), f.peer() == null ? "-" : f.peer(),
                f.transport(), f.service(), f.view().letter(), f.counters().packets(), f.counters().bytes(),
                f.counters().dataPackets(), f.counters().messages(), f.counters().messagesCompleted(),
                seconds(f.counters().lastNs() - f.counters().firstNs()), rate(f.goodputBps())});

        out.append(rule).append("Reliability (retransmissions by cause; losses: capture vs network)\n");
        table(out, new String[] {"Flow", "Retx", "nak", "nack", "sack", "tmo", "rnr", "Spur", "OOO", "Dup", "Gaps",
                "CapLoss", "NetLoss", "ACK", "NAK", "RNR", "SACK", "NACK", "CNP", "CE", "CE-noCNP", "Stall"}, r.flows(), f -> {
                    FlowSummary.Counters c = f.counters();
                    FlowSummary.ByCause b = c.retransmissionsByCause();
                    return new Object[] {f.id(), c.retransmittedPackets(), b.nak(), b.nack(), b.sack(), b.timeout(), b.rnr(),
                            c.spuriousRetransmissions(), c.outOfOrder(), c.duplicates(), c.psnGaps(), c.captureGaps(),
                            c.networkLosses(), c.acks(), c.naks(), c.rnrNaks(), c.sacks(), c.nacks(), c.cnps(), c.ceMarks(),
                            c.ceWithoutCnp() == null ? "-" : c.ceWithoutCnp(), c.creditStalls()};
                });

        out.append(rule).append("Latency (us): min / median / p99 / max (count)\n");
        table(out, new String[] {"Flow", "ACK RTT", "Msg completion", "NAK generation", "NAK response", "Retx latency"},
                r.flows(), f -> {
                    FlowSummary.Latencies l = f.latency();
                    return new Object[] {f.id(), lat(l.ackRtt()), lat(l.messageCompletion()), lat(l.nakGeneration()),
                            lat(l.nakResponse()), lat(l.retransmission())};
                });

        out.append(rule).append("Expert Info summary\n");
        List<Object[]> ex = expert(r, events);
        StringBuilder eb = new StringBuilder();
        eb.append(String.format(Locale.ROOT, "%-9s %-10s %8s  %s%n", "Severity", "Group", "Count", "Summary"));
        for (Object[] e : ex) eb.append(String.format(Locale.ROOT, "%-9s %-10s %8d  %s%n", e));
        if (ex.isEmpty()) eb.append("(nothing notable)\n");
        out.append(eb);

        List<Object[]> pathRows = new ArrayList<>();
        for (FlowSummary f : r.flows()) {
            if (f.metaRoce() == null) continue;
            for (FlowSummary.PathSummary p : f.metaRoce().paths().values()) {
                pathRows.add(new Object[] {f.id(), Integer.toString(p.id()), f.view().letter(), p.packets(), p.firstSends(),
                        p.retransmissionsOn(), p.retransmittedFrom() != null ? p.retransmittedFrom()
                                : p.lostInferred() != null && p.lostInferred() > 0 ? "~" + p.lostInferred() : "-",
                        p.lossRate() == null ? "-" : pct(p.lossRate()), p.ceMarks(), p.mrCnps(), lat(p.rtt()), p.probes(),
                        p.probeLoss() == null ? "-" : pct(p.probeLoss()), p.down() ? "DOWN (" + p.downReason() + ")" : "up"});
            }
        }
        if (!pathRows.isEmpty()) {
            out.append(rule).append("MetaRoCE paths (losses exact at the sender's tap; ~N: inferred from the spraying order elsewhere)\n");
            rows(out, new String[] {"Flow", "Path", "V", "Packets", "First", "RetxOn", "Lost", "Loss", "CE", "MR-CNP",
                    "RTT us min/med/p99/max", "Probes", "ProbeLoss", "State"}, pathRows);
        }

        if (r.flowControl() != null) flowControl(out, rule, r.flowControl(), num(cap.get("first_ns")));

        out.append(rule).append("Capture integrity\n");
        Object problems = cap.get("capture_problems");
        if (problems instanceof java.util.List<?> l) {
            for (Object p : l) out.append("Damaged capture (frames before the damage were analyzed): ").append(String.valueOf(p)).append("\n");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> drops = (Map<String, Object>) cap.get("capture_drops");
        @SuppressWarnings("unchecked")
        Map<String, Object> samp = (Map<String, Object>) cap.get("sampling");
        out.append(String.format(Locale.ROOT, "Frames: %s (RoCE %s), bytes %s, duration %s s%n", cap.get("frames"),
                cap.get("roce_frames"), cap.get("bytes"), seconds(num(cap.get("duration_ns")))));
        out.append(String.format(Locale.ROOT, "Capture drops reported by the file: if_drop %s, os_drop %s%n",
                drops.get("if_dropped") == null ? "unknown" : drops.get("if_dropped"),
                drops.get("os_dropped") == null ? "unknown" : drops.get("os_dropped")));
        out.append(String.format(Locale.ROOT, "PSNs missing from the capture only (capture loss): %s; lost in the network: %s%n",
                cap.get("capture_gaps"), cap.get("network_losses")));
        out.append(String.format(Locale.ROOT, "Truncated frames: %s; frames not judged (bad ICRC, malformed): %s; capture duplicates: %s%n",
                cap.get("truncated_frames"), cap.get("unjudged_frames"), cap.get("duplicates")));
        out.append("Sampling: ").append(Boolean.TRUE.equals(samp.get("suspected"))
                ? "suspected, about 1 in " + samp.get("estimated_one_in") + " frames kept (" + samp.get("unexplained_missing_psns")
                + " PSNs missing that no NAK, SACK or retransmission accounts for)"
                : "no sign").append('\n');
        out.append(rule);
    }

    /** The "Flow control" section: PAUSE/PFC frames per sender and class (times from the capture's first frame). */
    private static void flowControl(Appendable out, String rule, Map<String, Object> fc, long firstNs) throws IOException {
        boolean speed = fc.get("quantum_ns") != null;
        out.append(rule).append("Flow control (PAUSE/PFC per sender and priority class; XOFF: pause time > 0, XON: 0; ")
                .append(speed ? String.format(Locale.ROOT, "a quantum of 512 bit times at %s Gb/s is %s ns)%n",
                        gbps(fc.get("link_speed_gbps")), fc.get("quantum_ns"))
                        : String.format(Locale.ROOT, "pause times in quanta of 512 bit times; --link-speed GBPS gives them in time, and the longest paused runs)%n"));
        boolean atLeast = Boolean.TRUE.equals(fc.get("paused_lower_bound"));
        // Without the speed a quantum's length is unknown: timed at 400 Gb/s, where it is shortest, the shares can only
        // be below the truth, and say so.
        out.append(atLeast ? String.format(Locale.ROOT, "Paused: share of the capture and of the class's span (first frame to its last pause's end), at least: timed at 400 Gb/s, the shortest quantum%n")
                : String.format(Locale.ROOT, "Paused: share of the capture and of the class's span (first frame to its last pause's end)%n"));
        List<Object[]> rows = new ArrayList<>();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> classes = (List<Map<String, Object>>) fc.get("classes");
        for (Map<String, Object> c : classes) {
            Object longest = c.get("longest_run_ns");
            List<Object> row = new ArrayList<>(List.of(str(c.get("source")), str(c.get("class")), c.get("frames"), c.get("xoff"),
                    c.get("xon"), c.get("quanta")));
            if (speed) row.add(String.format(Locale.ROOT, "%.3f", num(c.get("quanta_ns")) / 1e3));
            row.add(seconds(num(c.get("first_ns")) - firstNs));
            row.add(seconds(num(c.get("last_ns")) - firstNs));
            if (speed) row.add(longest == null ? "-" : String.format(Locale.ROOT, "%.3f", num(longest) / 1e3));
            row.add(percent(c.get("paused_share"), atLeast));
            row.add(percent(c.get("paused_share_of_span"), atLeast));
            rows.add(row.toArray());
        }
        List<String> head = new ArrayList<>(List.of("Source", "Class", "Frames", "XOFF", "XON", "Quanta"));
        if (speed) head.add("Quanta(us)");
        head.addAll(List.of("First(s)", "Last(s)"));
        if (speed) head.add("Longest paused run(us)");
        head.addAll(List.of("Paused(%)", "Of span(%)"));
        rows(out, head.toArray(String[]::new), rows);
    }

    /** A paused share as a percentage, "-" when there is no duration to share, ">=" when a lower bound. */
    private static String percent(Object share, boolean atLeast) {
        return share == null ? "-" : (atLeast ? ">=" : "") + String.format(Locale.ROOT, "%.2f", ((Number) share).doubleValue() * 100);
    }

    private static List<Object[]> expert(AnalysisResult r, EventBuffer ev) {
        List<Object[]> rows = new ArrayList<>();
        long retx = r.total("retransmitted_packets"), spur = r.total("spurious_retransmissions");
        long[] byCause = new long[Cause.values().length];
        long downs = 0;
        for (FlowSummary f : r.flows()) {
            for (Cause k : Cause.values()) byCause[k.ordinal()] += f.counters().retransmissionsByCause().of(k);
            if (f.metaRoce() != null) for (FlowSummary.PathSummary p : f.metaRoce().paths().values()) if (p.down()) downs++;
        }
        add(rows, "Error", "Sequence", downs, "Path down (unanswered probes or loss far above the other paths)");
        add(rows, "Warning", "Sequence", r.total("naks"), "NAK (PSN sequence error or fatal code)");
        add(rows, "Warning", "Sequence", r.total("nacks"), "MR-NACK");
        add(rows, "Warning", "Sequence", r.total("rnr_naks"), "RNR NAK (receiver not ready)");
        add(rows, "Warning", "Sequence", r.total("psn_gaps"), "PSN gap (previous packet not captured)");
        add(rows, "Warning", "Sequence", r.total("capture_gaps"), "PSNs acknowledged or sent that the capture never showed (capture loss)");
        add(rows, "Warning", "Sequence", r.total("out_of_order"), "Out-of-order packet (arrived before a lower PSN)");
        add(rows, "Warning", "Sequence", r.total("credit_stalls"), "Credit stall");
        StringBuilder c = new StringBuilder("Retransmission:");
        for (Cause k : Cause.values()) if (byCause[k.ordinal()] > 0) c.append(' ').append(k.label()).append(' ').append(byCause[k.ordinal()]);
        add(rows, "Note", "Sequence", retx, c.toString());
        add(rows, "Note", "Sequence", spur, "Spurious retransmission (the receiver already had the PSN)");
        add(rows, "Note", "Sequence", r.total("duplicates"), "Capture duplicate (identical frame within 1 ms)");
        add(rows, "Note", "Congestion", r.total("ce_marks"), "ECN CE-marked data packet");
        add(rows, "Note", "Congestion", r.total("ce_without_cnp"), "CE mark without CNP within the reaction window");
        add(rows, "Chat", "Congestion", r.total("cnps"), "CNP / MR-CNP");
        if (ev != null) add(rows, "Chat", "Analysis", ev.count(), "Events in total");
        return rows;
    }

    private static void add(List<Object[]> rows, String sev, String group, long n, String text) {
        if (n > 0) rows.add(new Object[] {sev, group, n, text});
    }

    private interface RowFn {
        Object[] row(FlowSummary f);
    }

    private static void table(Appendable out, String[] head, List<FlowSummary> flows, RowFn fn) throws IOException {
        List<Object[]> rows = new ArrayList<>();
        for (FlowSummary f : flows) rows.add(fn.row(f));
        rows(out, head, rows);
    }

    static void rows(Appendable out, String[] head, List<Object[]> rows) throws IOException {
        int[] w = new int[head.length];
        for (int i = 0; i < head.length; i++) w[i] = head[i].length();
        for (Object[] r : rows) for (int i = 0; i < r.length; i++) w[i] = Math.max(w[i], str(r[i]).length());
        StringBuilder b = new StringBuilder();
        line(b, head, w);
        for (Object[] r : rows) line(b, r, w);
        if (rows.isEmpty()) b.append("(none)\n");
        out.append(b);
    }

    private static void line(StringBuilder b, Object[] cells, int[] w) {
        for (int i = 0; i < cells.length; i++) {
            String s = str(cells[i]);
            boolean left = i == 0 || !(cells[i] instanceof Number);
            if (i > 0) b.append("  ");
            if (left) b.append(s).append(" ".repeat(i == cells.length - 1 ? 0 : w[i] - s.length()));
            else b.append(" ".repeat(w[i] - s.length())).append(s);
        }
        b.append('\n');
    }

    private static String str(Object o) { return o == null ? "-" : o.toString(); }

    /** 100 for 100.0, 2.5 as it is. */
    private static String gbps(Object o) {
        double v = ((Number) o).doubleValue();
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static long num(Object o) { return o instanceof Number n ? n.longValue() : 0; }

    /** The line above each section of the text report (and below the last); the loss timeline's too. */
    static final String RULE = "=".repeat(100) + "\n";

    /** Seconds with six decimals, as the text report prints times (the loss timeline too). */
    static String seconds(long ns) { return String.format(Locale.ROOT, "%.6f", ns / 1e9); }

    private static String pct(Object o) { return String.format(Locale.ROOT, "%.2f%%", ((Number) o).doubleValue() * 100); }

    private static String rate(Object bps) {
        if (!(bps instanceof Number n)) return "-";
        double v = n.doubleValue();
        if (v >= 1e9) return String.format(Locale.ROOT, "%.2f Gb/s", v / 1e9);
        if (v >= 1e6) return String.format(Locale.ROOT, "%.2f Mb/s", v / 1e6);
        if (v >= 1e3) return String.format(Locale.ROOT, "%.2f kb/s", v / 1e3);
        return String.format(Locale.ROOT, "%.0f b/s", v);
    }

    private static String lat(FlowSummary.LatencySummary l) {
        if (l == null) return "-";
        return String.format(Locale.ROOT, "%s/%s/%s/%s (%s)", us(l.min()), us(l.median()), us(l.p99()), us(l.max()), l.count());
    }

    private static String us(Object ns) {
        double v = num(ns) / 1000.0;
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
