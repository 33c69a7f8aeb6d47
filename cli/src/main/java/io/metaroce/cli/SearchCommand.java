package io.metaroce.cli;

import io.metaroce.analysis.JsonOut;
import io.metaroce.index.Connection;
import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.QuerySyntaxException;
import io.metaroce.index.SearchResult;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce search --index DIR 'QUERY'}: the flows matching a query (text table, JSON, JSON lines),
 * sorted by any numeric field, or with {@code --top FIELD --by COUNTER} the exact top groups of a facet, or with
 * {@code --connections} the exact top host pairs (Arkime's Connections: who talked to whom, flows and a counter's sum).
 */
@Command(name = "search", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Search the flow index: Lucene query syntax over every counter of the analyze JSON, with numeric "
                + "ranges (naks:[5 TO *], naks:>=5), hex QPs (dest_qp:0x000201), IPs and CIDR (src:10.0.0.0/24), "
                + "human times (first:[2026-11-30T02:00 TO 2026-11-30T02:10], UTC), wildcards (rule:MR-RTX-*), "
                + "AND/OR/NOT and parentheses; a bare value searches flow, src, dst, rules and events.",
        // Each example fits the help's 80 columns, continued with a backslash (picocli cut a longer one anywhere).
        footer = {"", "Examples:", "  metaroce search --index flows.idx 'retransmitted_packets:[1 TO *]' \\",
                "      --sort retransmitted_packets",
                "  metaroce search --index flows.idx 'src:10.0.0.0/24 AND naks:>0' -T jsonl",
                "  metaroce search --index flows.idx '*:*' --top dest_qp --by naks",
                "  metaroce search --index flows.idx '*:*' --connections \\",
                "      --by retransmitted_packets",
                "  metaroce search --index flows.idx --nccl rank0.log"})
public final class SearchCommand implements Callable<Integer> {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    /** The pair of --connections without a value: source and destination hosts. */
    static final String DEFAULT_PAIR = "src,dst";
    /** The counter of --connections without --by: the bytes between two hosts (Arkime's other link weight beside sessions). */
    static final String DEFAULT_CONNECTIONS_BY = "bytes";
    /** The columns of the text table beside the flow id, capture and first time. */
    private static final List<String> COLUMNS = List.of("packets", "retransmitted_packets", "naks", "cnps", "ce_marks");

    @Spec(Spec.Target.SELF)
    CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Mixin
    IndexBackend backend;

    @Parameters(paramLabel = "QUERY", index = "0", arity = "0..1", description = "the query ('*:*' for every flow)")
    String query;

    @Option(names = "--nccl", paramLabel = "WARNING|LOGFILE",
            description = "the flows an NCCL warning names (its peer's RoCE address, its qp_num), pasted or every one of a log file; ANDed with QUERY")
    String nccl;

    @Option(names = {"-T", "--format"}, paramLabel = "text|json|jsonl", defaultValue = "text", description = "output format (default text)")
    String format;

    @Option(names = "--sort", paramLabel = "FIELD[:asc|desc]", description = "order by a numeric or time field (a counter: most first; a time: earliest first)")
    String sort;

    @Option(names = "--top", paramLabel = "FIELD", description = "the top values of FIELD (dest_qp, src, dst, rules, capture_path, lossy_paths, ...) by --by")
    String top;

    @Option(names = "--connections", paramLabel = "FROM,TO", arity = "0..1", fallbackValue = DEFAULT_PAIR,
            description = "the top pairs of values (default src,dst: who talked to whom) by --by (default bytes), with their flows")
    String connections;

    @Option(names = "--by", paramLabel = "COUNTER", description = "with --top or --connections: the counter summed per value (exact)")
    String by;

