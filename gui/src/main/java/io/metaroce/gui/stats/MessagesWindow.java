package io.metaroce.gui.stats;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.RdmaMessage;
import io.metaroce.capture.CaptureException;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.transformation.FilteredList;
import javafx.collections.transformation.SortedList;
import javafx.geometry.Insets;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/**
 * Statistics > RDMA Messages: the capture's messages as {@code analyze --messages} lists them (one row each: first
 * packet, flow, kind, PSNs, packets, bytes, duration, completion, retransmitted packets, immediate data, status),
 * sortable; a flow chooser and a filter field (kind, status, flow or immediate, as typed) narrow it; a double-click
 * or Enter selects the message's first packet in the packet list. Computed by a pass of its own over the file with
 * the CLI's code ({@link #messages}), so both give the same messages; the GUI's own analysis keeps none. At most
 * {@link #MAX_ROWS} rows are kept (the window says when it stopped there).
 */
public final class MessagesWindow implements GuiWindow {
    /** Rows kept: about 150 bytes each, so the table of a huge capture stays within a few hundred MB. */
    public static final int MAX_ROWS = 1_000_000;
    static final String ALL_FLOWS = "All flows";

    @Override
    public Place place() { return Place.STATISTICS; }

    @Override
    public String title() { return "RDMA Messages..."; }

    /** The messages of a capture file, as analyze --messages decides them, the first max of them; and how many in all. */
    public record Messages(List<RdmaMessage> kept, long total) { }

    /** The pass: {@link AnalysisSession#onMessage} over the file, as {@code analyze --messages} runs it. */
    public static Messages messages(Path file, AnalysisSettings settings, int max) throws CaptureException {
        List<RdmaMessage> kept = new ArrayList<>();
        long[] total = {0};
        new AnalysisSession(settings, AnalysisSession.Options.RESULTS).onMessage(m -> {
            if (total[0]++ < max) kept.add(m);
        }).run(file);
        return new Messages(kept, total[0]);
    }

