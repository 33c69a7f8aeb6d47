package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * Wireshark's Find Packet bar (Edit > Find Packet, Ctrl+F), under the filter bar: search the packet list, the
 * packet details or the packet bytes for a display filter, a hex value, a string or a regular expression; Find
 * (Enter) goes to the next displayed frame that matches after the selected one, wrapping around once; Edit > Find
 * Next / Find Previous (Ctrl+N / Ctrl+B) repeat the last search. The search runs on a background thread with its
 * progress in the status bar; Cancel stops it (or closes the bar), and so does Esc. A match is selected, with its
 * tree line (details) or its bytes (bytes) highlighted.
 */
final class FindBar extends HBox {
    private final GuiContext ctx;
    private final FrameDetail detail;
    private final ComboBox<FindPacket.Where> where = new ComboBox<>();
    private final ComboBox<FindPacket.How> how = new ComboBox<>();
    private final CheckBox caseSensitive = new CheckBox("Case sensitive");
    private final TextField field = new TextField();
    private final Label message = new Label();
    /** The running search's cancel flag (read by its thread), or null. */
    private volatile java.util.concurrent.atomic.AtomicBoolean running;

    FindBar(GuiContext ctx, FrameDetail detail) {
        this.ctx = ctx;
        this.detail = detail;
        setId("find-bar");
        setSpacing(6);
        setPadding(new Insets(2, 4, 2, 4));
        setAlignment(Pos.CENTER_LEFT);
        where.getItems().setAll(FindPacket.Where.values());
        where.setValue(FindPacket.Where.LIST);
        where.setId("find-where");
        how.getItems().setAll(FindPacket.How.values());
        how.setValue(FindPacket.How.FILTER);
        how.setId("find-how");
        caseSensitive.setId("find-case");
        // As Wireshark: the display filter and the hex value search one place each; case applies to text only.
        where.disableProperty().bind(how.valueProperty().isEqualTo(FindPacket.How.FILTER).or(how.valueProperty().isEqualTo(FindPacket.How.HEX)));
        caseSensitive.disableProperty().bind(where.disableProperty());
        field.setId("find-field");
        field.setPromptText("Display filter, hex bytes (ff 00 3c), string or regular expression");
        HBox.setHgrow(field, Priority.ALWAYS);
        field.setOnAction(e -> find(true));
        message.setId("find-message");
        Button find = new Button("Find");
        find.setId("find-find");
        find.setOnAction(e -> find(true));
        Button cancel = new Button("Cancel");
        cancel.setId("find-cancel");
        cancel.setOnAction(e -> cancelOrClose());
        // A filter: the text field would otherwise take Esc first.
        addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                e.consume();
                cancelOrClose();
            }
        });
        getChildren().addAll(where, how, caseSensitive, field, find, cancel, message);
        setVisible(false);
        managedProperty().bind(visibleProperty());
    }

    /** Edit's Find Packet, Find Next and Find Previous items (Wireshark's place: after Copy). */
    List<MenuItem> menuItems() {
        MenuItem open = item("Find Packet...", "Shortcut+F", "edit-find", this::open);
        MenuItem next = item("Find Next", "Shortcut+N", "edit-find-next", () -> again(true));
        MenuItem previous = item("Find Previous", "Shortcut+B", "edit-find-previous", () -> again(false));
        for (MenuItem mi : List.of(open, next, previous)) mi.disableProperty().bind(ctx.captureProperty().isNull());
        return List.of(open, next, previous);
    }

    private static MenuItem item(String text, String accelerator, String id, Runnable action) {
        MenuItem mi = new MenuItem(text);
        mi.setId(id);
        mi.setAccelerator(KeyCombination.keyCombination(accelerator));
        mi.setOnAction(e -> action.run());
        return mi;
    }

    TextField field() { return field; }

    String message() { return message.getText(); }

    /** Shows the bar with the focus in its text field. */
    void open() {
        setVisible(true);
        field.requestFocus();
        field.selectAll();
    }

    /** Sets the search (tests, and Find Next without the bar). */
    void set(FindPacket.Where w, FindPacket.How h, String text, boolean caseSens) {
        where.setValue(w);
        how.setValue(h);
        field.setText(text);
        caseSensitive.setSelected(caseSens);
    }

    private void cancelOrClose() {
        java.util.concurrent.atomic.AtomicBoolean r = running;
        if (r != null) r.set(true);
        else setVisible(false);
    }

    /** Find Next / Find Previous: repeat the bar's search; with nothing to search for, open the bar. */
    private void again(boolean forward) {
        if (field.getText().isEmpty()) open();
        else find(forward);
    }

    /**
     * Starts the bar's search from the selected frame; the future completes (on the UI thread) with the result, or
     * null when the input is invalid or nothing is open (the bar says why).
     */
    CompletableFuture<FindPacket.Result> find(boolean forward) {
        CompletableFuture<FindPacket.Result> done = new CompletableFuture<>();
        OpenCapture c = ctx.capture();
        if (c == null || running != null) {
            done.complete(null);
            return done;
        }
        FindPacket search;
        try {
            search = FindPacket.compile(where.getValue(), how.getValue(), field.getText(), caseSensitive.isSelected());
        } catch (IllegalArgumentException e) {
            message.setText(e.getMessage());
            done.complete(null);
            return done;
        }
        message.setText("");
        java.util.concurrent.atomic.AtomicBoolean cancel = new java.util.concurrent.atomic.AtomicBoolean();
        running = cancel;
        FrameView v = ctx.view();
        int from = ctx.selectedFrame();
        AnalysisSession s = ctx.analysis();
        GuiFields.Marks marks = ctx.marksForFilters();      // frame.marked, frame.ref_time in a display filter
        io.metaroce.dissector.NameResolver names = ctx.namesProperty().get();
        ctx.status("Searching...");
        Thread.ofPlatform().daemon().name("metaroce-gui-find").start(() -> {
            FindPacket.Result r;
            try {
                r = search.run(c.index(), s, marks, names, v, from, forward, cancel::get,
                        f -> Platform.runLater(() -> { if (running == cancel) ctx.status("Searching... " + Math.round(f * 100) + "%"); }));
            } catch (RuntimeException e) {
                r = null;
                String m = "Search failed: " + e.getMessage();
                Platform.runLater(() -> message.setText(m));
            }
            FindPacket.Result result = r;
            Platform.runLater(() -> {
                running = null;
                if (result != null && ctx.capture() == c) show(search, result, forward);
                done.complete(result);
            });
        });
        return done;
    }

    private void show(FindPacket search, FindPacket.Result r, boolean forward) {
        String text;
        if (r.cancelled()) text = "Search cancelled.";
        else if (r.hit() == null) text = search.notFound();
        else {
            ctx.select(r.hit().frame());
            if (r.hit().offset() >= 0 || search.where == FindPacket.Where.DETAILS) highlight(r.hit());
            text = !r.wrapped() ? "" : forward ? "Search reached the end of the capture file; continuing at beginning."
                    : "Search reached the beginning of the capture file; continuing at end.";
        }
        message.setText(text);
        ctx.status(text.isEmpty() ? "Found packet " + r.hit().frame() : text);
    }

    /** Selects the matching tree line (details) or highlights the matching bytes (bytes) of the selected frame. */
    private void highlight(FindPacket.Hit h) {
        if (h.offset() >= 0) {
            detail.selectByte(h.offset());
            detail.hex().highlight(h.offset(), h.length());
        } else if (h.line() != null && detail.tree().getRoot() != null) {
            java.util.ArrayList<TreeItem<TreeEntry>> all = new java.util.ArrayList<>();
            for (TreeItem<TreeEntry> top : detail.tree().getRoot().getChildren()) FieldTreeModel.walk(top, all);
            for (TreeItem<TreeEntry> it : all) {
                if (!h.line().equals(it.getValue().text())) continue;
                for (TreeItem<TreeEntry> p = it.getParent(); p != null; p = p.getParent()) p.setExpanded(true);
                detail.tree().getSelectionModel().select(it);
                int row = detail.tree().getRow(it);
                if (row >= 0) detail.tree().scrollTo(Math.max(0, row - 2));
                return;
            }
        }
    }
}
