package io.metaroce.gui.stats;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.dissector.stats.ServiceResponseTime;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiFields;
import io.metaroce.gui.OpenCapture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * Wireshark's Statistics > Service Response Time > RoCE: the {@link ServiceResponseTime} table (what
 * {@code dissect -z roce,srt} prints) with Wireshark's columns (Index, Procedure, Calls, Min/Max/Avg/Sum SRT (s)),
 * sortable, copied as CSV or YAML like the other tables. The display filter field picks the requests counted (Apply
 * or Enter); double-clicking a procedure puts the filter of its requests into the main window's filter bar and applies
 * it. The pass runs off the JavaFX thread once the analysis is done (the table adds up its request/response pairs),
 * stops when the window closes, and runs again after Decode As / Reload.
 */
public final class ServiceResponseTimeWindow {
    private ServiceResponseTimeWindow() {}

    /** Statistics > Service Response Time, with its one entry, RoCE (one line in MainWindow). */
    public static Menu menu(GuiContext ctx) {
        MenuItem roce = new MenuItem("RoCE");
        roce.setId("menu-srt-roce");
        roce.disableProperty().bind(ctx.captureProperty().isNull());
        roce.setOnAction(e -> open(ctx));
        Menu m = new Menu("Service Response Time", null, roce);
        m.setId("menu-srt");
        return m;
    }

    public static void open(GuiContext ctx) {
        TableView<ServiceResponseTime.Row> table = new TableView<>();
        table.setId("srt-table");
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TableColumn<ServiceResponseTime.Row, Number> index = new TableColumn<>("Index");
        index.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue().index()));
        TableColumn<ServiceResponseTime.Row, String> procedure = new TableColumn<>("Procedure");
        procedure.setPrefWidth(180);
        procedure.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue().procedure()));
        TableColumn<ServiceResponseTime.Row, Number> calls = new TableColumn<>("Calls");
        calls.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue().calls()));
        table.getColumns().add(index);
        table.getColumns().add(procedure);
        table.getColumns().add(calls);
        String[] titles = {"Min SRT (s)", "Max SRT (s)", "Avg SRT (s)", "Sum SRT (s)"};
        for (int i = 0; i < titles.length; i++) {
            int which = i;
            // Seconds as a number (sorts as one), shown with tshark's six decimals.
            TableColumn<ServiceResponseTime.Row, Number> c = new TableColumn<>(titles[i]);
            c.setPrefWidth(110);
            c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(nanos(cd.getValue(), which) / 1e9));
            c.setCellFactory(col -> new javafx.scene.control.TableCell<>() {
                @Override
                protected void updateItem(Number v, boolean empty) {
                    super.updateItem(v, empty);
                    setText(empty || v == null ? null : ServiceResponseTime.seconds(nanos(getTableRow().getItem(), which)).strip());
                }
            });
            table.getColumns().add(c);
        }

        Label status = new Label();
        status.setId("srt-status");
        TextField filter = new TextField();
        filter.setId("srt-filter");
        filter.setPromptText("Display filter on the requests (empty: every request)");
        HBox.setHgrow(filter, Priority.ALWAYS);
        Button apply = new Button("Apply");
        apply.setId("srt-apply");
        HBox top = new HBox(8, new Label("Display filter:"), filter, apply);
        top.setAlignment(Pos.CENTER_LEFT);
        top.setPadding(new Insets(6, 8, 6, 8));
        HBox bottom = new HBox(8, TableCopy.button(table, status), status);
        bottom.setAlignment(Pos.CENTER_LEFT);
        bottom.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(table);
        root.setTop(top);
        root.setBottom(bottom);
        table.setRowFactory(t -> {
            TableRow<ServiceResponseTime.Row> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && row.getItem() != null) {
                    ctx.filterFromWindow(row.getItem().filter(), true);
                    status.setText("Filter applied: " + row.getItem().filter());
                }
            });
            return row;
        });
        javafx.stage.Stage stage = Windows.show(ctx, "srt-roce", "RoCE Service Response Time Statistics", root, 900, 360);

        AtomicInteger generation = new AtomicInteger();
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, e -> generation.set(-1));
        Runnable run = () -> {
            if (generation.get() < 0) return;
            String text = filter.getText() == null ? "" : filter.getText().strip();
            DisplayFilter f;
            try {
                f = text.isEmpty() ? null : GuiContext.compile(text);
            } catch (FilterException x) {
                status.setText("Bad display filter: " + x.getMessage());
                return;
            }
            int gen = generation.incrementAndGet();
            BooleanSupplier cancelled = () -> gen != generation.get();
            status.setText("Waiting for the analysis ...");
            Windows.afterAnalysis(ctx, status, session -> {
                OpenCapture c = ctx.capture();
                return c == null || cancelled.getAsBoolean() ? null : count(c.index(), session, f, cancelled);
            }, srt -> {
                if (srt == null || cancelled.getAsBoolean()) return;
                table.setItems(FXCollections.observableArrayList(srt.rows()));
                long n = 0;
                for (ServiceResponseTime.Row r : srt.rows()) n += r.calls();
                status.setText(n + " calls, " + srt.open() + " open requests" + (srt.untimed() > 0 ? ", " + srt.untimed()
                        + " answered with no time (capture at the responder)" : "") + (text.isEmpty() ? "" : " (filter: " + text + ")"));
            });
        };
        apply.setOnAction(e -> run.run());
        filter.setOnAction(e -> run.run());
        Windows.followRedissections(ctx, status, run);
        run.run();
    }

    /** A row's time: 0 min, 1 max, 2 avg, 3 sum (ns). */
    private static long nanos(ServiceResponseTime.Row r, int which) {
        if (r == null) return 0;
        return switch (which) {
            case 0 -> r.minNs();
            case 1 -> r.maxNs();
            case 2 -> r.avgNs();
            default -> r.sumNs();
        };
    }

    /**
     * The table over the capture's requests (those filter matches; null: all), their analysis fields attached, on the
     * calling thread; null when cancelled. Without an analysis (cancelled, failed) every count is 0.
     */
    static ServiceResponseTime count(FrameIndex index, AnalysisSession session, DisplayFilter filter, BooleanSupplier cancelled) {
        ServiceResponseTime srt = new ServiceResponseTime();
        if (session == null) return srt;
        Dissector dissector = new Dissector(new DissectorConfig(session.settings().rocePorts(), false));
        Dissection d = new Dissection();
        FrameFields fields = new FrameFields().of(d);
        GuiFields.Accessor names = new GuiFields.Accessor(session).of(fields);
        AnalysisFrameFields attach = session.frameFields();
        for (int f = 1; f <= index.size(); f++) {
            if ((f & 0x3FFF) == 0 && cancelled.getAsBoolean()) return null;
            index.dissect(f, dissector, d);
            if (ServiceResponseTime.procedure(d.opcode()) < 0) continue;
            attach.attach(d);
            fields.of(d);
            if (filter != null && !filter.matches(names.of(fields))) continue;
            srt.add(d, fields);
        }
        return cancelled.getAsBoolean() ? null : srt;
    }
}
