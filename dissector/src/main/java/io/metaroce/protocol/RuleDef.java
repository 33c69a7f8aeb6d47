package io.metaroce.protocol;

/** A rule of the spec's section 11: a conformance rule or a diagnosis ({@code kind} in the spec file). */
public record RuleDef(String id, Severity severity, String section, String taps, String text, Kind kind) {
    /** What a finding under the rule says. */
    public enum Kind {
        /** A violation of the protocol (MR-FRAME, HDR, SEQ, ACK, RTX, CC, PATH, CTL, UD). */
        CONFORMANCE,
        /** An operator finding from one host's capture (analyze's Diagnosis, MR-DIAG): not a protocol violation. */
        DIAGNOSIS
    }

    /** True for a diagnosis (an operator finding, not a protocol violation). */
    public boolean diagnosis() { return kind == Kind.DIAGNOSIS; }
}
