package io.metaroce.index.web;

import io.metaroce.analysis.JsonOut;
import io.metaroce.index.Connection;
import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowExtract;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.QuerySyntaxException;
import io.metaroce.index.SearchResult;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The viewer's JSON API, modelled on Arkime's and answering as {@code metaroce search} and {@code extract} do, from
 * the same engine calls with the same words:
 * <ul>
 * <li>{@code /api/sessions?q=&sort=&start=&length=}: the flows of {@code search -T json} (query, total, flows), a page of them;</li>
 * <li>{@code /api/spiview?q=&by=&n=&fields=}: for each field, what {@code search --top FIELD --by COUNTER -T json} prints;</li>
 * <li>{@code /api/connections?q=&from=&to=&by=&n=}: what {@code search --connections FROM,TO --by COUNTER -T json} prints;</li>
 * <li>{@code /api/files}: the indexed captures and their flows;</li>
 * <li>{@code /api/session/ID}: one flow's whole document (ID: its root id);</li>
 * <li>{@code /api/sessions.pcap?q=&n=} or {@code ?ids=ID,...}: the pcapng {@code extract} writes for them;</li>
 * <li>{@code /api/sessions.csv?q=&fields=&sort=} and {@code /api/unique.txt?exp=FIELD&counts=1}: Arkime's exports;</li>
 * <li>{@code /api/spigraph?q=&field=&n=&by=&buckets=}: a field's top values over time ({@link SpiGraph});</li>
 * <li>{@code /api/fields}: the fields a column can show.</li>
 * </ul>
 * Every query takes Arkime's {@code expression=} for {@code q=} and its time range ({@link TimeRange}).
 * Every facet value and pair end carries {@code term}: the query clause that selects it, made here (not in the page)
 * so that a click on it always finds what the number promised.
 */
final class ViewerApi {
    /** The fields the SPI View shows without {@code fields=}: those a postmortem groups by first. */
    static final List<String> SPI_FIELDS = List.of(FlowSchema.SRC, FlowSchema.DST, FlowSchema.DEST_QP, FlowSchema.RULES,
            FlowSchema.EVENTS, FlowSchema.CAPTURE_PATH, FlowSchema.LOSSY_PATHS, FlowSchema.CE_PATHS, FlowSchema.DOWN_PATHS,
            "transport", "service", "view", FlowSchema.TAP);
    /** SPI View's counter without {@code by=}. */
    static final String SPI_BY = "packets";
    /** Connections without {@code by=}: as {@code search --connections} (bytes). */
    static final String CONNECTIONS_BY = "bytes";
    /** A page of flows without {@code length=}, and the most one page holds. */
    static final int PAGE = 50, MAX_PAGE = 1000;
    /** The deepest page: each page loads the flows before it too (as Elasticsearch's max_result_window). */
    static final int MAX_START = 10_000;
    /** Facet values (and connection pairs) without {@code n=}, and the most asked. */
    static final int TOP = 10, MAX_TOP = 1000;
    /** The most rows of one sessions.csv (all flows in memory at once, as a page of them is). */
    static final int MAX_CSV = 100_000;
    /** The most lines of one unique.txt. */
    static final int MAX_UNIQUE = 100_000;
    /** The most lines of one SPI Graph (each a facet call per bucket). */
    static final int MAX_SERIES = 20;
    /** sessions.csv's columns without {@code fields=}: the Sessions tab's default ones. */
    static final List<String> CSV_FIELDS = List.of(FlowSchema.FLOW, FlowSchema.CAPTURE_PATH, FlowSchema.FIRST, FlowSchema.LAST,
            FlowSchema.SRC, FlowSchema.DST, FlowSchema.DEST_QP, "packets", "bytes", "retransmitted_packets", "naks", "cnps", "ce_marks");

    private final FlowIndex index;

    ViewerApi(FlowIndex index) { this.index = index; }

