package io.metaroce.gui.graph;

import io.metaroce.analysis.FlowSummary;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.OpenCapture;
import io.metaroce.gui.stats.Windows;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import javafx.util.StringConverter;

/**
 * Graphs > MetaRoCE Path Heatmap: path_id x time of a MetaRoCE flow, coloured by loss, CE or RTT (switchable).
 * A click on a cell selects its first data frame; the selected frame's time is marked.
 */
public final class PathHeatmapWindow implements GuiWindow {
    /** Most time intervals across the flow: enough to see a burst at any capture length. */
    static final int MAX_BINS = 400;

    /**
     * Intervals for a flow: about four data packets per path and interval, so that a cell's loss rate is a rate and
     * not a coin toss (a 200-packet flow over 4 paths gets 12 intervals, a million-packet one the maximum).
     */
    static int bins(FlowSummary f) {
        long paths = Math.max(1, f.metaRoce().paths().size());
        return (int) Math.max(1, Math.min(MAX_BINS, f.counters().dataPackets() / (paths * 4)));
    }

    @Override
    public Place place() { return Place.GRAPHS; }

    @Override
    public String title() { return "MetaRoCE Path Heatmap"; }

    @Override
    public void open(GuiContext ctx) { open(ctx, null); }

    public static PathHeatmapView open(GuiContext ctx, String flowId) {
        PathHeatmapView view = new PathHeatmapView();
        view.setId("path-heatmap");
        Label status = new Label();
        status.setId("heatmap-status");
        ComboBox<FlowSummary> flows = new ComboBox<>();
        flows.setId("heatmap-flow");
        flows.setConverter(new StringConverter<>() {
            @Override
            public String toString(FlowSummary f) {
                return f == null ? "" : f.id() + "  (" + f.metaRoce().pathCount() + " paths)";
            }

            @Override
            public FlowSummary fromString(String s) { return null; }
        });
        ChoiceBox<HeatMetric> metric = new ChoiceBox<>();
        metric.setId("heatmap-metric");
        metric.getItems().setAll(HeatMetric.values());
        metric.setValue(HeatMetric.LOSS);
        metric.setConverter(new StringConverter<>() {
            @Override
            public String toString(HeatMetric m) { return m == null ? "" : m.label(); }

            @Override
            public HeatMetric fromString(String s) { return null; }
        });
        metric.valueProperty().addListener((o, a, m) -> view.setMetric(m));
        Button reset = new Button("Reset zoom");
        reset.setOnAction(e -> view.resetView());
        Button save = GraphExport.button(view, "path-heatmap", () -> {
            PathHeatmap h = view.heatmap();
            HeatMetric m = view.metric();
            return h == null ? null : w -> GraphCsv.heatmap(h, m, w);
        }, status);
        HBox top = new HBox(8, new Label("Flow:"), flows, new Label("Colour by:"), metric, reset, save, status);
        top.setAlignment(Pos.CENTER_LEFT);
        top.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(view);
        root.setTop(top);
        Stage st = Windows.show(ctx, "path-heatmap-window", "MetaRoCE Path Heatmap", root, 1100, 520);
        GraphExport.install(st, save);
        view.setOnSelect(f -> Windows.select(ctx, f, status));
        // The capture the window reads: Decode As and Reload open it again (the one before is closed by then), and
        // the window fills again from the new one (afterEachAnalysis), on the flow it showed when that is still there.
        OpenCapture[] cap = {ctx.capture()};
        ChangeListener<Number> sel = (o, a, b) -> view.setSelectedTime(b.intValue() > 0 && b.intValue() <= cap[0].frames()
                ? cap[0].index().timeNanos(b.intValue()) : -1);
        ctx.selectedFrameProperty().addListener(sel);
        st.setOnHidden(e -> ctx.selectedFrameProperty().removeListener(sel));
        flows.valueProperty().addListener((o, a, f) -> {
            if (f == null) return;
            status.setText("Building the heatmap of " + f.id() + " ...");
            OpenCapture c = cap[0];
            Windows.background(() -> PathHeatmap.build(c.index(), ctx.analysis(), f.id(), FlowChoice.frames(ctx, f)[0], bins(f), null), h -> {
                view.setHeatmap(h);
                if (ctx.selectedFrame() > 0) view.setSelectedTime(c.index().timeNanos(ctx.selectedFrame()));
                status.setText(h.paths() + " paths x " + h.bins() + " intervals of " + h.binNs() + " ns");
            }, status);
        });
        Windows.afterEachAnalysis(ctx, status, s -> FlowChoice.flows(s, f -> PathHeatmap.applies(f) && f.counters().dataPackets() > 0), l -> {
            cap[0] = ctx.capture();
            if (!FlowChoice.refill(flows, l, cap[0].index(), ctx.analysis(), flowId, ctx.selectedFrame())) status.setText("No MetaRoCE flow with paths in this capture");
        });
        return view;
    }
}
