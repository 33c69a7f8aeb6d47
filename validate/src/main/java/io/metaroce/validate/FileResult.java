package io.metaroce.validate;

import io.metaroce.analysis.AnalysisResult;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The validation of one capture file: its findings, counts per rule, and what the report pictures need. */
public final class FileResult {
    final Path path;
    String error;
    long frames, roceFrames, duplicates, truncated, unjudged, captureDrops = -1, durationNs, firstNs;
    String tapResolved, tapHow;
    final List<Finding> findings = new ArrayList<>();
    final Map<String, long[]> counts = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    /**
     * The pass's flow results (the HTML report's path table), from a pass without statistics: no message counts, no
     * ACK round-trip or message-completion latencies (AnalysisSession#withoutStatistics).
     */
    AnalysisResult analysis;
    List<FlowState> flows = List.of();
    long wallNanos;
    /** Flows the analysis evicted, or null (none: an ordinary capture). */
    Evicted evicted;

    /**
     * Flows evicted by the flow bound (a capture of more QPs than the heap holds the state of): how many of all the
     * capture's flows, the bound, and what the note says of it ({@link io.metaroce.analysis.Reports#boundClause}).
     */
    record Evicted(long flows, long of, long bound, String boundClause) {
        String note() {
            return flows + " of " + of + " flows were evicted (more QPs than the flow bound" + boundClause
                    + "): their findings until then are kept, their rule state went with them";
        }
    }

    FileResult(Path path) { this.path = path; }

    public Path path() { return path; }
    /** Why the file could not be read, or null. */
    public String error() { return error; }
    public long frames() { return frames; }
    public List<Finding> findings() { return findings; }

    /** [notes, warns, errors] of a rule. */
    public long[] counts(String rule) { return counts.getOrDefault(rule, new long[3]); }

    public long count(Severity s) {
        long n = 0;
        for (long[] c : counts.values()) n += c[s.ordinal()];
        return n;
    }

    /** True when something at or above this level was found (null: never). */
    public boolean fails(Severity level) {
        if (level == null) return false;
        for (Severity s : Severity.values()) if (s.compareTo(level) >= 0 && count(s) > 0) return true;
        return false;
    }

    /** Rules with at least one finding, in catalogue order. */
    public List<RuleDef> rulesBroken() {
        List<RuleDef> l = new ArrayList<>();
        for (RuleDef r : RuleCatalog.all()) {
            long[] c = counts(r.id());
            if (c[0] + c[1] + c[2] > 0) l.add(r);
        }
        return l;
    }

    /** The worst severity found for a rule, or null. */
    public Severity worst(String rule) {
        long[] c = counts(rule);
        return c[2] > 0 ? Severity.ERROR : c[1] > 0 ? Severity.WARN : c[0] > 0 ? Severity.NOTE : null;
    }

    /** The summary object of the JSON output. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("errors", count(Severity.ERROR));
        m.put("warnings", count(Severity.WARN));
        m.put("notes", count(Severity.NOTE));
        m.put("roce_frames", roceFrames);
        m.put("capture_duplicates", duplicates);
        m.put("truncated_frames", truncated);
        m.put("unjudged_frames", unjudged);
        m.put("capture_drops", captureDrops < 0 ? null : captureDrops);
        m.put("tap", tapResolved);
        m.put("tap_how", tapHow);
        // Only when it happened, so that the summary of an ordinary capture keeps its shape (as analyze's).
        if (evicted != null) {
            m.put("evicted_flows", evicted.flows());
            m.put("flow_bound", evicted.bound());
        }
        Map<String, Object> rules = new LinkedHashMap<>();
        for (RuleDef r : rulesBroken()) {
            long[] c = counts(r.id());
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("severity", worst(r.id()).label());
            e.put("errors", c[2]);
            e.put("warnings", c[1]);
            e.put("notes", c[0]);
            Finding first = null;
            for (Finding f : findings) if (f.rule().equals(r.id()) && (first == null || f.severity().compareTo(first.severity()) > 0)) first = f;
            e.put("first_frame", first == null ? null : first.frame());
            rules.put(r.id(), e);
        }
        m.put("rules", rules);
        return m;
    }
}
