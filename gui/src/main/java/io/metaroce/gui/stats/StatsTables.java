package io.metaroce.gui.stats;

import io.metaroce.gui.GuiContext;
import java.util.Locale;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/** What the Conversations and Endpoints windows' tables share: sortable columns and the filter menu items. */
final class StatsTables {
    private StatsTables() { }

    /** A sortable column of a row's value (numbers sort as numbers). */
    static <R, T> TableColumn<R, T> col(String name, Function<R, T> f, double w) {
        TableColumn<R, T> c = new TableColumn<>(name);
        c.setPrefWidth(w);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        return c;
    }

    /** Seconds from nanoseconds with the given decimals (Wireshark: 6 for Rel Start, 4 for Duration), sorted as numbers. */
    static <R> TableColumn<R, Long> seconds(String name, Function<R, Long> ns, int decimals, double w) {
        TableColumn<R, Long> c = col(name, ns, w);
        c.setCellFactory(x -> new TableCell<>() {
            @Override
            protected void updateItem(Long v, boolean empty) {
                super.updateItem(v, empty);
                setText(empty || v == null ? null : String.format(Locale.ROOT, "%." + decimals + "f", v / 1e9));
            }
        });
        return c;
    }

    /**
     * A menu item that puts the selected row's filter into the main window's filter bar (applied when apply), and
     * says so in the status label.
     */
    static <R> MenuItem filterItem(String text, String id, GuiContext ctx, TableView<R> table, Function<R, String> filter,
                                   boolean apply, Label status) {
        MenuItem m = new MenuItem(text);
        m.setId(id);
        m.setOnAction(e -> {
            R r = table.getSelectionModel().getSelectedItem();
            if (r == null) return;
            String f = filter.apply(r);
            ctx.filterFromWindow(f, apply);
            status.setText((apply ? "Filter applied: " : "Filter prepared: ") + f);
        });
        return m;
    }
}