    @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "flows (default 100) or facet values (default 10) shown")
    Integer limit;

    @Override
    public Integer call() throws IOException {
        PrintStream err = System.err;
        String form = format.toLowerCase(Locale.ROOT);
        if (!List.of("text", "json", "jsonl").contains(form)) throw new ParameterException(spec.commandLine(), "-T must be text, json or jsonl, not '" + format + "'");
        String query0 = this.query;
        if (connections != null && !connections.equals(DEFAULT_PAIR) && pair(connections) == null && query0 == null) {
            // 'search --index I --connections QUERY': picocli gave the query to the option (its value is optional).
            query0 = connections;
            connections = DEFAULT_PAIR;
        }
        if (connections != null) {
            if (top != null) throw new ParameterException(spec.commandLine(), "--top lists values, --connections pairs of values: give one");
            if (sort != null) throw new ParameterException(spec.commandLine(), "--sort orders flows, --connections lists pairs by their --by sums: give one");
            if (by == null) by = DEFAULT_CONNECTIONS_BY;
        } else if ((top == null) != (by == null)) throw new ParameterException(spec.commandLine(), "--top and --by go together (--top dest_qp --by naks)");
        // --top's values are ordered by their --by sums: a --sort beside it was ignored without a word.
        if (top != null && sort != null) throw new ParameterException(spec.commandLine(), "--sort orders flows, --top lists values by their --by sums: give one");
        NcclOption.Lookup lookup = NcclOption.combine(nccl, query0, spec.commandLine());
        String query = lookup.query();
        if (nccl != null) err.println("metaroce search: query from --nccl: " + FrontDoor.printable(query));
        FlowQuery q;
        try {
            q = FlowQueryParser.parse(query);
        } catch (QuerySyntaxException e) {
            err.println("metaroce search: query: " + e.getMessage());
            if (Terminal.stderrIsTerminal()) {
                // The query as its error line shows it (ErrorLines): the caret under the same character, escapes counted.
                err.println("  " + FrontDoor.printable(query));
                int at = Math.min(e.column() - 1, query.length());
                err.println("  " + " ".repeat(FrontDoor.printable(query.substring(0, at)).length()) + "^");
            }
            return 2;
        }
        FlowSort order = FlowSort.DEFAULT;
        FieldDef group = null, counter = null, from = null, to = null;
        try {
            if (sort != null) order = FlowSort.parse(sort);
            if (connections != null) {
                String[] ft = pair(connections);
                if (ft == null) throw new IllegalArgumentException("--connections takes two fields, FROM,TO (src,dst, src,dest_qp, ...), not '" + connections + "'");
                from = field(ft[0], "--connections");
                to = field(ft[1], "--connections");
                if (from.name().equals(to.name())) throw new IllegalArgumentException("--connections " + connections + ": pair two different fields");
                for (FieldDef f : List.of(from, to))
                    if (!f.groupable()) throw new IllegalArgumentException("--connections " + connections + ": pair keyword, integer or IP fields, not '" + f.name() + "'");
                counter = field(by, "--by");
                if (!counter.summable()) throw new IllegalArgumentException("--by " + by + ": sum a counter (an integer field)");
            }
            if (top != null) {
                group = field(top, "--top");
                counter = field(by, "--by");
                if (!group.groupable()) throw new IllegalArgumentException("--top " + top + ": group by a keyword, integer or IP field");
                if (!counter.summable()) throw new IllegalArgumentException("--by " + by + ": sum a counter (an integer field)");
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        int n = limit != null ? limit : top != null || connections != null ? 10 : 100;
        if (n < 0) throw new ParameterException(spec.commandLine(), "--limit must not be negative");
        // -n 0 counts the matching flows; --top has no count to give, and printed an empty table.
        if (n == 0 && top != null) throw new ParameterException(spec.commandLine(), "--limit must be at least 1 with --top, not 0");
        if (n == 0 && connections != null) throw new ParameterException(spec.commandLine(), "--limit must be at least 1 with --connections, not 0");
        Writer out = new BufferedWriter(new OutputStreamWriter(new ClosedStdout.Guard(System.out), StandardCharsets.UTF_8), 1 << 16);
        boolean none;
        String timesHint = null;
        try (FlowIndex index = backend.open(false)) {
            if (from != null) {
                List<Connection> pairs = index.connections(from, to, List.of(counter), n, q);
                connections(out, form, from, to, counter, pairs);
                none = pairs.isEmpty();
            } else if (group != null) {
                List<FacetBucket> buckets = index.top(group, counter, n, q);
                facet(out, form, group, counter, buckets);
                none = buckets.isEmpty();
            } else {
                SearchResult r = index.search(q, order, n);
                flows(out, form, q, r);
                none = r.total() == 0;
            }
            if (none) timesHint = lookup.timesHint(new Counter(index));
            out.flush();
        } catch (IndexFormatException e) {
            err.println("metaroce search: " + e.getMessage());
            return 2;
        } catch (QuerySyntaxException e) {
            // A query the parser took but the index refuses (too many terms for one search): the query's problem.
            err.println("metaroce search: query: " + e.reason());
            return 2;
        } catch (ClosedStdout e) {
            return 0;
        } catch (java.io.UncheckedIOException e) {
            // -T json and jsonl write through JsonOut, which wraps the writer's IOException: `search ... | head` is a
            // closed stdout there too, not an internal error.
            if (e.getCause() instanceof ClosedStdout) return 0;
            throw e;
        }
        String hint = none ? fullWidthHint(query) : null;
        if (hint != null) err.println("metaroce search: " + hint);
        if (timesHint != null) err.println("metaroce search: " + timesHint);
        return 0;
    }

    /** The number of flows a query finds (for {@link NcclOption.Lookup#timesHint}); 0 for one the index refuses. */
    static final class Counter implements java.util.function.ToLongFunction<String> {
        private final FlowIndex index;

        Counter(FlowIndex index) { this.index = index; }

        @Override
        public long applyAsLong(String query) {
            try {
                return index.search(FlowQueryParser.parse(query), FlowSort.DEFAULT, 0).total();
            } catch (QuerySyntaxException | IOException e) {
                return 0;
            }
        }
    }

    /**
     * For a query that found nothing: a hint when it holds full-width forms of ASCII characters (U+FF01..U+FF5E, and the
     * ideographic space), as an East Asian input method types them, else null. 'naks：5' (U+FF1A) is a plain word to
     * the parser, not a field and a value, and found nothing without a word; the exit code stays a search's (0).
     */
    static String fullWidthHint(String query) {
        StringBuilder ascii = new StringBuilder(query.length());
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < query.length(); i++) {
            char c = query.charAt(i);
            char a = c >= '\uFF01' && c <= '\uFF5E' ? (char) (c - 0xFEE0) : c == '\u3000' ? ' ' : c;
            if (a != c) seen.add(String.format(Locale.ROOT, "'%c' (U+%04X)", c, (int) c));
            ascii.append(a);
        }
        if (seen.isEmpty()) return null;
        return "'" + query + "' has the full-width " + String.join(", ", seen) + ", read as part of a word; did you mean '"
                + ascii + "'?";
    }

    /**
     * FROM,TO split in two names, or null when it is not two field-name-shaped words joined by a comma: a query with a
     * comma in it ('packets:>0 OR capture_path:"a,b"') given right after a bare --connections stays the query.
     */
    private static String[] pair(String text) {
        String[] p = text.split(",", -1);
        if (p.length != 2) return null;
        String from = p[0].strip(), to = p[1].strip();
        return FIELD_NAME.matcher(from).matches() && FIELD_NAME.matcher(to).matches() ? new String[] {from, to} : null;
    }

    /** What a flow field's name (or alias) can look like: src, dest_qp, nccl.rank. */
    private static final Pattern FIELD_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");

    private static FieldDef field(String name, String option) {
        FieldDef f = FlowSchema.userField(name);
        if (f == null) throw new IllegalArgumentException(option + ": unknown field '" + name + "'");
        return f;
    }

    private static void flows(Writer out, String form, FlowQuery q, SearchResult r) throws IOException {
        switch (form) {
            case "json" -> {
                JsonOut j = new JsonOut(out, true).beginObject().name("query").value(q.toString()).name("total").value(r.total()).name("flows").beginArray();
                for (FlowDocument d : r.flows()) j.value(json(d));
                j.endArray().endObject();
                out.write('\n');
            }
            case "jsonl" -> {
                for (FlowDocument d : r.flows()) {
                    new JsonOut(out, false).value(json(d));
                    out.write('\n');
                }
            }
            default -> {
                List<String[]> rows = new ArrayList<>();
                List<String> head = new ArrayList<>(List.of("flow", "capture", "first"));
                head.addAll(COLUMNS);
                rows.add(head.toArray(String[]::new));
                for (FlowDocument d : r.flows()) {
                    List<String> row = new ArrayList<>();
                    row.add(d.getString(FlowSchema.FLOW));
                    row.add(Path.of(d.getString(FlowSchema.CAPTURE_PATH)).getFileName().toString());
                    Long first = d.getLong(FlowSchema.FIRST);
                    row.add(first == null ? "-" : time(first));
                    for (String c : COLUMNS) row.add(String.valueOf(d.get(c) == null ? "-" : d.get(c)));
                    rows.add(row.toArray(String[]::new));
                }
                table(out, rows, 3);
                out.write(r.total() + " flow" + (r.total() == 1 ? "" : "s") + " match" + (r.total() == 1 ? "es" : "")
                        + (r.total() > r.flows().size() ? " (" + r.flows().size() + " shown; --limit N for more)" : "") + "\n");
            }
        }
    }

    /** A flow as the JSON object search prints: its fields under their schema names, without the packet offsets. */
    static Map<String, Object> json(FlowDocument d) {
        Map<String, Object> m = new LinkedHashMap<>();
        d.fields().forEach((k, v) -> {
            if (!k.equals(FlowSchema.OFFSETS) && !k.equals(FlowSchema.FRAMES)) m.put(k, v);
        });
        return m;
    }

    private static void facet(Writer out, String form, FieldDef group, FieldDef counter, List<FacetBucket> buckets) throws IOException {
        switch (form) {
            case "json", "jsonl" -> {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (FacetBucket b : buckets) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put(group.name(), b.key());
                    m.put(counter.name(), b.sum());
                    m.put("flows", b.flows());
                    rows.add(m);
                }
                jsonRows(out, rows, form.equals("jsonl") ? null : new JsonOut(out, true).beginObject().name("top").value(group.name())
                        .name("by").value(counter.name()).name("values"));
            }
            default -> {
                List<String[]> rows = new ArrayList<>();
                rows.add(new String[] {group.name(), "sum(" + counter.name() + ")", "flows"});
                for (FacetBucket b : buckets) rows.add(new String[] {key(group, b.key()), Long.toString(b.sum()), Long.toString(b.flows())});
                table(out, rows, 1);
            }
        }
    }

    /**
     * Facet rows as JSON lines (header null: one object a line), or as JSON: after the header object the caller
     * began and wrote up to its last name, the rows as that name's array.
     */
    private static void jsonRows(Writer out, List<Map<String, Object>> rows, JsonOut header) throws IOException {
        if (header == null) {
            for (Map<String, Object> m : rows) {
                new JsonOut(out, false).value(m);
                out.write('\n');
            }
            return;
        }
        header.beginArray();
        for (Map<String, Object> m : rows) header.value(m);
        header.endArray().endObject();
        out.write('\n');
    }

    /** A facet key as the text table prints it: QPs in hex as analyze prints them, the rest as they are. */
    private static String key(FieldDef field, Object key) {
        return key instanceof Long l && (field.name().equals(FlowSchema.DEST_QP) || field.name().equals(FlowSchema.SRC_QPS))
                ? String.format("0x%06x", l) : String.valueOf(key);
    }

    /** The pairs of --connections: FROM, TO, flows and the counter's sum, as a table or JSON (as --top's). */
    private static void connections(Writer out, String form, FieldDef from, FieldDef to, FieldDef counter, List<Connection> pairs) throws IOException {
        switch (form) {
            case "json", "jsonl" -> {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (Connection c : pairs) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put(from.name(), c.from());
                    m.put(to.name(), c.to());
                    m.put("flows", c.flows());
                    m.put(counter.name(), c.sum());
                    rows.add(m);
                }
                jsonRows(out, rows, form.equals("jsonl") ? null : new JsonOut(out, true).beginObject().name("connections").beginArray()
                        .value(from.name()).value(to.name()).endArray().name("by").value(counter.name()).name("pairs"));
            }
            default -> {
                List<String[]> rows = new ArrayList<>();
                rows.add(new String[] {from.name(), to.name(), "flows", counter.name()});
                for (Connection c : pairs) rows.add(new String[] {key(from, c.from()), key(to, c.to()), Long.toString(c.flows()), Long.toString(c.sum())});
                table(out, rows, 2);
            }
        }
    }

    static String time(long ns) { return TIME.format(Instant.ofEpochSecond(Math.floorDiv(ns, 1_000_000_000L), Math.floorMod(ns, 1_000_000_000L))); }

    /** Columns padded to their widest cell; the first {@code leftAligned} columns to the left, numbers to the right. */
    private static void table(Writer out, List<String[]> rows, int leftAligned) throws IOException {
        int[] w = new int[rows.get(0).length];
        for (String[] r : rows) for (int i = 0; i < r.length; i++) w[i] = Math.max(w[i], r[i].length());
        for (String[] r : rows) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                if (i > 0) b.append("  ");
                String pad = " ".repeat(w[i] - r[i].length());
                b.append(i < leftAligned ? r[i] + (i == r.length - 1 ? "" : pad) : pad + r[i]);
            }
            out.write(b.toString().stripTrailing() + "\n");
        }
    }
}
