package io.metaroce.gui;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ColorPicker;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.stage.Window;

/**
 * View > Coloring Rules: the ordered rules with their colours; select one to edit its name, filter (checked as you
 * type, as in the filter bar), colours and whether it is on; add, delete, move. OK saves them to the config file
 * and recolours the packet list; Restore Defaults brings back the built-in list.
 */
final class ColoringDialog {
    private ColoringDialog() { }

    static Dialog<ButtonType> create(Window owner, ColoringRules current, Path file, Consumer<ColoringRules> onSaved) {
        ObservableList<ColoringRules.Rule> rules = FXCollections.observableArrayList(current.rules());
        ListView<ColoringRules.Rule> list = new ListView<>(rules);
        list.setId("coloring-list");
        list.setPrefSize(520, 300);
        list.setCellFactory(l -> new ListCell<>() {
            @Override
            protected void updateItem(ColoringRules.Rule r, boolean empty) {
                super.updateItem(r, empty);
                setText(empty || r == null ? null : (r.enabled() ? "" : "(off) ") + r.name() + "    " + r.filter());
                setStyle(empty || r == null ? "" : "-fx-background-color: " + r.background() + "; -fx-text-fill: " + r.foreground() + ";");
            }
        });
        TextField name = new TextField(), filter = new TextField();
        name.setId("coloring-name");
        filter.setId("coloring-filter");
        ColorPicker fg = new ColorPicker(), bg = new ColorPicker();
        CheckBox on = new CheckBox("Enabled");
        Label error = new Label();
        error.setId("coloring-error");
        error.setStyle("-fx-text-fill: #a40000;");
        filter.textProperty().addListener((o, a, t) -> {
            try {
                GuiContext.compile(t);
                filter.setStyle("-fx-control-inner-background: #afffaf;");
                error.setText("");
            } catch (io.metaroce.filter.FilterException e) {
                filter.setStyle("-fx-control-inner-background: #ffafaf;");
                error.setText("column " + e.column() + ": " + e.getMessage());
            }
        });
        boolean[] loading = {false};
        list.getSelectionModel().selectedItemProperty().addListener((o, a, r) -> {
            if (r == null) return;
            loading[0] = true;
            name.setText(r.name());
            filter.setText(r.filter());
            fg.setValue(Color.web(r.foreground()));
            bg.setValue(Color.web(r.background()));
            on.setSelected(r.enabled());
            loading[0] = false;
        });
        Runnable store = () -> {
            int i = list.getSelectionModel().getSelectedIndex();
            if (loading[0] || i < 0 || name.getText().contains("@") || filter.getText().contains("@")) return;
            rules.set(i, new ColoringRules.Rule(name.getText(), filter.getText(), hex(fg.getValue()), hex(bg.getValue()), on.isSelected()));
            list.getSelectionModel().select(i);
        };
        name.textProperty().addListener((o, a, b) -> store.run());
        filter.textProperty().addListener((o, a, b) -> store.run());
        fg.valueProperty().addListener((o, a, b) -> store.run());
        bg.valueProperty().addListener((o, a, b) -> store.run());
        on.selectedProperty().addListener((o, a, b) -> store.run());

        Button add = new Button("Add"), del = new Button("Delete"), up = new Button("Up"), down = new Button("Down"),
                defaults = new Button("Restore Defaults");
        add.setId("coloring-add");
        add.setOnAction(e -> {
            rules.add(new ColoringRules.Rule("New rule", "frame", "#000000", "#ffffff", true));
            list.getSelectionModel().selectLast();
        });
        del.setOnAction(e -> {
            int i = list.getSelectionModel().getSelectedIndex();
            if (i >= 0) rules.remove(i);
        });
        up.setOnAction(e -> move(list, rules, -1));
        down.setOnAction(e -> move(list, rules, 1));
        defaults.setOnAction(e -> rules.setAll(ColoringRules.defaults().rules()));

        GridPane form = new GridPane();
        form.setHgap(6);
        form.setVgap(6);
        form.addRow(0, new Label("Name"), name);
        form.addRow(1, new Label("Filter"), filter);
        form.addRow(2, new Label("Foreground"), fg);
        form.addRow(3, new Label("Background"), bg);
        form.addRow(4, on, error);
        VBox content = new VBox(8, list, new HBox(6, add, del, up, down, defaults), form);
        content.setPadding(new Insets(10));

        Dialog<ButtonType> d = new Dialog<>();
        if (owner != null) d.initOwner(owner);
        d.setTitle("Coloring Rules");
        d.getDialogPane().setContent(content);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        d.setOnHidden(e -> {
            if (d.getResult() != ButtonType.OK) return;
            ColoringRules saved = new ColoringRules(new ArrayList<>(rules));
            try {
                saved.save(file);
            } catch (IOException x) {
                Dialogs.error(owner, "Coloring Rules", "Cannot save " + file + ": " + x.getMessage());
            }
            onSaved.accept(saved);
        });
        return d;
    }

    static void show(Window owner, ColoringRules current, Path file, Consumer<ColoringRules> onSaved) {
        create(owner, current, file, onSaved).show();
    }

    private static void move(ListView<ColoringRules.Rule> list, List<ColoringRules.Rule> rules, int by) {
        int i = list.getSelectionModel().getSelectedIndex(), j = i + by;
        if (i < 0 || j < 0 || j >= rules.size()) return;
        ColoringRules.Rule r = rules.remove(i);
        rules.add(j, r);
        list.getSelectionModel().select(j);
    }

    private static String hex(Color c) {
        return String.format("#%02x%02x%02x", Math.round(c.getRed() * 255), Math.round(c.getGreen() * 255), Math.round(c.getBlue() * 255));
    }
}
