package io.metaroce.gui;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
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
 * Analyze > Display Filters... (and the filter bar's Manage Display Filters...): the saved filters, a name and a
 * filter each; select one to edit it (the filter checked as you type, as in the filter bar), add, delete, restore
 * the defaults. OK keeps them only when every filter compiles (else it says which does not and stays open).
 */
final class DisplayFiltersDialog {
    private DisplayFiltersDialog() { }

    static Dialog<ButtonType> create(Window owner, List<FilterBookmarks.Bookmark> current, Consumer<List<FilterBookmarks.Bookmark>> onSaved) {
        return create(owner, "Display Filters", "dfilters", current, FilterBookmarks.DEFAULTS,
                new FilterBookmarks.Bookmark("New display filter", "frame"), DisplayFiltersDialog::check, onSaved);
    }

    /**
     * The same dialog for another kind of saved filter (Capture > Capture Filters...: libpcap filters): its title, the
     * prefix of its controls' ids, its defaults, the item Add adds, and the check of a filter (null: it compiles).
     */
    static Dialog<ButtonType> create(Window owner, String title, String id, List<FilterBookmarks.Bookmark> current,
                                     List<FilterBookmarks.Bookmark> defaultFilters, FilterBookmarks.Bookmark fresh,
                                     java.util.function.Function<String, String> check, Consumer<List<FilterBookmarks.Bookmark>> onSaved) {
        ObservableList<FilterBookmarks.Bookmark> items = FXCollections.observableArrayList(current);
        ListView<FilterBookmarks.Bookmark> list = new ListView<>(items);
        list.setId(id + "-list");
        list.setPrefSize(560, 260);
        list.setCellFactory(l -> new ListCell<>() {
            @Override
            protected void updateItem(FilterBookmarks.Bookmark b, boolean empty) {
                super.updateItem(b, empty);
                setText(empty || b == null ? null : b.name() + "    " + b.filter());
            }
        });
        TextField name = new TextField(), filter = new TextField();
        name.setId(id + "-name");
        filter.setId(id + "-filter");
        Label error = new Label();
        error.setId(id + "-error");
        error.setStyle("-fx-text-fill: #a40000;");
        filter.textProperty().addListener((o, a, t) -> {
            String e = check.apply(t);
            filter.setStyle(e == null ? "-fx-control-inner-background: #afffaf;" : "-fx-control-inner-background: #ffafaf;");
            error.setText(e == null ? "" : e);
        });
        boolean[] loading = {false};
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b == null) return;
            loading[0] = true;
            name.setText(b.name());
            filter.setText(b.filter());
            loading[0] = false;
        });
        Runnable store = () -> {
            int i = list.getSelectionModel().getSelectedIndex();
            if (loading[0] || i < 0) return;
            items.set(i, new FilterBookmarks.Bookmark(name.getText(), filter.getText()));
            list.getSelectionModel().select(i);
        };
        name.textProperty().addListener((o, a, b) -> store.run());
        filter.textProperty().addListener((o, a, b) -> store.run());
        Button add = new Button("Add"), del = new Button("Delete"), defaults = new Button("Restore Defaults");
        add.setId(id + "-add");
        add.setOnAction(e -> {
            items.add(fresh);
            list.getSelectionModel().selectLast();
        });
        del.setId(id + "-delete");
        del.setOnAction(e -> {
            int i = list.getSelectionModel().getSelectedIndex();
            if (i >= 0) items.remove(i);
        });
        defaults.setOnAction(e -> items.setAll(defaultFilters));
        GridPane form = new GridPane();
        form.setHgap(6);
        form.setVgap(6);
        form.addRow(0, new Label("Name"), name);
        form.addRow(1, new Label("Filter"), filter);
        form.addRow(2, new Label(), error);
        VBox content = new VBox(8, list, new HBox(6, add, del, defaults), form);
        content.setPadding(new Insets(10));

        Dialog<ButtonType> d = new Dialog<>();
        if (owner != null) d.initOwner(owner);
        d.setTitle(title);
        d.getDialogPane().setContent(content);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        // OK with a filter that does not compile says which and keeps the dialog open.
        d.getDialogPane().lookupButton(ButtonType.OK).addEventFilter(javafx.event.ActionEvent.ACTION, e -> {
            String bad = firstInvalid(items, check);
            if (bad != null) {
                error.setText(bad);
                e.consume();
            }
        });
        d.setOnHidden(e -> {
            if (d.getResult() == ButtonType.OK) onSaved.accept(new ArrayList<>(items));
        });
        return d;
    }

    /** Why a filter cannot be saved, or null when it compiles. */
    static String check(String filter) {
        if (filter == null || filter.isBlank()) return "The filter is empty";
        try {
            GuiContext.compile(filter);
            return null;
        } catch (io.metaroce.filter.FilterException e) {
            return "column " + e.column() + ": " + e.getMessage();
        }
    }

    /** The first saved filter that does not compile, as a message naming it; null when all do. */
    static String firstInvalid(List<FilterBookmarks.Bookmark> items) {
        return firstInvalid(items, DisplayFiltersDialog::check);
    }

    static String firstInvalid(List<FilterBookmarks.Bookmark> items, java.util.function.Function<String, String> check) {
        for (FilterBookmarks.Bookmark b : items) {
            String e = check.apply(b.filter());
            if (e != null) return "\"" + b.name() + "\": " + e;
        }
        return null;
    }
}
