package io.metaroce.analysis;

/**
 * How many QP flows a pass holds at once, from the heap the JVM may grow to (issue 14.3: a capture of 10^6
 * distinct QPs under {@code -Xmx1g}). The flow table's bound ({@link AnalysisSettings#maxFlows}, 65,536 by default)
 * is lowered so that the flows of every pass running at once fit in {@link #SHARE} of {@link Runtime#maxMemory()}:
 * beyond it the least recently active flows are evicted with a note, as at the default bound, instead of the run
 * ending out of memory. The bound depends on the heap limit alone (not on what is free at the moment), so one
 * capture gives the same report at the same {@code -Xmx}; with the launcher's default heap (a quarter of the RAM)
 * it stays at 65,536 on any machine of 2 GB or more for analyze, 4 GB or more for validate.
 *
 * <p>Each mode says what a held flow costs it: the engine's {@link #ENGINE_BYTES}, plus what a
 * {@link AnalysisSession.FrameStages} consumer keeps per flow ({@link AnalysisSession.FrameStages#bytesPerFlow},
 * validate's rule state).
 */
public final class FlowBudget {
    /**
     * The share of the maximum heap the flows of all passes may take. A third: under SerialGC the old generation is
     * two thirds of the heap, and the rest of a pass (the hand-off batches, validate's per-frame slots, the report
     * at the end, the garbage between two collections) needs room beside the flows. Measured with validate of 10^6
     * single-packet QPs under -Xmx1g (docs/benchmarks.md, "helper guard, sixteenth session").
     */
    static final double SHARE = 1.0 / 3;
    /**
     * What a flow the engine holds costs analyze: the {@link Flow} (752 bytes), its PSN window at its first size
     * (32 slots of 18 columns), its latency histograms and message slots, the table's entries, the diagnosis' direction
     * (bounded by itself). Measured as the growth of the heap between two class histograms of a pass over single-packet
     * QPs, 12,288 and 53,248 flows held: 4,643 bytes per flow (index's pass, which also records each flow's frames:
     * 4,941).
     */
    public static final int ENGINE_BYTES = 5_000;
    /** Never fewer (a heap so small would rather run out of memory than evict the flows of an ordinary capture). */
    static final int MIN_FLOWS = 1024;
    /**
     * Sets the bound itself, for tests and experiments: {@code METAROCE_JAVA_OPTS=-Dmetaroce.maxFlows=65536} gives the
     * flow table its default bound whatever the heap (a test of the out-of-memory path needs a heap too small for it).
     */
    static final String PROPERTY = "metaroce.maxFlows";

    private static volatile int passes = 1;

    private FlowBudget() {}

    /**
     * How many passes run at once in this JVM (files analyzed, validated or indexed in parallel): they share the
     * heap, so each gets that part of the budget. Set by the command before its passes start.
     */
    public static void passesAtOnce(int n) {
        passes = Math.max(1, n);
    }

    /**
     * The flow bound of a pass: configured (the settings' bound), lowered to what the heap holds of flows that cost
     * {@link #ENGINE_BYTES} plus extraBytesPerFlow each.
     */
    static int maxFlows(int configured, int extraBytesPerFlow) {
        String p = System.getProperty(PROPERTY);
        if (p != null) return Math.max(2, Integer.parseInt(p.trim()));
        return maxFlows(configured, extraBytesPerFlow, Runtime.getRuntime().maxMemory(), passes);
    }

    /**
     * The share of the maximum heap the diagnosis' QP directions of all passes may take (beside {@link #SHARE} for the
     * flows): a sixth, so that its own bound (16,384 directions of about 7.6 KB, some 125 MB) stands from -Xmx1g on.
     */
    static final double DIAGNOSIS_SHARE = 1.0 / 6;

    /**
     * The QP directions the diagnosis ({@code analysis.diagnosis.Diagnoser}) of a pass holds at most: configured,
     * lowered to its share of the heap at bytesEach per direction (never below {@link #MIN_FLOWS}). Without it, the
     * diagnosis' 16,384 directions took half of a 256 MB heap whatever the flow bound, and validate of 100,000 QPs
     * ran out of memory under -Xmx128m.
     */
    public static int maxDirections(int configured, int bytesEach) {
        long fit = (long) (Runtime.getRuntime().maxMemory() * DIAGNOSIS_SHARE / passes) / bytesEach;
        return (int) Math.min(configured, Math.max(MIN_FLOWS, fit));
    }

    static int maxFlows(int configured, int extraBytesPerFlow, long maxHeap, int passesAtOnce) {
        long fit = (long) (maxHeap * SHARE / Math.max(1, passesAtOnce)) / (ENGINE_BYTES + Math.max(0, extraBytesPerFlow));
        return (int) Math.min(configured, Math.max(MIN_FLOWS, fit));
    }
}
