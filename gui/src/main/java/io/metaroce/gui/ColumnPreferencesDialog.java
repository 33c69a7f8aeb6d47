package io.metaroce.gui;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * Wireshark's Preferences > Columns for the packet list: every column, built-in and custom, in order, with a check
 * box to show it; a custom column (title and field, the field checked against the catalogue as {@code dissect -e}
 * checks it) can be added, edited through its header's Edit Column, removed, and any column moved. OK applies.
 */
final class ColumnPreferencesDialog {
    private ColumnPreferencesDialog() { }

    static Dialog<ButtonType> create(Window owner, List<ColumnSpec> current, Consumer<List<ColumnSpec>> onApply) {
        ObservableList<ColumnSpec> cols = FXCollections.observableArrayList(current);
        VBox content = editor(cols);

        Dialog<ButtonType> d = new Dialog<>();
        if (owner != null) d.initOwner(owner);
        d.setTitle("Column Preferences");
        d.getDialogPane().setContent(content);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        d.setOnHidden(e -> {
            if (d.getResult() == ButtonType.OK) onApply.accept(new ArrayList<>(cols));
        });
        return d;
    }

    /** The column list and its buttons, editing cols (also Edit > Preferences > Appearance > Columns' page). */
    static VBox editor(ObservableList<ColumnSpec> cols) {
        ListView<ColumnSpec> list = new ListView<>(cols);
        list.setId("column-prefs-list");
        list.setPrefSize(520, 300);
        list.setCellFactory(l -> new ListCell<>() {
            private final CheckBox shown = new CheckBox();

            {
                shown.setOnAction(e -> {
                    int i = getIndex();
                    if (i >= 0 && i < cols.size()) cols.set(i, cols.get(i).withShown(shown.isSelected()));
                });
            }

            @Override
            protected void updateItem(ColumnSpec c, boolean empty) {
                super.updateItem(c, empty);
                if (empty || c == null) {
                    setGraphic(null);
                    return;
                }
                shown.setSelected(c.shown());
                shown.setText(c.title() + "    " + (c.custom() ? "Custom: " + c.field() : "Built-in"));
                setGraphic(shown);
            }
        });
        TextField title = new TextField(), field = new TextField();
        title.setId("column-prefs-title");
        field.setId("column-prefs-field");
        field.setPromptText("bth.psn");
        title.setPromptText("(the field's name)");
        Label error = new Label();
        error.setId("column-prefs-error");
        error.setStyle("-fx-text-fill: #a40000;");
        Button add = new Button("Add"), remove = new Button("Remove"), up = new Button("Up"), down = new Button("Down");
        add.setId("column-prefs-add");
        remove.setId("column-prefs-remove");
        add.setOnAction(e -> {
            String why = CustomColumn.problem(field.getText());
            error.setText(why == null ? "" : why);
            if (why != null) return;
            CustomColumn cc = CustomColumn.of(field.getText());
            String t = PacketColumns.oneLine(title.getText());
            cols.add(new ColumnSpec(t.isEmpty() ? cc.defaultTitle() : t, cc.field(), true, 100));
            list.getSelectionModel().selectLast();
            title.clear();
            field.clear();
        });
        // A built-in column is hidden, not removed (there would be no way back but the defaults).
        remove.disableProperty().bind(list.getSelectionModel().selectedItemProperty().map(c -> !c.custom()).orElse(true));
        remove.setOnAction(e -> {
            int i = list.getSelectionModel().getSelectedIndex();
            if (i >= 0 && cols.get(i).custom()) cols.remove(i);
        });
        up.setOnAction(e -> move(list, cols, -1));
        down.setOnAction(e -> move(list, cols, 1));
        Button defaults = new Button("Restore Defaults");
        defaults.setOnAction(e -> cols.setAll(PacketColumns.defaults()));

        GridPane form = new GridPane();
        form.setHgap(6);
        form.setVgap(6);
        form.addRow(0, new Label("Title"), title);
        form.addRow(1, new Label("Field"), field, add);
        VBox content = new VBox(8, list, new HBox(6, remove, up, down, defaults), new Label("New custom column:"), form, error);
        content.setPadding(new Insets(10));
        return content;
    }

    static void show(Window owner, List<ColumnSpec> current, Consumer<List<ColumnSpec>> onApply) {
        create(owner, current, onApply).show();
    }

    private static void move(ListView<ColumnSpec> list, List<ColumnSpec> cols, int by) {
        int i = list.getSelectionModel().getSelectedIndex(), j = i + by;
        if (i < 0 || j < 0 || j >= cols.size()) return;
        ColumnSpec c = cols.remove(i);
        cols.add(j, c);
        list.getSelectionModel().select(j);
    }

    /**
     * Edit Column (a custom column's header menu): its title and field, the field checked as above; onEdit gets
     * the changed column when OK is pressed with a valid field.
     */
    static Dialog<ButtonType> edit(Window owner, ColumnSpec column, Consumer<ColumnSpec> onEdit) {
        TextField title = new TextField(column.title()), field = new TextField(column.field());
        title.setId("edit-column-title");
        field.setId("edit-column-field");
        Label error = new Label();
        error.setId("edit-column-error");
        error.setStyle("-fx-text-fill: #a40000;");
        GridPane form = new GridPane();
        form.setHgap(6);
        form.setVgap(6);
        form.setPadding(new Insets(10));
        form.addRow(0, new Label("Title"), title);
        form.addRow(1, new Label("Field"), field);
        form.add(error, 0, 2, 2, 1);
        Dialog<ButtonType> d = new Dialog<>();
        if (owner != null) d.initOwner(owner);
        d.setTitle("Edit Column");
        d.getDialogPane().setContent(form);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        // OK with an unknown field stays open and says why.
        d.getDialogPane().lookupButton(ButtonType.OK).addEventFilter(javafx.event.ActionEvent.ACTION, e -> {
            String why = CustomColumn.problem(field.getText());
            error.setText(why == null ? "" : why);
            if (why != null) e.consume();
        });
        d.setOnHidden(e -> {
            if (d.getResult() != ButtonType.OK) return;
            CustomColumn cc = CustomColumn.of(field.getText());
            String t = PacketColumns.oneLine(title.getText());
            onEdit.accept(new ColumnSpec(t.isEmpty() ? cc.defaultTitle() : t, cc.field(), column.shown(), column.width()));
        });
        return d;
    }
}
