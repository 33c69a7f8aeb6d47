package io.metaroce.validate;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.analysis.diagnosis.Diagnoser;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * What a validation run uses: the settings of spec §13 (as the analysis takes them), the validator's own
 * thresholds, the rules selected and the severity overrides. Built from defaults, then a {@code --config}
 * YAML file, then the command line ({@link Builder}).
 *
 * <p>YAML keys (all optional):
 * <pre>
 * tap: host:10.0.0.1              # auto | mirror | host:IP
 * offloaded: true                 # ICRC / UDP checksum computed by the NIC after a sender-side tap (default)
 * thresholds:
 *   cnp_interval_us: 50
 *   ce_window_us: 100
 *   slack_us: 5
 *   min_rtt_us: 2
 *   reorder_window_us: 1000       # how long a PSN may be missing before a gap counts as loss
 *   pmtu: 1024                    # all QPs; or a map below
 *   roce_udp_ports: [4791]
 *   credit_checks: true           # MR-CC-003
 * pmtu: {"0x000201": 4096, "10.0.0.1>10.0.0.2/0x000013": 1024}
 * path_count: {"0x000201": 8}
 * severity: {MR-HDR-003: error, MR-RTX-005: off}
 * rules: [MR-*]
 * skip_rules: [MR-CC-*]
 * </pre>
 */
public final class ValidateSettings {
    public static final long DEFAULT_REORDER_WINDOW_NS = 1_000_000;
    /** PMTU assumed for UD when nothing says (the largest IBTA MTU). */
    public static final int MAX_PMTU = 4096;

    final AnalysisSettings analysis;
    final boolean offloaded;
    final long reorderWindowNs;
    final boolean creditChecks;
    /** A class paused this long without a break is a PFC storm (MR-DIAG-022; {@code --pfc-watchdog}). */
    final long pfcWatchdogNs;
    final int globalPmtu;
    final Map<String, Integer> pmtu;
    final Map<String, Integer> pathCount;
    private final Set<String> enabled;
    private final Map<String, Severity> overrides;
    private final Set<String> disabled;

    private ValidateSettings(Builder b) {
        Map<String, Integer> pm = new HashMap<>(b.pmtu);
        this.pmtu = Map.copyOf(pm);
        this.pathCount = Map.copyOf(b.pathCount);
        this.globalPmtu = b.globalPmtu;
        this.offloaded = b.offloaded;
        this.reorderWindowNs = b.reorderWindowNs;
        this.creditChecks = b.creditChecks;
        this.pfcWatchdogNs = b.pfcWatchdogNs;
        Set<String> en = new LinkedHashSet<>();
        for (RuleDef r : RuleCatalog.select(b.rules, b.skipRules)) en.add(r.id());
        if (!creditChecks) en.remove("MR-CC-003");
        Map<String, Severity> ov = new HashMap<>();
        Set<String> off = new HashSet<>();
        for (Map.Entry<String, String> e : b.severity.entrySet()) {
            Severity s = RuleCatalog.parseSeverity(e.getValue());
            for (RuleDef r : RuleCatalog.select(List.of(e.getKey()), List.of())) {
                if (s == null) off.add(r.id());
                else ov.put(r.id(), s);
            }
        }
        en.removeAll(off);
        this.enabled = Collections.unmodifiableSet(en);
        this.overrides = Map.copyOf(ov);
        this.disabled = Set.copyOf(off);
        this.analysis = new AnalysisSettings(b.ports, b.tap, b.cnpIntervalNs, b.ceWindowNs, b.slackNs, b.minRttNs,
                AnalysisSettings.CnpPacing.QP, b.pmtu, b.pathCount, true, AnalysisSettings.DEFAULT.idleExpiryNs(),
                AnalysisSettings.DEFAULT.duplicateWindowNs());
    }

    public static ValidateSettings defaults() { return new Builder().build(); }

    public AnalysisSettings analysis() { return analysis; }

    public Tap tap() { return analysis.tap(); }

    public boolean enabled(String rule) { return enabled.contains(rule); }

    /** Ids of the rules this run judges, in catalogue order. */
    public Set<String> enabledRules() { return enabled; }

    /** The severity a finding of this rule gets, given the one its tap gave it (user override wins). */
    public Severity severity(String rule, Severity judged) {
        Severity o = overrides.get(rule);
        return o != null ? o : judged;
    }

    Severity override(String rule) { return overrides.get(rule); }

