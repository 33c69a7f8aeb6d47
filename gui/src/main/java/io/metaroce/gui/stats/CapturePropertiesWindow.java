package io.metaroce.gui.stats;

import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import java.nio.file.Files;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;

/**
 * Statistics > Capture File Properties: the file, its time span, the tap, and the integrity of the capture
 * (drops, capture gaps, truncation, damage with its byte offset), problems in red.
 */
public final class CapturePropertiesWindow implements GuiWindow {
    @Override
    public Place place() { return Place.STATISTICS; }

    @Override
    public String title() { return "Capture File Properties"; }

    @Override
    public void open(GuiContext ctx) {
        TableView<CaptureProperties.Row> table = new TableView<>();
        table.setId("properties-table");
        table.getColumns().add(col("Section", CaptureProperties.Row::section, 90));
        table.getColumns().add(col("Property", CaptureProperties.Row::name, 250));
        table.getColumns().add(col("Value", CaptureProperties.Row::value, 520));
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(CaptureProperties.Row r, boolean empty) {
                super.updateItem(r, empty);
                setStyle(r != null && r.warn() ? "-fx-text-background-color: #b00000; -fx-font-weight: bold;" : "");
            }
        });
        Label status = new Label();
        status.setPadding(new Insets(4, 8, 4, 8));
        BorderPane root = new BorderPane(table);
        root.setBottom(status);
        javafx.stage.Stage st = Windows.show(ctx, "capture-properties", "Capture File Properties", root, 900, 640);
        var cap = ctx.capture();
        // The Packet Comments section follows Edit > Packet Comments at once.
        java.util.List<CaptureProperties.Row> fileRows = new java.util.ArrayList<>();
        javafx.beans.value.ChangeListener<Number> edits = (o, a, b) -> {
            table.getItems().setAll(fileRows);
            table.getItems().addAll(CaptureProperties.commentRows(ctx));
        };
        edits.changed(null, 0, 0);
        ctx.commentsProperty().addListener(edits);
        st.setOnHidden(e -> ctx.commentsProperty().removeListener(edits));
        Windows.afterEachAnalysis(ctx, status, s -> {
            long size;
            try {
                size = Files.size(cap.file());
            } catch (java.io.IOException e) {
                size = -1;
            }
            return CaptureProperties.rows(s.result(), size, cap.problems());
        }, rows -> {
            fileRows.clear();
            fileRows.addAll(rows);
            table.getItems().setAll(rows);
            table.getItems().addAll(CaptureProperties.commentRows(ctx));
            long bad = rows.stream().filter(CaptureProperties.Row::warn).count();
            status.setText(bad == 0 ? "No integrity problem found" : bad + " integrity problem(s), in red");
        });
    }

    private static TableColumn<CaptureProperties.Row, String> col(String name,
            java.util.function.Function<CaptureProperties.Row, String> f, double w) {
        TableColumn<CaptureProperties.Row, String> c = new TableColumn<>(name);
        c.setPrefWidth(w);
        c.setSortable(false);
        c.setCellValueFactory(cd -> new ReadOnlyStringWrapper(f.apply(cd.getValue())));
        return c;
    }
}
