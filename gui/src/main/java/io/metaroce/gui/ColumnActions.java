package io.metaroce.gui;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.collections.ListChangeListener;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.input.KeyCombination;
import javafx.scene.text.Text;
import javafx.stage.WindowEvent;

/**
 * The packet list's columns as Wireshark manages them: Apply as Column (the field tree's context menu, Analyze >
 * Apply as Column, Ctrl+Shift+I), each header's context menu (Resize to Contents, Resize All Columns, Column
 * Preferences..., Edit Column, Hide Column, the columns to show, Remove This Column), View > Resize Columns; and
 * the columns saved beside the coloring rules ({@link PacketColumns}) whenever they change and when the window
 * closes (their widths), read back at start.
 */
final class ColumnActions {
    private final GuiContext ctx;
    private final PacketTable packets;
    private final FrameDetail detail;
    private Path file;
    /** Set while the saved columns are put in place (no save of what was just read). */
    private boolean loading;

    ColumnActions(GuiContext ctx, PacketTable packets, FrameDetail detail, Path file) {
        this.ctx = ctx;
        this.packets = packets;
        this.detail = detail;
        this.file = file;
        packets.table().getColumns().addListener((ListChangeListener<TableColumn<Integer, ?>>) ch -> {
            for (TableColumn<Integer, ?> c : packets.table().getColumns()) menuFor(c);
            save();
        });
        for (TableColumn<Integer, ?> c : packets.table().getColumns()) menuFor(c);
        PacketColumns.Loaded saved = PacketColumns.load(file);
        // Bad settings are normal input: one line, the default columns (the dialog would stop the start).
        if (saved.problem() != null) System.err.println(saved.problem());
        lastProblem = saved.problem();
        loading = true;
        try {
            packets.setColumns(saved.columns());
        } finally {
            loading = false;
        }
        detail.onApplyColumn(this::applyAsColumn);
        // The widths dragged since, when the window closes (if its stage still shows this window: tests reuse one).
        ctx.stage().addEventHandler(WindowEvent.WINDOW_HIDDEN, e -> {
            if (ctx.stage().getScene() != null && ctx.stage().getScene() == packets.getScene()) save();
        });
    }

    /** Why the saved columns were ignored at start, or null (tests). */
    private final String lastProblem;

    String lastProblem() { return lastProblem; }

    /** Analyze > Apply as Column: the field selected in the tree. */
    MenuItem applyItem() {
        MenuItem mi = new MenuItem("Apply as Column");
        mi.setId("menu-apply-column");
        mi.setAccelerator(KeyCombination.keyCombination("Shift+Shortcut+I"));
        mi.setOnAction(e -> applyAsColumn(detail.selectedField()));
        return mi;
    }

    /** View > Resize Columns (Wireshark's Ctrl+Shift+R). */
    MenuItem resizeItem() {
        MenuItem mi = new MenuItem("Resize Columns");
        mi.setId("menu-resize-columns");
        mi.setAccelerator(KeyCombination.keyCombination("Shift+Shortcut+R"));
        mi.setOnAction(e -> resizeAll());
        return mi;
    }

    /** A column of field after the others, titled with the field's label as Wireshark titles it. */
    void applyAsColumn(String field) {
        CustomColumn cc = CustomColumn.of(field);
        if (cc == null) return;
        List<ColumnSpec> cols = packets.columns();
        cols.add(new ColumnSpec(cc.defaultTitle(), cc.field(), true, 100));
        packets.setColumns(cols);
        resize(packets.table().getColumns().getLast());
    }

    void setColumns(List<ColumnSpec> cols) { packets.setColumns(cols); }

    /**
     * Another configuration profile's columns: read from its file and shown (its defaults when it has none), kept
     * there from now on; null, or why the file was ignored.
     */
    String useFile(Path columnsFile) {
        file = columnsFile;
        PacketColumns.Loaded saved = PacketColumns.load(columnsFile);
        loading = true;
        try {
            packets.setColumns(saved.columns());
        } finally {
            loading = false;
        }
        return saved.problem();
    }

