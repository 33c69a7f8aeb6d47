package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowSummary;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/** Which flows a graph window offers, and which it shows first. */
final class FlowChoice {
    private FlowChoice() {}

    /** The flows passing the test, the busiest first. */
    static List<FlowSummary> flows(AnalysisSession s, Predicate<FlowSummary> test) {
        return s.flows().stream().filter(test)
                .sorted(Comparator.comparingLong((FlowSummary f) -> f.counters().dataPackets()).reversed()).toList();
    }

    /** The flow to show first: the wanted one, else the selected frame's, else the busiest; null when none. */
    static FlowSummary initial(AnalysisSession s, List<FlowSummary> flows, String wanted, int selectedFrame) {
        if (flows.isEmpty()) return null;
        if (wanted != null) for (FlowSummary f : flows) if (f.id().equals(wanted)) return f;
        if (selectedFrame > 0) for (FlowSummary f : flows) if (s.framesOf(f.id()).indexOf(selectedFrame) >= 0) return f;
        return flows.getFirst();
    }
}
