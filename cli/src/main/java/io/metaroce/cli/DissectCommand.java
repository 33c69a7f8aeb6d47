package io.metaroce.cli;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FieldFormat;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FramePipeline;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameJson;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import io.metaroce.protocol.FieldDef;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code metaroce dissect}: decode a capture with tshark's habits (-T, -e, -E, -c, -Y, -V, -q, -d). */
@Command(name = "dissect", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = {"Decode every frame of a capture: Ethernet/VLAN/IP/UDP, RoCEv1/v2, MetaRoCE v1 headers, CM MADs, "
                + "and check the ICRC.", "Field names: bth.psn, mrth.path_id, icrc.status, ... (Wireshark names such as "
                + "infiniband.bth.psn work too); list them with --list-fields."},
        // Each example fits the help's 80 columns, continued with a backslash: picocli cut the filters in the
        // middle of a field name ("bth.<newline>opcode"), and the copied lines did not run.
        footer = {"", "Examples:", "  metaroce dissect -r samples/captures/rocev2-clean.pcapng",
                "  metaroce dissect -r x.pcap -T fields -e frame.number -e bth.psn \\",
                "      -Y 'bth.opcode == 0x11 && aeth.syndrome.kind == nak'",
                "  metaroce dissect -r x.pcap -T jsonl -c 10", "  metaroce dissect -r x.pcap -q",
                "  metaroce dissect -r x.pcap \\",
                "      -Y 'analysis.retransmission && analysis.retransmission_cause == \"nak\"'"})
final class DissectCommand implements Callable<Integer> {
    enum Format { text, json, jsonl, fields }

