package io.metaroce.cli;

import io.metaroce.protocol.Severity;
import io.metaroce.validate.RuleCatalog;
import io.metaroce.validate.ValidateSettings;
import io.metaroce.validate.Validation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code metaroce validate}: the conformance rules of spec §11 over captures, for CI (the work is in module validate).
 * The options' defaults are the fields' initial values, not picocli's {@code defaultValue}: {@code validate FILE} alone
 * runs on a new instance without picocli ({@link FrontDoor#plainCommand}), and picocli takes the same values as the
 * defaults of every other form (and of {@code ${DEFAULT-VALUE}} in the help).
 */
@Command(name = "validate", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = {"Check captures against the conformance rules of the MetaRoCE v1 spec (section 11): frame, header, "
                + "sequence, acknowledgement, retransmission, congestion, path, control and UD rules, judged as the tap allows.",
                "Exit code: 0 nothing at or above --fail-on, 1 something was, 2 a capture could not be read or is damaged "
                        + "(the others are still validated) or bad usage."},
        footer = {"", "Examples:", "  metaroce validate captures/",
                // Each example fits the help's 80 columns, continued with a backslash: picocli cut a longer one
                // at any character (report.\nhtml), and the copied lines did not run.
                "  metaroce validate --fail-on error -T junit -o results.xml \\",
                "      --report report.html captures/",
                "  metaroce validate --tap host:10.0.0.1 --skip-rules 'MR-CC-*' run.pcapng",
                "  metaroce validate -T sarif -o results.sarif --config validate.yaml run.pcapng"})
public final class ValidateCommand implements Callable<Integer> {
    @picocli.CommandLine.Mixin
    StandardOptions standard;

    @picocli.CommandLine.Mixin
    StandardOptions.NoVerbose noVerbose;

    @Parameters(paramLabel = "FILE|DIR", arity = "0..*", description = "Captures (pcap, pcapng, gzip-compressed or not) or directories of them.")
    List<Path> inputs = new ArrayList<>();

    @Option(names = {"-r", "--read"}, paramLabel = "FILE", description = "A capture to validate, as tshark -r (repeatable; same as naming it; - reads standard input).")
    List<Path> reads = new ArrayList<>();

    @Option(names = {"-T", "--format"}, paramLabel = "FORMAT",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Validation.Format format = Validation.Format.text;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the output to FILE instead of stdout.")
    Path output;

    @Option(names = "--report", paramLabel = "FILE.html", description = "Also write a self-contained HTML report.")
    Path report;

    @Option(names = "--fail-on", paramLabel = "LEVEL",
            description = "error | warn | note | never: exit 1 when a finding at or above LEVEL was found (default: ${DEFAULT-VALUE}).")
    String failOn = "error";

    @Option(names = "--tap", paramLabel = "auto|host:IP|mirror", description = "Where the captures were taken (default: auto).")
    String tap;

    @Option(names = "--rules", paramLabel = "IDS", split = ",", description = "Judge only these rules (ids, wildcards: MR-CC-*).")
    List<String> rules = new ArrayList<>();

    @Option(names = "--skip-rules", paramLabel = "IDS", split = ",", description = "Do not judge these rules (ids, wildcards).")
    List<String> skipRules = new ArrayList<>();

    @Option(names = "--severity", paramLabel = "RULE=LEVEL", description = "Override a rule's severity: error, warn, note or off (repeatable).")
    Map<String, String> severity = new java.util.LinkedHashMap<>();

    @Option(names = "--config", paramLabel = "FILE", description = "YAML file: tap, thresholds, pmtu, path_count, severity, rules, skip_rules.")
    Path config;

    @Option(names = "--cnp-interval-us", paramLabel = "US", description = "CNP interval (default 50).")
    Double cnpIntervalUs;

    @Option(names = "--ce-window-us", paramLabel = "US", description = "CE reaction window (default 100).")
    Double ceWindowUs;

    @Option(names = "--slack-us", paramLabel = "US", description = "Host processing slack (default 5).")
    Double slackUs;

    @Option(names = "--min-rtt-us", paramLabel = "US", description = "Minimum RTT used until one is learned (default 2).")
    Double minRttUs;

    @Option(names = "--reorder-window-us", paramLabel = "US", description = "How long a PSN may be missing before a gap counts as loss (default 1000).")
    Double reorderWindowUs;

    @Option(names = "--pmtu", paramLabel = "[QP=]BYTES", description = "PMTU for every QP, or for one QP (0x000201=4096 or a flow id) (repeatable).")
    List<String> pmtu = new ArrayList<>();

    @Option(names = "--path-count", paramLabel = "QP=N", description = "path_count of a QP direction (repeatable).")
    List<String> pathCount = new ArrayList<>();

    @Option(names = {"-d", "--decode-as"}, paramLabel = DecodeAs.LABEL, description = DecodeAs.HELP)
    List<String> decodeAs = new ArrayList<>();

    @Option(names = "--disable-protocol", paramLabel = io.metaroce.dissector.EnabledProtocols.LABEL,
            description = io.metaroce.dissector.EnabledProtocols.DISABLE_HELP)
    List<String> disableProtocols = new ArrayList<>();

    @Option(names = "--enable-protocol", paramLabel = io.metaroce.dissector.EnabledProtocols.LABEL,
            description = io.metaroce.dissector.EnabledProtocols.ENABLE_HELP)
    List<String> enableProtocols = new ArrayList<>();

    @Option(names = "--not-offloaded", description = "The sender computed ICRC and UDP checksum before the tap: judge them at S too.")
    boolean notOffloaded;

    @Option(names = "--pfc-watchdog", paramLabel = "MS",
            description = "A priority class paused this long without a break is a PFC storm (MR-DIAG-022; default 200, the switch watchdogs' detection time).")
    Double pfcWatchdogMs;

    @Option(names = "--no-credit-checks", description = "Do not judge MR-CC-003 (credit mode).")
    boolean noCreditChecks;

    @Option(names = "--threads", paramLabel = "N", description = "Captures validated at once (default: one per core).")
    Integer threads;

    @Option(names = "--progress", negatable = true, description = "Progress bar on stderr (default: only when stderr is a terminal).")
    Boolean progress;

    @Option(names = "--list-rules", description = "List the rules (id, severity, taps, text) and exit.")
    boolean listRules;

    /** Live capture instead of files (-i IFACE, -f, -s, -B, -p, --immediate, --queue, -a duration:S). */
    @picocli.CommandLine.Mixin
    LiveOptions live;

    @Option(names = "-c", paramLabel = "N", description = "with -i: stop after N frames")
    Long count;

    /** An option's number; Java's own text ("For input string: ...") named neither the option nor the value's role. */
    private static int integer(String option, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + value + "' is not a number");
        }
    }

    @Override
    public Integer call() {
        if (listRules) {
            for (var r : RuleCatalog.all())
                System.out.printf("%-12s %-5s %-6s %s  [taps: %s]%n", r.id(), r.severity().label(), r.section(), r.text(), r.taps());
            return 0;
        }
        inputs.addAll(reads);
        // An empty name is the path of the working directory: validate '' validated every capture under it.
        for (Path p : inputs) {
            if (p.toString().isEmpty()) {
                System.err.println("metaroce validate: '': the file name is empty");
                return 2;
            }
        }
        if (inputs.isEmpty() && !live.live()) {
            System.err.println("metaroce validate: no capture given (FILE|DIR..., or -i IFACE to capture live); see --help");
            return 2;
        }
        // -c stops a live capture; on files it was ignored, and the whole file validated.
        if (count != null && !live.live()) {
            System.err.println("metaroce validate: -c N goes with -i IFACE (a capture file is validated whole)");
            return 2;
        }
        // Not the default in disguise: 0 or a negative count of threads is a typo, not "one per core".
        if (threads != null && threads < 1) {
            System.err.println("metaroce validate: --threads must be at least 1, not " + threads);
            return 2;
        }
        Validation.Request req = new Validation.Request();
        try {
            ValidateSettings.Builder b = new ValidateSettings.Builder();
            if (config != null) b.config(config);
            if (tap != null) {
                TapCheck.parse(tap);
                b.tap(tap);
            }
            if (cnpIntervalUs != null) b.cnpIntervalNs(ValidateSettings.Builder.nanos("--cnp-interval-us", cnpIntervalUs));
            if (ceWindowUs != null) b.ceWindowNs(ValidateSettings.Builder.nanos("--ce-window-us", ceWindowUs));
            if (slackUs != null) b.slackNs(ValidateSettings.Builder.nanos("--slack-us", slackUs));
            if (minRttUs != null) b.minRttNs(ValidateSettings.Builder.nanos("--min-rtt-us", minRttUs));
            if (reorderWindowUs != null) b.reorderWindowNs(ValidateSettings.Builder.nanos("--reorder-window-us", reorderWindowUs));
            for (String p : pmtu) {
                int eq = p.lastIndexOf('=');
                if (eq < 0) b.pmtu(integer("--pmtu", p));
                else b.pmtu(p.substring(0, eq), integer("--pmtu", p.substring(eq + 1)));
            }
            for (String p : pathCount) {
                int eq = p.lastIndexOf('=');
                if (eq < 0) throw new IllegalArgumentException("--path-count expects QP=N, got '" + p + "'");
                b.pathCount(p.substring(0, eq), integer("--path-count", p.substring(eq + 1)));
            }
            for (String d : decodeAs) b.addPort(DecodeAs.port(d));
            if (AnalyzeCommand.roceOff(disableProtocols, enableProtocols)) b.ports(java.util.Set.of());
            if (notOffloaded) b.offloaded(false);
            if (noCreditChecks) b.creditChecks(false);
            // As analyze's --pfc-watchdog: 0 or less would make every pause a storm, a minute is plenty.
            if (pfcWatchdogMs != null && !(pfcWatchdogMs > 0 && pfcWatchdogMs <= 60_000)) {
                throw new IllegalArgumentException("--pfc-watchdog must be a detection time in ms above 0 and at most 60000 (e.g. 200), not "
                        + AnalyzeCommand.num(pfcWatchdogMs));
            }
            if (pfcWatchdogMs != null) b.pfcWatchdogNs(Math.round(pfcWatchdogMs * 1e6));
            // An empty list (--rules '') selected no pattern, which is "every rule": the opposite of what it says.
            if (!rules.isEmpty() && rules.stream().allMatch(String::isBlank)) throw new IllegalArgumentException("--rules needs rule ids (MR-RTX-001, or wildcards: MR-CC-*), not ''");
            if (!skipRules.isEmpty() && skipRules.stream().allMatch(String::isBlank)) throw new IllegalArgumentException("--skip-rules needs rule ids (MR-RTX-001, or wildcards: MR-CC-*), not ''");
            if (!rules.isEmpty()) b.rules(rules);
            if (!skipRules.isEmpty()) b.skipRules(skipRules);
            for (var e : severity.entrySet()) b.severity(e.getKey(), e.getValue());
            req.settings = b.build();
            req.failOn = switch (failOn.toLowerCase(java.util.Locale.ROOT)) {
                case "error" -> Severity.ERROR;
                case "warn", "warning" -> Severity.WARN;
                case "note" -> Severity.NOTE;
                case "never" -> null;
                default -> throw new IllegalArgumentException("--fail-on must be error, warn, note or never, not '" + failOn + "'");
            };
        } catch (IllegalArgumentException | java.io.IOException e) {
            System.err.println("metaroce validate: " + e.getMessage());
            return 2;
        }
        // Asked before the run, not found out after it: a long validation whose -o or --report lands nowhere.
        for (Path f : new Path[] {output, report}) {
            String why = f == null ? null : OutputFiles.unwritable(f);
            if (why != null) {
                System.err.println("metaroce validate: cannot write " + f + ": " + why);
                return 2;
            }
        }
        req.inputs = inputs;
        if (live.live()) {
            // -c 0 validated without a count limit, silently (0 is "no limit" inside), as capture's -c 0 did.
            if (count != null && count < 1) {
                System.err.println("metaroce validate: -c must be at least 1, not " + count);
                return 2;
            }
            return LiveValidate.run(req, live, count == null ? 0 : count, format, output, report, System.out, System.err);
        }
        req.format = format;
        req.output = output;
        req.report = report;
        req.threads = threads == null ? 0 : threads;
        if (req.settings.tap().kind() == io.metaroce.analysis.AnalysisSettings.Tap.Kind.HOST) {
            for (Path f : Validation.expand(inputs, new ArrayList<>())) {
                String w = TapCheck.warning(f, req.settings.analysis().rocePorts(), req.settings.tap());
                if (w != null) System.err.println("metaroce validate: " + w);
            }
        }
        try (ProgressBar bar = ProgressBar.open("validate", progress)) {
            if (bar != null) {
                req.progress = new Validation.ProgressListener() {
                    @Override
                    public void progress(long done, long total, int filesDone, int files) { bar.update(done, total, filesDone, files); }

                    @Override
                    public void done() { bar.close(); }
                };
            }
            // Text tables are fitted to the terminal (JSON, JUnit and SARIF are for machines and never cut).
            int width = format == Validation.Format.text && output == null ? Terminal.columns() : 0;
            if (width == 0) return Validation.run(req, System.out, System.err);
            FitWidth fit = new FitWidth(System.out, width);
            java.io.PrintStream ps = new java.io.PrintStream(fit, false, java.nio.charset.StandardCharsets.UTF_8);
            int code = Validation.run(req, ps, System.err);
            ps.flush();
            try {
                fit.finish();
            } catch (java.io.IOException e) {
                // stdout is gone; nothing to tell it
            }
            return code;
        }
    }
}
