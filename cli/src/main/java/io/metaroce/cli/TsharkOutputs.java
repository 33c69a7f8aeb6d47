package io.metaroce.cli;

import static io.metaroce.dissector.FrameSummary.Style.LINE;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FieldFormat;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameSummary;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.ValueType;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * tshark's other output layouts for {@code dissect}: -T ek (Elasticsearch bulk), pdml and psml (XML), and the
 * pseudo-fields -e takes beyond the catalogue (the summary's columns as {@code _ws.col.*}, frame.time, ...).
 * Field names and layers are Wireshark's where a field has a Wireshark name ({@code infiniband.bth.psn} in the
 * {@code infiniband} layer, EK key {@code infiniband_infiniband_bth_psn}), ours otherwise ({@code mrth.path_id}
 * in the layer of its header's protocol). Values are tshark's -T fields text, so scripts read the same numbers.
 */
final class TsharkOutputs {
    private TsharkOutputs() {}

    /** -e names that are no catalogue field: the summary line's columns and frame fields tshark adds. */
    enum Pseudo { NUMBER, TIME, SOURCE, DESTINATION, PROTOCOL, LENGTH, INFO, FRAME_TIME, FRAME_TIME_UTC, ENCAP_TYPE,
        ETH_SRC_RESOLVED, ETH_DST_RESOLVED, ETH_ADDR_RESOLVED, IP_SRC_HOST, IP_DST_HOST, IP_HOST, IPV6_SRC_HOST, IPV6_DST_HOST, IPV6_HOST }

    /**
     * The pseudo-field with this name, or null: tshark 4.0's column names ({@code _ws.col.Info}) and 4.2's
     * lower-case ones ({@code _ws.col.info}, {@code _ws.col.def_src}, ...).
     */
    static Pseudo pseudo(String name) {
        return switch (name) {
            case "_ws.col.No.", "_ws.col.number" -> Pseudo.NUMBER;
            case "_ws.col.Time", "_ws.col.cls_time" -> Pseudo.TIME;
            case "_ws.col.Source", "_ws.col.def_src" -> Pseudo.SOURCE;
            case "_ws.col.Destination", "_ws.col.def_dst" -> Pseudo.DESTINATION;
            case "_ws.col.Protocol", "_ws.col.protocol" -> Pseudo.PROTOCOL;
            case "_ws.col.Length", "_ws.col.length" -> Pseudo.LENGTH;
            case "_ws.col.Info", "_ws.col.info" -> Pseudo.INFO;
            case "frame.time" -> Pseudo.FRAME_TIME;
            case "frame.time_utc" -> Pseudo.FRAME_TIME_UTC;
            case "frame.encap_type" -> Pseudo.ENCAP_TYPE;
            case "eth.src_resolved" -> Pseudo.ETH_SRC_RESOLVED;
            case "eth.dst_resolved" -> Pseudo.ETH_DST_RESOLVED;
            case "eth.addr_resolved" -> Pseudo.ETH_ADDR_RESOLVED;
            case "ip.src_host" -> Pseudo.IP_SRC_HOST;
            case "ip.dst_host" -> Pseudo.IP_DST_HOST;
            case "ip.host" -> Pseudo.IP_HOST;
            case "ipv6.src_host" -> Pseudo.IPV6_SRC_HOST;
            case "ipv6.dst_host" -> Pseudo.IPV6_DST_HOST;
            case "ipv6.host" -> Pseudo.IPV6_HOST;
            default -> null;
        };
    }

    /** The pseudo-fields for --list-fields: name, type, label. */
    static final String[][] PSEUDO_FIELDS = {
            {"_ws.col.No.", "string", "No. column of the summary line (alias: _ws.col.number)"},
            {"_ws.col.Time", "string", "Time column of the summary line, as -t and -u format it (alias: _ws.col.cls_time)"},
            {"_ws.col.Source", "string", "Source column (alias: _ws.col.def_src)"},
            {"_ws.col.Destination", "string", "Destination column (alias: _ws.col.def_dst)"},
            {"_ws.col.Protocol", "string", "Protocol column (alias: _ws.col.protocol)"},
            {"_ws.col.Length", "string", "Length column (alias: _ws.col.length)"},
            {"_ws.col.Info", "string", "Info column (alias: _ws.col.info)"},
            {"frame.time", "string", "Arrival time, as tshark writes it, in UTC (Jan  1, 2026 00:00:00.000001000 UTC)"},
            {"frame.time_utc", "string", "Arrival time in UTC, as frame.time"},
            {"frame.encap_type", "uint", "Encapsulation type, Wireshark's number (1: Ethernet)"},
            {"eth.src_resolved", "string", "Source MAC with its name (ethers) or vendor (manuf) under -N m, as tshark's"},
            {"eth.dst_resolved", "string", "Destination MAC with its name or vendor under -N m"},
            {"eth.addr_resolved", "string", "Destination and source MAC with their names under -N m"},
            {"ip.src_host", "string", "Source IPv4 address's host name (hosts files, -H) under -N n, else the address"},
            {"ip.dst_host", "string", "Destination IPv4 address's host name under -N n, else the address"},
            {"ip.host", "string", "Source and destination IPv4 host names under -N n"},
            {"ipv6.src_host", "string", "Source IPv6 address's host name under -N n, else the address"},
            {"ipv6.dst_host", "string", "Destination IPv6 address's host name under -N n, else the address"},
            {"ipv6.host", "string", "Source and destination IPv6 host names under -N n"}};

    /**
     * Writes the pseudo-fields' values: the columns as the summary line has them (the Time column through a
     * {@link SummaryLines} that follows -t and -u, so it needs each batch's start).
     */
    static final class Columns {
        private final SummaryLines time;
        /** -N/-H's names for the Source and Destination columns and the *_resolved and *_host fields. */
        private io.metaroce.dissector.NameResolver names = io.metaroce.dissector.NameResolver.NONE;
        /** Between the values of a two-valued field (eth.addr_resolved, ip.host): -E aggregator. */
        private String aggregator = ",";

        Columns(ByteOut out, int[] timeFormat) { this.time = new SummaryLines(out, timeFormat); }

        void names(io.metaroce.dissector.NameResolver r, String aggregator) {
            this.names = r;
            this.aggregator = aggregator;
        }

        void batch(FrameBatch b) { time.batch(b); }

        void write(ByteOut out, Pseudo p, Dissection d) {
            switch (p) {
                case NUMBER -> out.num(d.number());
                case TIME -> time.timeColumn(d);
                case SOURCE -> out.str(FrameSummary.source(d, LINE, names));
                case DESTINATION -> out.str(FrameSummary.destination(d, LINE, names));
                case PROTOCOL -> out.ascii(FrameSummary.protocol(d, LINE));
                case LENGTH -> out.num(d.originalLength());
                case INFO -> out.str(FrameSummary.info(d, LINE));
                case FRAME_TIME, FRAME_TIME_UTC -> out.ascii(frameTime(d.timeNanos()));
                case ENCAP_TYPE -> {
                    int e = encapType(d.linkType());
                    if (e >= 0) out.num(e);
                }
                default -> resolved(out, p, d);
            }
        }

        /** The *_resolved and *_host fields: empty when the frame has no such header, as tshark's. */
        private void resolved(ByteOut out, Pseudo p, Dissection d) {
            int eth = d.offsetOf(io.metaroce.protocol.Eth.HEADER);
            int ip = d.offsetOf(io.metaroce.protocol.Ip.HEADER);
            int ip6 = d.offsetOf(io.metaroce.protocol.Ipv6.HEADER);
            java.lang.foreign.MemorySegment s = d.data();
            switch (p) {
                case ETH_SRC_RESOLVED -> { if (eth >= 0) out.str(names.mac(io.metaroce.protocol.Eth.src(s, eth))); }
                case ETH_DST_RESOLVED -> { if (eth >= 0) out.str(names.mac(io.metaroce.protocol.Eth.dst(s, eth))); }
                case ETH_ADDR_RESOLVED -> {
                    if (eth >= 0) out.str(names.mac(io.metaroce.protocol.Eth.dst(s, eth))).str(aggregator).str(names.mac(io.metaroce.protocol.Eth.src(s, eth)));
                }
                case IP_SRC_HOST -> { if (ip >= 0) out.str(names.ipv4(io.metaroce.protocol.Ip.src(s, ip))); }
                case IP_DST_HOST -> { if (ip >= 0) out.str(names.ipv4(io.metaroce.protocol.Ip.dst(s, ip))); }
                case IP_HOST -> {
                    if (ip >= 0) out.str(names.ipv4(io.metaroce.protocol.Ip.src(s, ip))).str(aggregator).str(names.ipv4(io.metaroce.protocol.Ip.dst(s, ip)));
                }
                case IPV6_SRC_HOST -> { if (ip6 >= 0) out.str(names.ipv6(io.metaroce.protocol.Ipv6.src(s, ip6))); }
                case IPV6_DST_HOST -> { if (ip6 >= 0) out.str(names.ipv6(io.metaroce.protocol.Ipv6.dst(s, ip6))); }
                case IPV6_HOST -> {
                    if (ip6 >= 0) out.str(names.ipv6(io.metaroce.protocol.Ipv6.src(s, ip6))).str(aggregator).str(names.ipv6(io.metaroce.protocol.Ipv6.dst(s, ip6)));
                }
                default -> { }
            }
        }

        /** The value as a JSON string (-T ek with -e). */
        void json(ByteOut out, Pseudo p, Dissection d) {
            switch (p) {
                case SOURCE -> out.json(FrameSummary.source(d, LINE, names));
                case DESTINATION -> out.json(FrameSummary.destination(d, LINE, names));
                case PROTOCOL -> out.json(FrameSummary.protocol(d, LINE));
                case INFO -> out.json(FrameSummary.info(d, LINE));
                default -> {
                    out.ch('"');
                    write(out, p, d);
                    out.ch('"');
                }
            }
        }
    }

    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    /** tshark's frame.time ("Jan  1, 2026 00:00:00.000001000 UTC"), in UTC whatever the machine's zone. */
    static String frameTime(long nanos) {
        java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                (int) Math.floorMod(nanos, 1_000_000_000L), java.time.ZoneOffset.UTC);
        return String.format(Locale.ROOT, "%s %2d, %d %02d:%02d:%02d.%09d UTC", MONTHS[t.getMonthValue() - 1],
                t.getDayOfMonth(), t.getYear(), t.getHour(), t.getMinute(), t.getSecond(), t.getNano());
    }

    /** Wireshark's encapsulation number (WTAP_ENCAP_*) for a pcap link type, or -1 when we do not map it. */
    static int encapType(int linkType) {
        return switch (linkType) {
            case 1 -> 1;      // Ethernet
            case 113 -> 25;   // Linux cooked capture v1
            case 276 -> 210;  // Linux cooked capture v2
            case 197 -> 98;   // ERF
            default -> -1;
        };
    }

    // ---------------------------------------------------------------------------------------------------------
    // Layers: which fields a frame shows, grouped as tshark groups them (one "infiniband" layer for BTH, RETH, ...).

    /** A field's Wireshark name where it has one, else ours. */
    static String wsName(FieldDef f) {
        return f.aliases().isEmpty() ? f.name() : f.aliases().get(0);
    }

    /** Per header, its layer: the Wireshark protocol of its fields (eth, ip, infiniband), or the header's id. */
    private static final String[] LAYER = layers();

    private static String[] layers() {
        String[] l = new String[Spec.HEADERS.size()];
        for (FieldDef f : Spec.FIELDS) {
            if (l[f.header()] == null && !f.aliases().isEmpty()) {
                String ws = f.aliases().get(0);
                l[f.header()] = ws.substring(0, ws.indexOf('.') < 0 ? ws.length() : ws.indexOf('.'));
            }
        }
        for (var e : Spec.PROTOCOL_ALIASES.entrySet()) {
            String p = e.getKey().indexOf('.') < 0 ? e.getKey() : e.getKey().substring(0, e.getKey().indexOf('.'));
            if (l[e.getValue()] == null) l[e.getValue()] = p;
        }
        for (int i = 0; i < l.length; i++) if (l[i] == null) l[i] = Spec.HEADERS.get(i).id();
        // The computed trailers: the ICRC is in tshark's infiniband layer (infiniband.invariant.crc).
        return l;
    }

    /** The layer (protocol) a field is shown in. */
    static String layer(FieldDef f) {
        return LAYER[f.header()];
    }

    /** Whether a -j/-J protocol name selects field f: its layer (infiniband), its header (bth) or a Wireshark alias of it. */
    static boolean selects(Set<String> protocols, FieldDef f) {
        if (protocols.contains(layer(f)) || protocols.contains(Spec.HEADERS.get(f.header()).id())) return true;
        for (String p : protocols) {
            Integer h = Spec.PROTOCOL_ALIASES.get(p);
            if (h != null && h == f.header()) return true;
        }
        return false;
    }

    /** Every protocol name -j/-J take (for its error message). */
    static java.util.SortedSet<String> protocolNames() {
        java.util.SortedSet<String> s = new java.util.TreeSet<>(Arrays.asList(LAYER));
        for (HeaderDef h : Spec.HEADERS) s.add(h.id());
        s.addAll(Spec.PROTOCOL_ALIASES.keySet());
        return s;
    }

    /** A frame's fields by layer, frame first then in wire order; worked out once per protocol stack. */
    static final class Layers {
        final String[] names;
        final FieldDef[][] fields;
        /** Per layer: the first and the last header of the frame in it (for PDML's pos and size), -1 when none. */
        final int[] firstLayer, lastLayer;
        boolean sameStack(Dissection d) {
            if (d.layerCount() != stack.length) return false;
            for (int i = 0; i < stack.length; i++) if (d.layerHeader(i) != stack[i]) return false;
            return true;
        }

        /** Per layer and field: its EK key as written ({@code "infiniband_infiniband_bth_psn":}) and tshark's format. */
        final byte[][][] ekKeys;
        final String[][] displays;
        /** The stack this layout is for. */
        final int[] stack;

        Layers(Dissection d, Set<String> only) {
            Map<String, List<FieldDef>> m = new LinkedHashMap<>();
            Map<String, int[]> span = new HashMap<>();
            m.put("frame", new ArrayList<>());
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (int i = 0; i < d.layerCount(); i++) {
                HeaderDef h = d.layer(i);
                String name = LAYER[h.index()];
                int[] s = span.get(name);
                if (s == null) span.put(name, new int[] {i, i});
                else s[1] = i;
                if (!seen.add(h.index())) continue;
                List<FieldDef> l = m.computeIfAbsent(name, k -> new ArrayList<>());
                for (int k = h.firstField(); k < h.firstField() + h.fieldCount(); k++) l.add(Spec.FIELDS.get(k));
            }
            for (FieldDef f : Spec.FIELDS) {
                if (seen.contains(f.header())) continue;
                String h = Spec.HEADERS.get(f.header()).id();
                // frame.* and the computed trailers (payload, ICRC, FCS, the analysis' fields): shown when present.
                if (h.equals("frame") || h.equals("payload") || h.equals("icrc") || h.equals("eth_fcs") || h.equals("analysis")) {
                    m.computeIfAbsent(LAYER[f.header()], k -> new ArrayList<>()).add(f);
                }
            }
            m.values().forEach(l -> l.removeIf(f -> f.name().equals("payload.data")));
            names = m.keySet().toArray(String[]::new);
            fields = new FieldDef[names.length][];
            ekKeys = new byte[names.length][][];
            displays = new String[names.length][];
            stack = new int[d.layerCount()];
            for (int i = 0; i < stack.length; i++) stack[i] = d.layerHeader(i);
            firstLayer = new int[names.length];
            lastLayer = new int[names.length];
            for (int i = 0; i < names.length; i++) {
                List<FieldDef> l = m.get(names[i]);
                if (only != null && !only.contains(names[i])) l.removeIf(f -> !selects(only, f));
                fields[i] = l.toArray(FieldDef[]::new);
                ekKeys[i] = new byte[fields[i].length][];
                displays[i] = new String[fields[i].length];
                for (int k = 0; k < fields[i].length; k++) {
                    String ws = wsName(fields[i][k]);
                    ekKeys[i][k] = ("\"" + names[i] + "_" + ws.replace('.', '_') + "\":").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    displays[i][k] = FieldCatalog.tsharkDisplay(ws);
                }
                int[] s = span.get(names[i]);
                firstLayer[i] = s == null ? -1 : s[0];
                lastLayer[i] = s == null ? -1 : s[1];
            }
        }

    }

    /** Whether layer i is one of our computed layers (payload, analysis, ...) with no value in this frame: not shown. */
    static boolean emptyComputed(Layers l, int i, FrameFields ff) {
        if (i == 0 || l.firstLayer[i] >= 0) return false;
        for (FieldDef f : l.fields[i]) if (ff.count(f) > 0) return false;
        return true;
    }

    /** The layout of each protocol stack, cached (a capture has a handful of stacks). */
    static final class LayerCache {
        private final Map<String, Layers> cache = new HashMap<>();
        private final Set<String> only;
        private final StringBuilder key = new StringBuilder();

        LayerCache(Set<String> only) { this.only = only; }

        /** The layout of the previous frame: consecutive frames mostly share their stack. */
        private Layers last;

        Layers of(Dissection d) {
            if (last != null && last.sameStack(d)) return last;
            key.setLength(0);
            for (int i = 0; i < d.layerCount(); i++) key.append((char) (d.layerHeader(i) + 'A'));
            Layers l = cache.get(key.toString());
            if (l == null) {
                l = new Layers(d, only);
                if (cache.size() < 4096) cache.put(key.toString(), l);
            }
            last = l;
            return l;
        }
    }

    /**
     * One value as tshark's text (booleans 1/0), as -T fields under the field's Wireshark name; bytes with colons,
     * as tshark's EK and PDML write them (00:40:c0:11).
     */
    static void text(ByteOut out, FrameFields ff, FieldDef f, int k, String display) {
        if (f.type() == ValueType.BYTES) {
            java.lang.foreign.MemorySegment m = ff.segment(f, k);
            for (long b = 0; b < m.byteSize(); b++) {
                if (b > 0) out.ch(':');
                out.hexByte(m.get(ValueLayout.JAVA_BYTE, b));
            }
            return;
        }
        FieldFormat.tshark(out, ff, f, k, display);
    }

    // ---------------------------------------------------------------------------------------------------------

    /**
     * -T ek: per frame an {"index":...} line then {"timestamp": ms, "layers": {layer: {key: value}}}, tshark's bulk
     * layout for Elasticsearch. Keys are the layer and the field's Wireshark name with dots as underscores
     * (infiniband_infiniband_bth_psn); values are strings, booleans true/false, repeated fields arrays. With -e
     * only those fields, each an array of strings under its name with underscores (frame_number), as tshark's.
     */
    static final class Ek implements DissectCommand.FrameSink {
        private final ByteOut out;
        private final LayerCache layers;
        private final Set<String> only;
        private final Object[] columns;
        private final String[] columnKeys;
        /** Per -e column: tshark's print format for the name as given (as -T fields). */
        private final String[] displays;
        private final Columns pseudo;
        private long day = Long.MIN_VALUE;
        private byte[] index;

        Ek(ByteOut out, Set<String> only, Object[] columns, List<String> names, int[] timeFormat) {
            this.out = out;
            this.only = only;
            this.layers = new LayerCache(only);
            this.columns = columns;
            this.columnKeys = columns == null ? null : names.stream().map(n -> n.replace('.', '_')).toArray(String[]::new);
            this.displays = columns == null ? null : names.stream().map(FieldCatalog::tsharkDisplay).toArray(String[]::new);
            this.pseudo = new Columns(out, timeFormat);
        }

        @Override
        public void batch(FrameBatch batch) { pseudo.batch(batch); }

        Ek names(io.metaroce.dissector.NameResolver r) {
            pseudo.names(r, ",");
            return this;
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            long ms = Math.floorDiv(d.timeNanos(), 1_000_000L);
            long today = Math.floorDiv(ms, 86_400_000L);
            if (today != day) {
                day = today;
                java.time.LocalDate date = java.time.LocalDate.ofEpochDay(today);
                index = ("{\"index\":{\"_index\":\"packets-" + String.format(Locale.ROOT, "%04d-%02d-%02d",
                        date.getYear(), date.getMonthValue(), date.getDayOfMonth()) + "\",\"_type\":\"doc\"}}\n")
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            }
            out.bytes(index).ascii("{\"timestamp\":\"").num(ms).ascii("\",\"layers\":{");
            if (columns != null) selected(d, ff);
            else all(d, ff);
            out.ascii("}}\n");
        }

        private void selected(Dissection d, FrameFields ff) {
            boolean first = true;
            for (int i = 0; i < columns.length; i++) {
                Object c = columns[i];
                int n = c instanceof FieldDef f ? ff.count(f) : 1;
                if (n == 0) continue;
                if (!first) out.ch(',');
                first = false;
                out.ch('"').ascii(columnKeys[i]).ascii("\":[");
                if (c instanceof FieldDef f) {
                    for (int k = 0; k < n; k++) {
                        if (k > 0) out.ch(',');
                        quoted(out, ff, f, k, displays[i]);
                    }
                } else {
                    pseudo.json(out, (Pseudo) c, d);
                }
                out.ch(']');
            }
        }

        private void all(Dissection d, FrameFields ff) {
            Layers l = layers.of(d);
            boolean firstLayer = true;
            for (int i = 0; i < l.names.length; i++) {
                if (emptyComputed(l, i, ff)) continue;
                if (!firstLayer) out.ch(',');
                firstLayer = false;
                String name = l.names[i];
                out.ch('"').ascii(name).ascii("\":{");
                if (only != null && !only.contains(name) && l.fields[i].length == 0) {
                    // tshark marks a layer -j/-J leaves out the same way.
                    out.ascii("\"filtered\":\"").ascii(name).ascii("\"}");
                    continue;
                }
                boolean first = true;
                FieldDef[] fs = l.fields[i];
                for (int x = 0; x < fs.length; x++) {
                    FieldDef f = fs[x];
                    int n = ff.count(f);
                    if (n == 0) continue;
                    if (!first) out.ch(',');
                    first = false;
                    out.bytes(l.ekKeys[i][x]);
                    if (n > 1) out.ch('[');
                    for (int k = 0; k < n; k++) {
                        if (k > 0) out.ch(',');
                        // A flag of ours that tshark has as a number (infiniband.cm.req.srq: 0x00) is written as tshark's.
                        String display = l.displays[i][x];
                        if (f.type() == ValueType.BOOL && display == null) out.ascii(ff.longValue(f, k) != 0 ? "true" : "false");
                        else quoted(out, ff, f, k, display);
                    }
                    if (n > 1) out.ch(']');
                }
                out.ch('}');
            }
        }

        /** A value as a JSON string of tshark's text. */
        private static void quoted(ByteOut out, FrameFields ff, FieldDef f, int k, String display) {
            if (f.type() == ValueType.STRING) {
                String s = ff.stringValue(f, k);
                out.json(s == null ? "" : s);
                return;
            }
            out.ch('"');
            text(out, ff, f, k, display);
            out.ch('"');
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    /** XML text: the five entities and control characters as character references. */
    static String xml(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&apos;";
                default -> c < 0x20 && c != '\t' ? "&#x" + Integer.toHexString(c) + ";" : null;
            };
            if (r == null && b == null) continue;
            if (b == null) b = new StringBuilder(s.length() + 16).append(s, 0, i);
            if (r != null) b.append(r);
            else b.append(c);
        }
        return b == null ? s : b.toString();
    }

    /** The columns of -T psml, as tshark's default columns. */
    static final String[] PSML_COLUMNS = {"No.", "Time", "Source", "Destination", "Protocol", "Length", "Info"};

    /** @param columns -o gui.column.format's columns, or null for the default ones */
    static void psmlHeader(ByteOut out, List<CustomColumns.Column> columns) {
        out.ascii("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<psml version=\"0\" creator=\"metaroce/")
                .ascii(StandardOptions.VERSION).ascii("\">\n<structure>\n");
        if (columns != null) CustomColumns.psmlStructure(out, columns);
        else for (String c : PSML_COLUMNS) out.ascii("<section>").ascii(c).ascii("</section>\n");
        out.ascii("</structure>\n\n");
    }

    static void psmlTrailer(ByteOut out) { out.ascii("</psml>\n"); }

    /** -T psml: per frame a packet element with the summary line's columns as sections, as tshark's. */
    static final class Psml implements DissectCommand.FrameSink {
        private final ByteOut out;
        private final Columns columns;

        private io.metaroce.dissector.NameResolver names = io.metaroce.dissector.NameResolver.NONE;

        Psml(ByteOut out, int[] timeFormat) {
            this.out = out;
            this.columns = new Columns(out, timeFormat);
        }

        Psml names(io.metaroce.dissector.NameResolver r) {
            names = r;
            columns.names(r, ",");
            return this;
        }

        @Override
        public void batch(FrameBatch batch) { columns.batch(batch); }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            out.ascii("<packet>\n");
            section(Pseudo.NUMBER, d);
            section(Pseudo.TIME, d);
            out.ascii("<section>").str(xml(FrameSummary.source(d, LINE, names))).ascii("</section>\n");
            out.ascii("<section>").str(xml(FrameSummary.destination(d, LINE, names))).ascii("</section>\n");
            out.ascii("<section>").str(xml(FrameSummary.protocol(d, LINE))).ascii("</section>\n");
            section(Pseudo.LENGTH, d);
            out.ascii("<section>").str(xml(FrameSummary.info(d, LINE))).ascii("</section>\n");
            out.ascii("</packet>\n\n");
        }

        private void section(Pseudo p, Dissection d) {
            out.ascii("<section>");
            columns.write(out, p, d);
            out.ascii("</section>\n");
        }
    }

    static void pdmlHeader(ByteOut out, String file) {
        String now = java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC)
                .format(java.time.format.DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT));
        out.ascii("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"pdml2html.xsl\"?>\n")
                .ascii("<pdml version=\"0\" creator=\"metaroce/").ascii(StandardOptions.VERSION).ascii("\" time=\"").ascii(now)
                .ascii("\" capture_file=\"").str(xml(file == null ? "" : file)).ascii("\">\n");
    }

    static void pdmlTrailer(ByteOut out) { out.ascii("</pdml>\n"); }

    /**
     * -T pdml: per frame a packet element: tshark's geninfo proto, then a proto per layer (frame first) with a
     * field element per field: name (Wireshark's where there is one), showname (label and value as -V prints it),
     * size and pos (bytes in the frame; 0 for computed fields), show (tshark's text) and value (the bytes in hex;
     * for a field that is not whole bytes, its value in hex and the bytes as unmaskedvalue, as tshark's).
     */
    static final class Pdml implements DissectCommand.FrameSink {
        private static final int ICRC_VALUE = FieldCatalog.get().field("icrc.value").id();
        private final ByteOut out;
        private final LayerCache layers;
        private final Set<String> only;

        Pdml(ByteOut out, Set<String> only) {
            this.out = out;
            this.only = only;
            this.layers = new LayerCache(only);
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            long len = d.originalLength();
            int cap = d.capturedLength();
            out.ascii("<packet>\n  <proto name=\"geninfo\" pos=\"0\" showname=\"General information\" size=\"").num(cap).ascii("\">\n");
            out.ascii("    <field name=\"num\" pos=\"0\" show=\"").num(d.number()).ascii("\" showname=\"Number\" value=\"")
                    .ascii(Long.toHexString(d.number())).ascii("\" size=\"").num(cap).ascii("\"/>\n");
            out.ascii("    <field name=\"len\" pos=\"0\" show=\"").num(len).ascii("\" showname=\"Frame Length\" value=\"")
                    .ascii(Long.toHexString(len)).ascii("\" size=\"").num(cap).ascii("\"/>\n");
            out.ascii("    <field name=\"caplen\" pos=\"0\" show=\"").num(cap).ascii("\" showname=\"Captured Length\" value=\"")
                    .ascii(Integer.toHexString(cap)).ascii("\" size=\"").num(cap).ascii("\"/>\n");
            out.ascii("    <field name=\"timestamp\" pos=\"0\" show=\"").ascii(frameTime(d.timeNanos()))
                    .ascii("\" showname=\"Captured Time\" value=\"").ascii(FieldFormat.seconds(d.timeNanos())).ascii("\" size=\"")
                    .num(cap).ascii("\"/>\n  </proto>\n");
            Layers l = layers.of(d);
            for (int i = 0; i < l.names.length; i++) {
                if ((only != null && !only.contains(l.names[i]) && l.fields[i].length == 0) || emptyComputed(l, i, ff)) continue;
                int pos = 0, size = cap;
                String showname;
                if (i == 0) {
                    showname = "Frame " + d.number() + ": " + len + " bytes on wire (" + len * 8 + " bits), " + cap
                            + " bytes captured (" + cap * 8L + " bits)";
                } else if (l.firstLayer[i] >= 0) {
                    pos = d.layerOffset(l.firstLayer[i]);
                    size = d.layerEnd(l.lastLayer[i]) - pos;
                    showname = d.layer(l.firstLayer[i]).title();
                } else {
                    size = 0;
                    showname = l.names[i];
                }
                out.ascii("  <proto name=\"").ascii(l.names[i]).ascii("\" showname=\"").str(xml(showname)).ascii("\" size=\"")
                        .num(size).ascii("\" pos=\"").num(pos).ascii("\">\n");
                for (FieldDef f : l.fields[i]) {
                    int n = ff.count(f);
                    for (int k = 0; k < n; k++) field(d, ff, f, k);
                }
                out.ascii("  </proto>\n");
            }
            out.ascii("</packet>\n\n");
        }

        private void field(Dissection d, FrameFields ff, FieldDef f, int k) {
            // Where the field is in the frame: wire fields of a header the frame has (its first occurrence).
            int layer = f.bitWidth() > 0 && !Spec.EITHER.containsKey(f.id()) ? d.findLayer(f.header()) : -1;
            int pos = 0, size = 0;
            if (layer >= 0) {
                pos = d.layerOffset(layer) + f.bitOffset() / 8;
                size = (f.bitOffset() % 8 + f.bitWidth() + 7) / 8;
                if (pos + size > d.capturedLength()) layer = -1;
            }
            if (layer < 0) pos = size = 0;
            if (f.id() == ICRC_VALUE && d.icrcOffset() >= 0) {
                pos = d.icrcOffset(); // a trailer of ours, 4 bytes in the frame as tshark's infiniband.invariant.crc
                size = 4;
            }
            out.ascii("    <field name=\"").ascii(wsName(f)).ascii("\" showname=\"").str(xml(f.label() + ": " + FieldFormat.display(ff, f, k)))
                    .ascii("\" size=\"").num(size).ascii("\" pos=\"").num(pos).ascii("\" show=\"");
            if (f.type() == ValueType.STRING) {
                String s = ff.stringValue(f, k);
                out.str(xml(s == null ? "" : s));
            } else {
                text(out, ff, f, k, FieldCatalog.tsharkDisplay(wsName(f)));
            }
            out.ch('"');
            if (layer >= 0) {
                boolean whole = f.bitOffset() % 8 == 0 && f.bitWidth() % 8 == 0 && f.mask() == 0;
                if (whole) {
                    out.ascii(" value=\"");
                    hex(d, pos, size);
                    out.ch('"');
                } else if (f.type() == ValueType.UINT || f.type() == ValueType.BOOL) {
                    out.ascii(" value=\"").ascii(Long.toHexString(ff.longValue(f, k)).toUpperCase(Locale.ROOT)).ascii("\" unmaskedvalue=\"");
                    hex(d, pos, size);
                    out.ch('"');
                }
            }
            out.ascii("/>\n");
        }

        private void hex(Dissection d, int pos, int size) {
            for (int b = 0; b < size; b++) out.hexByte(d.data().get(ValueLayout.JAVA_BYTE, pos + b));
        }
    }
}