    @picocli.CommandLine.Mixin
    StandardOptions standard;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = {"-r", "--read"}, paramLabel = "FILE", description = "Capture file to read (pcap or pcapng, gzip-compressed or not; - reads standard input).")
    Path file;

    @Option(names = {"-T", "--format"}, paramLabel = "FORMAT", description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).", defaultValue = "text")
    Format format;

    @Option(names = {"-e", "--field"}, paramLabel = "FIELD", description = "Field to print with -T fields (repeatable).")
    List<String> fields = new ArrayList<>();

    @Option(names = "-E", paramLabel = "KEY=VALUE", description = "-T fields options: header=y|n, separator=/t|/s|C, aggregator=/t|/s|C, quote=d|s|n (C: one character).")
    List<String> fieldOptions = new ArrayList<>();

    @Option(names = {"-c", "--count"}, paramLabel = "N", description = "Stop after N frames (that pass -Y).")
    Long countOption;
    private long count = Long.MAX_VALUE;

    @Option(names = {"-Y", "--display-filter"}, paramLabel = "FILTER", description = "Wireshark display filter, e.g. 'bth.psn >= 100 && mrth'.")
    String filter;

    @Option(names = "-V", description = "Print the full field tree of each frame (text output).")
    boolean verbose;

    @Option(names = "-q", description = "Decode and check every frame; print only a summary of frames, protocols and expert items.")
    boolean quiet;

    @Option(names = {"-d", "--decode-as"}, paramLabel = DecodeAs.LABEL, description = DecodeAs.HELP)
    List<String> decodeAs = new ArrayList<>();

    @Option(names = {"-A", "--analysis"}, description = "Add the analysis.* fields (retransmissions and their cause, spurious, "
            + "out of order, ACK RTT, ...: a first pass analyzes the capture). On by itself when -Y or -e names an analysis field.")
    boolean analysis;

    @Option(names = "--tap", paramLabel = "auto|host:IP|mirror", defaultValue = "auto",
            description = "Where the capture was taken, for the analysis fields (default: ${DEFAULT-VALUE}).")
    String tap;

    @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: one per core; output order is kept).")
    Integer threads;

    /**
     * The most --threads takes: the pipeline holds three batches per worker, so 100,000 workers filled a 6 GiB heap
     * before the first frame (out of memory); past the cores more workers only cost memory.
     */
    static final int MAX_THREADS = 1024;

    @Option(names = "--no-icrc", description = "Do not compute the ICRC.")
    boolean noIcrc;

    @Option(names = "--list-fields", description = "List every field name with its type and label, then exit.")
    boolean listFields;

    /** Live capture instead of -r (-i IFACE, -f, -s, -B, -p, --immediate, --queue, -a duration:S). */
    @picocli.CommandLine.Mixin
    LiveOptions live;

    private final PrintStream err = System.err;
    // With -i: the running capture, and output flushed after every batch so that frames show as they come.
    private LiveSession session;


    @Override
    public Integer call() {
        if (listFields) {
            listFields();
            return 0;
        }
        if (file == null && !live.live()) {
            err.println("metaroce dissect: no capture given (-r FILE, or -i IFACE to capture live)");
            return 2;
        }
        // Usage errors first, whatever else the command line asks for (tshark's wording for -c).
        if (countOption != null) {
            if (countOption == 0) throw usage("The specified packet count is zero");
            if (countOption < 0) throw usage("The specified packet count \"" + countOption + "\" is a negative number");
            count = countOption;
        }
        String conflict = live.fileConflict();
        if (conflict != null) throw usage(conflict);
        // An empty name is the path of the working directory (": is a directory, not a capture file").
        if (file != null && file.toString().isEmpty()) throw usage("'': the file name is empty");
        // 0 or a negative count of threads was taken silently as the default; too many ran out of memory.
        if (threads != null && (threads < 1 || threads > MAX_THREADS)) {
            throw usage("--threads must be 1 to " + MAX_THREADS + ", not " + threads);
        }
        Set<Integer> ports = new HashSet<>(DissectorConfig.DEFAULT.roceUdpPorts());
        AnalysisSettings.Tap tapChoice;
        try {
            ports.addAll(DecodeAs.ports(decodeAs));
            tapChoice = TapCheck.parse(tap);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        DisplayFilter displayFilter = null;
        if (filter != null) {
            try {
                displayFilter = DisplayFilter.compile(filter, FieldCatalog.get());
            } catch (FilterException e) {
                // One line (scripts and CI logs); on a terminal also the filter with a caret under the problem.
                // A tshark name we know but cannot offer says why on the same line (spec file, ws-unmapped).
                StringBuilder why = new StringBuilder();
                Matcher words = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*").matcher(filter);
                while (words.find()) {
                    String reason = FieldCatalog.get().resolve(words.group()) == null ? FieldCatalog.unmappedReason(words.group()) : null;
                    if (reason != null) why.append("; ").append(words.group()).append(" has no equivalent here: ").append(reason);
                }
                err.println("metaroce dissect: bad display filter: " + e.oneLine() + why);
                if (Terminal.stderrIsTerminal()) err.println(e.formatted().substring(e.getMessage().length() + 1));
                return 2;
            }
        }
        List<FieldDef> selected = new ArrayList<>();
        for (String name : fields) {
            FieldDef f = FieldCatalog.get().field(name);
            if (f == null) {
                String why = FieldCatalog.unmappedReason(name);
                err.println("metaroce dissect: '" + name + "' is not a valid field (see --list-fields)"
                        + (why == null ? "" : "; no equivalent here: " + why));
                return 2;
            }
            selected.add(f);
        }
        // tshark: -e needs -T fields (or json/jsonl, which it narrows to those fields).
        if (!fields.isEmpty() && format == Format.text) {
            err.println("metaroce dissect: Output fields were specified with \"-e\", but \"-T fields\", \"-T json\" or \"-T jsonl\" was not specified.");
            return 2;
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
        boolean needAnalysis = analysis || selected.stream().anyMatch(f -> f.name().startsWith("analysis."))
                || (displayFilter != null && displayFilter.referencedFields().stream().anyMatch(f -> f.name().startsWith("analysis.")));
        AnalysisSession verdicts = null;
        if (needAnalysis && live.live()) {
            err.println("metaroce dissect: the analysis.* fields (-A) need a capture file: use analyze -i for live analysis");
            return 2;
        }
        if (needAnalysis) {
            try {
                AnalysisSettings settings = AnalysisSettings.DEFAULT.withPorts(ports).withTap(tapChoice)
                        .withCheckIcrc(!noIcrc);
                String warning = TapCheck.warning(file, ports, tapChoice);
                if (warning != null) err.println("metaroce dissect: " + warning);
                verdicts = new AnalysisSession(settings, new AnalysisSession.Options(true, false, false));
                verdicts.run(file);
            } catch (CaptureException e) {
                err.println("metaroce dissect: " + e.getMessage());
                return 2;
            } catch (IllegalArgumentException e) {
                err.println("metaroce dissect: " + e.getMessage());
                return 2;
            }
        }
        PacketSource src;
        if (live.live()) {
            src = openLive(ports);
            if (src == null) return 2;
        } else {
            try {
                src = CaptureFiles.open(file);
            } catch (CaptureException e) {
                err.println("metaroce dissect: " + e.getMessage());
                return 2;
            }
        }
        try (src) {
            int workers = threads != null ? threads : FramePipeline.defaultThreads();
            if (quiet) quietRun(src, config, displayFilter, count == Long.MAX_VALUE ? workers : 1, verdicts);
            // frame.time_delta_displayed needs the frames in display order: one worker then.
            else if (!outputRun(src, config, displayFilter, selected, fo,
                    selected.stream().anyMatch(f -> f.name().equals("frame.time_delta_displayed")) ? 1 : workers, verdicts))
                return 0; // stdout closed
            System.out.flush();
            if (session == null) {
                for (CaptureProblem p : src.problems()) err.println("metaroce dissect: " + file + ": " + p.message());
                // Every readable frame was printed, but the capture is damaged: exit 2, as tshark does.
                if (!src.problems().isEmpty()) return 2;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 2;
        } finally {
            if (session != null) {
                session.close();
                session.summary();
            }
        }
        return session != null && session.capture().error() != null ? 2 : 0;
    }

    /** dissect -i: the frame source is a live capture; everything after it is the file path's code. */
    private PacketSource openLive(Set<Integer> ports) {
        LiveSession.Autostop stop;
        try {
            stop = LiveSession.Autostop.parse(live.autostop);
        } catch (IllegalArgumentException e) {
            err.println("metaroce dissect: " + e.getMessage());
            return null;
        }
        session = LiveSession.start("dissect", live, ports, 0, stop.durationNanos(), err);
        if (session == null) return null;
        file = Path.of(String.join(",", live.interfaces));
        return new io.metaroce.capture.live.LivePacketSource(session.capture());
    }

    private picocli.CommandLine.ParameterException usage(String message) {
        return new picocli.CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** -q: every worker keeps its own counts; they are merged at the end. */
    private void quietRun(PacketSource src, DissectorConfig config, DisplayFilter displayFilter, int workers,
                          AnalysisSession verdicts) throws InterruptedException {
        long[] budget = {count};
        long size = src.mapping().byteSize();
        List<QuietWorker> ws;
        try (ProgressBar bar = ProgressBar.open("dissect", null)) {
            ws = FramePipeline.run(src, workers, () -> new QuietWorker(config, displayFilter, budget, verdicts), r -> {
                if (bar != null) bar.update(src.recordOffset(), size);
                return true;
            });
        }
        Summary total = new Summary(file);
        for (QuietWorker w : ws) total.merge(w.summary);
        try (ByteOut out = new ByteOut(System.out)) {
            total.print(out, src);
        }
    }

    private static final class QuietWorker implements FramePipeline.Worker<Object> {
        final Dissector dissector;
        final DisplayFilter filter;
        final Dissection d = new Dissection();
        final FrameFields ff = new FrameFields();
        final Summary summary;
        final long[] budget; // shared only when there is a single worker (-c)
        final AnalysisFrameFields analysis;

        QuietWorker(DissectorConfig config, DisplayFilter filter, long[] budget, AnalysisSession verdicts) {
            this.dissector = new Dissector(config);
            this.filter = filter;
            this.budget = budget;
            this.summary = new Summary(null);
            this.analysis = verdicts == null ? null : verdicts.frameFields();
        }

        @Override
        public Object process(FrameBatch batch) {
            for (int i = 0; i < batch.size() && budget[0] > 0; i++) {
                batch.dissect(i, dissector, d);
                if (analysis != null) analysis.attach(d);
                if (filter != null && !filter.matches(ff.of(d))) continue;
                if (budget[0] != Long.MAX_VALUE) budget[0]--;
                summary.frame(d, ff);
            }
            return null;
        }
    }

    /**
     * Output formats: workers render their batch into a buffer; the buffers are written in capture order.
     * Returns false when stdout was closed (a pipe to head): the run stops at the next batch, quietly.
     */
    private boolean outputRun(PacketSource src, DissectorConfig config, DisplayFilter displayFilter, List<FieldDef> selected,
                           FieldsOptions fo, int workers, AnalysisSession verdicts) throws InterruptedException {
        boolean array = format == Format.json;
        ByteOut stdout = new ByteOut(System.out);
        if (array) stdout.ch('[');
        if (format == Format.fields && fo.header()) FieldsText.header(stdout, fields, fo);
        long[] remaining = {count};
        boolean[] first = {true};
        // The batches' buffers go round: a worker renders into one, this thread writes it out and hands it back.
        Queue<byte[]> spare = new ConcurrentLinkedQueue<>();
        FramePipeline.run(src, workers, () -> new OutputWorker(config, displayFilter, verdicts, spare, out -> switch (format) {
            case text -> verbose ? new TreeText(out) : new SummaryLines(out);
            case json, jsonl -> new FrameJson(out, array, selected.isEmpty() ? null : selected)::frame;
            case fields -> new FieldsText(out, selected, fields, fo);
        }), chunk -> {
            int[] ends = chunk.ends();
            if (!array && remaining[0] >= ends.length) {
                // Every frame of the batch is shown and nothing goes between them: one write for all (from 64 KiB
                // on, ByteOut hands it to stdout without copying it into its own buffer).
                if (ends.length > 0) stdout.bytes(chunk.bytes(), 0, ends[ends.length - 1]);
                remaining[0] -= ends.length;
            } else {
                int start = 0;
                for (int k = 0; k < ends.length && remaining[0] > 0; k++) {
                    if (array) stdout.ascii(first[0] ? "\n  " : ",\n  ");
                    first[0] = false;
                    stdout.bytes(chunk.bytes(), start, ends[k] - start);
                    start = ends[k];
                    remaining[0]--;
                }
            }
            spare.offer(chunk.bytes()); // written out or copied: free for the next batch
            if (session != null) stdout.flush();
            return remaining[0] > 0 && !stdout.closed();
        });
        if (array) stdout.ascii(first[0] ? "]\n" : "\n]\n");
        stdout.flush();
        return !stdout.closed();
    }

    /** The rendered frames of one batch and where each ends ({@code bytes} may be longer than the last end). */
    record Chunk(byte[] bytes, int[] ends) {}

    private static final class OutputWorker implements FramePipeline.Worker<Chunk> {
        final Dissector dissector;
        final DisplayFilter filter;
        final Dissection d = new Dissection();
        final FrameFields ff = new FrameFields();
        final GrowBuffer buffer;
        final ByteOut out;
        final FrameSink sink;
        final AnalysisFrameFields analysis;
        /** Time of the frame this worker showed last: with a single worker, the previous displayed frame. */
        long lastShownNanos = Long.MIN_VALUE;
        int[] ends = new int[FramePipeline.defaultBatch()];

        OutputWorker(DissectorConfig config, DisplayFilter filter, AnalysisSession verdicts, Queue<byte[]> spare,
                     java.util.function.Function<ByteOut, FrameSink> sinks) {
            this.buffer = new GrowBuffer(spare);
            this.out = new ByteOut(buffer);
            this.dissector = new Dissector(config);
            this.filter = filter;
            this.sink = sinks.apply(out);
            this.analysis = verdicts == null ? null : verdicts.frameFields();
        }

        @Override
        public Chunk process(FrameBatch batch) {
            out.flush();
            buffer.reset();
            long base = out.position();
            sink.batch(batch);
            int k = 0;
            for (int i = 0; i < batch.size(); i++) {
                batch.dissect(i, dissector, d);
                if (analysis != null) analysis.attach(d);
                if (filter != null && !filter.matches(ff.of(d))) continue;
                d.previousDisplayedNanos(lastShownNanos);
                lastShownNanos = d.timeNanos();
                sink.frame(d, ff.of(d));
                if (k == ends.length) ends = java.util.Arrays.copyOf(ends, k * 2);
                ends[k++] = (int) (out.position() - base);
            }
            out.flush();
            return new Chunk(buffer.take(), java.util.Arrays.copyOf(ends, k));
        }
    }

    /**
     * An in-memory byte sink for one batch at a time. Its array is handed over as it is ({@link #take}, no copy:
     * dissect -T jsonl renders about 1 KB a frame, and copying each batch into an array of its own allocated as much
     * as the output, 99 MB on 100 k frames, and two young collections) and replaced by a spare one given back by
     * the writer.
     */
    static final class GrowBuffer extends java.io.OutputStream {
        private final Queue<byte[]> spare;
        private byte[] buf;
        private int size;

        GrowBuffer(Queue<byte[]> spare) {
            this.spare = spare;
            this.buf = fresh();
        }

        private byte[] fresh() {
            byte[] b = spare.poll();
            return b != null ? b : new byte[1 << 16];
        }

        @Override
        public void write(int b) {
            ensure(1);
            buf[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, size, len);
            size += len;
        }

        private void ensure(int n) {
            if (size + n > buf.length) buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }

        void reset() { size = 0; }

        /** The array holding what was written (and maybe more after it); writing goes on in a spare one. */
        byte[] take() {
            byte[] b = buf;
            buf = fresh();
            size = 0;
            return b;
        }
    }

    private void listFields() {
        try (ByteOut out = new ByteOut(System.out)) {
            for (FieldDef f : FieldCatalog.get().fields()) {
                out.str(f.name()).ch('\t').ascii(f.type().name().toLowerCase()).ch('\t').str(f.label());
                List<String> aliases = f.aliases().stream().filter(a -> !a.equals(f.name())).toList();
                if (!aliases.isEmpty()) out.ascii("\t(alias: ").str(String.join(", ", aliases)).ch(')');
                out.ch('\n');
            }
        }
    }

    /** Receives the frames that pass the filter. */
    interface FrameSink {
        /** Called before each batch of frames. */
        default void batch(FrameBatch batch) {}
        void frame(Dissection d, FrameFields ff);
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
                // A value outside the documented ones is an error, as in tshark (which refuses header=maybe, quote=z
                // and an empty separator); before, header=maybe was taken as n, quote=z as n, separator=xx as "xx".
                switch (k) {
                    case "header" -> header = switch (v) {
                        case "y" -> true;
                        case "n" -> false;
                        default -> throw badValue(o, "y or n");
                    };
                    case "separator" -> sep = character(o, v);
                    case "aggregator" -> agg = character(o, v);
                    case "quote" -> quote = switch (v) {
                        case "d" -> '"';
                        case "s" -> '\'';
                        case "n" -> 0;
                        default -> throw badValue(o, "d, s or n");
                    };
                    default -> throw new IllegalArgumentException("unknown -E option '" + k + "'");
                }
            }
            return new FieldsOptions(header, sep, agg, quote);
        }

        /** A separator or aggregator: /t (tab), /s (space) or one character. */
        private static String character(String option, String v) {
            if (v.equals("/t")) return "\t";
            if (v.equals("/s")) return " ";
            if (v.codePointCount(0, v.length()) != 1) throw badValue(option, "/t, /s or one character");
            return v;
        }

        private static IllegalArgumentException badValue(String option, String expected) {
            return new IllegalArgumentException("bad -E value '" + option + "': expected " + expected);
        }
    }

    /** -T fields. */
    static final class FieldsText implements FrameSink {
        private final ByteOut out;
        private final List<FieldDef> fields;
        /** Per column: tshark's print format when the field was named by a Wireshark name, else null. */
        private final String[] tshark;
        private final FieldsOptions o;

        FieldsText(ByteOut out, List<FieldDef> fields, List<String> names, FieldsOptions o) {
            this.out = out;
            this.fields = fields;
            this.tshark = names.stream().map(FieldCatalog::tsharkDisplay).toArray(String[]::new);
            this.o = o;
        }

        /** The header row names the columns as they were asked for, as tshark does. */
        static void header(ByteOut out, List<String> names, FieldsOptions o) {
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) out.str(o.separator());
                out.str(names.get(i));
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
                    FieldFormat.tshark(out, ff, f, k, tshark[i]);
                }
                if (n > 0 && o.quote() != 0) out.ch(o.quote());
            }
            out.ch('\n');
        }
    }
}
