package io.metaroce.gui;

import io.metaroce.dissector.FrameIndex;
import java.util.function.IntFunction;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Orientation;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The packet list: a {@link TableView} whose items are frame numbers (a {@link RowWindow} over the context's
 * {@link FrameView}), every cell text decoded on demand for the rows on screen ({@link RowCache}), rows coloured by
 * the {@link ColoringRules}. A view longer than {@link RowWindow#MAX} rows gets an outer scroll bar that moves
 * the window; selection and "go to frame" move it too. Sorting a column sorts the frame numbers off the UI thread
 * ({@link PacketSorter}); the table's own sorting never runs.
 */
final class PacketTable extends BorderPane {
    static final String[] COLUMNS = {"No.", "Time", "Source", "Destination", "Protocol", "QP", "PSN", "Length", "Info"};
    /** The built-in columns' default widths, in the order of {@link #COLUMNS}. */
    static final double[] WIDTHS = {70, 120, 130, 130, 80, 80, 80, 60, 600};

    private final GuiContext ctx;
    private final TableView<Integer> table = new TableView<>();
    private final ScrollBar outer = new ScrollBar();
    private final ObjectProperty<TimeFormat> timeFormat = new SimpleObjectProperty<>(TimeFormat.RELATIVE);
    private ColoringRules rules;
    /** View > Colorize Packet List: off, rows are drawn without the coloring rules' colours (the rules stay). */
    private final javafx.beans.property.BooleanProperty colorize = new javafx.beans.property.SimpleBooleanProperty(true);
    private RowCache cache;
    /** The built-in columns by title, kept when the columns are rearranged ({@link #setColumns}). */
    private final java.util.Map<String, TableColumn<Integer, String>> builtins = new java.util.LinkedHashMap<>();
    /** The custom columns, in the order their texts follow Info's in a {@link RowCache} row. */
    private CustomColumn[] custom = {};
    /** The custom columns' headers have no tooltip yet (set after the layout that makes them). */
    private boolean headerTipsDue;
    private static final String HEADER_TIP = "metaroce.header-tip";
    private RowWindow window = new RowWindow(FrameView.EMPTY, 0);
    /** True while the table selection is changed from the context (not by the user). */
    private boolean syncing;
    /** A scroll to the last row was asked and no layout has shown that row yet: the list still follows new rows. */
    private boolean following;
    /** Pulses a follow may take to show the last row (one or two do; this bounds a list that cannot show it). */
    private static final int MAX_FOLLOW_PULSES = 5;

    PacketTable(GuiContext ctx) {
        this.ctx = ctx;
        this.rules = ctx.coloringRules();
        table.setId("packet-list");
        table.setFixedCellSize(22);
        table.setTableMenuButtonVisible(true);          // Wireshark's column chooser: show or hide any column
        // Several rows for Edit > Copy and Mark (Shift/Ctrl+click); the selected frame is the one clicked last.
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setPlaceholder(new javafx.scene.control.Label("No capture open: File > Open, or drop a file here"));
        builtin(0, f -> Integer.toString(f));
        builtin(1, this::time);
        builtin(2, f -> text(f, RowCache.SOURCE));
        builtin(3, f -> text(f, RowCache.DESTINATION));
        builtin(4, f -> text(f, RowCache.PROTOCOL));
        builtin(5, f -> text(f, RowCache.QP));
        builtin(6, f -> text(f, RowCache.PSN));
        builtin(7, f -> Long.toString(ctx.capture().index().originalLength(f)));
        builtin(8, f -> text(f, RowCache.INFO));
        table.getColumns().addAll(builtins.values());
        // A column dragged elsewhere may get a new header.
        table.getColumns().addListener((javafx.collections.ListChangeListener<TableColumn<Integer, ?>>) ch -> headerTipsDue = true);
        table.sceneProperty().addListener((o, a, scene) -> {
            if (scene != null) scene.addPostLayoutPulseListener(this::tipHeaders);
        });
        table.setRowFactory(t -> new ColoredRow());
        table.setSortPolicy(t -> {
            sortRequested();
            return true;
        });
        outer.setOrientation(Orientation.VERTICAL);
        outer.setVisible(false);
        outer.setManaged(false);
        outer.valueProperty().addListener((o, a, b) -> {
            if (!syncing) moveWindow(b.intValue(), b.intValue());
        });
        VBox.setVgrow(table, Priority.ALWAYS);
        setCenter(table);
        setRight(outer);

        table.getSelectionModel().selectedItemProperty().addListener((o, a, frame) -> {
            if (!syncing && frame != null) ctx.select(frame);
        });
        ctx.viewProperty().addListener((o, a, v) -> {
            if (ctx.live() != null && extendsView(a, v)) grow(v);
            else showView(v);
        });
        ctx.captureProperty().addListener((o, a, c) -> resetCache());
        ctx.liveVerdictsProperty().addListener((o, a, b) -> {
            resetCache();
            table.refresh();
        });
        ctx.analysisProperty().addListener((o, a, s) -> {
            resetCache();
            table.refresh();
        });
        ctx.selectedFrameProperty().addListener((o, a, f) -> reveal(f.intValue()));
        ctx.coloringRulesProperty().addListener((o, a, r) -> {
            rules = r;
            resetCache();
            table.refresh();
        });
        timeFormat.addListener((o, a, b) -> table.refresh());
        colorize.addListener((o, a, b) -> table.refresh());
        ctx.marksProperty().addListener((o, a, b) -> table.refresh());
        ctx.editsProperty().addListener((o, a, b) -> {      // ignored rows, shifted times (custom columns of frame.time)
            resetCache();
            table.refresh();
        });
        ctx.namesProperty().addListener((o, a, b) -> {
            resetCache();
            table.refresh();
        });
    }

    TableView<Integer> table() { return table; }

    ObjectProperty<TimeFormat> timeFormatProperty() { return timeFormat; }

    javafx.beans.property.BooleanProperty colorizeProperty() { return colorize; }

    /** New coloring rules for every view that colours rows by them (this list, the Flow Graph). */
    void setRules(ColoringRules r) { ctx.setColoringRules(r); }

    ColoringRules rules() { return rules; }

    private void resetCache() {
        OpenCapture c = ctx.capture();
        cache = c == null ? null : new RowCache(c, ctx.analysis(), ctx.live(), rules, custom, ctx.namesProperty().get());
    }

    private void builtin(int i, IntFunction<String> text) { builtins.put(COLUMNS[i], column(COLUMNS[i], WIDTHS[i], text)); }

    // ------------------------------------------------------------------ columns

    /** The columns in their order on screen (the user may have dragged them), shown or not, and their widths. */
    java.util.List<ColumnSpec> columns() {
        java.util.List<ColumnSpec> out = new java.util.ArrayList<>();
        for (TableColumn<Integer, ?> c : table.getColumns()) {
            String field = c.getUserData() instanceof CustomColumn cc ? cc.field() : null;
            out.add(new ColumnSpec(c.getText(), field, c.isVisible(), c.getWidth()));
        }
        return out;
    }

    /**
     * Shows these columns in this order: the built-in ones named (those not named are dropped from the list: the
     * caller keeps them, hidden or not), a new column for each custom one. The rows are decoded afresh with the
     * new custom columns' fields; a custom spec whose field is unknown is skipped.
     */
    void setColumns(java.util.List<ColumnSpec> specs) {
        java.util.List<TableColumn<Integer, String>> cols = new java.util.ArrayList<>();
        java.util.List<CustomColumn> customs = new java.util.ArrayList<>();
        for (ColumnSpec s : specs) {
            TableColumn<Integer, String> col;
            if (!s.custom()) {
                col = builtins.get(s.title());
                if (col == null || cols.contains(col)) continue;
            } else {
                CustomColumn cc = CustomColumn.of(s.field());
                if (cc == null) continue;
                int at = RowCache.CUSTOM + customs.size();
                customs.add(cc);
                col = column(s.title(), s.width(), f -> text(f, at));
                col.setId("custom-" + customs.size());
                col.setUserData(cc);
                col.visibleProperty().addListener((o, a, b) -> headerTipsDue = true);     // a hidden one has no header
            }
            col.setVisible(s.shown());
            col.setPrefWidth(s.width());
            cols.add(col);
        }
        custom = customs.toArray(new CustomColumn[0]);
        resetCache();
        table.getColumns().setAll(cols);
        headerTipsDue = true;
        table.refresh();
    }

    /** The frames of the rows on screen (Resize to Contents measures their cells). */
    java.util.List<Integer> framesOnScreen() {
        var flow = virtualFlow();
        java.util.List<Integer> out = new java.util.ArrayList<>();
        if (flow == null || flow.getFirstVisibleCell() == null || flow.getLastVisibleCell() == null) return out;
        for (int r = flow.getFirstVisibleCell().getIndex(); r <= flow.getLastVisibleCell().getIndex(); r++)
            if (r >= 0 && r < table.getItems().size()) out.add(table.getItems().get(r));
        return out;
    }

    /** The text of frame's cell in column (shown or not). */
    String cellText(int frame, TableColumn<Integer, ?> column) {
        return String.valueOf(column.getCellObservableValue(windowRowOf(frame)).getValue());
    }

    /** The texts of frame's cells in the columns shown, in their order on screen (Edit > Copy > Summary). */
    String[] visibleCells(int frame) {
        var cols = table.getVisibleLeafColumns();
        String[] out = new String[cols.size()];
        for (int i = 0; i < out.length; i++) out[i] = cellText(frame, cols.get(i));
        return out;
    }

    /**
     * A custom column's header tells its field in a tooltip, as Wireshark's does. Headers are made by the table's
     * layout, so this runs after a layout that follows a change of the columns (and costs nothing otherwise).
     */
    private void tipHeaders() {
        if (!headerTipsDue) return;
        int tipped = 0;
        for (javafx.scene.Node n : table.lookupAll(".column-header")) {
            if (!(n instanceof javafx.scene.control.skin.TableColumnHeader h)) continue;
            if (h.getTableColumn() != null && h.getTableColumn().isVisible() && h.getTableColumn().getUserData() instanceof CustomColumn cc) {
                tipped++;
                if (!cc.field().equals(h.getProperties().get(HEADER_TIP))) {     // once per header: install adds handlers
                    javafx.scene.control.Tooltip.install(h, new javafx.scene.control.Tooltip(cc.field()));
                    h.getProperties().put(HEADER_TIP, cc.field());
                }
            }
        }
        int shown = 0;
        for (TableColumn<Integer, ?> c : table.getColumns()) if (c.isVisible() && c.getUserData() instanceof CustomColumn) shown++;
        headerTipsDue = tipped < shown;       // a header not made yet: at the next layout
    }

    private TableColumn<Integer, String> column(String name, double width, IntFunction<String> text) {
        TableColumn<Integer, String> col = new TableColumn<>(name);
        col.setId(name);
        col.setPrefWidth(width);
        // An ignored frame (Edit > Ignore Packet) is not dissected: Wireshark's row shows <Ignored> in Info, its number,
        // and nothing else.
        IntFunction<String> ignoredText = name.equals("Info") ? f -> "<Ignored>" : name.equals("No.") ? text : f -> "";
        col.setCellValueFactory(cd -> new ReadOnlyStringWrapper(cd.getValue() == null || ctx.capture() == null ? ""
                : ctx.isIgnored(cd.getValue()) ? ignoredText.apply(cd.getValue()) : text.apply(cd.getValue())));
        return col;
    }

    private String text(int frame, int col) { return cache == null ? "" : cache.row(frame).text()[col]; }

    /**
     * A time reference reads *REF* in every format; the relative format counts from the latest reference at or
     * before the frame (Wireshark's frame.time_relative), the others are unchanged.
     */
    private String time(int frame) {
        if (ctx.isTimeReference(frame)) return "*REF*";
        FrameIndex ix = ctx.capture().index();
        long t = ix.timeNanos(frame);
        int ref = ctx.timeReferenceOf(frame);
        return timeFormat.get().format(t, ix.timeNanos(ref == 0 ? 1 : ref), ix.timeNanos(frame > 1 ? frame - 1 : 1));
    }

    /** The frames of the selected rows, in display order whatever order they were picked in (Edit > Copy, Mark). */
    int[] selectedFrames() {
        var picked = table.getSelectionModel().getSelectedIndices();
        int[] rows = new int[picked.size()];
        int n = 0;
        for (Integer r : picked) if (r != null && r >= 0 && r < table.getItems().size()) rows[n++] = r;
        if (n == 0) return ctx.selectedFrame() == 0 ? new int[0] : new int[] {ctx.selectedFrame()};
        rows = java.util.Arrays.copyOf(rows, n);
        java.util.Arrays.sort(rows);        // the window's rows are in display order
        int[] frames = new int[n];
        for (int i = 0; i < n; i++) frames[i] = table.getItems().get(rows[i]);
        return frames;
    }

    /** The titles of the columns shown, in their order on screen (the column chooser hides some). */
    java.util.List<String> visibleColumns() {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (TableColumn<Integer, ?> c : table.getVisibleLeafColumns()) out.add(c.getText());
        return out;
    }

    /** Per column shown (in {@link #visibleColumns()}' order): its field when it is a custom column, else null. */
    java.util.List<CustomColumn> visibleCustomColumns() {
        java.util.List<CustomColumn> out = new java.util.ArrayList<>();
        for (TableColumn<Integer, ?> c : table.getVisibleLeafColumns())
            out.add(c.getUserData() instanceof CustomColumn cc ? cc : null);
        return out;
    }

    /** The text a cell of this frame shows (tests and the copy action). */
    String cellText(int frame, String column) {
        for (TableColumn<Integer, ?> c : table.getColumns())
            if (c.getText().equals(column)) return String.valueOf(c.getCellObservableValue(windowRowOf(frame)).getValue());
        throw new IllegalArgumentException(column);
    }

    private int windowRowOf(int frame) {
        int r = window.view().rowOf(frame);
        if (!window.holds(r)) moveWindow(r, r);
        return r - window.base();
    }

    // ------------------------------------------------------------------ window and selection

    private void showView(FrameView v) {
        int sel = ctx.selectedFrame();
        int row = sel == 0 ? -1 : v.rowOf(sel);
        install(row >= 0 ? RowWindow.around(v, row) : new RowWindow(v, 0));
        if (row >= 0) reveal(sel);
    }

    /** True when b shows a's rows and perhaps more after them (a live capture's list grew). */
    private static boolean extendsView(FrameView a, FrameView b) {
        if (a.size() > b.size() || !a.ascending() || !b.ascending()) return false;
        return a.size() == 0 || a.frameAt(a.size() - 1) == b.frameAt(a.size() - 1);
    }

    /**
     * More rows at the end of the list (a live capture): the rows on screen and the selection stay, and a list
     * scrolled to its end follows the new rows, as Wireshark's auto-scroll does; a user who scrolled away stays
     * where they are.
     */
    private void grow(FrameView v) {
        var flow = virtualFlow();
        boolean follow = following || flow == null || flow.getLastVisibleCell() == null
                || window.base() + flow.getLastVisibleCell().getIndex() >= window.view().size() - 1;
        if (table.getItems() == window && window.canGrowTo(v)) {
            syncing = true;
            try {
                window.grow(v);
            } finally {
                syncing = false;
            }
        } else {
            int first = flow == null || flow.getFirstVisibleCell() == null ? 0 : window.base() + flow.getFirstVisibleCell().getIndex();
            int anchor = follow ? v.size() - 1 : first;
            install(RowWindow.around(v, anchor));
            int sel = ctx.selectedFrame();
            int row = sel == 0 ? -1 : v.rowOf(sel);
            syncing = true;
            try {
                if (window.holds(row)) table.getSelectionModel().clearAndSelect(row - window.base());
            } finally {
                syncing = false;
            }
            if (!follow) table.scrollTo(Math.max(0, first - window.base()));
        }
        if (follow && v.size() > 0) followEnd();
    }

    /**
     * Scrolls to the last row and keeps at it until a layout shows that row. One scroll is not always enough:
     * when the rows grow twice before a layout (two scrolls, a second capture flush in the same pulse), VirtualFlow
     * reckons the second scroll's position on the first one's size estimate and lays the list out a row or two
     * short of its end; the next growth would then take the list for one the user scrolled away from and stop
     * following. While {@link #following}, the rows on screen are not yet the ones asked for, so growth keeps
     * following.
     */
    private void followEnd() {
        table.scrollTo(table.getItems().size() - 1);
        var scene = table.getScene();
        if (following || scene == null) return;
        following = true;
        scene.addPostLayoutPulseListener(new Runnable() {
            private int pulses;
            private boolean done;

            @Override
            public void run() {
                if (done) return;       // its removal is queued
                if (!lastRowShown() && ++pulses < MAX_FOLLOW_PULSES) {
                    // Another scrollTo lands on the same wrong place (its position is reckoned on the size
                    // estimate before the layout); a pixel scroll estimates afresh and stops at the end.
                    virtualFlow().scrollPixels(table.getHeight());
                    return;
                }
                done = true;
                following = false;
                // Not removed while the scene runs its listeners.
                javafx.application.Platform.runLater(() -> scene.removePostLayoutPulseListener(this));
            }
        });
    }

    /** True when the list has no rows on screen to judge by, or shows its last row. */
    private boolean lastRowShown() {
        var flow = virtualFlow();
        if (flow == null || flow.getLastVisibleCell() == null) return true;
        return flow.getLastVisibleCell().getIndex() >= table.getItems().size() - 1;
    }

    private void install(RowWindow w) {
        syncing = true;
        try {
            window = w;
            table.setItems(w);
            boolean whole = w.whole();
            outer.setVisible(!whole);
            outer.setManaged(!whole);
            if (!whole) {
                outer.setMin(0);
                outer.setMax(Math.max(0, w.view().size() - 1));
                outer.setVisibleAmount(Math.max(1, w.view().size() / 100.0));
                outer.setValue(w.base());
            }
        } finally {
            syncing = false;
        }
    }

    /** Moves the window so that it holds the view row, and scrolls the table to scrollRow. */
    private void moveWindow(int viewRow, int scrollRow) {
        if (!window.holds(viewRow)) install(RowWindow.around(window.view(), viewRow));
        table.scrollTo(Math.max(0, scrollRow - window.base()));
    }

    private void reveal(int frame) {
        syncing = true;
        try {
            if (frame == 0) {
                table.getSelectionModel().clearSelection();
                return;
            }
            int row = window.view().rowOf(frame);
            if (row < 0) return;
            if (!window.holds(row)) install(RowWindow.around(window.view(), row));
            int r = row - window.base();
            // A row the user just added to the selection (Ctrl/Shift+click) keeps the others selected.
            var sm = table.getSelectionModel();
            if (sm.getSelectedIndex() != r || !sm.isSelected(r)) sm.clearAndSelect(r);
            if (!visible(r)) table.scrollTo(Math.max(0, r - 3));
        } finally {
            syncing = false;
        }
    }

    private javafx.scene.control.skin.VirtualFlow<?> virtualFlow() {
        return (javafx.scene.control.skin.VirtualFlow<?>) table.lookup(".virtual-flow");
    }

    private boolean visible(int r) {
        var flow = virtualFlow();
        if (flow == null || flow.getFirstVisibleCell() == null || flow.getLastVisibleCell() == null) return false;
        return r > flow.getFirstVisibleCell().getIndex() && r < flow.getLastVisibleCell().getIndex();
    }

    // ------------------------------------------------------------------ sorting

    private void sortRequested() {
        if (syncing || ctx.capture() == null) return;
        if (table.getSortOrder().isEmpty()) {
            ctx.applyFilter(ctx.appliedFilterProperty().get());    // back to capture order
            return;
        }
        TableColumn<Integer, ?> c = table.getSortOrder().getFirst();
        boolean descending = c.getSortType() == TableColumn.SortType.DESCENDING;
        PacketSorter.sort(ctx, c.getText(), c.getUserData() instanceof CustomColumn cc ? cc : null, descending);
    }

    static final String MARKED_STYLE = "-fx-background-color: #000000; -fx-text-background-color: #ffffff;";
    /** Wireshark's colours of an ignored packet (gui.ignored_frame.fg and .bg): grey text on white. */
    static final String IGNORED_STYLE = "-fx-background-color: #ffffff; -fx-text-background-color: #7f7f7f;";

    /**
     * A row coloured by the first matching coloring rule, a marked one black with white text; the selected row
     * shows the selection colour instead.
     */
    private final class ColoredRow extends TableRow<Integer> {
        @Override
        protected void updateItem(Integer frame, boolean empty) {
            super.updateItem(frame, empty);
            paint();
        }

        @Override
        public void updateSelected(boolean selected) {
            super.updateSelected(selected);
            paint();
        }

        private void paint() {
            Integer frame = getItem();
            if (isEmpty() || frame == null || cache == null || rules == null || isSelected()) {
                setStyle("");
                return;
            }
            if (ctx.isMarked(frame)) {      // Wireshark draws a marked packet so, over the coloring rules
                setStyle(MARKED_STYLE);
                return;
            }
            if (ctx.isIgnored(frame)) {     // and an ignored one so (its coloring rule would read fields it has not)
                setStyle(IGNORED_STYLE);
                return;
            }
            int rule = colorize.get() ? cache.row(frame).colorRule() : -1;
            if (rule < 0) setStyle("");
            else {
                ColoringRules.Rule r = rules.rules().get(rule);
                setStyle("-fx-background-color: " + r.background() + "; -fx-text-background-color: " + r.foreground() + ";");
            }
        }
    }
}
