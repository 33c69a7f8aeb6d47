package io.metaroce.cli;

import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.AnalyzeOutput;
import io.metaroce.capture.CaptureException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec.Target;

/**
 * {@code metaroce analyze}: QP flows, retransmissions and their causes, congestion, paths and capture
 * integrity of a RoCEv2 / MetaRoCE capture (issue 4). Parses options into {@link AnalysisSettings}; the work
 * and the output forms live in the analysis module ({@link AnalyzeOutput}).
 *
 * <p>The options' defaults are the fields' initial values, not picocli's {@code defaultValue}: {@code analyze -r FILE}
 * (or {@code analyze FILE}) alone runs on a new instance without picocli ({@link FrontDoor#plainCommand}), and picocli takes the same values as
 * the defaults of every other form (and of {@code ${DEFAULT-VALUE}} in the help).
 */
@Command(name = "analyze", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Analyze a capture: QP flows and their pairing, retransmissions and their causes (nak, nack, sack, "
                + "timeout, rnr), spurious and out-of-order packets, ECN/CNP accounting, MetaRoCE path health and "
                + "capture integrity (capture loss vs network loss).",
        footer = {"", "Examples:", "  metaroce analyze -r x.pcapng", "  metaroce analyze -r x.pcapng -T json --tap host:10.0.0.1",
                "  metaroce analyze -r x.pcapng --events jsonl | grep retransmission",
                "  metaroce analyze -r x.pcapng --messages --qp 0x1a2",
                "  metaroce analyze -r x.pcapng --nccl rank0.log"})
public final class AnalyzeCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec(Target.SELF)
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    StandardOptions standard;

    @picocli.CommandLine.Mixin
    StandardOptions.NoVerbose noVerbose;

    @Option(names = {"-r", "--read"}, paramLabel = "FILE", description = "capture to read (pcap or pcapng, gzip-compressed or not; - reads standard input); repeatable, or a directory")
    List<Path> reads = new java.util.ArrayList<>();

    @picocli.CommandLine.Parameters(paramLabel = "FILE|DIR", arity = "0..*",
            description = "more captures or directories of them: analyzed in parallel, reports in the order given (a directory's sorted)")
    List<Path> inputs = new java.util.ArrayList<>();

    @Option(names = "--threads", paramLabel = "N", description = "captures analyzed at once (default: one per core)")
    Integer threads;

    /** Live capture instead of -r (-i IFACE, -f, -s, -B, -p, --immediate, --queue, -a duration:S); see LiveAnalyze. */
    @picocli.CommandLine.Mixin
    LiveOptions live;

    @Option(names = "-c", paramLabel = "N", description = "with -i: stop after N frames")
    Long count;

    @Option(names = {"-T", "--format"}, paramLabel = "FORMAT",
            description = "report format: text (tshark-style tables, default) or json (one object: capture, flows, events)")
    String format = "text";

    @Option(names = "--events", paramLabel = "jsonl", description = "print only the events, one JSON object per line, as they are decided")
    String events;

    @Option(names = "--messages", paramLabel = "text|jsonl", arity = "0..1", fallbackValue = "text",
            description = "print only the RDMA messages, one line each as it is decided: first packet's frame and time, flow, kind, "
                    + "first and last PSN, packets, bytes, RETH DMA length, duration, completion, retransmitted packets, immediate "
                    + "data, invalidated rkey, status (complete, acked, incomplete, cut); jsonl: one JSON object per line; "
                    + "--qp/--peer keep those QPs' messages")
    String messages;

    @Option(names = "--compact", description = "JSON on one line instead of indented")
    boolean compact;

    @Option(names = "--tap", paramLabel = "auto|host:IP|mirror",
            description = "where the capture was taken (spec 11); auto: the address in every frame (default)")
    String tap = "auto";

    @Option(names = {"-d", "--decode-as"}, paramLabel = DecodeAs.LABEL, description = DecodeAs.HELP)
    List<String> ports;

    @Option(names = "--disable-protocol", paramLabel = io.metaroce.dissector.EnabledProtocols.LABEL,
            description = io.metaroce.dissector.EnabledProtocols.DISABLE_HELP)
    List<String> disableProtocols = new java.util.ArrayList<>();

    @Option(names = "--enable-protocol", paramLabel = io.metaroce.dissector.EnabledProtocols.LABEL,
            description = io.metaroce.dissector.EnabledProtocols.ENABLE_HELP)
    List<String> enableProtocols = new java.util.ArrayList<>();

    @Option(names = "--cnp-interval-us", paramLabel = "US", description = "minimum CNP spacing (default 50)")
    double cnpIntervalUs = 50;

    @Option(names = "--cnp-pacing", paramLabel = "qp|ip-pair|dest-ip",
            description = "what the notification point paces CNPs by (default qp)")
    String cnpPacing = "qp";

    @Option(names = "--ce-window-us", paramLabel = "US", description = "CE reaction window (default 100)")
    double ceWindowUs = 100;

    @Option(names = "--slack-us", paramLabel = "US", description = "host reaction slack (default 5)")
    double slackUs = 5;

    @Option(names = "--min-rtt-us", paramLabel = "US", description = "minimum RTT until one is learned (default 2)")
    double minRttUs = 2;

    @Option(names = "--link-speed", paramLabel = "GBPS",
            description = "speed of the tapped link in Gb/s (e.g. 100): the PAUSE/PFC report gives pause times in microseconds, not only quanta")
    Double linkSpeed;

    @Option(names = "--pfc-watchdog", paramLabel = "MS",
            description = "a priority class paused this long without a break is a PFC storm in the diagnosis (default 200, the switch watchdogs' detection time)")
    Double pfcWatchdogMs;

    @Option(names = "--pmtu", paramLabel = "[FLOW|0xQPN=]BYTES", split = ",", description = "PMTU override, for all or per QP")
    List<String> pmtu;

    @Option(names = "--path-count", paramLabel = "[FLOW|0xQPN=]N", split = ",", description = "MetaRoCE path_count override")
    List<String> pathCount;

    @Option(names = "--progress", negatable = true, description = "progress bar on stderr (default: only when stderr is a terminal)")
    Boolean progress;

    @Option(names = "--check-icrc", description = "verify ICRCs and leave frames with a bad one unjudged (off: at a sender tap the ICRC is usually offloaded)")
    boolean checkIcrc;

    @Option(names = "--at", paramLabel = "SECONDS",
            description = "hang snapshot of the diagnosis at this time after the first frame (default: the end of the capture)")
    Double at;

    @Option(names = "--qp", paramLabel = "QPN",
            description = "diagnosis only for this QP number, either direction (as NCCL logs it: 0x1a2 or decimal)")
    String qp;

    @Option(names = "--peer", paramLabel = "IP", description = "diagnosis only for flows to or from this address (an NCCL warning's peer)")
    String peer;

    @Option(names = "--nccl", paramLabel = "WARNING|LOGFILE",
            description = "diagnosis only for the QPs an NCCL warning names ('NET/IB : Got completion from peer ...', or UCX's error CQE lines '... (synd 0x15 vend 0x81 ...)', pasted), or every such warning of a log file; --qp/--peer replace its keys")
    String nccl;

    @Option(names = "-H", paramLabel = "FILE",
            description = "hosts file (ADDRESS NAME per line, # comments, as Wireshark's): a Hosts column of names in the QP Conversations, src_name/dst_name in the JSON flows (repeatable)")
    List<Path> hostsFiles = new java.util.ArrayList<>();

    /** -H's names, address text to name (empty without -H). */
    private Map<String, String> hostNames() {
        if (hostsFiles.isEmpty()) return Map.of();
        io.metaroce.dissector.NameResolver r;
        try {
            r = io.metaroce.dissector.NameResolver.load("n", hostsFiles, null, null, null);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        for (String w : r.warnings()) System.err.println("metaroce analyze: warning: " + w);
        return r.hostEntries();
    }

    @Override
    public Integer call() throws IOException {
        AnalyzeOutput.Form form;
        boolean messagesJsonl = messagesForm();
        if (events != null) {
            if (!events.equalsIgnoreCase("jsonl")) throw new ParameterException(spec.commandLine(), "--events takes jsonl");
            // --events prints the events alone; -T json with it was dropped without a word.
            if (format.equalsIgnoreCase("json")) {
                throw new ParameterException(spec.commandLine(), "--events jsonl and -T json are two outputs: give one (-T json holds the events too)");
            }
            form = AnalyzeOutput.Form.EVENTS_JSONL;
        } else {
            form = switch (format.toLowerCase()) {
                case "json" -> AnalyzeOutput.Form.JSON;
                case "text" -> AnalyzeOutput.Form.TEXT;
                default -> throw new ParameterException(spec.commandLine(), "-T must be json or text, not '" + format + "'");
            };
        }
        AnalysisSettings settings;
        try {
            Map<String, Integer> pmtus = AnalysisSettings.parseOverrides(pmtu, "--pmtu");
            Map<String, Integer> pathCounts = AnalysisSettings.parseOverrides(pathCount, "--path-count");
            // validate's ranges (ValidateSettings): analyze took --pmtu 1000, 0 or -1 and --path-count 0 in silence
            // and judged by them (--pmtu 1000 made a full 1024-byte packet a retransmission by timeout).
            for (int v : pmtus.values()) {
                if (v < 256 || v > 4096 || Integer.bitCount(v) != 1) {
                    throw new IllegalArgumentException("PMTU must be 256, 512, 1024, 2048 or 4096, not " + v);
                }
            }
            for (int v : pathCounts.values()) {
                if (v < 1 || v > 1024) throw new IllegalArgumentException("path_count must be 1..1024, not " + v);
            }
            // A quantum is 512 bit times: 0, a negative or an infinite speed would make every pause last forever or never.
            if (linkSpeed != null && !(linkSpeed > 0 && linkSpeed <= 10_000))
                throw new IllegalArgumentException("--link-speed must be the link's speed in Gb/s (e.g. 100), not " + num(linkSpeed));
            Set<Integer> portSet = roceOff(disableProtocols, enableProtocols) ? Set.of() : DecodeAs.ports(ports);
            settings = AnalysisSettings.DEFAULT.withPorts(portSet)
                    .withTap(TapCheck.parse(tap))
                    .withCnp(AnalysisSettings.micros(cnpIntervalUs), AnalysisSettings.CnpPacing.parse(cnpPacing))
                    .withTimes(AnalysisSettings.micros(ceWindowUs), AnalysisSettings.micros(slackUs), AnalysisSettings.micros(minRttUs))
                    .withOverrides(pmtus, pathCounts)
                    .withCheckIcrc(checkIcrc)
                    .withLinkSpeed(linkSpeed == null ? 0 : linkSpeed);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        // 0 or a negative count of threads was taken silently as the default.
        if (threads != null && threads < 1) throw new ParameterException(spec.commandLine(), "--threads must be at least 1, not " + threads);
        String conflict = live.fileConflict();
        if (conflict != null) throw new ParameterException(spec.commandLine(), conflict);
        // -c counts the frames of a live capture; on a file it was ignored without a word (every frame analyzed).
        if (count != null && !live.live()) {
            throw new ParameterException(spec.commandLine(), "-c applies to a live capture (-i IFACE); a capture file is analyzed whole");
        }
        // -c 0 (and a negative count) analyzed without a count limit, silently (0 is "no limit" inside); validate's
        // and capture's words (tshark refuses it too: "The specified packet count is zero").
        if (count != null && count < 1) throw new ParameterException(spec.commandLine(), "-c must be at least 1, not " + count);
        io.metaroce.analysis.diagnosis.DiagnosisOptions diagnosis = diagnosisOptions();
        Map<String, String> hostNames = hostNames();
        if (!hostNames.isEmpty() && (messages != null || live.live() || form == AnalyzeOutput.Form.EVENTS_JSONL)) {
            throw new ParameterException(spec.commandLine(), "-H names the hosts of a capture's report (text or -T json), not of --messages, --events or -i");
        }
        if (messages != null) return messages(settings, messagesJsonl, diagnosis);
        if (live.live()) return LiveAnalyze.run(live, settings, form, !compact, count == null ? 0 : count, spec.commandLine().getErr());
        List<Path> given = new java.util.ArrayList<>(reads);
        given.addAll(inputs);
        if (given.isEmpty()) throw new ParameterException(spec.commandLine(), "no capture given (-r FILE, or -i IFACE to capture live)");
        // An empty name is the path of the working directory: -r '' analyzed every capture under it.
        for (Path p : given) if (p.toString().isEmpty()) throw new ParameterException(spec.commandLine(), "'': the file name is empty");
        java.io.PrintStream err = System.err;
        if (given.size() > 1 || java.nio.file.Files.isDirectory(given.get(0))) {
            if (!hostNames.isEmpty()) throw new ParameterException(spec.commandLine(), "-H names the hosts of one capture's report, not of several");
            return analyzeMany(given, settings, form, diagnosis);
        }
        Path file = given.get(0);
        String warning = TapCheck.warning(file, settings.rocePorts(), settings.tap());
        if (warning != null) err.println("metaroce analyze: " + warning);
        // Tables are fitted to the terminal; JSON is for machines and is never cut.
        int width = form == AnalyzeOutput.Form.TEXT ? Terminal.columns() : 0;
        java.io.OutputStream stdout = new ClosedStdout.Guard(System.out);
        FitWidth fit = width > 0 ? new FitWidth(stdout, width) : null;
        Writer out = new BufferedWriter(new OutputStreamWriter(fit != null ? fit : stdout, StandardCharsets.UTF_8), 1 << 16);
        AnalysisResult result;
        // No bar while events stream to the same terminal: the two would interleave.
        boolean streaming = form == AnalyzeOutput.Form.EVENTS_JSONL && Terminal.stdoutIsTerminal();
        try (ProgressBar bar = ProgressBar.open("analyze", streaming && progress == null ? Boolean.FALSE : progress)) {
            result = AnalyzeOutput.write(file, settings, form, !compact, out, bar == null ? null : bar::update, diagnosis, hostNames);
            out.flush();
            if (fit != null) fit.finish();
        } catch (CaptureException e) {
            flushQuietly(out);
            err.println("metaroce analyze: " + e.getMessage());
            return 2;
        } catch (ClosedStdout e) {
            return 0; // the reader of our output went away (| head): stop quietly
        }
        return damagedExit(result, file);
    }

    /** Every readable frame was analyzed, but the capture is damaged: its problems on stderr and exit 2, as tshark. */
    private int damagedExit(AnalysisResult result, Path file) {
        Object problems = result.capture().get("capture_problems");
        if (problems instanceof List<?> l && !l.isEmpty()) {
            for (Object p : l) System.err.println("metaroce analyze: " + file + ": " + p);
            return 2;
        }
        return 0;
    }

    /**
     * --messages' form (true: jsonl), checked against the other outputs. --messages takes its form optionally, so
     * {@code --messages x.pcapng} gave the capture as the form: a value that names a file is the capture.
     */
    private boolean messagesForm() {
        if (messages == null) return false;
        String v = messages.trim().toLowerCase(java.util.Locale.ROOT);
        if (!v.equals("text") && !v.equals("jsonl")) {
            if (!messages.isEmpty() && java.nio.file.Files.exists(Path.of(messages))) {
                inputs.add(0, Path.of(messages));
                messages = v = "text";
            } else {
                throw new ParameterException(spec.commandLine(), "--messages takes text or jsonl, not '" + messages + "'");
            }
        }
        if (events != null) throw new ParameterException(spec.commandLine(), "--messages and --events are two outputs: give one");
        if (format.equalsIgnoreCase("json")) {
            throw new ParameterException(spec.commandLine(), "--messages prints its own lines: for JSON give --messages jsonl, not -T json");
        }
        if (live.live()) throw new ParameterException(spec.commandLine(), "--messages applies to a capture file (-r FILE), not to -i");
        if (at != null || nccl != null || pfcWatchdogMs != null) {
            throw new ParameterException(spec.commandLine(), "--at, --nccl and --pfc-watchdog apply to the diagnosis, which --messages does not print");
        }
        return v.equals("jsonl");
    }

    /** --messages: the one capture's messages, streamed (exit codes as the report's). */
    private int messages(AnalysisSettings settings, boolean jsonl, io.metaroce.analysis.diagnosis.DiagnosisOptions diagnosis)
            throws IOException {
        List<Path> given = new java.util.ArrayList<>(reads);
        given.addAll(inputs);
        if (given.isEmpty()) throw new ParameterException(spec.commandLine(), "no capture given (-r FILE)");
        if (given.size() > 1 || java.nio.file.Files.isDirectory(given.get(0))) {
            throw new ParameterException(spec.commandLine(), "--messages reads one capture file, not " + given.size() + " or a directory");
        }
        Path file = given.get(0);
        if (file.toString().isEmpty()) throw new ParameterException(spec.commandLine(), "'': the file name is empty");
        java.io.PrintStream err = System.err;
        String warning = TapCheck.warning(file, settings.rocePorts(), settings.tap());
        if (warning != null) err.println("metaroce analyze: " + warning);
        java.io.OutputStream stdout = new ClosedStdout.Guard(System.out);
        Writer out = new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), 1 << 16);
        AnalysisResult result;
        // No bar while lines stream to the same terminal: the two would interleave.
        boolean streaming = Terminal.stdoutIsTerminal();
        try (ProgressBar bar = ProgressBar.open("analyze", streaming && progress == null ? Boolean.FALSE : progress)) {
            result = AnalyzeOutput.messages(file, settings, jsonl, out, bar == null ? null : bar::update,
                    diagnosis.qp() == null ? -1 : diagnosis.qp(), diagnosis.peer());
            out.flush();
        } catch (CaptureException e) {
            flushQuietly(out);
            err.println("metaroce analyze: " + e.getMessage());
            return 2;
        } catch (ClosedStdout e) {
            return 0; // the reader of our output went away (| head): stop quietly
        }
        return damagedExit(result, file);
    }

    /** Several captures, or a directory: {@link AnalyzeMany}. */
    private int analyzeMany(List<Path> given, AnalysisSettings settings, AnalyzeOutput.Form form,
                            io.metaroce.analysis.diagnosis.DiagnosisOptions diagnosis) throws IOException {
        List<String> problems = new java.util.ArrayList<>();
        List<Path> files = io.metaroce.validate.Validation.expand(given, problems);
        for (String p : problems) System.err.println("metaroce analyze: " + p);
        if (files.isEmpty()) {
            System.err.println("metaroce analyze: no capture to analyze");
            return 2;
        }
        int width = form == AnalyzeOutput.Form.TEXT ? Terminal.columns() : 0;
        java.io.OutputStream stdout = new ClosedStdout.Guard(System.out);
        FitWidth fit = width > 0 ? new FitWidth(stdout, width) : null;
        boolean streaming = form == AnalyzeOutput.Form.EVENTS_JSONL && Terminal.stdoutIsTerminal();
        int code;
        try (ProgressBar bar = ProgressBar.open("analyze", streaming && progress == null ? Boolean.FALSE : progress)) {
            code = AnalyzeMany.run(files, settings, form, !compact, diagnosis, fit != null ? fit : stdout, System.err, bar,
                    threads != null ? threads : Runtime.getRuntime().availableProcessors());
        }
        if (fit != null) {
            try {
                fit.finish();
            } catch (IOException e) {
                return 0; // stdout went away
            }
        }
        return problems.isEmpty() ? code : Math.max(code, 2);
    }

    /** --at, --qp and --peer, checked. */
    private io.metaroce.analysis.diagnosis.DiagnosisOptions diagnosisOptions() {
        if ((at != null || qp != null || peer != null) && (events != null || live.live()) && messages == null) {
            throw new ParameterException(spec.commandLine(), "--at, --qp and --peer apply to the diagnosis of -r FILE (-T text or json)");
        }
        if (nccl != null && (events != null || live.live())) {
            throw new ParameterException(spec.commandLine(), "--nccl applies to the diagnosis of -r FILE (-T text or json)");
        }
        // The storm diagnosis is printed with the report of a file only; --events and -i would drop the option unsaid.
        if (pfcWatchdogMs != null && (events != null || live.live())) {
            throw new ParameterException(spec.commandLine(), "--pfc-watchdog applies to the diagnosis of -r FILE (-T text or json)");
        }
        // 0 or less would make every pause a storm; watchdogs detect in 100 ms to a few seconds, a minute is plenty.
        if (pfcWatchdogMs != null && !(pfcWatchdogMs > 0 && pfcWatchdogMs <= 60_000)) {
            throw new ParameterException(spec.commandLine(),
                    "--pfc-watchdog must be a detection time in ms above 0 and at most 60000 (e.g. 200), not " + num(pfcWatchdogMs));
        }
        if (at != null && (at < 0 || at.isNaN() || at.isInfinite())) {
            throw new ParameterException(spec.commandLine(), "--at must be a time in seconds from the first frame, not " + at);
        }
        Integer q = null;
        if (qp != null) {
            String v = qp.trim().toLowerCase();
            try {
                q = v.startsWith("0x") ? Integer.parseInt(v.substring(2), 16) : Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new ParameterException(spec.commandLine(), "--qp must be a QP number (0x1a2 or 418), not '" + qp + "'");
            }
            if (q < 0 || q > 0xFFFFFF) throw new ParameterException(spec.commandLine(), "--qp must fit in 24 bits, not '" + qp + "'");
        }
        String p = peer == null ? null : canonicalAddress(peer.trim());
        return new io.metaroce.analysis.diagnosis.DiagnosisOptions(at == null ? null : Math.round(at * 1e9), q, p,
                pfcWatchdogMs == null ? io.metaroce.analysis.diagnosis.Diagnoser.DEFAULT_PFC_WATCHDOG_NS : Math.round(pfcWatchdogMs * 1e6),
                nccl == null ? List.of() : NcclOption.read(nccl, spec.commandLine()));
    }

    /** An IP address as flow ids write it (IPv6 in RFC 5952 form), so "fd00:0::1" finds "fd00::1". */
    private String canonicalAddress(String a) {
        String c = io.metaroce.dissector.Addresses.canonical(a);
        if (c == null) throw new ParameterException(spec.commandLine(), "--peer must be an IPv4 or IPv6 address, not '" + a + "'");
        return c;
    }

    private static void flushQuietly(Writer w) {
        try {
            w.flush();
        } catch (IOException e) {
            // stdout is gone; nothing to tell it
        }
    }

    /** A number as the user would have typed it: 0 for 0.0, 2.5 as it is. */
    static String num(double v) {
        return v == Math.rint(v) && !Double.isInfinite(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /**
     * --disable-protocol / --enable-protocol for analyze and validate: whether RoCE (bth) is off, which leaves no port
     * RoCE. MetaRoCE (mrth) cannot be switched off here: the analysis reads MetaRoCE frames on its own fast path, which
     * these options do not reach (dissect and the GUI can). Throws with the line to print.
     */
    static boolean roceOff(List<String> disable, List<String> enable) {
        Set<String> off = io.metaroce.dissector.EnabledProtocols.disabled(disable, enable);
        if (off.contains("mrth")) {
            throw new IllegalArgumentException("--disable-protocol: MetaRoCE (mrth, metaroce) can be switched off in dissect and the GUI only "
                    + "(the analysis reads its headers on its own fast path)");
        }
        return off.contains("bth");
    }
}
