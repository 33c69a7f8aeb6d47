package io.metaroce.gui.graph;

import io.metaroce.filter.FilterException;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.OpenCapture;
import io.metaroce.gui.stats.Windows;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;
import javafx.stage.Stage;

/**
 * Graphs > IO Graph: packets, bytes or goodput per interval for several series, each with its own display filter
 * (the CLI's language, analysis.* fields included). Apply recomputes in the background; a bad filter turns its
 * field red and names the column. A click on a point selects the first frame of that series in that interval.
 */
public final class IoGraphWindow implements GuiWindow {
    private static final int[] COLOURS = {0xFF1F77B4, 0xFFD62728, 0xFF2CA02C, 0xFF9467BD};
    /** Intervals offered, in ns; 0 = automatic (about 200 intervals over the capture). */
    private static final long[] INTERVALS = {0, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000};

    @Override
    public Place place() { return Place.GRAPHS; }

    @Override
    public String title() { return "IO Graph"; }

    /** One editable series row. */
    record Row(CheckBox on, TextField name, TextField filter, ChoiceBox<IoSeries.Metric> metric, int argb) {
        IoSeries series() { return new IoSeries(name.getText(), filter.getText(), metric.getValue(), argb); }
    }

    @Override
    public void open(GuiContext ctx) { open(ctx, null); }

    /** Opens the window; extra, when not null, replaces the default series (tests, "graph this filter"). */
    public static IoGraph open(GuiContext ctx, List<IoSeries> extra) {
        IoGraph graph = new IoGraph();
        graph.setId("io-graph");
        Label status = new Label();
        status.setId("io-status");
        List<IoSeries> initial = extra != null ? extra : List.of(
                new IoSeries("All packets", "", IoSeries.Metric.PACKETS, COLOURS[0]),
                new IoSeries("Retransmissions", "analysis.retransmission", IoSeries.Metric.PACKETS, COLOURS[1]),
                new IoSeries("CE marked", "ip.dsfield.ecn == 3 || ipv6.tclass.ecn == 3", IoSeries.Metric.PACKETS, COLOURS[2]),
                new IoSeries("Goodput", "", IoSeries.Metric.GOODPUT, COLOURS[3]));
        GridPane grid = new GridPane(8, 4);
        grid.setPadding(new Insets(6, 8, 6, 8));
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < Math.max(4, initial.size()); i++) {
            IoSeries s = i < initial.size() ? initial.get(i) : new IoSeries("Series " + (i + 1), "", IoSeries.Metric.PACKETS, COLOURS[i % 4]);
            CheckBox on = new CheckBox();
            // Goodput is in bit/s, packets per interval are tens: the default shows the counts, goodput on demand.
            on.setSelected(extra != null ? i < initial.size() : s.metric() != IoSeries.Metric.GOODPUT);
            TextField name = new TextField(s.name());
            name.setPrefColumnCount(12);
            TextField filter = new TextField(s.filter());
            filter.setId("io-filter-" + i);
            filter.setPromptText("display filter (empty: all frames)");
            GridPane.setHgrow(filter, Priority.ALWAYS);
            ChoiceBox<IoSeries.Metric> metric = new ChoiceBox<>();
            metric.getItems().setAll(IoSeries.Metric.values());
            metric.setValue(s.metric());
            Rectangle swatch = new Rectangle(14, 14, IoGraph.color(s.argb()));
            grid.addRow(i, on, swatch, name, filter, metric);
            rows.add(new Row(on, name, filter, metric, s.argb()));
        }
        ChoiceBox<Long> interval = new ChoiceBox<>();
        interval.setId("io-interval");
        for (long v : INTERVALS) interval.getItems().add(v);
        interval.setValue(0L);
        interval.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(Long v) {
                if (v == null) return "";
                if (v == 0) return "auto";
                Ticks.TimeUnit u = Ticks.timeUnit(v * 10.0);
                return u.format(v) + " " + u.label();
            }

