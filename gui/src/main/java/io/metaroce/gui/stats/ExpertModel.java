package io.metaroce.gui.stats;

import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.EventLog;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.validate.FileResult;
import io.metaroce.validate.Finding;
import io.metaroce.validate.RuleCatalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Expert Info's content: the analysis events and validate's findings of a capture, grouped by severity (worst
 * first), then group, then rule, each level with its count. A rule's count is the finding count validate
 * reports, which may exceed the findings it keeps (at most 1000 per rule): {@link RuleNode#count()} against
 * {@code entries().size()}.
 */
public final class ExpertModel {
    /** One rule (or event type) under a group: how often it occurred and the entries kept. */
    public record RuleNode(String rule, String summary, long count, List<ExpertEntry> entries) {}

    public record GroupNode(String group, long count, List<RuleNode> rules) {}

    public record SeverityNode(Severity severity, long count, List<GroupNode> groups) {}

    private final List<SeverityNode> severities;
    private final long total;

    private ExpertModel(List<SeverityNode> severities) {
        this.severities = List.copyOf(severities);
        long t = 0;
        for (SeverityNode s : severities) t += s.count();
        total = t;
    }

    public List<SeverityNode> severities() { return severities; }

    public long total() { return total; }

    /** The count of one rule or event type (its label, {@code retransmission}) over all severities, 0 when absent. */
    public long count(String rule) {
        long n = 0;
        for (SeverityNode s : severities)
            for (GroupNode g : s.groups()) for (RuleNode r : g.rules()) if (r.rule().equals(rule)) n += r.count();
        return n;
    }

    public long count(Severity severity) {
        for (SeverityNode s : severities) if (s.severity() == severity) return s.count();
        return 0;
    }

    /** Builds the model from the events of an analysis and (may be null) a validate result of the same capture. */
    public static ExpertModel of(EventLog events, FileResult validation) {
        List<ExpertEntry> entries = new ArrayList<>();
        Map<String, Long> counts = new LinkedHashMap<>();
        for (AnalysisEvent e : events.all()) {
            var t = e.type();
            entries.add(new ExpertEntry(EventExpert.severity(t), EventExpert.group(t), t.label(), EventExpert.summary(t),
                    e.frame(), e.flow(), EventExpert.message(e), ExpertEntry.Source.ANALYSIS));
        }
        if (validation != null) {
            for (Finding f : validation.findings()) {
                RuleDef r = RuleCatalog.get(f.rule());
                entries.add(new ExpertEntry(f.severity(), group(f.rule()), f.rule(),
                        r == null ? f.rule() : r.text(), f.frame(), f.flow(), f.message(), ExpertEntry.Source.VALIDATE));
            }
            // validate counts every finding but keeps at most 1000 per rule: the counts come from its totals.
            for (RuleDef r : validation.rulesBroken()) {
                long[] c = validation.counts(r.id());
                for (Severity s : Severity.values()) if (c[s.ordinal()] > 0) counts.put(key(s, r.id()), c[s.ordinal()]);
            }
        }
        return group(entries, counts);
    }

    /**
     * A finding's group: "diagnosis" for the MR-DIAG rules (analyze's answers to operator questions: a QP that died,
     * a minority marking, one source port), "conformance GROUP" for the spec's rules.
     */
    static String group(String rule) {
        String g = RuleCatalog.group(rule);
        return g.equals("DIAG") ? "diagnosis" : "conformance " + g;
    }

    private static String key(Severity s, String rule) { return s.name() + "|" + rule; }

    /** Groups entries; counts overrides a (severity, rule) count where more occurred than were kept. */
    static ExpertModel group(List<ExpertEntry> entries, Map<String, Long> counts) {
        Map<Severity, Map<String, Map<String, List<ExpertEntry>>>> tree =
                new TreeMap<>(Comparator.comparing(Severity::ordinal).reversed());
        for (ExpertEntry e : entries)
            tree.computeIfAbsent(e.severity(), k -> new TreeMap<>()).computeIfAbsent(e.group(), k -> new TreeMap<>())
                    .computeIfAbsent(e.rule(), k -> new ArrayList<>()).add(e);
        List<SeverityNode> out = new ArrayList<>();
        for (var s : tree.entrySet()) {
            List<GroupNode> groups = new ArrayList<>();
            long sc = 0;
            for (var g : s.getValue().entrySet()) {
                List<RuleNode> rules = new ArrayList<>();
                long gc = 0;
                for (var r : g.getValue().entrySet()) {
                    List<ExpertEntry> l = r.getValue();
                    long n = Math.max(l.size(), counts.getOrDefault(key(s.getKey(), r.getKey()), 0L));
                    rules.add(new RuleNode(r.getKey(), l.get(0).summary(), n, List.copyOf(l)));
                    gc += n;
                }
                groups.add(new GroupNode(g.getKey(), gc, List.copyOf(rules)));
                sc += gc;
            }
            out.add(new SeverityNode(s.getKey(), sc, List.copyOf(groups)));
        }
        return new ExpertModel(out);
    }
}
