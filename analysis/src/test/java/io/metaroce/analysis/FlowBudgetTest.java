package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The flow bound from the heap (issue 14.3): lowered only where the default bound's flows would not fit. */
class FlowBudgetTest {
    private static final long MIB = 1 << 20;
    private static final int VALIDATE = 5_200; // RuleEngine.BYTES_PER_FLOW, validate's module

    @Test
    void theDefaultBoundStandsWhereItFits() {
        int d = AnalysisSettings.DEFAULT_MAX_FLOWS;
        // analyze under -Xmx1g (989 MiB as the JVM reports it): 65,536 flows of 5 KB are a third of it.
        assertEquals(d, FlowBudget.maxFlows(d, 0, 989 * MIB, 1));
        // The launcher's default heap on a machine of 8 GB and more: validate too.
        assertEquals(d, FlowBudget.maxFlows(d, VALIDATE, 2048 * MIB, 1));
        // A bound set lower (tests, the fuzzer's tiny tables) stays as it was.
        assertEquals(4, FlowBudget.maxFlows(4, VALIDATE, 64 * MIB, 1));
    }

    @Test
    void aSmallerHeapHoldsFewerFlows() {
        int d = AnalysisSettings.DEFAULT_MAX_FLOWS;
        // validate under -Xmx1g: 989 MiB / 3 / 10,200 bytes.
        assertEquals(33_890, FlowBudget.maxFlows(d, VALIDATE, 989 * MIB, 1));
        // Two files at once share the heap.
        assertEquals(16_945, FlowBudget.maxFlows(d, VALIDATE, 989 * MIB, 2));
        // analyze under -Xmx448m: the heap the watch's slow zone was seen in (65,536 flows: 78-96 % full after each collection).
        assertEquals(31_317, FlowBudget.maxFlows(d, 0, 448 * MIB, 1));
        // Never below the floor.
        assertEquals(FlowBudget.MIN_FLOWS, FlowBudget.maxFlows(d, VALIDATE, 8 * MIB, 4));
    }
}
