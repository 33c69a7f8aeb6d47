package io.metaroce.gui.stats;

import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.graph.PathHeatmap;
import io.metaroce.gui.graph.PathHeatmapWindow;
import io.metaroce.gui.graph.PsnGraphWindow;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/**
 * Statistics > QP Conversations: one row per QP flow of the analysis with its counters and latency summaries
 * (sortable); "Filter on this flow" applies its display filter to the packet list, "Graph this flow" opens its PSN
 * graph (and "Path heatmap" the heatmap of a sprayed flow); a double-click selects the flow's first frame.
 */
public final class ConversationsWindow implements GuiWindow {
    @Override
    public Place place() { return Place.STATISTICS; }

    @Override
    public String title() { return "QP Conversations"; }

    @Override
    public void open(GuiContext ctx) {
        TableView<ConversationRow> table = new TableView<>();
        table.setId("conversations-table");
        table.getColumns().add(col("Flow", ConversationRow::id, 230));
        table.getColumns().add(col("Transport", ConversationRow::transport, 75));
        table.getColumns().add(col("Service", ConversationRow::service, 55));
        table.getColumns().add(col("Packets", ConversationRow::packets, 70));
        table.getColumns().add(col("Bytes", ConversationRow::bytes, 80));
        table.getColumns().add(col("Duration (ns)", ConversationRow::durationNs, 95));
        table.getColumns().add(col("Retx", ConversationRow::retransmissions, 50));
        table.getColumns().add(col("Spurious", ConversationRow::spurious, 65));
        table.getColumns().add(col("NAKs", ConversationRow::naks, 50));
        table.getColumns().add(col("SACKs", ConversationRow::sacks, 55));
        table.getColumns().add(col("CNPs", ConversationRow::cnps, 50));
        table.getColumns().add(col("CE", ConversationRow::ceMarks, 45));
        table.getColumns().add(col("OOO", ConversationRow::outOfOrder, 45));
        table.getColumns().add(col("Paths", ConversationRow::paths, 50));
        table.getColumns().add(col("Goodput (bit/s)", ConversationRow::goodputBps, 105));
        table.getColumns().add(col("ACK RTT p50 (ns)", ConversationRow::ackRttMedianNs, 115));
        table.getColumns().add(col("ACK RTT p99 (ns)", ConversationRow::ackRttP99Ns, 115));
        table.getColumns().add(col("Msg completion p50 (ns)", ConversationRow::completionMedianNs, 150));
        Label status = new Label();
        status.setId("conversations-status");
        Button filter = new Button("Filter on this flow");
        filter.setId("conv-filter");
        Button graph = new Button("Graph this flow");
        graph.setId("conv-graph");
        Button heat = new Button("Path heatmap");
        heat.setId("conv-heatmap");
        filter.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        graph.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        heat.setDisable(true);
        table.getSelectionModel().selectedItemProperty().addListener((o, a, r) ->
                heat.setDisable(r == null || !PathHeatmap.applies(r.flow())));
        filter.setOnAction(e -> {
            ConversationRow r = table.getSelectionModel().getSelectedItem();
            var err = ctx.applyFilter(r.filter());
            status.setText(err == null ? "Filter applied: " + r.filter() : "Filter rejected: " + err.getMessage());
        });
        graph.setOnAction(e -> PsnGraphWindow.open(ctx, table.getSelectionModel().getSelectedItem().id()));
        heat.setOnAction(e -> PathHeatmapWindow.open(ctx, table.getSelectionModel().getSelectedItem().id()));
        table.setRowFactory(t -> {
            TableRow<ConversationRow> row = new TableRow<>();
            row.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_CLICKED, e -> {
                if (e.getClickCount() == 2 && row.getItem() != null && ctx.analysis() != null) {
                    ConversationRow r = row.getItem();
                    // The GUI's analysis keeps no per-flow frame lists: the flow's first frame is a filter pass away.
                    Windows.background(() -> {
                        try {
                            return ctx.framesMatching(io.metaroce.gui.graph.FlowSeries.flowFilter(r.id()));
                        } catch (io.metaroce.filter.FilterException x) {
                            throw new IllegalStateException(x.getMessage(), x);
                        }
                    }, frames -> {
                        if (frames.length > 0) Windows.select(ctx, frames[0], status);
                    }, status);
                }
            });
            return row;
        });
        HBox bar = new HBox(8, filter, graph, heat, TableCopy.button(table, status), status);
        bar.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(table);
        root.setBottom(bar);
        Windows.show(ctx, "conversations", "QP Conversations", root, 1300, 480);
        Windows.afterEachAnalysis(ctx, status, s -> s.flows().stream().map(ConversationRow::new).toList(), rows -> {
            table.getItems().setAll(rows);
            status.setText(rows.size() + " flows");
        });
    }

    private static <T> TableColumn<ConversationRow, T> col(String name, Function<ConversationRow, T> f, double w) {
        TableColumn<ConversationRow, T> c = new TableColumn<>(name);
        c.setPrefWidth(w);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        return c;
    }
}