    @Override
    public void open(GuiContext ctx) {
        TableView<RdmaMessage> table = new TableView<>();
        table.setId("messages-table");
        table.getColumns().add(col("Frame", RdmaMessage::frame, 70));
        table.getColumns().add(decimals(col("Time (s)", m -> m.startNs() / 1e9, 85), "%.6f"));
        table.getColumns().add(col("Flow", RdmaMessage::flow, 215));
        table.getColumns().add(col("Kind", RdmaMessage::kind, 95));
        table.getColumns().add(col("First PSN", RdmaMessage::firstPsn, 75));
        table.getColumns().add(col("Last PSN", RdmaMessage::lastPsn, 75));
        table.getColumns().add(col("Packets", RdmaMessage::packets, 65));
        table.getColumns().add(col("Bytes", RdmaMessage::bytes, 80));
        table.getColumns().add(col("DMA length", m -> m.dmaLength() < 0 ? null : m.dmaLength(), 85));
        table.getColumns().add(decimals(col("Duration (us)", m -> m.durationNs() / 1e3, 100), "%.3f"));
        table.getColumns().add(decimals(col("Completion (us)", m -> m.completionNs() < 0 ? null : m.completionNs() / 1e3, 115), "%.3f"));
        table.getColumns().add(col("Retx", RdmaMessage::retransmitted, 45));
        table.getColumns().add(col("Immediate", m -> hex(m.immediate()), 95));
        table.getColumns().add(col("Inv. rkey", m -> hex(m.invalidateRkey()), 95));
        table.getColumns().add(col("Status", RdmaMessage::status, 80));
        Label status = new Label();
        status.setId("messages-status");
        ComboBox<String> flows = new ComboBox<>();
        flows.setId("messages-flow");
        flows.getItems().add(ALL_FLOWS);
        flows.getSelectionModel().select(0);
        TextField filter = new TextField();
        filter.setId("messages-filter");
        filter.setPromptText("kind, status, flow or immediate contains ...");
        filter.setPrefColumnCount(24);
        FilteredList<RdmaMessage> shown = new FilteredList<>(FXCollections.observableArrayList());
        SortedList<RdmaMessage> sorted = new SortedList<>(shown);
        sorted.comparatorProperty().bind(table.comparatorProperty());
        table.setItems(sorted);
        long[] total = {0};
        Runnable narrow = () -> {
            String flow = flows.getValue();
            String text = filter.getText() == null ? "" : filter.getText().trim().toLowerCase(Locale.ROOT);
            shown.setPredicate(m -> (flow == null || ALL_FLOWS.equals(flow) || flow.equals(m.flow())) && (text.isEmpty()
                    || m.kind().toLowerCase(Locale.ROOT).contains(text) || m.status().contains(text) || m.flow().contains(text)
                    || hex(m.immediate()).contains(text)));
            status.setText(summary(shown.size(), ((FilteredList<?>) shown).getSource().size(), total[0]));
        };
        flows.valueProperty().addListener((o, a, b) -> narrow.run());
        filter.textProperty().addListener((o, a, b) -> narrow.run());
        table.setRowFactory(t -> {
            TableRow<RdmaMessage> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && row.getItem() != null) Windows.select(ctx, row.getItem().frame(), status);
            });
            return row;
        });
        table.setOnKeyPressed(e -> {
            RdmaMessage m = table.getSelectionModel().getSelectedItem();
            if (e.getCode() == KeyCode.ENTER && m != null) Windows.select(ctx, m.frame(), status);
        });
        HBox bar = new HBox(8, new Label("Flow:"), flows, new Label("Filter:"), filter, TableCopy.button(table, status), status);
        bar.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(table);
        root.setTop(bar);
        Windows.show(ctx, "messages", "RDMA Messages", root, 1400, 520);
        Path file = ctx.capture().file();
        // After the GUI's own analysis, so that the two passes do not share the cores.
        Windows.afterEachAnalysis(ctx, status, s -> {
            try {
                return messages(file, s.settings(), MAX_ROWS);
            } catch (CaptureException x) {
                throw new IllegalStateException(x.getMessage(), x);
            }
        }, ms -> {
            total[0] = ms.total();
            TreeSet<String> ids = new TreeSet<>();
            for (RdmaMessage m : ms.kept()) ids.add(m.flow());
            // setAll: Decode As runs this again (afterEachAnalysis); the flow chosen stays when it is still there.
            String was = flows.getValue();
            List<String> choices = new ArrayList<>(ids.size() + 1);
            choices.add(ALL_FLOWS);
            choices.addAll(ids);
            flows.getItems().setAll(choices);
            flows.setValue(choices.contains(was) ? was : ALL_FLOWS);
            ((javafx.collections.ObservableList<RdmaMessage>) shown.getSource()).setAll(ms.kept());
            narrow.run();
        });
    }

    /** "12 of 40 messages", with the cap when the capture held more than the window keeps. */
    static String summary(int shown, int kept, long total) {
        String s = shown == kept ? kept + " messages" : shown + " of " + kept + " messages";
        return total > kept ? s + " (the first " + kept + " of " + total + " kept)" : s;
    }

    private static String hex(long v) { return v < 0 ? "" : String.format(Locale.ROOT, "0x%08x", v); }

    /** Shows a column's numbers with a fixed count of decimals (analyze's), sorting them as numbers. */
    private static TableColumn<RdmaMessage, Double> decimals(TableColumn<RdmaMessage, Double> c, String format) {
        // Copy writes what the cell shows.
        c.getProperties().put(TableCopy.FORMAT, (java.util.function.Function<Object, String>) v ->
                v == null ? "-" : String.format(Locale.ROOT, format, v));
        c.setCellFactory(x -> new javafx.scene.control.TableCell<>() {
            @Override
            protected void updateItem(Double v, boolean empty) {
                super.updateItem(v, empty);
                setText(empty || v == null ? (empty ? null : "-") : String.format(Locale.ROOT, format, v));
            }
        });
        return c;
    }

    private static <T> TableColumn<RdmaMessage, T> col(String name, Function<RdmaMessage, T> f, double w) {
        TableColumn<RdmaMessage, T> c = new TableColumn<>(name);
        c.setPrefWidth(w);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        return c;
    }
}
