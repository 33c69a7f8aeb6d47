package io.metaroce.validate;

import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The self-contained HTML report ({@code --report FILE.html}): inline CSS, SVG and a little JS, nothing fetched.
 * Per capture: the verdict and the rules broken, the findings (filterable by severity), a PSN-versus-time picture
 * of each QP that matters (findings first) with retransmissions, NAKs, CNPs, CE marks and findings marked, and
 * for MetaRoCE flows the per-path packets, losses and CE marks.
 */
public final class HtmlReport {
    static final int MAX_CHARTS = 12, MAX_FINDINGS = 400;

    private HtmlReport() {}

    public static void write(List<FileResult> results, ValidateSettings settings, Severity failOn, Path file) throws IOException {
        Files.writeString(file, render(results, settings, failOn), StandardCharsets.UTF_8);
    }

    static String render(List<FileResult> results, ValidateSettings settings, Severity failOn) {
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>MetaRoCE conformance report</title>")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>").append(CSS).append("</style></head><body>");
        int fail = 0, warn = 0, pass = 0, bad = 0;
        for (FileResult r : results) {
            if (r.error != null) bad++;
            else if (r.count(Severity.ERROR) > 0) fail++;
            else if (r.count(Severity.WARN) > 0) warn++;
            else pass++;
        }
        boolean failing = false;
        for (FileResult r : results) failing |= r.error != null || r.fails(failOn);
        h.append("<header class=\"").append(failing ? "hfail" : "hpass").append("\"><h1>MetaRoCE conformance: ")
                .append(failing ? "FAILED" : "PASSED").append("</h1><p>").append(results.size()).append(" capture")
                .append(results.size() == 1 ? "" : "s").append(" &middot; <b>").append(fail).append("</b> with errors &middot; <b>")
                .append(warn).append("</b> with warnings only &middot; <b>").append(pass).append("</b> clean")
                .append(bad > 0 ? " &middot; <b>" + bad + "</b> unreadable" : "").append(" &middot; fail on: ")
                .append(failOn == null ? "never" : failOn.label()).append(" &middot; spec ").append(esc(Spec.VERSION))
                .append("</p></header><main>");
        // Summary table.
        h.append("<section><h2>Summary</h2><table class=\"sum\"><tr><th>capture</th><th>verdict</th><th>frames</th><th>errors</th>")
                .append("<th>warnings</th><th>notes</th><th>rules broken (first frame)</th><th>tap</th></tr>");
        int fi = 0;
        for (FileResult r : results) {
            h.append("<tr><td><a href=\"#f").append(fi).append("\">").append(esc(r.path.toString())).append("</a></td>");
            if (r.error != null) {
                h.append("<td><span class=\"badge error\">UNREADABLE</span></td><td colspan=\"6\">").append(esc(r.error)).append("</td></tr>");
                fi++;
                continue;
            }
            String v = r.count(Severity.ERROR) > 0 ? "error" : r.count(Severity.WARN) > 0 ? "warn" : "pass";
            h.append("<td><span class=\"badge ").append(v).append("\">").append(v.equals("error") ? "FAIL" : v.equals("warn") ? "WARN" : "PASS")
                    .append("</span></td><td>").append(r.frames).append("</td><td>").append(r.count(Severity.ERROR)).append("</td><td>")
                    .append(r.count(Severity.WARN)).append("</td><td>").append(r.count(Severity.NOTE)).append("</td><td>");
            for (RuleDef rule : r.rulesBroken()) {
                Severity w = r.worst(rule.id());
                if (w == Severity.NOTE) continue;
                Finding first = Reports.firstOf(r, rule.id());
                h.append("<span class=\"rule ").append(w.label()).append("\" title=\"").append(esc(rule.text())).append("\">")
                        .append(rule.id()).append(" (").append(first == null ? "-" : first.frame()).append(")</span> ");
            }
            h.append("</td><td>").append(esc(r.tapResolved)).append("</td></tr>");
            fi++;
        }
        h.append("</table></section>");
        fi = 0;
        for (FileResult r : results) file(h, r, fi++);
        h.append("<section><h2>Settings</h2><pre>").append(esc(settings.describe().toString())).append("</pre></section>");
        h.append("</main><footer>").append(Reports.TOOL).append(' ').append(Reports.VERSION)
                .append(" &middot; self-contained report: no network needed</footer><script>").append(JS).append("</script></body></html>\n");
        return h.toString();
    }

    private static void file(StringBuilder h, FileResult r, int fi) {
        h.append("<section id=\"f").append(fi).append("\"><h2>").append(esc(r.path.toString())).append("</h2>");
        if (r.error != null) {
            h.append("<p class=\"err\">").append(esc(r.error)).append("</p></section>");
            return;
        }
        h.append("<p class=\"meta\">").append(r.frames).append(" frames (").append(r.roceFrames).append(" RoCE) over ")
                .append(String.format(Locale.ROOT, "%.1f", r.durationNs / 1000.0)).append(" &micro;s &middot; tap ")
                .append(esc(r.tapResolved)).append(" <span class=\"dim\">(").append(esc(r.tapHow)).append(")</span>");
        if (r.captureDrops > 0) h.append(" &middot; <b>capture reports ").append(r.captureDrops).append(" dropped packets</b>");
        if (r.truncated > 0) h.append(" &middot; ").append(r.truncated).append(" truncated frames");
        if (r.duplicates > 0) h.append(" &middot; ").append(r.duplicates).append(" capture duplicates");
        h.append("</p>");
        // Findings.
        h.append("<h3>Findings</h3>");
        long notes = r.count(Severity.NOTE);
        if (r.findings.isEmpty()) h.append("<p class=\"ok\">No finding: every judged rule holds.</p>");
        else {
            // Notes are hidden by default: say so, rather than show a table with only its header row.
            if (notes == r.findings.size()) h.append("<p class=\"ok\">No errors or warnings. ").append(notes).append(" note")
                    .append(notes == 1 ? "" : "s").append(" (tick <i>notes</i> to show ").append(notes == 1 ? "it" : "them").append(").</p>");
            h.append("<div class=\"filters\" data-t=\"t").append(fi).append("\">show: <label><input type=\"checkbox\" value=\"error\" checked> errors</label>")
                    .append("<label><input type=\"checkbox\" value=\"warn\" checked> warnings</label>")
                    .append("<label><input type=\"checkbox\" value=\"note\"> notes</label></div>");
            h.append("<table class=\"find\" id=\"t").append(fi).append("\"><tr><th>frame</th><th>rule</th><th>severity</th><th>flow</th><th>message</th></tr>");
            List<Finding> sorted = new ArrayList<>(r.findings);
            sorted.sort(Comparator.comparing(Finding::severity).reversed().thenComparing(Finding::frame));
            int n = 0;
            for (Finding f : sorted) {
                if (n++ >= MAX_FINDINGS) break;
                RuleDef rd = RuleCatalog.get(f.rule());
                h.append("<tr class=\"sev-").append(f.severity().label()).append("\"").append(f.severity() == Severity.NOTE ? " hidden" : "")
                        .append("><td").append(f.anchor() == null ? "" : " title=\"" + esc(anchorText(f.anchor())) + "\"").append(">")
                        .append(f.frame()).append("</td><td title=\"").append(esc(rd.text() + " (" + rd.section() + ")"))
                        .append("\">").append(f.rule()).append("</td><td><span class=\"badge ").append(f.severity().label()).append("\">")
                        .append(f.severity().label()).append("</span></td><td>");
                if (f.flow() != null) h.append("<a href=\"#").append(anchor(fi, chartFlow(r, f.flow()))).append("\">").append(esc(f.flow())).append("</a>");
                h.append("</td><td>").append(esc(f.message()));
                long[] fr = f.frames();
                if (fr.length > 1) {
                    h.append(" <span class=\"dim\">frames");
                    for (long x : fr) h.append(' ').append(x);
                    h.append("</span>");
                }
                h.append("</td></tr>");
            }
            h.append("</table>");
            if (sorted.size() > MAX_FINDINGS) h.append("<p class=\"dim\">").append(sorted.size() - MAX_FINDINGS).append(" more in the JSON output</p>");
        }
        charts(h, r, fi);
        paths(h, r);
        h.append("</section>");
    }

    /** The flow whose picture shows a finding: the flow itself if it carries requests, else its peer's. */
    private static String chartFlow(FileResult r, String flow) {
        for (FlowState f : r.flows) {
            if (!f.id.equals(flow)) continue;
            if ((f.plot == null || f.plot.n == 0) && f.peer != null && f.peer.plot != null && f.peer.plot.n > 0) return f.peer.id;
            return f.id;
        }
        return flow;
    }

    /** The bytes a finding points at, as a tooltip on its frame number: "bth.opcode, bytes 42-42". */
    private static String anchorText(Anchor a) {
        return (a.field() != null ? a.field() : a.header()) + ", byte" + (a.length() == 1 ? " " + a.offset()
                : "s " + a.offset() + "-" + (a.offset() + a.length() - 1)) + " of the frame";
    }

    private static String anchor(int fi, String flow) { return "q" + fi + "-" + Integer.toHexString(flow.hashCode()); }

    private static void charts(StringBuilder h, FileResult r, int fi) {
        Map<String, Severity> worst = new HashMap<>();
        Map<String, List<Finding>> byChart = new HashMap<>();
        for (Finding f : r.findings) {
            if (f.flow() == null) continue;
            String c = chartFlow(r, f.flow());
            worst.merge(c, f.severity(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
            byChart.computeIfAbsent(c, k -> new ArrayList<>()).add(f);
        }
        List<FlowState> cand = new ArrayList<>();
        for (FlowState f : r.flows) if (f.plot != null && f.plot.n > 0) cand.add(f);
        cand.sort(Comparator.<FlowState>comparingInt(f -> worst.containsKey(f.id) ? worst.get(f.id).ordinal() + 1 : 0).reversed()
                .thenComparing(Comparator.<FlowState>comparingLong(f -> f.plot.total).reversed()));
        if (cand.isEmpty()) return;
        h.append("<h3>QPs: PSN over time</h3><p class=\"legend\"><span class=\"lg pt\"></span> packet (new PSN or resent)")
                .append("<span class=\"lg rtx\"></span> retransmission<span class=\"lg sp\"></span> spurious")
                .append("<span class=\"lg nak\"></span> NAK / MR-NACK<span class=\"lg ce\"></span> CE mark<span class=\"lg cnp\"></span> CNP / MR-CNP")
                .append("<span class=\"lg ferr\"></span> error<span class=\"lg fwarn\"></span> warning<span class=\"lg fnote\"></span> note</p>");
        int shown = 0;
        for (FlowState f : cand) {
            // The first QPs (findings first) get a full picture; every other one a small one, in a grid below.
            boolean small = shown++ >= MAX_CHARTS;
            if (shown == MAX_CHARTS + 1) {
                h.append("<details class=\"more\" open><summary>").append(cand.size() - MAX_CHARTS)
                        .append(" more QPs, drawn small</summary><div class=\"qgrid\">");
            }
            List<Finding> fs = byChart.getOrDefault(f.id, List.of());
            Severity w = worst.get(f.id);
            if (small) {
                h.append("<div class=\"chart small\" id=\"").append(anchor(fi, f.id)).append("\"><h4>").append(esc(f.id))
                        .append(" <span class=\"dim\">").append(f.plot.total).append(" pkts</span>");
                if (w != null) h.append(" <span class=\"badge ").append(w.label()).append("\">").append(fs.size()).append("</span>");
                h.append("</h4>");
                svg(h, f, r.firstNs, true);
                h.append("</div>");
                continue;
            }
            h.append("<div class=\"chart\" id=\"").append(anchor(fi, f.id)).append("\"><h4>").append(esc(f.id));
            if (f.peer != null) h.append(" <span class=\"dim\">&harr; ").append(esc(f.peer.id)).append("</span>");
            h.append(" <span class=\"dim\">").append(f.tver == 1 ? "MetaRoCE" : "RoCEv2").append(", view ").append(f.view.label())
                    .append(", ").append(f.plot.total).append(" request packets</span>");
            if (w != null) h.append(" <span class=\"badge ").append(w.label()).append("\">").append(fs.size()).append(" finding")
                    .append(fs.size() == 1 ? "" : "s").append("</span>");
            h.append("</h4>");
            svg(h, f, r.firstNs, false);
            h.append("</div>");
        }
        if (cand.size() > MAX_CHARTS) h.append("</div></details>");
    }

    /** About 4 round tick values (1, 2 or 5 times a power of ten) covering [lo, hi]. */
    static long[] ticks(long lo, long hi) {
        long span = Math.max(1, hi - lo);
        long step = 1;
        while (span / step > 5) {
            long s = step;
            step = s * 2;
            if (span / step <= 5) break;
            step = s * 5;
            if (span / step <= 5) break;
            step = s * 10;
        }
        long first = Math.floorDiv(lo + step - 1, step) * step;
        List<Long> l = new ArrayList<>();
        for (long v = first; v <= hi; v += step) l.add(v);
        return l.stream().mapToLong(Long::longValue).toArray();
    }

    private static void svg(StringBuilder h, FlowState f, long t0, boolean small) {
        Plot p = f.plot;
        int W = small ? 320 : 960, H = small ? 130 : 240, L = small ? 62 : 80, R = small ? 8 : 16, T = small ? 8 : 12, B = small ? 22 : 34;
        long tMin = Long.MAX_VALUE, tMax = Long.MIN_VALUE, yMin = Long.MAX_VALUE, yMax = Long.MIN_VALUE;
        for (int i = 0; i < p.n; i++) {
            tMin = Math.min(tMin, p.t[i]);
            tMax = Math.max(tMax, p.t[i]);
            yMin = Math.min(yMin, p.y[i]);
            yMax = Math.max(yMax, p.y[i]);
        }
        for (Plot.Mark m : p.marks) {
            tMin = Math.min(tMin, m.t());
            tMax = Math.max(tMax, m.t());
            if (m.y() != Long.MIN_VALUE && Math.abs(m.y()) < 1 << 22) {
                yMin = Math.min(yMin, m.y());
                yMax = Math.max(yMax, m.y());
            }
        }
        if (tMax <= tMin) tMax = tMin + 1000;
        if (yMax <= yMin) yMax = yMin + 1;
        // A margin inside the frame, so that markers on the first/last packet or the lowest/highest PSN are whole.
        long padT = Math.max(1, (tMax - tMin) / 25), padY = Math.max(1, (yMax - yMin) / 8);
        tMin -= padT;
        tMax += padT;
        yMin -= padY;
        yMax += padY;
        double sx = (W - L - R) / (double) (tMax - tMin), sy = (H - T - B) / (double) (yMax - yMin);
        long ft = tMin, fy = yMin, fyMax = yMax;
        java.util.function.LongToDoubleFunction X = t -> L + (t - ft) * sx;
        java.util.function.LongToDoubleFunction Y = y -> H - B - (Math.max(fy, Math.min(fyMax, y)) - fy) * sy;
        h.append("<svg viewBox=\"0 0 ").append(W).append(' ').append(H).append("\" class=\"plot\" role=\"img\">");
        h.append("<rect x=\"").append(L).append("\" y=\"").append(T).append("\" width=\"").append(W - L - R).append("\" height=\"")
                .append(H - T - B).append("\" class=\"bg\"/>");
        // Axes: 5 ticks each.
        double spanUs = (tMax - tMin) / 1000.0;
        String tf = spanUs < 0.5 ? "%.3f" : spanUs < 5 ? "%.2f" : "%.1f";
        int timeTicks = small ? 2 : 4;
        for (int k = 0; k <= timeTicks; k++) {
            long t = tMin + padT + (tMax - tMin - 2 * padT) * k / timeTicks;
            double x = X.applyAsDouble(t);
            h.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>", x, T, x, H - B));
            h.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"ax\" text-anchor=\"middle\">" + tf + "</text>",
                    x, H - B + 14, (t - t0) / 1000.0));
        }
        // PSN ticks: round values of the unwrapped PSN, so the axis reads monotonically across the 2^24 wrap;
        // a value past the wrap is labelled with its wire PSN and how many wraps it is past ("14 +2^24").
        // Unwrapped PSNs carry an arbitrary multiple of 2^24: count wraps from the cycle of the QP's first PSN.
        long base = Math.floorDiv(p.origin, 1L << 24) << 24;
        boolean wrapped = false;
        for (long v : ticks(p.origin + yMin - base, p.origin + yMax - base)) {
            double yy = Y.applyAsDouble(v + base - p.origin);
            long wraps = Math.floorDiv(v, 1L << 24);
            wrapped |= wraps != 0;
            String label = (v & 0xFFFFFF) + (wraps == 0 ? "" : wraps == 1 ? " +2\u00b2\u2074" : wraps == -1 ? " \u22122\u00b2\u2074"
                    : (wraps > 0 ? " +" : " \u2212") + Math.abs(wraps) + "\u00b72\u00b2\u2074");
            h.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>", L, yy, W - R, yy));
            h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" class=\"ax\" text-anchor=\"end\">%s</text>", L - 4, yy + 4, label));
        }
        if (!small) {
            h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"ax\" text-anchor=\"middle\">time (&#181;s from the capture start)</text>",
                    (W + L) / 2, H - 4));
        }
        if (!small) {
            h.append(String.format(Locale.ROOT, "<text x=\"12\" y=\"%d\" class=\"ax\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">%s</text>",
                    (H - B + T) / 2, (H - B + T) / 2, wrapped ? "PSN (past the 2&#178;&#8308; wrap: +2&#178;&#8308;)" : "PSN"));
        }
        // Findings: vertical lines behind the points.
        for (Plot.Mark m : p.marks) {
            if (!m.kind().equals("error") && !m.kind().equals("warn") && !m.kind().equals("note")) continue;
            double x = X.applyAsDouble(m.t());
            h.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"f%s\"><title>frame %d: %s</title></line>",
                    x, T, x, H - B, m.kind(), m.frame(), esc(m.label())));
        }
        // Packets: dots (larger when there are few).
        h.append("<path class=\"pts").append(p.n < 300 ? " big" : "").append("\" d=\"");
        for (int i = 0; i < p.n; i++) {
            h.append(String.format(Locale.ROOT, "M%.1f %.1fh0", X.applyAsDouble(p.t[i]), Y.applyAsDouble(p.y[i])));
        }
        h.append("\"/>");
        // Findings on their packet: a ring.
        for (Plot.Mark m : p.marks) {
            if (m.y() == Long.MIN_VALUE || !(m.kind().equals("error") || m.kind().equals("warn"))) continue;
            h.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" class=\"r%s\"><title>frame %d: %s</title></circle>",
                    X.applyAsDouble(m.t()), Y.applyAsDouble(m.y()), m.kind(), m.frame(), esc(m.label())));
        }
        // Event marks.
        for (Plot.Mark m : p.marks) {
            double x = X.applyAsDouble(m.t());
            String title = "<title>frame " + m.frame() + ": " + esc(m.label()) + "</title>";
            switch (m.kind()) {
                case "retransmission", "spurious" -> {
                    if (m.y() == Long.MIN_VALUE) break;
                    double y = Y.applyAsDouble(m.y());
                    h.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1fl6 10h-12z\" class=\"%s\">%s</path>", x, y - 6,
                            m.kind().equals("spurious") ? "sp" : "rtx", title));
                }
                case "nak" -> {
                    double y = m.y() == Long.MIN_VALUE ? T + 6 : Y.applyAsDouble(m.y());
                    h.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" class=\"nak\">%s</path>", x - 4, y - 4, title));
                }
                case "ce" -> {
                    if (m.y() == Long.MIN_VALUE) break;
                    h.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" class=\"ce\">%s</circle>", x,
                            Y.applyAsDouble(m.y()), title));
                }
                case "cnp" -> h.append(String.format(Locale.ROOT, "<path d=\"M%.1f %dv-10\" class=\"cnp\">%s</path>", x, H - B, title));
                default -> { }
            }
        }
        h.append("</svg>");
    }

    @SuppressWarnings("unchecked")
    private static void paths(StringBuilder h, FileResult r) {
        if (r.analysis == null) return;
        StringBuilder rows = new StringBuilder();
        for (io.metaroce.analysis.FlowSummary summary : r.analysis.flows()) {
            Map<String, Object> fl = summary.toJsonMap();
            if (!(fl.get("paths") instanceof Map<?, ?> pm) || pm.isEmpty()) continue;
            Map<String, Object> paths = (Map<String, Object>) pm;
            long maxPk = 1;
            for (Object o : paths.values()) if (o instanceof Map<?, ?> m && m.get("packets") instanceof Number n) maxPk = Math.max(maxPk, n.longValue());
            rows.append("<tr class=\"fh\"><td colspan=\"7\">").append(esc(String.valueOf(fl.get("id")))).append(" <span class=\"dim\">view ")
                    .append(esc(String.valueOf(fl.get("view")))).append(", path_count ").append(fl.get("path_count")).append("</span></td></tr>");
            for (Map.Entry<String, Object> e : paths.entrySet()) {
                Map<String, Object> m = (Map<String, Object>) e.getValue();
                long pk = num(m.get("packets")), ce = num(m.get("ce_marks"));
                Object lr = m.get("loss_rate");
                Object lost = m.get("retransmitted_from");
                boolean down = Boolean.TRUE.equals(m.get("down"));
                double loss = lr instanceof Number n ? n.doubleValue() : -1;
                rows.append("<tr").append(down ? " class=\"down\"" : "").append("><td>path ").append(esc(e.getKey())).append(down ? " (down)" : "")
                        .append("</td><td>").append(pk).append("</td><td><div class=\"bar\"><div style=\"width:")
                        .append(Math.round(100.0 * pk / maxPk)).append("%\"></div></div></td><td>")
                        .append(lost == null ? "<span class=\"dim\">not measurable here</span>" : String.valueOf(lost)).append("</td><td>");
                if (loss >= 0) rows.append("<div class=\"bar loss\"><div style=\"width:").append(Math.min(100, Math.round(loss * 500)))
                        .append("%\"></div></div> ").append(String.format(Locale.ROOT, "%.1f %%", loss * 100));
                else rows.append("<span class=\"dim\">-</span>");
                rows.append("</td><td>").append(ce).append(pk > 0 && ce > 0 ? String.format(Locale.ROOT, " (%.1f %%)", 100.0 * ce / pk) : "")
                        .append("</td><td>").append(num(m.get("mr_cnps"))).append("</td></tr>");
            }
        }
        if (rows.isEmpty()) return;
        h.append("<h3>MetaRoCE paths: loss and CE</h3><table class=\"paths\"><tr><th>path</th><th>packets</th><th></th>")
                .append("<th>lost (resent from it)</th><th>loss rate</th><th>CE marks</th><th>MR-CNPs</th></tr>").append(rows).append("</table>");
    }

    private static long num(Object o) { return o instanceof Number n ? n.longValue() : 0; }

    static String esc(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static final String CSS = """
            body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d232b;background:#f4f6f8}
            header{padding:18px 28px;color:#fff}header h1{margin:0 0 4px;font-size:24px}header p{margin:0}
            .hfail{background:#b3261e}.hpass{background:#1e7b34}
            main{padding:8px 28px 28px}section{background:#fff;border-radius:8px;padding:14px 18px;margin:16px 0;box-shadow:0 1px 3px #0002}
            h2{margin:2px 0 8px;font-size:18px;word-break:break-all}h3{margin:18px 0 6px;font-size:15px}h4{margin:10px 0 2px;font-size:13px;font-weight:600}
            table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #e3e7eb;vertical-align:top}
            th{background:#eef1f4;font-weight:600}td:first-child,table.find td:nth-child(2),table.find td:nth-child(4){white-space:nowrap}
            .badge{display:inline-block;padding:1px 7px;border-radius:10px;font-size:12px;font-weight:600;color:#fff}
            .badge.error{background:#c62828}.badge.warn{background:#e08a00}.badge.note{background:#5f6b7a}.badge.pass{background:#2e7d32}
            .rule{display:inline-block;margin:1px 2px;padding:0 6px;border-radius:4px;font-size:12px;border:1px solid}
            .rule.error{color:#b71c1c;border-color:#e57373;background:#fdecea}.rule.warn{color:#8a5200;border-color:#ffb74d;background:#fff4e0}
            .dim{color:#6b7785;font-size:12px}.meta{margin:0 0 6px}.ok{color:#2e7d32;font-weight:600}.err{color:#b3261e;font-weight:600}
            tr.sev-error td:nth-child(2){color:#b71c1c;font-weight:600}tr.sev-warn td:nth-child(2){color:#8a5200;font-weight:600}
            .filters label{margin-right:12px}.chart{margin:8px 0 14px}
            svg.plot{width:100%;height:auto;display:block;background:#fff;overflow:visible}
            .qgrid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:4px 14px}.chart.small{margin:2px 0}
            .chart.small h4{font-size:11px;font-weight:500;margin:4px 0 0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
            details.more summary{cursor:pointer;font-weight:600;margin:8px 0}
            .bg{fill:#fbfcfd;stroke:#c9d1d9}.grid{stroke:#e6ebf0}.ax{font-size:11px;fill:#56606b}
            .pts{stroke:#1f5fa8;stroke-width:3.5;stroke-linecap:round}.pts.big{stroke-width:7}.rerror{fill:none;stroke:#c62828;stroke-width:2.5}.rwarn{fill:none;stroke:#e08a00;stroke-width:2.5}
            .rtx{fill:#f57c00}.sp{fill:#8e24aa}.nak{stroke:#d32f2f;stroke-width:2.2}.ce{fill:#2e7d32;fill-opacity:.75}.cnp{stroke:#0288d1;stroke-width:2}
            .ferror{stroke:#c62828;stroke-width:2;stroke-dasharray:5 3}.fwarn{stroke:#e08a00;stroke-width:2;stroke-dasharray:5 3}.fnote{stroke:#9aa5b1;stroke-width:1;stroke-dasharray:2 3}
            .legend{font-size:12px;color:#44505c}.lg{display:inline-block;width:11px;height:11px;margin:0 4px 0 12px;vertical-align:-1px;border-radius:2px}
            .lg.pt{background:#1f5fa8;border-radius:50%}.lg.rtx{background:#f57c00}.lg.sp{background:#8e24aa}.lg.nak{background:#d32f2f}
            .lg.ce{background:#2e7d32;border-radius:50%}.lg.cnp{background:#0288d1;width:3px}.lg.ferr{background:#c62828;width:3px}.lg.fwarn{background:#e08a00;width:3px}.lg.fnote{background:#9aa5b1;width:2px}
            .bar{display:inline-block;width:120px;height:9px;background:#e8edf2;border-radius:4px;overflow:hidden;vertical-align:middle}
            .bar div{height:100%;background:#1f5fa8}.bar.loss div{background:#d32f2f}tr.fh td{background:#f6f8fa;font-weight:600}
            tr.down td{color:#b3261e}footer{padding:8px 28px 20px;color:#6b7785;font-size:12px}pre{white-space:pre-wrap;font-size:12px}
            """;

    private static final String JS = """
            document.querySelectorAll('.filters').forEach(function(f){
              var t=document.getElementById(f.dataset.t);
              function apply(){var on={};f.querySelectorAll('input').forEach(function(i){on[i.value]=i.checked;});
                var any=false;t.querySelectorAll('tr[class^=sev-]').forEach(function(r){r.hidden=!on[r.className.substring(4)];any=any||!r.hidden;});
                t.hidden=!any;}
              f.addEventListener('change',apply);apply();});
            """;
}
