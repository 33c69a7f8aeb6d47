package io.metaroce.gui;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.dissector.HexDumpLines;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TreeItem;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;

/**
 * Wireshark's Edit menu: Copy (the selected packets' summary as text or CSV, the selected field's name, value, filter,
 * the visible tree, the frame's bytes as a tshark -x hex dump or a hex stream), Mark/Unmark packets, Ignore/Unignore
 * packets and Set/Unset Time Reference, Time Shift ({@link TimeShiftDialog}), with Wireshark's shortcuts. The same Copy items are in the packet list's, the field tree's and the bytes
 * pane's context menus. The texts are built by the methods below (package-private: tests compare them with the cells
 * and the CLI) and put on the system clipboard as plain text.
 */
final class EditActions {
    private final GuiContext ctx;
    private final PacketTable packets;
    private final FrameDetail detail;
    /** The text copied last: what the clipboard got (tests, and platforms without a clipboard). */
    private String lastCopied;

    EditActions(GuiContext ctx, PacketTable packets, FrameDetail detail) {
        this.ctx = ctx;
        this.packets = packets;
        this.detail = detail;
        // Ctrl+C in the packet list copies its rows as Wireshark's Ctrl+Shift+C does (a menu accelerator Shortcut+C
        // would take Ctrl+C from the filter bar's text); in the field tree it copies the selected line's value.
        packets.table().addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (COPY.match(e)) {
                copy(summary(false));
                e.consume();
            }
        });
        detail.tree().addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (COPY.match(e)) {
                copy(fieldValue());
                e.consume();
            }
        });
        packets.table().getContextMenu().getItems().addAll(new SeparatorMenuItem(), packetCopyMenu(),
                item("Mark/Unmark Packet", null, "list-mark", this::toggleMark),
                item("Set/Unset Time Reference", null, "list-time-ref", this::toggleTimeReference),
                IgnoreActions.contextItem(ctx, packets));
        detail.tree().getContextMenu().getItems().addAll(new SeparatorMenuItem(), fieldCopyMenu());
        detail.hex().setContextMenu(new ContextMenu(
                item("Copy Bytes as Hex Dump", null, "hex-copy-dump", () -> copy(hexDump())),
                item("Copy Bytes as Hex Stream", null, "hex-copy-stream", () -> copy(hexStream()))));
    }

    private static final KeyCombination COPY = KeyCombination.keyCombination("Shortcut+C");

    /** The main window's Edit menu. */
    Menu menu() {
        Menu copy = new Menu("Copy", null,
                item("Summary as Text", "Shortcut+Shift+C", "edit-copy-summary", () -> copy(summary(false))),
                item("...as CSV", null, "edit-copy-csv", () -> copy(summary(true))),
                new SeparatorMenuItem(),
                item("Field Name", null, "edit-copy-field-name", () -> copy(fieldName())),
                item("Value", null, "edit-copy-value", () -> copy(fieldValue())),
                item("As Filter", null, "edit-copy-filter", () -> copy(fieldFilter())),
                item("All Visible Items", null, "edit-copy-visible", () -> copy(visibleItems())),
                new SeparatorMenuItem(),
                item("Bytes as Hex Dump", null, "edit-copy-hex-dump", () -> copy(hexDump())),
                item("...as Hex Stream", null, "edit-copy-hex-stream", () -> copy(hexStream())));
        copy.setId("edit-copy");
        Menu edit = new Menu("Edit", null, copy, new SeparatorMenuItem(),
                item("Mark/Unmark Packet", "Shortcut+M", "edit-mark", this::toggleMark),
                item("Mark All Displayed", "Shortcut+Shift+M", "edit-mark-all", () -> ctx.setMarkedDisplayed(true)),
                item("Unmark All Displayed", "Shortcut+Alt+M", "edit-unmark-all", () -> ctx.setMarkedDisplayed(false)),
                item("Next Mark", "Shortcut+Shift+N", "edit-next-mark", () -> next(false, true)),
                item("Previous Mark", "Shortcut+Shift+B", "edit-previous-mark", () -> next(false, false)),
                new SeparatorMenuItem(),
                item("Set/Unset Time Reference", "Shortcut+T", "edit-time-ref", this::toggleTimeReference),
                item("Unset All Time References", "Shortcut+Alt+T", "edit-unset-time-refs", ctx::clearTimeReferences),
                item("Next Time Reference", "Shortcut+Alt+N", "edit-next-time-ref", () -> next(true, true)),
                item("Previous Time Reference", "Shortcut+Alt+B", "edit-previous-time-ref", () -> next(true, false)));
        edit.setId("menu-edit");
        // Wireshark's places: Ignore after the marks, Time Shift after the time references.
        edit.getItems().addAll(edit.getItems().indexOf(edit.getItems().stream()
                .filter(i -> "edit-previous-mark".equals(i.getId())).findFirst().orElseThrow()) + 1, IgnoreActions.ignoreItems(ctx, packets));
        edit.getItems().addAll(TimeShiftDialog.timeShiftItems(ctx));
        for (MenuItem mi : edit.getItems())
            if (!(mi instanceof SeparatorMenuItem)) mi.disableProperty().bind(ctx.captureProperty().isNull());
        return edit;
    }

    private Menu packetCopyMenu() {
        Menu m = new Menu("Copy", null,
                item("Summary as Text", null, "list-copy-summary", () -> copy(summary(false))),
                item("...as CSV", null, "list-copy-csv", () -> copy(summary(true))),
                new SeparatorMenuItem(),
                item("...as Hex Dump", null, "list-copy-hex-dump", () -> copy(hexDump())),
                item("...as Hex Stream", null, "list-copy-hex-stream", () -> copy(hexStream())));
        m.setId("list-copy");
        return m;
    }

    private Menu fieldCopyMenu() {
        Menu m = new Menu("Copy", null,
                item("All Visible Items", null, "tree-copy-visible", () -> copy(visibleItems())),
                new SeparatorMenuItem(),
                item("Field Name", null, "tree-copy-field-name", () -> copy(fieldName())),
                item("Value", null, "tree-copy-value", () -> copy(fieldValue())),
                item("As Filter", null, "tree-copy-filter", () -> copy(fieldFilter())));
        m.setId("tree-copy");
        return m;
    }

    /** A menu item with its id and accelerator (also the Edit menu items of TimeShiftDialog). */
    static MenuItem item(String text, String accelerator, String id, Runnable action) {
        MenuItem mi = new MenuItem(text);
        mi.setId(id);
        if (accelerator != null) mi.setAccelerator(KeyCombination.keyCombination(accelerator));
        mi.setOnAction(e -> action.run());
        return mi;
    }

    // ------------------------------------------------------------------ actions

    /** Puts text on the clipboard; nothing to copy (no selection) leaves the clipboard as it was. */
    void copy(String text) {
        if (text == null || text.isEmpty()) return;
        lastCopied = text;
        ClipboardContent c = new ClipboardContent();
        c.putString(text);
        Clipboard.getSystemClipboard().setContent(c);
    }

    String lastCopied() { return lastCopied; }

    /** Marks the selected packets, or unmarks them when all of them are marked (Wireshark's Ctrl+M on a selection). */
    private void toggleMark() {
        int[] frames = packets.selectedFrames();
        if (frames.length == 0) return;
        boolean all = true;
        for (int f : frames) all &= ctx.isMarked(f);
        ctx.setMarked(frames, !all);
    }

    private void toggleTimeReference() {
        int f = ctx.selectedFrame();
        if (f != 0) ctx.toggleTimeReference(f);
    }

    private void next(boolean timeReference, boolean forward) {
        if (ctx.capture() != null && ctx.selectNext(timeReference, forward) == 0)
            ctx.status(timeReference ? "No time reference is displayed" : "No marked packet is displayed");
    }

    // ------------------------------------------------------------------ texts

    /**
     * The selected packets' columns shown on screen, a line each after a header line of the column titles: joined
     * by tabs (Wireshark's Summary as Text) or as CSV with every value quoted (Wireshark's ...as CSV).
     */
    String summary(boolean csv) {
        if (ctx.capture() == null) return null;
        int[] frames = packets.selectedFrames();
        if (frames.length == 0) return null;
        List<String> cols = packets.visibleColumns();
        StringBuilder b = new StringBuilder();
        line(b, cols, csv);
        for (int f : frames) line(b, List.of(packets.visibleCells(f)), csv);     // by column, not title: titles may repeat
        return b.toString();
    }

    static void line(StringBuilder b, List<String> values, boolean csv) {
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) b.append(csv ? ',' : '\t');
            if (csv) b.append('"').append(values.get(i).replace("\"", "\"\"")).append('"');
            else b.append(values.get(i));
        }
        b.append('\n');
    }

    private TreeEntry selectedEntry() {
        TreeItem<TreeEntry> it = detail.tree().getSelectionModel().getSelectedItem();
        return it == null ? null : it.getValue();
    }

    /** The selected line's field name ({@code bth.psn}), protocol ({@code bth}) or expert id; null for others. */
    String fieldName() {
        TreeEntry e = selectedEntry();
        if (e == null) return null;
        if (e.expert() != null) return e.expert().id();
        if (e.node() == null) return null;
        if (e.node().field() != null) return e.node().field().name();
        return e.node().header() != null ? e.node().header().id() : null;
    }

    /** The value the selected line shows (with its enum name, as displayed); a line without one: its text. */
    String fieldValue() {
        TreeEntry e = selectedEntry();
        if (e == null) return null;
        return e.node() != null && e.node().value() != null ? e.node().value() : e.text();
    }

    /** The filter Prepare as Filter puts in the bar for the selected line. */
    String fieldFilter() {
        TreeEntry e = selectedEntry();
        return e == null ? null : e.filter();
    }

    /** The tree's lines as shown: the expanded ones, four spaces deeper a level (Wireshark's All Visible Items). */
    String visibleItems() {
        TreeItem<TreeEntry> root = detail.tree().getRoot();
        if (root == null) return null;
        StringBuilder b = new StringBuilder();
        for (TreeItem<TreeEntry> top : root.getChildren()) visible(top, 0, b);
        return b.toString();
    }

    private static void visible(TreeItem<TreeEntry> it, int depth, StringBuilder b) {
        b.append("    ".repeat(depth)).append(it.getValue().text()).append('\n');
        if (it.isExpanded()) for (TreeItem<TreeEntry> c : it.getChildren()) visible(c, depth + 1, b);
    }

    /** The selected frame's bytes as {@code dissect -x} (and tshark -x) prints them (without the empty line after them). */
    String hexDump() {
        int f = ctx.selectedFrame();
        if (f == 0 || ctx.capture() == null) return null;
        return hexDump(ctx.capture().index(), f);
    }

    static String hexDump(FrameIndex ix, int frame) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ByteOut out = new ByteOut(bytes)) {
            HexDumpLines.dump(out, ix.data(frame), ix.capturedLength(frame), new byte[16]);
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }

    /** The selected frame's bytes as hex digits only (Wireshark's ...as Hex Stream). */
    String hexStream() {
        int f = ctx.selectedFrame();
        if (f == 0 || ctx.capture() == null) return null;
        return java.util.HexFormat.of().formatHex(ctx.capture().index().bytes(f));
    }
}
