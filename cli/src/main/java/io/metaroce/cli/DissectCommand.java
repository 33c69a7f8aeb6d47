package io.metaroce.cli;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameFields;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Spec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code metaroce dissect}: decode a capture with tshark's habits (-T, -e, -E, -c, -Y, -V, -q, -d). */
@Command(name = "dissect", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Decode every frame of a capture: Ethernet/VLAN/IP/UDP, RoCEv1/v2, MetaRoCE v1 headers, CM MADs, "
                + "and check the ICRC.", "Field names: bth.psn, mrth.path_id, icrc.status, ... (Wireshark names such as "
                + "infiniband.bth.psn work too); list them with --list-fields."},
        footer = {"", "Examples:", "  metaroce dissect -r samples/captures/rocev2-clean.pcapng",
                "  metaroce dissect -r x.pcap -T fields -e frame.number -e bth.psn -Y 'bth.opcode == 0x11 && aeth.syndrome.kind == nak'",
                "  metaroce dissect -r x.pcap -T jsonl -c 10", "  metaroce dissect -r x.pcap -q"})
final class DissectCommand implements Callable<Integer> {
    enum Format { text, json, jsonl, fields }

    @Option(names = {"-r", "--read"}, paramLabel = "FILE", description = "Capture file to read (pcap or pcapng).")
    Path file;

    @Option(names = {"-T", "--format"}, paramLabel = "FORMAT", description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).", defaultValue = "text")
    Format format;

    @Option(names = {"-e", "--field"}, paramLabel = "FIELD", description = "Field to print with -T fields (repeatable).")
    List<String> fields = new ArrayList<>();

    @Option(names = "-E", paramLabel = "KEY=VALUE", description = "-T fields options: header=y|n, separator=/t|/s|C, aggregator=C, quote=d|s|n.")
    List<String> fieldOptions = new ArrayList<>();

    @Option(names = {"-c", "--count"}, paramLabel = "N", description = "Stop after N frames (that pass -Y).")
    long count = Long.MAX_VALUE;

    @Option(names = {"-Y", "--display-filter"}, paramLabel = "FILTER", description = "Wireshark display filter, e.g. 'bth.psn >= 100 && mrth'.")
    String filter;

    @Option(names = "-V", description = "Print the full field tree of each frame (text output).")
    boolean verbose;

    @Option(names = "-q", description = "Decode and check every frame; print only a summary of frames, protocols and expert items.")
    boolean quiet;

    @Option(names = {"-d", "--decode-as"}, paramLabel = "udp.port==N,roce", description = "Decode UDP destination port N as RoCE (like tshark -d; 'infiniband' also accepted).")
    List<String> decodeAs = new ArrayList<>();

    @Option(names = "--no-icrc", description = "Do not compute the ICRC.")
    boolean noIcrc;

    @Option(names = "--list-fields", description = "List every field name with its type and label, then exit.")
    boolean listFields;

    private final PrintStream err = System.err;


