package io.metaroce.analysis.diagnosis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One diagnosis: what it is about (a QP flow, or a host pair), the cause, when it started, the evidence frames
 * and the figures behind it. {@link #rule} is a stable id (also the {@code validate} rule id).
 *
 * @param rule stable id, e.g. {@code qp-retry-exhausted}
 * @param subject the flow id ({@code src>dst/0xQPN}) or host pair ({@code a<>b}) it is about
 * @param cause short cause name ({@code retry_exhausted}, {@code peer_stopped}, ...)
 * @param startedNs capture time (ns since the epoch) the problem started, null when it has no start
 * @param summary one line for an operator
 * @param evidence frame numbers that show it (a bounded sample, in capture order)
 * @param details the figures behind the verdict (JSON-ready values)
 */
public record Finding(String rule, String subject, String cause, Long startedNs, String summary, List<Long> evidence,
                      Map<String, Object> details) {

    /** The finding as the JSON object of {@code analyze -T json}'s {@code diagnosis.findings}. */
    public Map<String, Object> toJsonMap(long firstNs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rule", rule);
        m.put("subject", subject);
        m.put("cause", cause);
        m.put("started_ns", startedNs);
        m.put("started_s", startedNs == null || firstNs < 0 ? null : (startedNs - firstNs) / 1e9);
        m.put("summary", summary);
        m.put("evidence_frames", evidence);
        m.put("details", details);
        return m;
    }

    /** True when the finding is about this flow id or a host pair containing this address. */
    boolean about(String flowId) { return subject.equals(flowId); }
}
