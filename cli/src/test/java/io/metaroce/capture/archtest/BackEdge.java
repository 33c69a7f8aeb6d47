package io.metaroce.capture.archtest;

/**
 * A deliberate edge back up (capture -> analysis), used only by ModuleBoundariesTest to show that the module rule
 * catches it. Lives in the tests, which the rule's own import leaves out.
 */
public final class BackEdge {
    private BackEdge() {}

    public static Object reachUp() { return io.metaroce.analysis.AnalysisSettings.DEFAULT; }
}
