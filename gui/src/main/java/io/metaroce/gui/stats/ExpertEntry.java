package io.metaroce.gui.stats;

import io.metaroce.protocol.Severity;

/**
 * One row of Expert Info: a finding about one frame, from the analysis (an event) or from validate (a rule's
 * finding). rule is the event type ({@code retransmission}) or the rule id ({@code MR-RTX-003}); group the
 * analysis area ({@code sequence}, {@code congestion}, {@code path}) or {@code conformance <rule group>}.
 */
public record ExpertEntry(Severity severity, String group, String rule, String summary, long frame, String flow,
                          String message, Source source) {
    public enum Source { ANALYSIS, VALIDATE }
}