    private void save() {
        if (loading) return;
        try {
            PacketColumns.save(file, packets.columns());
        } catch (IOException | RuntimeException e) {
            System.err.println("metaroce gui: cannot save the columns to " + file + ": " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ header menu

    /** The header's context menu, filled when it opens (the columns may have changed since). */
    private void menuFor(TableColumn<Integer, ?> col) {
        if (col.getContextMenu() != null) return;
        ContextMenu menu = new ContextMenu();
        menu.setOnShowing(e -> menu.getItems().setAll(headerItems(col)));
        menu.getItems().setAll(headerItems(col));
        col.setContextMenu(menu);
        // Hidden or shown through the table's chooser or this menu: saved.
        col.visibleProperty().addListener((o, a, b) -> save());
    }

    List<MenuItem> headerItems(TableColumn<Integer, ?> col) {
        List<MenuItem> items = new ArrayList<>();
        items.add(item("Resize to Contents", "column-resize", () -> resize(col)));
        items.add(item("Resize All Columns", "column-resize-all", this::resizeAll));
        items.add(new SeparatorMenuItem());
        items.add(item("Column Preferences...", "column-preferences",
                () -> ColumnPreferencesDialog.show(ctx.stage(), packets.columns(), this::setColumns)));
        boolean custom = col.getUserData() instanceof CustomColumn;
        MenuItem edit = item("Edit Column", "column-edit", () -> editColumn(col));
        edit.setDisable(!custom);
        items.add(edit);
        items.add(new SeparatorMenuItem());
        Menu shown = new Menu("Displayed Columns");
        shown.setId("column-displayed");
        for (TableColumn<Integer, ?> c : packets.table().getColumns()) {
            CheckMenuItem ci = new CheckMenuItem(c.getText());
            ci.setSelected(c.isVisible());
            ci.setOnAction(e -> c.setVisible(ci.isSelected()));
            shown.getItems().add(ci);
        }
        items.add(shown);
        items.add(item("Hide Column", "column-hide", () -> col.setVisible(false)));
        MenuItem remove = item("Remove This Column", "column-remove", () -> removeColumn(col));
        remove.setDisable(!custom);
        items.add(remove);
        return items;
    }

    private static MenuItem item(String text, String id, Runnable action) {
        MenuItem mi = new MenuItem(text);
        mi.setId(id);
        mi.setOnAction(e -> action.run());
        return mi;
    }

    void removeColumn(TableColumn<Integer, ?> col) {
        int i = packets.table().getColumns().indexOf(col);
        if (i < 0 || !(col.getUserData() instanceof CustomColumn)) return;
        List<ColumnSpec> cols = packets.columns();
        cols.remove(i);
        packets.setColumns(cols);
    }

    private void editColumn(TableColumn<Integer, ?> col) {
        int i = packets.table().getColumns().indexOf(col);
        if (i < 0 || !(col.getUserData() instanceof CustomColumn)) return;
        ColumnPreferencesDialog.edit(ctx.stage(), packets.columns().get(i), changed -> {
            List<ColumnSpec> cols = packets.columns();
            if (i < cols.size()) cols.set(i, changed);
            packets.setColumns(cols);
        }).show();
    }

    /** Every shown column as wide as its title and the cells on screen need. */
    void resizeAll() {
        for (TableColumn<Integer, ?> c : packets.table().getVisibleLeafColumns()) resize(c);
        save();
    }

    /**
     * The column as wide as its title and its cells in the rows on screen (Wireshark measures the rows it has
     * drawn, too: a 1 M-frame list is not decoded for this).
     */
    void resize(TableColumn<Integer, ?> col) {
        Text probe = new Text();
        double w = width(probe, col.getText()) + 30;        // the header's sort arrow and padding
        if (ctx.capture() != null) {
            for (int frame : packets.framesOnScreen()) w = Math.max(w, width(probe, packets.cellText(frame, col)) + 16);
        }
        col.setPrefWidth(Math.max(PacketColumns.MIN_WIDTH, Math.min(PacketColumns.MAX_WIDTH, Math.ceil(w))));
    }

    private static double width(Text probe, String s) {
        probe.setText(s);
        return probe.getLayoutBounds().getWidth();
    }
}
