package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisResult;
import io.metaroce.filter.FilterException;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.OpenCapture;
import io.metaroce.gui.stats.Windows;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.util.StringConverter;

/**
 * Graphs > Congestion Loop: for one QP direction with CE marks or CNPs (analyze's "Congestion loop" rows; the one with
 * the most CNPs first, or the flow asked for, or the selected frame's), its data rate over time, its CE marks and
 * CNPs, and the paused runs of its PFC class ({@link CongestionGraph}); analyze's verdict and figures for the flow
 * above it. A click on a marker selects its frame in the packet list; the frame selected there is marked here.
 */
public final class CongestionLoopWindow implements GuiWindow {
    @Override
    public Place place() { return Place.GRAPHS; }

    @Override
    public String title() { return "Congestion Loop"; }

    @Override
    public void open(GuiContext ctx) { open(ctx, null); }

    /** Opens the window on a flow (null: the selected frame's flow, else the one with most CNPs). */
    public static CongestionGraph open(GuiContext ctx, String flowId) {
        CongestionGraph graph = new CongestionGraph();
        graph.setId("cc-graph");
        Label status = new Label();
        status.setId("cc-status");
        Label figures = new Label();
        figures.setId("cc-figures");
        figures.setWrapText(true);
        ComboBox<Map<String, Object>> flows = new ComboBox<>();
        flows.setId("cc-flow");
        flows.setConverter(new StringConverter<>() {
            @Override
            public String toString(Map<String, Object> m) {
                return m == null ? "" : m.get("flow") + "  (" + m.get("ce_marks") + " CE, " + m.get("cnps") + " CNPs: "
                        + m.get("verdict") + ")";
            }

            @Override
            public Map<String, Object> fromString(String s) { return null; }
        });
        Button reset = new Button("Reset zoom");
        reset.setOnAction(e -> graph.resetView());
        Button save = GraphExport.button(graph, "congestion-loop", () -> {
            CongestionSeries s = graph.series();
            return s == null ? null : w -> GraphCsv.congestion(s, w);
        }, status);
        HBox top = new HBox(8, new Label("Flow:"), flows, reset, save, status);
        top.setAlignment(Pos.CENTER_LEFT);
        top.setPadding(new Insets(6, 8, 2, 8));
        figures.setPadding(new Insets(2, 8, 6, 8));
        BorderPane root = new BorderPane(graph);
        root.setTop(new VBox(top, figures));
        Label help = new Label("hover: values   wheel: zoom (Ctrl: time only)   drag: pan   Shift/right drag: zoom box   "
                + "click a CE or CNP marker: select its frame   Home/double-click: reset");
        help.setPadding(new Insets(2, 8, 4, 8));
        root.setBottom(help);
        Stage st = Windows.show(ctx, "cc-graph-window", "Congestion Loop", root, 1100, 640);
        GraphExport.install(st, save);
        graph.setOnSelect(f -> Windows.select(ctx, f, status));
        if (ctx.capture() == null) {
            status.setText("No capture is open");
            return graph;
        }
        // The capture and analysis the window reads: Decode As and Reload open the capture again (the one before is
        // closed by then), and the window fills again from the new ones (afterEachAnalysis), on the flow it showed.
        OpenCapture[] cap = {ctx.capture()};
        AnalysisResult[] analyzed = {null};
        ChangeListener<Number> sel = (o, a, b) -> {
            CongestionSeries s = graph.series();
            int f = b.intValue();
            graph.setSelectedTime(s == null || f <= 0 || f > cap[0].frames() ? -1 : cap[0].index().timeNanos(f) - s.originNs());
        };
        ctx.selectedFrameProperty().addListener(sel);
        st.setOnHidden(e -> ctx.selectedFrameProperty().removeListener(sel));
        flows.valueProperty().addListener((o, a, m) -> {
            if (m == null) return;
            String id = (String) m.get("flow");
            figures.setText(figures(m));
            status.setText("Building the graph of " + id + " ...");
            AnalysisResult result = analyzed[0];
            Windows.background(() -> build(ctx, result, id, m), series -> {
                graph.setSeries(series);
                sel.changed(null, null, ctx.selectedFrame());
                status.setText(series.rate().size() + " rate buckets, " + series.ce().size() + " CE marks, "
                        + series.cnp().size() + " CNPs" + (series.paused().isEmpty() ? "" : ", " + series.paused().size() + " paused runs"));
            }, status);
        });
        Windows.afterEachAnalysis(ctx, status, s -> s.result(), result -> {
            cap[0] = ctx.capture();
            analyzed[0] = result;
            Map<String, Object> shown = flows.getValue();
            flows.setValue(null);
            List<Map<String, Object>> rows = ordered(CongestionSeries.rows(result.congestionLoop()));
            flows.getItems().setAll(rows);
            if (rows.isEmpty()) {
                status.setText("No flow with CE marks or CNPs: the capture shows no congestion loop");
                return;
            }
            flows.setValue(initial(ctx, rows, shown != null ? (String) shown.get("flow") : flowId));
        });
        return graph;
    }