    /** PMTU the user gave for a flow (by id or by its dest_qp), or 0. */
    int pmtuFor(String flowId, int qp) {
        Integer v = pmtu.get(flowId);
        if (v == null) v = pmtu.get(String.format("0x%06x", qp));
        if (v != null) return v;
        return globalPmtu;
    }

    int pathCountFor(String flowId, int qp) {
        Integer v = pathCount.get(flowId);
        if (v == null) v = pathCount.get(String.format("0x%06x", qp));
        return v == null ? 0 : v;
    }

    /** The settings as a JSON-ready map (reports show what a run used). */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tap", analysis.tap().toString());
        m.put("roce_udp_ports", new ArrayList<>(new java.util.TreeSet<>(analysis.rocePorts())));
        m.put("cnp_interval_ns", analysis.cnpIntervalNs());
        m.put("ce_window_ns", analysis.ceWindowNs());
        m.put("slack_ns", analysis.slackNs());
        m.put("min_rtt_ns", analysis.minRttNs());
        m.put("reorder_window_ns", reorderWindowNs);
        m.put("offloaded", offloaded);
        m.put("credit_checks", creditChecks);
        // Only when set: a report of a run with the default says what it always said.
        if (pfcWatchdogNs != Diagnoser.DEFAULT_PFC_WATCHDOG_NS) m.put("pfc_watchdog_ns", pfcWatchdogNs);
        if (globalPmtu > 0) m.put("pmtu", globalPmtu);
        if (!pmtu.isEmpty()) m.put("pmtu_overrides", new java.util.TreeMap<>(pmtu));
        if (!pathCount.isEmpty()) m.put("path_count_overrides", new java.util.TreeMap<>(pathCount));
        m.put("rules", new ArrayList<>(enabled));
        Map<String, Object> ov = new java.util.TreeMap<>();
        for (Map.Entry<String, Severity> e : overrides.entrySet()) ov.put(e.getKey(), e.getValue().label());
        for (String d : disabled) ov.put(d, "off");
        if (!ov.isEmpty()) m.put("severity_overrides", ov);
        return m;
    }

    /** Settings from defaults, a YAML file and command-line values, in that order. */
    public static final class Builder {
        Set<Integer> ports = new LinkedHashSet<>(Set.of(Spec.ROCE_UDP_PORT));
        Tap tap = Tap.AUTO;
        long cnpIntervalNs = AnalysisSettings.DEFAULT.cnpIntervalNs(), ceWindowNs = AnalysisSettings.DEFAULT.ceWindowNs(),
                slackNs = AnalysisSettings.DEFAULT.slackNs(), minRttNs = AnalysisSettings.DEFAULT.minRttNs(),
                reorderWindowNs = DEFAULT_REORDER_WINDOW_NS;
        boolean offloaded = true, creditChecks = true;
        long pfcWatchdogNs = Diagnoser.DEFAULT_PFC_WATCHDOG_NS;
        int globalPmtu;
        Map<String, Integer> pmtu = new LinkedHashMap<>(), pathCount = new LinkedHashMap<>();
        List<String> rules = new ArrayList<>(), skipRules = new ArrayList<>();
        Map<String, String> severity = new LinkedHashMap<>();

        public Builder tap(String t) { tap = Tap.parse(t); return this; }
        public Builder tap(Tap t) { tap = t; return this; }
        public Builder ports(Set<Integer> p) { ports = new LinkedHashSet<>(p); return this; }
        public Builder addPort(int p) { ports.add(p); return this; }
        public Builder cnpIntervalNs(long v) { cnpIntervalNs = v; return this; }
        public Builder ceWindowNs(long v) { ceWindowNs = v; return this; }
        public Builder slackNs(long v) { slackNs = v; return this; }
        public Builder minRttNs(long v) { minRttNs = v; return this; }
        public Builder reorderWindowNs(long v) { reorderWindowNs = v; return this; }
        public Builder offloaded(boolean v) { offloaded = v; return this; }
        public Builder creditChecks(boolean v) { creditChecks = v; return this; }
        public Builder pfcWatchdogNs(long v) { pfcWatchdogNs = v; return this; }
        public Builder pmtu(int v) { globalPmtu = checkPmtu(v); return this; }
        public Builder pmtu(String flowOrQp, int v) { pmtu.put(key(flowOrQp), checkPmtu(v)); return this; }
        public Builder pathCount(String flowOrQp, int v) {
            if (v < 1 || v > 1024) throw new IllegalArgumentException("path_count must be 1..1024, not " + v);
            pathCount.put(key(flowOrQp), v);
            return this;
        }
        public Builder rules(List<String> r) { rules.addAll(r); return this; }
        public Builder skipRules(List<String> r) { skipRules.addAll(r); return this; }
        public Builder severity(String rulePattern, String sev) {
            RuleCatalog.parseSeverity(sev);
            severity.put(rulePattern, sev);
            return this;
        }

        private static String key(String flowOrQp) {
            String k = flowOrQp.trim();
            if (k.contains(">")) return k;
            long qp;
            try {
                qp = k.startsWith("0x") || k.startsWith("0X") ? Long.parseLong(k.substring(2), 16) : Long.parseLong(k);
            } catch (NumberFormatException e) {
                // Java's own text ("For input string: ...") named neither the value's role nor the expected form.
                throw new IllegalArgumentException("'" + flowOrQp + "' is not a QP (0x000201) or a flow id (10.0.0.1>10.0.0.2/0x000201)");
            }
            return String.format("0x%06x", qp);
        }

        private static int checkPmtu(int v) {
            if (v != 256 && v != 512 && v != 1024 && v != 2048 && v != 4096)
                throw new IllegalArgumentException("PMTU must be 256, 512, 1024, 2048 or 4096, not " + v);
            return v;
        }

        /**
         * The config file's tree. Its problems are one line naming the file, as a capture's are: a missing file or a
         * directory in plain words, a syntax error with the line and column of the problem (the YAML parser's own text
         * spans several lines, with an excerpt and a caret, and ended with Jackson's "[Source: (File); ...]").
         */
        private static JsonNode readConfig(Path file) throws IOException {
            if (!Files.exists(file)) throw new IllegalArgumentException(file + ": no such file");
            if (Files.isDirectory(file)) throw new IllegalArgumentException(file + ": is a directory, not a config file");
            try {
                return new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(file + ": " + syntaxError(e));
            }
        }

        private static String syntaxError(JsonProcessingException e) {
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof MarkedYAMLException m && m.getProblemMark() != null && m.getProblem() != null) {
                    return "line " + (m.getProblemMark().getLine() + 1) + ", column " + (m.getProblemMark().getColumn() + 1)
                            + ": " + m.getProblem();
                }
            }
            JsonLocation at = e.getLocation();
            String what = e.getOriginalMessage().lines().findFirst().orElse("not YAML");
            return (at != null ? "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": " : "") + what;
        }

        /** Reads a YAML (or JSON) config file; unknown keys are an error so that typos do not go unnoticed. */
        public Builder config(Path file) throws IOException {
            try {
                return configTree(file);
            } catch (IllegalArgumentException e) {
                // Every problem of the file's content names the file, as its syntax errors do.
                String m = String.valueOf(e.getMessage());
                throw m.startsWith(file + ": ") ? e : new IllegalArgumentException(file + ": " + m);
            }
        }

        private Builder configTree(Path file) throws IOException {
            JsonNode root = readConfig(file);
            if (root == null || root.isNull() || root.isMissingNode()) return this;
            if (!root.isObject()) throw new IllegalArgumentException(file + ": expected a mapping at the top level");
            for (Map.Entry<String, JsonNode> e : root.properties()) {
                JsonNode v = e.getValue();
                switch (e.getKey()) {
                    case "tap" -> tap(v.asText());
                    case "offloaded" -> offloaded(bool(v, "offloaded"));
                    case "thresholds" -> thresholds(v);
                    case "pmtu" -> {
                        if (v.isNumber()) pmtu(integer(v, "pmtu"));
                        else for (Map.Entry<String, JsonNode> p : mapping(v, "pmtu").properties()) {
                            pmtu(p.getKey(), integer(p.getValue(), "pmtu of " + p.getKey()));
                        }
                    }
                    case "path_count" -> {
                        for (Map.Entry<String, JsonNode> p : mapping(v, "path_count").properties()) {
                            pathCount(p.getKey(), integer(p.getValue(), "path_count of " + p.getKey()));
                        }
                    }
                    case "severity", "severities" -> {
                        for (Map.Entry<String, JsonNode> p : mapping(v, e.getKey()).properties()) {
                            // YAML 1.1 reads an unquoted off (and no) as false: that is the level "off".
                            JsonNode level = p.getValue();
                            severity(p.getKey(), level.isBoolean() && !level.asBoolean() ? "off" : level.asText());
                        }
                    }
                    case "rules" -> rules(list(v));
                    case "skip_rules", "skip-rules" -> skipRules(list(v));
                    default -> throw new IllegalArgumentException(file + ": unknown key '" + e.getKey()
                            + "' (known: tap, offloaded, thresholds, pmtu, path_count, severity, rules, skip_rules)");
                }
            }
            return this;
        }

        private void thresholds(JsonNode t) {
            for (Map.Entry<String, JsonNode> e : mapping(t, "thresholds").properties()) {
                JsonNode v = e.getValue();
                String name = e.getKey();
                switch (e.getKey().replace('-', '_')) {
                    case "cnp_interval_us" -> cnpIntervalNs(us(v, name));
                    case "cnp_interval_ns" -> {
                        if (!v.isNumber()) throw new IllegalArgumentException(name + ": expected a number of nanoseconds, got '" + v.asText() + "'");
                        cnpIntervalNs(nanos(name, v.asDouble() / 1000));
                    }
                    case "ce_window_us" -> ceWindowNs(us(v, name));
                    case "slack_us" -> slackNs(us(v, name));
                    case "min_rtt_us" -> minRttNs(us(v, name));
                    case "reorder_window_us" -> reorderWindowNs(us(v, name));
                    case "pmtu" -> pmtu(integer(v, name));
                    case "roce_udp_ports", "udp_ports", "ports" -> {
                        Set<Integer> p = new LinkedHashSet<>();
                        if (v.isArray()) for (JsonNode n : v) p.add(port(integer(n, name)));
                        else p.add(port(integer(v, name)));
                        ports(p);
                    }
                    case "credit_checks" -> creditChecks(bool(v, "credit_checks"));
                    default -> throw new IllegalArgumentException("unknown threshold '" + e.getKey() + "' (known: "
                            + "cnp_interval_us, ce_window_us, slack_us, min_rtt_us, reorder_window_us, pmtu, "
                            + "roce_udp_ports, credit_checks)");
                }
            }
        }

        private static int port(int p) {
            if (p < 1 || p > 65535) throw new IllegalArgumentException("UDP port must be 1..65535, not " + p);
            return p;
        }

        private static long us(JsonNode v, String name) {
            if (!v.isNumber()) throw new IllegalArgumentException(name + ": expected a number of microseconds, got '" + v.asText() + "'");
            return nanos(name, v.asDouble());
        }

        /**
         * A duration in microseconds as nanoseconds (the command line's and the config's). Negative, NaN or infinite
         * durations were taken as they came (NaN as 0) and the run went on: none is a window or an interval.
         */
        public static long nanos(String name, double us) {
            if (!(us >= 0) || Double.isInfinite(us) || us > Long.MAX_VALUE / 1000.0)
                throw new IllegalArgumentException(name + " must be a number of microseconds, at least 0, not " + us);
            return Math.round(us * 1000);
        }

        /**
         * A section that must be a mapping. WHY: a scalar or a list there ({@code thresholds: 50}) has no properties,
         * so it was read as an empty section and the run went on with the defaults, silently.
         */
        private static JsonNode mapping(JsonNode v, String name) {
            if (!v.isObject()) throw new IllegalArgumentException(name + ": expected a mapping (name: value), got '" + text(v) + "'");
            return v;
        }

        /** An integer value; a text or a fraction was read as 0 (or cut) by asInt. */
        private static int integer(JsonNode v, String name) {
            if (!v.isIntegralNumber() || !v.canConvertToInt()) throw new IllegalArgumentException(name + ": expected an integer, got '" + text(v) + "'");
            return v.asInt();
        }

        private static String text(JsonNode v) { return v.isValueNode() ? v.asText() : v.toString(); }

        private static boolean bool(JsonNode v, String what) {
            if (!v.isBoolean()) throw new IllegalArgumentException(what + " must be true or false");
            return v.asBoolean();
        }

        private static List<String> list(JsonNode v) {
            List<String> l = new ArrayList<>();
            if (v.isArray()) for (JsonNode n : v) l.add(n.asText());
            else l.add(v.asText());
            return l;
        }

        public ValidateSettings build() { return new ValidateSettings(this); }
    }

    static String lower(String s) { return s.toLowerCase(Locale.ROOT); }
}
