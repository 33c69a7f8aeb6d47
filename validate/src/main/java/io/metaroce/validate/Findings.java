package io.metaroce.validate;

import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The findings of one capture: one per (rule, frame where the violation shows), at most {@link #KEEP} kept per
 * rule (all are counted), severities after the tap and the user's overrides. Disabled rules produce nothing.
 */
final class Findings {
    static final int KEEP = 1000;
    private final ValidateSettings settings;
    private final Map<String, List<Finding>> byRule = new LinkedHashMap<>();
    private final Map<String, long[]> counts = new HashMap<>();
    /** (rule, frame) pairs already reported, recent ones only: memory stays flat when every frame breaks a rule. */
    private final Set<Long> seen = java.util.Collections.newSetFromMap(new java.util.LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> e) { return size() > 200_000; }
    });
    private final Map<String, Integer> ruleIndex = new HashMap<>();
    /** Folded notes: one finding per (rule, flow) for per-frame notes that would repeat on every frame. */
    private final Map<String, Finding> folded = new HashMap<>();
    /** Told each kept finding as it is decided ({@code validate -i} prints them as they happen), or null. */
    private java.util.function.Consumer<Finding> listener;
    /** Findings kept since {@link #fresh()} was last cleared: the rules anchor those of the frame being judged. */
    private final List<Finding> fresh = new ArrayList<>();
    /**
     * Whether {@link #fresh} may hold a finding: a field the rules read after every frame instead of asking the list
     * (an interface call C1 does not inline, 1 M times a pass), cleared with it.
     */
    boolean freshAdded;

    Findings(ValidateSettings settings) {
        this.settings = settings;
        int i = 0;
        for (RuleDef r : Spec.RULES) {
            ruleIndex.put(r.id(), i++);
            byRule.put(r.id(), new ArrayList<>());
            counts.put(r.id(), new long[3]);
        }
    }

    boolean enabled(String rule) { return settings.enabled(rule); }

    void listener(java.util.function.Consumer<Finding> l) { this.listener = l; }

    /**
     * Records a finding. judged: the severity its tap gives it (the catalogue severity where the evidence is
     * complete, lower elsewhere). Returns the finding, or null when the rule is disabled or the same rule
     * already reported this frame.
     */
    synchronized Finding add(String rule, Severity judged, String flow, long frame, long timeNs, String message) {
        if (!settings.enabled(rule)) return null;
        Integer ri = ruleIndex.get(rule);
        if (ri == null) throw new IllegalArgumentException("no rule " + rule);
        if (!seen.add(frame * 64 + ri)) return null;
        Severity s = effective(rule, judged);
        Finding f = new Finding(rule, s, flow, frame, timeNs, message);
        counts.get(rule)[s.ordinal()]++;
        List<Finding> l = byRule.get(rule);
        if (l.size() < KEEP) {
            l.add(f);
            fresh.add(f);
            freshAdded = true;
            if (listener != null) listener.accept(f); // only kept ones: the stream equals the end-of-run list
        }
        return f;
    }

    /**
     * A note repeated frame after frame (offloaded checksums at a sender tap): one finding per rule and flow.
     * Returns the finding when this frame made it, null when folded into an earlier one (or disabled).
     */
    synchronized Finding fold(String rule, Severity judged, String flow, long frame, long timeNs, String message) {
        if (!settings.enabled(rule)) return null;
        String k = rule + "|" + flow;
        Finding f = folded.get(k);
        if (f == null) {
            f = add(rule, judged, flow, frame, timeNs, message);
            if (f != null) folded.put(k, f);
            return f;
        }
        f.folded++;
        if (f.frames().length < 16) f.also(frame);
        return null;
    }

    private Severity effective(String rule, Severity judged) {
        Severity o = settings.override(rule);
        if (o == null) return judged;
        Severity catalogue = RuleCatalog.get(rule).severity();
        if (judged == catalogue) return o;
        return judged.compareTo(o) < 0 ? judged : o;
    }

    List<Finding> fresh() { return fresh; }

    /** Downgrades drop-sensitive verdicts when the capture says it missed packets (principle a). */
    void captureDrops(long dropped) {
        if (dropped <= 0) return;
        for (List<Finding> l : byRule.values()) {
            for (Finding f : l) {
                if (!f.dropSensitive || f.severity.compareTo(f.ifDrops) <= 0) continue;
                counts.get(f.rule())[f.severity.ordinal()]--;
                f.severity = f.ifDrops;
                counts.get(f.rule())[f.severity.ordinal()]++;
                f.message += " (the capture reports " + dropped + " dropped packet" + (dropped == 1 ? "" : "s")
                        + ": the evidence may be incomplete)";
            }
        }
    }

    void finishFolded() {
        for (Finding f : folded.values()) {
            if (f.folded > 0) f.message += " (and " + f.folded + " more frame" + (f.folded == 1 ? "" : "s") + " of this flow)";
        }
    }

    /** Kept findings, in frame order. */
    List<Finding> list() {
        List<Finding> all = new ArrayList<>();
        for (List<Finding> l : byRule.values()) all.addAll(l);
        Collections.sort(all);
        return all;
    }

    /** [notes, warns, errors] found for a rule (including those not kept). */
    long[] counts(String rule) { return counts.get(rule).clone(); }

    long total(Severity s) {
        long n = 0;
        for (long[] c : counts.values()) n += c[s.ordinal()];
        return n;
    }
}
