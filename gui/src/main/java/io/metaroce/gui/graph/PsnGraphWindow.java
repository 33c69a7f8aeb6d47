package io.metaroce.gui.graph;

import io.metaroce.analysis.FlowSummary;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.OpenCapture;
import io.metaroce.gui.stats.Windows;
import java.util.List;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import javafx.util.StringConverter;

/**
 * Graphs > PSN vs Time (Stevens): the PSN graph of one QP flow (chosen at the top, or the flow "Graph this flow"
 * asked for), marker kinds switchable, linked both ways with the packet list: a click on a point selects its
 * frame there, and the frame selected there is ringed here.
 */
public final class PsnGraphWindow implements GuiWindow {
    @Override
    public Place place() { return Place.GRAPHS; }

    @Override
    public String title() { return "PSN vs Time (Stevens)"; }

    @Override
    public void open(GuiContext ctx) { open(ctx, null); }

    /** Opens the window on a flow (null: the selected frame's flow, else the busiest). */
    public static PsnGraph open(GuiContext ctx, String flowId) {
        PsnGraph graph = new PsnGraph();
        graph.setId("psn-graph");
        Label status = new Label();
        status.setId("psn-status");
        ComboBox<FlowSummary> flows = new ComboBox<>();
        flows.setId("psn-flow");
        flows.setConverter(new StringConverter<>() {
            @Override
            public String toString(FlowSummary f) {
                return f == null ? "" : f.id() + "  (" + f.counters().dataPackets() + " data packets)";
            }

            @Override
            public FlowSummary fromString(String s) { return null; }
        });
        Button reset = new Button("Reset zoom");
        reset.setOnAction(e -> graph.resetView());
        FlowPane kinds = new FlowPane(8, 4);
        for (MarkerKind k : MarkerKind.values()) {
            CheckBox c = new CheckBox(k.label());
            c.setSelected(true);
            c.selectedProperty().addListener((o, a, b) -> graph.setShown(k, b));
            kinds.getChildren().add(c);
        }
        Button save = GraphExport.button(graph, "psn-graph", () -> {
            FlowSeries s = graph.series();
            java.util.Set<MarkerKind> shown = graph.shownKinds();
            return s == null ? null : w -> GraphCsv.psn(s, shown, w);
        }, status);
        HBox top = new HBox(8, new Label("Flow:"), flows, reset, save, status);
        top.setAlignment(Pos.CENTER_LEFT);
        top.setPadding(new Insets(6, 8, 2, 8));
        kinds.setPadding(new Insets(2, 8, 6, 8));
        BorderPane root = new BorderPane(graph);
        root.setTop(new javafx.scene.layout.VBox(top, kinds));
        Label help = new Label("wheel: zoom (Ctrl: time only)   drag: pan   Shift/right drag: zoom box   click: select frame   Home/double-click: reset");
        help.setPadding(new Insets(2, 8, 4, 8));
        root.setBottom(help);
        Stage st = Windows.show(ctx, "psn-graph-window", "PSN vs Time", root, 1100, 640);
        GraphExport.install(st, save);
        graph.setOnSelect(f -> Windows.select(ctx, f, status));
        ChangeListener<Number> sel = (o, a, b) -> graph.setSelectedFrame(b.intValue());
        ctx.selectedFrameProperty().addListener(sel);
        st.setOnHidden(e -> ctx.selectedFrameProperty().removeListener(sel));
        graph.setSelectedFrame(ctx.selectedFrame());
        // The capture the window reads: Decode As and Reload open it again (the one before is closed by then), and
        // the window fills again from the new one (afterEachAnalysis), on the flow it showed when that is still there.
        OpenCapture[] cap = {ctx.capture()};
        flows.valueProperty().addListener((o, a, f) -> {
            if (f == null) return;
            status.setText("Building the graph of " + f.id() + " ...");
            OpenCapture c = cap[0];
            Windows.background(() -> {
                int[][] fr = FlowChoice.frames(ctx, f);
                return FlowSeries.build(c.index(), ctx.analysis(), f.id(), fr[0], fr[1], null);
            }, series -> {
                graph.setSeries(series);
                status.setText(series.data().size() + " data packets");
            }, status);
        });
        Windows.afterEachAnalysis(ctx, status, s -> FlowChoice.flows(s, f -> f.counters().dataPackets() > 0), l -> {
            cap[0] = ctx.capture();
            if (!FlowChoice.refill(flows, l, cap[0].index(), ctx.analysis(), flowId, ctx.selectedFrame())) status.setText("No flow with data packets");
        });
        return graph;
    }
}