    /** An answer: a status, its body in memory or in a file (deleted once sent), and a download name or null. */
    record Reply(int status, String type, byte[] body, Path file, String filename) {
        static Reply json(int status, Object value) {
            StringBuilder b = new StringBuilder();
            new JsonOut(b, false).value(value);
            b.append('\n');
            return new Reply(status, "application/json; charset=utf-8", FlowViewer.utf8(b.toString()), null, null);
        }

        /** An error as {@code {"error": "..."}}: the page shows it under the query bar. */
        static Reply error(int status, String message) { return json(status, Map.of("error", message)); }
    }

    /** A request the caller got wrong, answered 400 with its message. */
    static final class BadRequest extends RuntimeException {
        BadRequest(String message) { super(message); }
    }

    Reply answer(String path, String rawQuery) {
        try {
            Map<String, String> p = params(rawQuery);
            switch (path) {
                case "/api/sessions": return Reply.json(200, sessions(p));
                case "/api/spiview": return Reply.json(200, spiview(p));
                case "/api/connections": return Reply.json(200, connections(p));
                case "/api/files": return Reply.json(200, files());
                case "/api/sessions.pcap": return pcap(p);
                case "/api/sessions.csv": return csv(p);
                case "/api/unique.txt": return unique(p);
                case "/api/spigraph": return Reply.json(200, spigraph(p));
                case "/api/fields": return Reply.json(200, fields());
                default:
                    if (path.startsWith("/api/session/")) return session(decode(path.substring("/api/session/".length())));
                    return Reply.error(404, "no such API: " + path);
            }
        } catch (QuerySyntaxException e) {
            // A query the parser took but the index refuses (too many terms for one search): search's words too.
            return Reply.error(400, "query: " + e.reason());
        } catch (BadRequest e) {
            return Reply.error(400, e.getMessage());
        } catch (IndexFormatException e) {
            return Reply.error(500, e.getMessage());
        } catch (IOException e) {
            return Reply.error(500, "the index could not be read: " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ the answers

    private Map<String, Object> sessions(Map<String, String> p) throws IOException {
        FlowQuery q = query(p);
        FlowSort sort = sort(p);
        int start = number(p, "start", 0, 0, MAX_START);
        int length = number(p, "length", PAGE, 0, MAX_PAGE);
        SearchResult r = index.search(q, sort, start + length);
        List<Object> flows = new ArrayList<>();
        List<FlowDocument> all = r.flows();
        for (int i = start; i < all.size(); i++) flows.add(flowJson(all.get(i)));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("query", q.toString());
        m.put("total", r.total());
        m.put("start", (long) start);
        m.put("sort", sort.field().name() + (sort.descending() ? ":desc" : ":asc"));
        TimeRange range = TimeRange.of(p, index);
        if (range != null) {
            if (range.startNs() != Long.MIN_VALUE) m.put("start_ns", range.startNs());
            if (range.stopNs() != Long.MAX_VALUE) m.put("stop_ns", range.stopNs());
        }
        m.put("flows", flows);
        return m;
    }

    /**
     * Arkime's {@code sessions.csv}: the matching flows (at most {@link #MAX_CSV}, in {@code sort=}'s order) with the
     * columns of {@code fields=} (default: the Sessions tab's), as RFC 4180 CSV with a header line of field names.
     */
    private Reply csv(Map<String, String> p) throws IOException {
        FlowQuery q = query(p);
        FlowSort sort = sort(p);
        List<FieldDef> columns = new ArrayList<>();
        String names = p.get("fields");
        for (String name : names == null || names.isBlank() ? CSV_FIELDS : List.of(names.split(","))) {
            FieldDef f = FlowSchema.userField(name.strip());
            if (f == null || f.type() == FieldType.STORED) throw new BadRequest("fields: unknown field '" + name.strip() + "'");
            columns.add(f);
        }
        int limit = number(p, "length", MAX_CSV, 0, MAX_CSV);
        StringBuilder b = new StringBuilder();
        List<String> row = new ArrayList<>();
        for (FieldDef f : columns) row.add(f.name());
        Csv.row(b, row);
        for (FlowDocument d : index.search(q, sort, limit).flows()) {
            row.clear();
            for (FieldDef f : columns) row.add(Csv.cell(f, d.fields().get(f.name())));
            Csv.row(b, row);
        }
        return new Reply(200, "text/csv; charset=utf-8; header=present", FlowViewer.utf8(b.toString()), null, "metaroce-sessions.csv");
    }

    /**
     * Arkime's {@code unique.txt?exp=FIELD&counts=1}: a field's values among the matching flows, one a line, most
     * first as SPI View orders them (by {@code by=}), with {@code counts=1} each followed by ", " and its flows.
     */
    private Reply unique(Map<String, String> p) throws IOException {
        String name = p.get("exp");
        if (name == null || name.isBlank()) throw new BadRequest("exp: name the field whose values to list (unique.txt?exp=src)");
        FieldDef f = group(name.strip(), "exp");
        FieldDef by = counter(p.getOrDefault("by", SPI_BY), "by");
        boolean counts = "1".equals(p.get("counts"));
        StringBuilder b = new StringBuilder();
        for (FacetBucket v : index.top(f, by, MAX_UNIQUE, query(p))) {
            b.append(Csv.unformula(String.valueOf(v.key())).replace('\n', ' ').replace('\r', ' '));
            if (counts) b.append(", ").append(v.flows());
            b.append('\n');
        }
        return new Reply(200, "text/plain; charset=utf-8", FlowViewer.utf8(b.toString()), null, "unique.txt");
    }

    /**
     * SPI Graph: a field's top {@code n=} values (as SPI View finds them) and, for each, its flows and counter sum
     * in each time bucket ({@link SpiGraph}).
     */
    private Map<String, Object> spigraph(Map<String, String> p) throws IOException {
        FlowQuery q = query(p);
        FieldDef f = group(p.getOrDefault("field", FlowSchema.SRC).strip(), "field");
        FieldDef by = counter(p.getOrDefault("by", SPI_BY), "by");
        int n = number(p, "n", 5, 1, MAX_SERIES);
        int buckets = number(p, "buckets", SpiGraph.BUCKETS, 1, SpiGraph.MAX_BUCKETS);
        TimeRange r = TimeRange.of(p, index);
        Long oldest = TimeRange.oldest(index), newest = TimeRange.newest(index);
        long lo = r != null && r.startNs() != Long.MIN_VALUE ? r.startNs() : oldest == null ? 0 : oldest;
        long hi = r != null && r.stopNs() != Long.MAX_VALUE ? r.stopNs() : newest == null ? 1 : newest + 1;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("query", q.toString());
        m.put("field", f.name());
        m.put("by", by.name());
        m.putAll(SpiGraph.of(index, q, f, by, n, Math.min(lo, hi - 1), hi, buckets));
        return m;
    }

    /** Every field a column can show, in schema order with its group (the page's column chooser). */
    private static Map<String, Object> fields() {
        List<Object> out = new ArrayList<>();
        for (FieldDef f : FlowSchema.fields()) {
            String group = fieldGroup(f.name());
            if (group == null) continue;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", f.name());
            m.put("type", f.type().name().toLowerCase(java.util.Locale.ROOT));
            m.put("group", group);
            m.put("sortable", f.sortable());
            out.add(m);
        }
        return Map.of("fields", out);
    }

    /** A field's group in the column chooser; null for the index's own bookkeeping (ids, parts, packet offsets). */
    static String fieldGroup(String name) {
        switch (name) {
            case FlowSchema.ID, FlowSchema.KIND, FlowSchema.ROOT_ID, FlowSchema.PART, FlowSchema.PARTS, FlowSchema.PART_PACKETS,
                    FlowSchema.OFFSETS, FlowSchema.FRAMES: return null;
            case FlowSchema.TAP, FlowSchema.INDEXED_AT: return "capture";
            case FlowSchema.RULES, FlowSchema.EVENTS: return "findings";
            case FlowSchema.PATH_IDS, FlowSchema.LOSSY_PATHS, FlowSchema.CE_PATHS, FlowSchema.DOWN_PATHS, "spray", "path_count": return "paths";
            default:
                if (name.startsWith("capture_")) return "capture";
                if (name.startsWith("latency.")) return "latency";
                if (name.startsWith("retransmissions_by_cause.")) return "retransmissions";
                if (List.of(FlowSchema.FLOW, FlowSchema.SRC, FlowSchema.DST, FlowSchema.DEST_QP, FlowSchema.SRC_QPS, FlowSchema.FIRST,
                        FlowSchema.LAST, "peer", "paired_by", "transport", "service", "view", "credit_mode").contains(name)) return "flow";
                return "counters";
        }
    }

    private Map<String, Object> spiview(Map<String, String> p) throws IOException {
        FlowQuery q = query(p);
        FieldDef by = counter(p.getOrDefault("by", SPI_BY), "by");
        int n = number(p, "n", TOP, 1, MAX_TOP);
        String names = p.get("fields");
        List<Object> facets = new ArrayList<>();
        for (String name : names == null || names.isBlank() ? SPI_FIELDS : List.of(names.split(","))) {
            FieldDef f = group(name.strip(), "fields");
            facets.add(facet(f, by, index.top(f, by, n, q)));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("query", q.toString());
        m.put("by", by.name());
        m.put("facets", facets);
        return m;
    }

    /** One facet as {@code search --top FIELD --by COUNTER -T json} prints it, each value with its {@link #term}. */
    static Map<String, Object> facet(FieldDef f, FieldDef by, List<FacetBucket> buckets) {
        List<Object> values = new ArrayList<>();
        for (FacetBucket b : buckets) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put(f.name(), b.key());
            v.put(by.name(), b.sum());
            v.put("flows", b.flows());
            v.put("term", term(f, b.key()));
            values.add(v);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("top", f.name());
        m.put("by", by.name());
        m.put("values", values);
        return m;
    }

    private Map<String, Object> connections(Map<String, String> p) throws IOException {
        FlowQuery q = query(p);
        FieldDef from = group(p.getOrDefault("from", FlowSchema.SRC), "from"), to = group(p.getOrDefault("to", FlowSchema.DST), "to");
        if (from.name().equals(to.name())) throw new BadRequest("from and to: pair two different fields, not '" + from.name() + "' twice");
        FieldDef by = counter(p.getOrDefault("by", CONNECTIONS_BY), "by");
        int n = number(p, "n", 50, 1, MAX_TOP);
        List<Object> pairs = new ArrayList<>();
        // Packets and bytes beside the counter: the page sizes the nodes by either.
        List<FieldDef> sums = new ArrayList<>(List.of(by));
        for (String extra : List.of("packets", "bytes")) if (!extra.equals(by.name())) sums.add(FlowSchema.field(extra));
        for (Connection c : index.connections(from, to, sums, n, q)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(from.name(), c.from());
            m.put(to.name(), c.to());
            m.put("flows", c.flows());
            for (int i = 0; i < sums.size(); i++) m.put(sums.get(i).name(), c.sums().get(i));
            m.put("from_term", term(from, c.from()));
            m.put("to_term", term(to, c.to()));
            pairs.add(m);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("query", q.toString());
        m.put("connections", List.of(from.name(), to.name()));
        m.put("by", by.name());
        m.put("pairs", pairs);
        return m;
    }

    private Map<String, Object> files() throws IOException {
        List<IndexedCapture> captures = index.captures();
        // Flows per capture in one facet call, not one search per capture.
        Map<Object, FacetBucket> counts = new HashMap<>();
        if (!captures.isEmpty()) {
            for (FacetBucket b : index.top(FlowSchema.field(FlowSchema.CAPTURE_HASH), FlowSchema.field("packets"),
                    captures.size(), new FlowQuery.MatchAll())) counts.put(b.key(), b);
        }
        List<Object> files = new ArrayList<>();
        for (IndexedCapture c : captures) {
            Map<String, Object> m = new LinkedHashMap<>();
            FacetBucket b = counts.get(c.hash());
            m.put(FlowSchema.CAPTURE_PATH, c.path());
            m.put(FlowSchema.CAPTURE_SIZE, c.size());
            m.put(FlowSchema.CAPTURE_HASH, c.hash());
            m.put(FlowSchema.CAPTURE_FORMAT, c.format());
            m.put(FlowSchema.TAP, c.tap());
            m.put(FlowSchema.CAPTURE_FIRST, c.firstNs());
            m.put(FlowSchema.CAPTURE_LAST, c.lastNs());
            m.put(FlowSchema.INDEXED_AT, c.indexedAtNs());
            m.put("flows", b == null ? 0L : b.flows());
            m.put("packets", b == null ? 0L : b.sum());
            m.put("term", term(FlowSchema.field(FlowSchema.CAPTURE_HASH), c.hash()));
            files.add(m);
        }
        return Map.of("files", files);
    }

    private Reply session(String rootId) throws IOException {
        List<FlowDocument> docs = rootId.isEmpty() ? List.of() : index.parts(rootId);
        if (docs.isEmpty() || !FlowSchema.KIND_FLOW.equals(docs.getFirst().kind()))
            return Reply.error(404, "no flow '" + rootId + "' in the index (re-indexed or expired since?)");
        FlowDocument d = docs.getFirst();
        long packets = 0;
        for (FlowDocument part : docs) {
            Long n = part.getLong(FlowSchema.PART_PACKETS);
            if (n != null) packets += n;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flow", flowJson(d));
        m.put("documents", (long) docs.size());
        m.put("indexed_packets", packets);
        m.put("gui", guiCommand(d.getString(FlowSchema.CAPTURE_PATH), d.getString(FlowSchema.FLOW)));
        return Reply.json(200, m);
    }

    private Reply pcap(Map<String, String> p) throws IOException {
        List<FlowExtract.Flow> flows = new ArrayList<>();
        String ids = p.get("ids");
        String name;
        if (ids != null) {
            for (String id : ids.split(",")) {
                List<FlowDocument> docs = id.isBlank() ? List.of() : index.parts(id.strip());
                if (docs.isEmpty()) return Reply.error(404, "no flow '" + id.strip() + "' in the index (re-indexed or expired since?)");
                flows.add(FlowExtract.Flow.of(docs.getFirst()));
            }
            name = flows.size() == 1 ? fileName(docs0Name(flows)) : "metaroce-flows.pcapng";
        } else {
            FlowQuery q = query(p);
            Integer limit = p.containsKey("n") && !p.get("n").isBlank() ? number(p, "n", 0, 1, Integer.MAX_VALUE) : null;
            // As extract: the total first, then every match (or -n of them) in capture order.
            long total = index.search(q, FlowSort.DEFAULT, 0).total();
            int n = (int) Math.min(limit != null ? limit : Integer.MAX_VALUE, total);
            for (FlowDocument d : index.search(q, FlowSort.DEFAULT, n).flows()) flows.add(FlowExtract.Flow.of(d));
            name = "metaroce-flows.pcapng";
        }
        Path out = Files.createTempFile("metaroce-viewer", ".pcapng");
        FlowExtract.Result r;
        try {
            r = FlowExtract.write(index, flows, out);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(out);
            throw e;
        }
        if (r.flows() == 0 && !r.problems().isEmpty()) {
            // Every flow's capture moved or changed: an empty file would read as "no packets"; say why instead.
            Files.deleteIfExists(out);
            return Reply.error(409, String.join("; ", r.problems()));
        }
        return new Reply(200, "application/x-pcapng", null, out, name);
    }

    private static String docs0Name(List<FlowExtract.Flow> flows) { return flows.getFirst().name(); }

    // ------------------------------------------------------------------ shared pieces

    /** A flow as {@code search -T json} prints it: its stored fields under their schema names, without the packet offsets. */
    static Map<String, Object> flowJson(FlowDocument d) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : d.fields().entrySet())
            if (!e.getKey().equals(FlowSchema.OFFSETS) && !e.getKey().equals(FlowSchema.FRAMES)) m.put(e.getKey(), e.getValue());
        return m;
    }

    /**
     * The query clause that selects one value of a field: numbers bare ({@code dest_qp:513}), every other value
     * quoted with {@code \} before a quote or backslash ({@code capture_path:"/a b/\"x\".pcapng"}), which the query
     * language reads as exactly that value.
     */
    static String term(FieldDef f, Object value) {
        String v = String.valueOf(value);
        if (f.type() == FieldType.LONG || f.type() == FieldType.TIME) return f.name() + ":" + v;
        StringBuilder b = new StringBuilder(f.name()).append(":\"");
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '"' || c == '\\') b.append('\\');
            b.append(c);
        }
        return b.append('"').toString();
    }

    /**
     * The command that opens a flow's capture in the GUI filtered on it, for a POSIX shell: each argument in single
     * quotes (a quote inside as '\''), so that a capture path with spaces or quotes pastes as one argument.
     */
    static String guiCommand(String capturePath, String flow) {
        return "metaroce gui " + shellQuote(capturePath) + " -Y " + shellQuote("analysis.flow == \"" + flow + "\"");
    }

    static String shellQuote(String s) { return "'" + s.replace("'", "'\\''") + "'"; }

    /** A download name from a flow id: letters, digits, dots and dashes only (a header value and a file name). */
    private static String fileName(String flow) {
        String safe = flow.replaceAll("[^A-Za-z0-9.-]+", "_");
        return "flow-" + (safe.length() > 80 ? safe.substring(0, 80) : safe) + ".pcapng";
    }

    /**
     * The query of {@code q=} (or Arkime's {@code expression=}; blank: every flow), parsed as search parses it, within
     * the time range of {@code date=}/{@code startTime=}/{@code stopTime=} ({@link TimeRange}).
     */
    private FlowQuery query(Map<String, String> p) throws IOException {
        FlowQuery q = parsed(p);
        TimeRange r = TimeRange.of(p, index);
        return r == null ? q : r.filter(q);
    }

    /** The query of {@code q=} or {@code expression=} alone. */
    private static FlowQuery parsed(Map<String, String> p) {
        String q = p.containsKey("q") ? p.get("q") : p.get("expression");
        try {
            return FlowQueryParser.parse(q == null || q.isBlank() ? "*:*" : q);
        } catch (QuerySyntaxException e) {
            throw new BadRequest("query: " + e.getMessage());   // search's line: "query: column 6: ..."
        }
    }

    private static FlowSort sort(Map<String, String> p) {
        String s = p.get("sort");
        if (s == null || s.isBlank()) return FlowSort.DEFAULT;
        try {
            return FlowSort.parse(s.strip());
        } catch (IllegalArgumentException e) {
            throw new BadRequest("sort: " + e.getMessage());
        }
    }

    private static FieldDef counter(String name, String param) {
        FieldDef f = FlowSchema.userField(name.strip());
        if (f == null) throw new BadRequest(param + ": unknown field '" + name.strip() + "'");
        if (!f.summable()) throw new BadRequest(param + ": " + f.name() + ": sum a counter (an integer field)");
        return f;
    }

    private static FieldDef group(String name, String param) {
        FieldDef f = FlowSchema.userField(name);
        if (f == null) throw new BadRequest(param + ": unknown field '" + name + "'");
        if (!f.groupable()) throw new BadRequest(param + ": " + f.name() + ": group by a keyword, integer or IP field");
        return f;
    }

    private static int number(Map<String, String> p, String name, int fallback, int min, int max) {
        String v = p.get(name);
        if (v == null || v.isBlank()) return fallback;
        try {
            int n = Integer.parseInt(v.strip());
            if (n < min || n > max) throw new BadRequest(name + " must be " + min + " to " + max + ", not " + n);
            return n;
        } catch (NumberFormatException e) {
            throw new BadRequest(name + " must be a whole number, not '" + v + "'");
        }
    }

    /** The parameters of a query string (the last of a repeated name wins). */
    static Map<String, String> params(String raw) {
        Map<String, String> m = new HashMap<>();
        if (raw == null || raw.isEmpty()) return m;
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            m.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return m;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("bad %-escape in the URL: " + s);
        }
    }
}
