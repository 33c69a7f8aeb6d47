package io.metaroce.index;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fields of a flow document and their types: one schema for every backend. Counter names are the keys of
 * {@code metaroce analyze -T json}, nested objects joined by dots ({@code retransmissions_by_cause.nak},
 * {@code latency.ack_rtt_ns.p99}, {@code paths.3.ce_marks}), so a query names what the report prints.
 *
 * <p>Three kinds of document share it ({@link #KIND}): one {@code capture} document per indexed capture (its
 * identity, so a capture without flows is still known), one {@code flow} document per QP flow (all counters and
 * the first {@link FlowDocuments#DEFAULT_SPLIT} packet offsets) and, for long flows, {@code part} documents
 * holding the further offsets under the same {@link #ROOT_ID}. Searches and facets see flow documents only.
 *
 * <p>{@link #VERSION} changes whenever a field changes name, type or meaning; an index written under another
 * version is refused with one line rather than misread.
 */
public final class FlowSchema {
    /** The schema version written into every index. */
    public static final int VERSION = 1;

    public static final String ID = "id", KIND = "kind", ROOT_ID = "root_id", PART = "part", PARTS = "parts";
    public static final String KIND_CAPTURE = "capture", KIND_FLOW = "flow", KIND_PART = "part";
    public static final String CAPTURE_PATH = "capture_path", CAPTURE_SIZE = "capture_size",
            CAPTURE_HASH = "capture_hash", CAPTURE_FORMAT = "capture_format", CAPTURE_FIRST = "capture_first_ns",
            CAPTURE_LAST = "capture_last_ns", INDEXED_AT = "indexed_at_ns", TAP = "tap";
    public static final String FLOW = "flow", SRC = "src", DST = "dst", DEST_QP = "dest_qp", SRC_QPS = "src_qps",
            FIRST = "first_ns", LAST = "last_ns", RULES = "rules", EVENTS = "events";
    public static final String PART_PACKETS = "part_packets",
            OFFSETS = "offsets", FRAMES = "frames";
    public static final String PATH_IDS = "path_ids", LOSSY_PATHS = "lossy_paths", CE_PATHS = "ce_paths",
            DOWN_PATHS = "down_paths";

    /** The latency summaries of the analyze JSON, and the keys of each. */
    static final List<String> LATENCIES = List.of("ack_rtt_ns", "message_completion_ns", "nak_gen_latency_ns",
            "nak_response_latency_ns", "retransmission_latency_ns");
    static final List<String> LATENCY_KEYS = List.of("count", "min", "median", "p99", "max");

    private static final Map<String, FieldDef> FIELDS = new LinkedHashMap<>();
    /** Fields of {@code paths.<id>.<key>}: one set per MetaRoCE path, names made when a path id is used. */
    private static final Map<String, FieldType> PATH_KEYS = new LinkedHashMap<>();
    private static final Map<String, String> ALIASES = Map.of("first", FIRST, "last", LAST, "rule", RULES,
            "event", EVENTS, "qp", DEST_QP, "src_qp", SRC_QPS, "hash", CAPTURE_HASH, "capture", CAPTURE_PATH);
    private static final java.util.concurrent.ConcurrentHashMap<String, FieldDef> PATH_FIELDS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Pattern PATH_FIELD = Pattern.compile("paths\\.(\\d{1,9})\\.([a-z_]+(?:\\.[a-z0-9_]+)?)");

    static {
        keyword(ID); keyword(KIND); keyword(ROOT_ID); lng(PART); lng(PARTS);
        keyword(CAPTURE_PATH); lng(CAPTURE_SIZE); keyword(CAPTURE_HASH); keyword(CAPTURE_FORMAT);
        time(CAPTURE_FIRST); time(CAPTURE_LAST); time(INDEXED_AT); keyword(TAP);
        keyword(FLOW); add(SRC, FieldType.IP, false); add(DST, FieldType.IP, false); lng(DEST_QP);
        keyword("peer"); keyword("paired_by"); keyword("transport"); keyword("service"); keyword("view");
        add(SRC_QPS, FieldType.LONG, true);
        for (String c : List.of("packets", "bytes", "data_packets", "payload_bytes")) lng(c);
        time(FIRST); time(LAST);
        for (String c : List.of("messages", "messages_completed", "retransmitted_packets")) lng(c);
        for (String c : List.of("nak", "nack", "sack", "timeout", "rnr")) lng("retransmissions_by_cause." + c);
        for (String c : List.of("spurious_retransmissions", "spurious_unknown", "inferred_retransmissions",
                "repeated_responses", "timeout_retransmissions", "timeouts", "out_of_order", "duplicates", "psn_gaps",
                "capture_gaps", "network_losses", "acks", "naks", "nak_errors", "rnr_naks", "sacks", "nacks", "cnps",
                "mr_cnps", "ce_marks", "ce_without_cnp", "cnp_expected")) lng(c);
        keyword("credit_mode");
        for (String c : List.of("credit_stalls", "read_responses", "unattributed_control", "truncated_frames",
                "unjudged_frames")) lng(c);
        for (String l : LATENCIES) for (String k : LATENCY_KEYS) lng("latency." + l + "." + k);
        lng("goodput_bps"); lng("unique_payload_bytes");
        keyword("spray"); lng("path_count");
        for (String p : List.of(PATH_IDS, LOSSY_PATHS, CE_PATHS, DOWN_PATHS)) add(p, FieldType.LONG, true);
        add(RULES, FieldType.KEYWORD, true); add(EVENTS, FieldType.KEYWORD, true);
        lng(PART_PACKETS);
        add(OFFSETS, FieldType.STORED, false); add(FRAMES, FieldType.STORED, false);

        for (String k : List.of("packets", "first_sends", "retransmissions_on", "retransmitted_from", "lost_inferred",
                "ce_marks", "mr_cnps", "probes", "probes_answered")) PATH_KEYS.put(k, FieldType.LONG);
        PATH_KEYS.put("loss_rate", FieldType.DOUBLE);
        PATH_KEYS.put("probe_loss", FieldType.DOUBLE);
        PATH_KEYS.put("down", FieldType.KEYWORD);
        PATH_KEYS.put("down_reason", FieldType.KEYWORD);
        for (String k : LATENCY_KEYS) PATH_KEYS.put("rtt_ns." + k, FieldType.LONG);
    }

    private FlowSchema() {}

    private static void keyword(String n) { add(n, FieldType.KEYWORD, false); }
    private static void lng(String n) { add(n, FieldType.LONG, false); }
    private static void time(String n) { add(n, FieldType.TIME, false); }
    private static void add(String n, FieldType t, boolean multi) { FIELDS.put(n, new FieldDef(n, t, multi)); }

    /** The fixed fields in document order (the per-path fields {@code paths.<id>.*} come on top: {@link #field}). */
    public static List<FieldDef> fields() { return List.copyOf(FIELDS.values()); }

    /** The keys under {@code paths.<id>.} and their types (for a backend that declares dynamic fields). */
    public static Map<String, FieldType> pathKeys() { return Collections.unmodifiableMap(PATH_KEYS); }

    /**
     * The field of a name as typed in a query or stored in a document: a schema name, a short alias
     * ({@code first}, {@code last}, {@code rule}, {@code event}, {@code qp}, {@code src_qp}, {@code hash},
     * {@code capture}) or a per-path field {@code paths.<id>.<key>}; null for none.
     */
    public static FieldDef field(String name) {
        FieldDef f = FIELDS.get(name); // a schema name first: the per-value lookup of indexing and decoding
        if (f == null) f = FIELDS.get(ALIASES.getOrDefault(name, name));
        if (f != null || !name.startsWith("paths.")) return f;
        f = PATH_FIELDS.get(name);
        if (f != null) return f;
        Matcher m = PATH_FIELD.matcher(name);
        if (m.matches()) {
            FieldType t = PATH_KEYS.get(m.group(2));
            if (t != null) {
                f = new FieldDef(name, t, false);
                // Path ids are few per capture, so this stays small; it saves a regex per value indexed.
                if (PATH_FIELDS.size() < 100_000) PATH_FIELDS.put(name, f);
                return f;
            }
        }
        return null;
    }

    /** The largest MetaRoCE path id: MRTH's path_id is 16 bits (the spec allows 0..1023; a violation may carry more). */
    public static final int MAX_PATH_ID = 0xFFFF;

    /**
     * The values a LONG, TIME or DOUBLE field can hold, {@code {min, max}} (DOUBLE as {@link Double#doubleToLongBits}
     * would not order: DOUBLE fields are the per-path rates, 0 to 1, see {@link #doubleRange}). WHY: a query value
     * outside them can never match, and a search that silently finds nothing reads as "no such flow"; the parser
     * refuses it with {@link #rangeText}, as Arkime refuses a value outside a field's range.
     */
    public static long[] longRange(FieldDef f) {
        String n = f.name();
        if (f.type() == FieldType.TIME) return new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
        if (n.equals(DEST_QP) || n.equals(SRC_QPS)) return new long[] {0, 0xFFFFFF};
        if (n.equals(PATH_IDS) || n.equals(LOSSY_PATHS) || n.equals(CE_PATHS) || n.equals(DOWN_PATHS) || n.equals("path_count"))
            return new long[] {0, MAX_PATH_ID};
        return new long[] {0, Long.MAX_VALUE}; // every other integer is a count, a size, a latency or a rate: never negative
    }

    /** The values a DOUBLE field can hold (the per-path loss rates: fractions). */
    public static double[] doubleRange(FieldDef f) { return new double[] {0, 1}; }

    /** The range of {@link #longRange} / {@link #doubleRange} in words, for an error message. */
    public static String rangeText(FieldDef f) {
        if (f.type() == FieldType.DOUBLE) return "0 to 1: a fraction";
        if (f.type() == FieldType.TIME) return "a time, nanoseconds since 1970 in 64 bits";
        String n = f.name();
        if (n.equals(DEST_QP) || n.equals(SRC_QPS)) return "0 to 0xFFFFFF: a QP number is 24 bits";
        if (n.equals("path_count")) return "0 to " + MAX_PATH_ID + ": MetaRoCE's path_count is 16 bits";
        if (longRange(f)[1] == MAX_PATH_ID) return "0 to " + MAX_PATH_ID + ": a MetaRoCE path id is 16 bits";
        return "0 or more";
    }

    /**
     * {@link #field} for a name a user typed ({@code --sort}, {@code --top}, {@code --by}): also null for a per-path
     * field of a path id beyond {@link #MAX_PATH_ID}, which no flow holds (MRTH's path_id is 16 bits). The stored
     * documents' own names go through {@link #field}, which takes any path id.
     */
    public static FieldDef userField(String name) { return pathIdBeyond16Bits(name) ? null : field(name); }

    /** Whether a name is {@code paths.<id>.<key>} with an id beyond {@link #MAX_PATH_ID}. */
    public static boolean pathIdBeyond16Bits(String name) {
        Matcher m = PATH_FIELD.matcher(name);
        return m.matches() && Long.parseLong(m.group(1)) > MAX_PATH_ID;
    }

    /** The name of the per-path field {@code key} of path {@code id}. */
    public static String pathField(int id, String key) { return "paths." + id + "." + key; }

    /** The searchable names closest to a misspelt one (for an error message), at most three. */
    public static List<String> closest(String name) {
        List<String> names = new ArrayList<>(FIELDS.keySet());
        names.addAll(new java.util.TreeSet<>(ALIASES.keySet()));   // sorted: Map.of's order changes between JVMs, and ties keep it
        names.removeIf(n -> FIELDS.containsKey(n) && FIELDS.get(n).type() == FieldType.STORED);
        names.sort((a, b) -> Integer.compare(distance(name, a), distance(name, b)));
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (out.size() == 3 || distance(name, n) > Math.max(2, name.length() / 3)) break;
            out.add(n);
        }
        return out;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++)
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            int[] t = prev; prev = cur; cur = t;
        }
        return prev[b.length()];
    }
}
