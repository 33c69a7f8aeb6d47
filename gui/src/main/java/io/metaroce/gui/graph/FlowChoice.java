package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.protocol.FieldDef;
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
    static FlowSummary initial(FrameIndex index, AnalysisSession s, List<FlowSummary> flows, String wanted, int selectedFrame) {
        if (flows.isEmpty()) return null;
        if (wanted == null && selectedFrame > 0 && selectedFrame <= index.size()) wanted = flowOf(index, s, selectedFrame);
        if (wanted != null) for (FlowSummary f : flows) if (f.id().equals(wanted)) return f;
        return flows.getFirst();
    }

    /**
     * Fills a window's flow chooser with an analysis' flows (a new one after Decode As / Reload): the flow it showed
     * when that is still there, else {@link #initial}'s choice. False when there is no flow to show.
     */
    static boolean refill(javafx.scene.control.ComboBox<FlowSummary> chooser, List<FlowSummary> flows, FrameIndex index,
                          AnalysisSession s, String wanted, int selectedFrame) {
        FlowSummary shown = chooser.getValue();
        chooser.setValue(null);     // a new value below, even when it is the same flow: its graph is built again
        chooser.getItems().setAll(flows);
        FlowSummary first = initial(index, s, flows, shown != null ? shown.id() : wanted, selectedFrame);
        if (first == null) return false;
        chooser.setValue(first);
        return true;
    }

    private static final FieldDef FLOW = FieldCatalog.get().field("analysis.flow");

    /** The analysis' flow of a frame (its analysis.flow field), or null. */
    static String flowOf(FrameIndex index, AnalysisSession s, int frame) {
        Dissection d = index.dissect(frame, new Dissector(new DissectorConfig(s.settings().rocePorts(), false)), new Dissection());
        s.frameFields().attach(d);
        int i = d.extra().indexOf(FLOW);
        return i < 0 ? null : d.extra().stringValue(i);
    }

    /** The frames of a flow and of its peer (empty when it has none), through the GUI's filter pass. */
    static int[][] frames(io.metaroce.gui.GuiContext ctx, FlowSummary f) {
        try {
            int[] own = ctx.framesMatching(FlowSeries.flowFilter(f.id()));
            int[] peer = f.peer() == null ? new int[0] : ctx.framesMatching(FlowSeries.flowFilter(f.peer()));
            return new int[][] {own, peer};
        } catch (io.metaroce.filter.FilterException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