    @Override
    public Integer call() {
        if (listFields) {
            listFields();
            return 0;
        }
        if (file == null) {
            err.println("metaroce dissect: no capture given (-r FILE)");
            return 2;
        }
        Set<Integer> ports = new HashSet<>(DissectorConfig.DEFAULT.roceUdpPorts());
        for (String d : decodeAs) {
            Matcher m = Pattern.compile("udp\\.(?:dst)?port\\s*==\\s*(\\d+)\\s*,\\s*(roce|rocev2|infiniband|bth|metaroce)").matcher(d.trim());
            if (!m.matches()) {
                err.println("metaroce dissect: -d expects udp.port==N,roce, got '" + d + "'");
                return 2;
            }
            ports.add(Integer.parseInt(m.group(1)));
        }
        DisplayFilter displayFilter = null;
        if (filter != null) {
            try {
                displayFilter = DisplayFilter.compile(filter, FieldCatalog.get());
            } catch (FilterException e) {
                err.println("metaroce dissect: bad display filter");
                err.println(e.formatted());
                return 2;
            }
        }
        List<FieldDef> selected = new ArrayList<>();
        for (String name : fields) {
            FieldDef f = FieldCatalog.get().field(name);
            if (f == null) {
                err.println("metaroce dissect: '" + name + "' is not a valid field (see --list-fields)");
                return 2;
            }
            selected.add(f);
        }
        if (format == Format.fields && selected.isEmpty() && !quiet) {
            err.println("metaroce dissect: -T fields needs at least one -e FIELD");
            return 2;
        }
        FieldsOptions fo;
        try {
            fo = FieldsOptions.parse(fieldOptions);
        } catch (IllegalArgumentException e) {
            err.println("metaroce dissect: " + e.getMessage());
            return 2;
        }
        DissectorConfig config = new DissectorConfig(ports, !noIcrc);
        PacketSource src;
        try {
            src = CaptureFiles.open(file);
        } catch (CaptureException e) {
            err.println("metaroce dissect: " + e.getMessage());
            return 2;
        }
        try (src; ByteOut out = new ByteOut(System.out)) {
            FrameSink sink = quiet ? new Summary(out, file) : switch (format) {
                case text -> verbose ? new TreeText(out) : new SummaryLines(out);
                case json -> new JsonFrames(out, true);
                case jsonl -> new JsonFrames(out, false);
                case fields -> new FieldsText(out, selected, fo);
            };
            Dissector dissector = new Dissector(config);
            Dissection d = new Dissection();
            FrameFields ff = new FrameFields();
            long shown = 0;
            sink.begin();
            while (shown < count && src.next()) {
                dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength(), d);
                if (displayFilter != null && !displayFilter.matches(ff.of(d))) continue;
                shown++;
                sink.frame(d, ff.of(d));
            }
            sink.end(src);
            out.flush();
            for (CaptureProblem p : src.problems()) err.println("metaroce dissect: " + file + ": " + p.message());
        }
        return 0;
    }

    private void listFields() {
        try (ByteOut out = new ByteOut(System.out)) {
            for (FieldDef f : FieldCatalog.get().fields()) {
                out.str(f.name()).ch('\t').ascii(f.type().name().toLowerCase()).ch('\t').str(f.label());
                if (!f.aliases().isEmpty()) out.ascii("\t(alias: ").str(String.join(", ", f.aliases())).ch(')');
                out.ch('\n');
            }
        }
    }

    /** Receives the frames that pass the filter. */
    interface FrameSink {
        default void begin() {}
        void frame(Dissection d, FrameFields ff);
        default void end(PacketSource src) {}
    }

    record FieldsOptions(boolean header, String separator, String aggregator, char quote) {
        static FieldsOptions parse(List<String> opts) {
            boolean header = false;
            String sep = "\t", agg = ",";
            char quote = 0;
            for (String o : opts) {
                int eq = o.indexOf('=');
                if (eq < 0) throw new IllegalArgumentException("-E expects KEY=VALUE, got '" + o + "'");
                String k = o.substring(0, eq), v = o.substring(eq + 1);
                switch (k) {
                    case "header" -> header = v.equals("y");
                    case "separator" -> sep = v.equals("/t") ? "\t" : v.equals("/s") ? " " : v;
                    case "aggregator" -> agg = v.equals("/s") ? " " : v;
                    case "quote" -> quote = v.equals("d") ? '"' : v.equals("s") ? '\'' : 0;
                    default -> throw new IllegalArgumentException("unknown -E option '" + k + "'");
                }
            }
            return new FieldsOptions(header, sep, agg, quote);
        }
    }

    /** -T fields. */
    static final class FieldsText implements FrameSink {
        private final ByteOut out;
        private final List<FieldDef> fields;
        private final FieldsOptions o;

        FieldsText(ByteOut out, List<FieldDef> fields, FieldsOptions o) {
            this.out = out;
            this.fields = fields;
            this.o = o;
        }

        @Override
        public void begin() {
            if (!o.header()) return;
            for (int i = 0; i < fields.size(); i++) {
                if (i > 0) out.str(o.separator());
                out.str(fields.get(i).name());
            }
            out.ch('\n');
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            for (int i = 0; i < fields.size(); i++) {
                if (i > 0) out.str(o.separator());
                FieldDef f = fields.get(i);
                int n = ff.count(f);
                if (n > 0 && o.quote() != 0) out.ch(o.quote());
                for (int k = 0; k < n; k++) {
                    if (k > 0) out.str(o.aggregator());
                    FieldFormat.plain(out, ff, f, k);
                }
                if (n > 0 && o.quote() != 0) out.ch(o.quote());
            }
            out.ch('\n');
        }
    }

    /** -T json / -T jsonl: {"frame", "time_ns", "len", "cap_len", "protocols", "fields", "expert"}. */
    static final class JsonFrames implements FrameSink {
        private static final Set<String> SKIPPED = Set.of("payload.data");
        private final ByteOut out;
        private final boolean array;
        private boolean first = true;

        JsonFrames(ByteOut out, boolean array) {
            this.out = out;
            this.array = array;
        }

        @Override
        public void begin() { if (array) out.ch('['); }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            if (array) out.ascii(first ? "\n  " : ",\n  ");
            first = false;
            out.ascii("{\"frame\": ").num(d.number()).ascii(", \"time_ns\": ").num(d.timeNanos())
                    .ascii(", \"len\": ").num(d.originalLength()).ascii(", \"cap_len\": ").num(d.capturedLength())
                    .ascii(", \"protocols\": ").json(d.protocols()).ascii(", \"fields\": {");
            boolean firstField = true;
            for (FieldDef f : JsonOrder.fieldsOf(d)) {
                int n = ff.count(f);
                if (n == 0 || SKIPPED.contains(f.name())) continue;
                if (!firstField) out.ascii(", ");
                firstField = false;
                out.ch('"').ascii(f.name()).ascii("\": ");
                if (n == 1) FieldFormat.json(out, ff, f, 0);
                else {
                    out.ch('[');
                    for (int k = 0; k < n; k++) {
                        if (k > 0) out.ascii(", ");
                        FieldFormat.json(out, ff, f, k);
                    }
                    out.ch(']');
                }
            }
            out.ascii("}, \"expert\": [");
            for (int i = 0; i < d.expert().size(); i++) {
                ExpertItem e = d.expert().get(i);
                if (i > 0) out.ascii(", ");
                out.ascii("{\"severity\": \"").ascii(e.severity().label()).ascii("\", \"group\": \"")
                        .ascii(e.group().name().toLowerCase()).ascii("\", \"message\": ").json(e.message()).ch('}');
            }
            out.ascii("]}");
            if (!array) out.ch('\n');
        }

        @Override
        public void end(PacketSource src) { if (array) out.ascii(first ? "]\n" : "\n]\n"); }
    }

    /** Frame-by-frame field order: headers in wire order, then computed fields. Cached per protocol stack. */
    static final class JsonOrder {
        private static final Map<String, List<FieldDef>> CACHE = new LinkedHashMap<>();
        private static final List<FieldDef> TRAILING = new ArrayList<>();

        static {
            for (FieldDef f : Spec.FIELDS) {
                String h = Spec.HEADERS.get(f.header()).id();
                if (h.equals("payload") || h.equals("icrc") || h.equals("eth_fcs") || h.equals("analysis")) TRAILING.add(f);
            }
        }

        static List<FieldDef> fieldsOf(Dissection d) {
            String key = d.protocols();
            List<FieldDef> l = CACHE.get(key);
            if (l != null) return l;
            l = new ArrayList<>();
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < d.layerCount(); i++) {
                var h = d.layer(i);
                if (!seen.add(h.index())) continue;
                for (int k = h.firstField(); k < h.firstField() + h.fieldCount(); k++) l.add(Spec.FIELDS.get(k));
            }
            l.addAll(TRAILING);
            if (CACHE.size() < 4096) CACHE.put(key, l);
            return l;
        }
    }
}