            @Override
            public Long fromString(String s) { return null; }
        });
        Button apply = new Button("Apply");
        apply.setId("io-apply");
        apply.setDefaultButton(true);
        Button reset = new Button("Reset zoom");
        reset.setOnAction(e -> graph.resetView());
        Button save = GraphExport.button(graph, "io-graph", () -> {
            IoGraphData d = graph.data();
            return d == null ? null : w -> GraphCsv.ioGraph(d, w);
        }, status);
        HBox bar = new HBox(8, new Label("Interval:"), interval, apply, reset, save, status);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(0, 8, 6, 8));
        BorderPane root = new BorderPane(graph);
        root.setTop(new VBox(grid, bar));
        Stage st = Windows.show(ctx, "io-graph-window", "IO Graph", root, 1100, 680);
        GraphExport.install(st, save);
        // The capture the window reads: Decode As and Reload open it again (the one before is closed by then), and
        // the graph is computed again from the new one (followRedissections below).
        OpenCapture[] cap = {ctx.capture()};
        graph.setOnSelect(f -> Windows.select(ctx, f, status));
        ChangeListener<Number> sel = (o, a, b) -> graph.setSelected(b.intValue(),
                b.intValue() > 0 && b.intValue() <= cap[0].frames() ? cap[0].index().timeNanos(b.intValue()) : 0);
        ctx.selectedFrameProperty().addListener(sel);
        st.setOnHidden(e -> ctx.selectedFrameProperty().removeListener(sel));
        Runnable run = () -> {
            List<IoSeries> series = new ArrayList<>();
            for (Row r : rows) {
                r.filter().setStyle("");
                if (r.on().isSelected()) series.add(r.series());
            }
            try {
                IoGraphData.compile(series);
            } catch (FilterException e) {
                for (Row r : rows)
                    if (r.on().isSelected() && r.filter().getText().strip().equals(e.filterText() == null ? "" : e.filterText().strip()))
                        r.filter().setStyle("-fx-control-inner-background: #ffd0d0;");
                status.setText("Bad filter: " + e.oneLine());
                return;
            }
            long chosen = interval.getValue();
            // Edit > Ignore Packet's frames are not counted (Wireshark leaves ignored frames out of its statistics).
            java.util.BitSet ignored = ctx.ignoredCount() == 0 ? null : ctx.ignoredFrames();
            Windows.afterAnalysis(ctx, status, s -> {
                OpenCapture c = ctx.capture();
                long iv = chosen == 0 ? autoInterval(c.index()) : chosen;
                try {
                    return new Computed(c, IoGraphData.compute(c.index(), s, series, iv, ignored, null));
                } catch (FilterException e) {
                    throw new IllegalArgumentException(e.getMessage(), e);
                }
            }, computed -> {
                cap[0] = computed.capture();
                IoGraphData d = computed.data();
                graph.setData(d, cap[0].firstTimeNanos());
                graph.setSelected(ctx.selectedFrame(), ctx.selectedFrame() > 0 ? cap[0].index().timeNanos(ctx.selectedFrame()) : 0);
                StringBuilder sb = new StringBuilder(d.bins() + " intervals;");
                for (int i = 0; i < d.series().size(); i++) sb.append(' ').append(d.series().get(i).name()).append(": ").append(d.matched(i)).append(" frames;");
                status.setText(sb.toString());
            });
        };
        Windows.followRedissections(ctx, status, run);
        apply.setOnAction(e -> run.run());
        run.run();
        return graph;
    }

    /** A graph computed and the capture it was computed from. */
    private record Computed(OpenCapture capture, IoGraphData data) { }

    /** About 200 intervals over the capture, rounded to 1, 2 or 5 times a power of ten (at least 1 ns). */
    static long autoInterval(io.metaroce.dissector.FrameIndex ix) {
        if (ix.size() < 2) return 1_000_000;
        double span = ix.timeNanos(ix.size()) - ix.timeNanos(1);
        return Math.max(1, (long) Ticks.step(Math.max(1, span / 200)));
    }
}