    private static CongestionSeries build(GuiContext ctx, AnalysisResult result, String id, Map<String, Object> row) {
        try {
            int[] frames = ctx.framesMatching(FlowSeries.flowFilter(id));
            return CongestionSeries.build(ctx.capture().index(), ctx.analysis(), id, frames, row, result.pauseRuns(), null);
        } catch (FilterException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The rows with the most CNPs first (then CE marks), as the chooser lists them. */
    public static List<Map<String, Object>> ordered(List<Map<String, Object>> rows) {
        List<Map<String, Object>> l = new ArrayList<>(rows);
        l.sort(Comparator.comparingLong((Map<String, Object> m) -> num(m.get("cnps"))).reversed()
                .thenComparing(Comparator.comparingLong((Map<String, Object> m) -> num(m.get("ce_marks"))).reversed()));
        return l;
    }

    /**
     * The flow to show first: the one asked for, else the selected frame's (its CNP's: the data flow the CNP is about,
     * the row whose peer is the frame's flow), else the first row.
     */
    private static Map<String, Object> initial(GuiContext ctx, List<Map<String, Object>> rows, String wanted) {
        int f = ctx.selectedFrame();
        String own = wanted == null && f > 0 && f <= ctx.capture().frames()
                ? FlowChoice.flowOf(ctx.capture().index(), ctx.analysis(), f) : null;
        for (Map<String, Object> m : rows) if (m.get("flow").equals(wanted) || m.get("flow").equals(own)) return m;
        if (own != null) for (Map<String, Object> m : rows) if (own.equals(m.get("peer"))) return m;
        return rows.getFirst();
    }

    /** analyze's figures of the flow, in its words. */
    @SuppressWarnings("unchecked")
    public static String figures(Map<String, Object> m) {
        Map<String, Object> d = (Map<String, Object>) m.get("ce_to_cnp_ns"), iv = (Map<String, Object>) m.get("cnp_interval_ns");
        StringBuilder b = new StringBuilder();
        b.append("Verdict: ").append(m.get("verdict")).append(" (").append(m.get("view")).append(" view, rate seen as ")
                .append(m.get("rate_seen_as")).append(")   CE marks: ").append(m.get("ce_marks")).append("   CNPs expected/seen: ")
                .append(m.get("cnps_expected")).append(" / ").append(m.get("cnps"));
        if (d != null) b.append("   CE->CNP median: ").append(us(d.get("median"))).append(" us");
        if (iv != null) b.append("   CNP gap median: ").append(us(iv.get("median"))).append(" us");
        Object cut = m.get("median_cut_pct"), pace = m.get("pace_cut_pct");
        b.append("   Bytes cut: ").append(cut == null ? "-" : pct(cut) + " (" + m.get("cnps_measured") + " CNPs)");
        if (pace != null) b.append("   Pace cut: ").append(pct(pace));
        return b.toString();
    }

    public static String us(Object ns) {
        return ns instanceof Number n ? String.format(Locale.ROOT, "%.3f", n.longValue() / 1e3) : "-";
    }

    public static String pct(Object p) {
        return p instanceof Number n ? String.format(Locale.ROOT, "%.1f%%", n.doubleValue()) : "-";
    }

    private static long num(Object o) { return o instanceof Number n ? n.longValue() : 0; }
}
