package io.metaroce.gui;

import io.metaroce.dissector.Dissection;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.geometry.Orientation;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;

/**
 * The field tree and the bytes of the selected frame, linked both ways: selecting a tree line highlights its
 * bytes (a bit field: the bytes that hold it), clicking a byte selects the deepest line covering it. Decoding one
 * frame (flyweights, then the Kaitai parse of that one frame for the tree) takes about a millisecond, so it happens
 * on the UI thread when the selection changes. A line whose value is another frame's number (a retransmission's
 * original, the ACK of a request: {@link FieldTreeModel#FRAME_LINKS}) is a link, as in Wireshark: blue, underlined;
 * a double-click, Enter, its context menu or Go > Go to Linked Packet selects that frame.
 */
final class FrameDetail extends SplitPane {
    private final GuiContext ctx;
    private final TreeView<TreeEntry> tree = new TreeView<>();
    private final HexPane hex = new HexPane();
    private Consumer<String> applyFilter = f -> { }, prepareFilter = f -> { }, applyColumn = f -> { };
    private boolean syncing;
    private int shown;
    /** View > Show Packet in New Window: the capture whose frame this shows, not the selected one; null: follows the selection. */
    private OpenCapture pinned;

    FrameDetail(GuiContext ctx) {
        this.ctx = ctx;
        setOrientation(Orientation.VERTICAL);
        tree.setId("field-tree");
        tree.setShowRoot(false);
        tree.setCellFactory(t -> new EntryCell());
        getItems().addAll(tree, hex);
        setDividerPositions(0.6);
        tree.getSelectionModel().selectedItemProperty().addListener((o, a, item) -> {
            if (syncing) return;
            linked.set(item == null ? 0 : item.getValue().link());
            if (item == null || !item.getValue().hasBytes()) hex.highlight(-1, 0);
            else hex.highlight(item.getValue().offset(), item.getValue().length());
        });
        // Go to Linked Packet the Wireshark way: a double-click, or Enter, on a line whose value is a frame number.
        tree.setOnMouseClicked(e -> {
            if (e.getButton() == javafx.scene.input.MouseButton.PRIMARY && e.getClickCount() == 2 && linkedFrame() != 0) goToLinked();
        });
        tree.addEventHandler(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.ENTER && linkedFrame() != 0) {
                goToLinked();
                e.consume();
            }
        });
        hex.setOnByteClicked(this::selectByte);
        ctx.selectedFrameProperty().addListener((o, a, f) -> {
            if (pinned == null) show(f.intValue());
        });
        ctx.analysisProperty().addListener((o, a, s) -> show(ctx.selectedFrame()));
        ctx.commentsProperty().addListener((o, a, b) -> show(shown));      // Edit > Packet Comments
        ctx.editsProperty().addListener((o, a, b) -> show(shown));     // ignored, unignored, times shifted
        // A time reference set or unset changes the selected frame's "Time since reference" line.
        ctx.marksProperty().addListener((o, a, b) -> {
            if (ctx.timeReferenceOf(shown) != shownReference || ctx.isTimeReference(shown) != shownIsReference
                    || ctx.isMarked(shown) != shownIsMarked) show(shown);
        });
        ContextMenu menu = new ContextMenu();
        MenuItem apply = new MenuItem("Apply as Filter");
        apply.setId("tree-apply-filter");
        apply.setOnAction(e -> withFilter(applyFilter));
        MenuItem prepare = new MenuItem("Prepare as Filter");
        prepare.setId("tree-prepare-filter");
        prepare.setOnAction(e -> withFilter(prepareFilter));
        MenuItem column = new MenuItem("Apply as Column");       // a packet-list column of the selected field
        column.setId("tree-apply-column");
        column.setOnAction(e -> {
            if (selectedField() != null) applyColumn.accept(selectedField());
        });
        MenuItem link = new MenuItem("Go to Linked Packet");     // only on a line that links (Wireshark's)
        link.setId("tree-go-linked");
        link.setOnAction(e -> goToLinked());
        link.visibleProperty().bind(linked.isNotEqualTo(0));
        menu.getItems().addAll(apply, prepare, column, link);
        tree.setContextMenu(menu);
    }

    /** A field tree and bytes of one frame of the open capture that stay on it whatever is selected (a packet window). */
    static FrameDetail pinned(GuiContext ctx, int frame) {
        FrameDetail d = new FrameDetail(ctx);
        d.pinned = ctx.capture();
        d.show(frame);
        return d;
    }

    TreeView<TreeEntry> tree() { return tree; }

    /** The frame the selected tree line links to (analysis.original_frame, ...), 0 when it links nowhere. */
    private final javafx.beans.property.ReadOnlyIntegerWrapper linked = new javafx.beans.property.ReadOnlyIntegerWrapper(this, "linked", 0);

    javafx.beans.property.ReadOnlyIntegerProperty linkedFrameProperty() { return linked.getReadOnlyProperty(); }

    int linkedFrame() { return linked.get(); }

    /** Go > Go to Linked Packet: selects the frame the selected line links to, or says in the status bar why not. */
    void goToLinked() {
        int f = linkedFrame();
        if (f == 0) return;
        String why = Navigation.goToFrame(ctx, f);
        if (why != null) ctx.status(why);
    }

    HexPane hex() { return hex; }

    void onFilter(Consumer<String> apply, Consumer<String> prepare) {
        applyFilter = apply;
        prepareFilter = prepare;
    }

    void onApplyColumn(Consumer<String> apply) { applyColumn = apply; }

    /** The field of the selected tree line (its filter name), or null for a line that is not one field. */
    String selectedField() {
        TreeItem<TreeEntry> it = tree.getSelectionModel().getSelectedItem();
        return it == null || it.getValue().node() == null || it.getValue().node().field() == null ? null
                : it.getValue().node().field().name();
    }

    /** The filter of the tree line selected (Analyze > Apply as Filter's), or null. */
    String selectedFilter() {
        TreeItem<TreeEntry> it = tree.getSelectionModel().getSelectedItem();
        return it == null ? null : it.getValue().filter();
    }

    private void withFilter(Consumer<String> action) {
        TreeItem<TreeEntry> it = tree.getSelectionModel().getSelectedItem();
        if (it != null && it.getValue().filter() != null) action.accept(it.getValue().filter());
    }

    private void show(int frame) {
        shown = frame;
        OpenCapture c = ctx.capture();
        // An ignored frame (Edit > Ignore Packet) is not dissected, as in Wireshark: no tree, no bytes.
        if (frame == 0 || c == null || pinned != null && c != pinned || ctx.isIgnored(frame)) {     // a packet window's capture was closed
            tree.setRoot(null);
            hex.show(null);
            return;
        }
        FrameDecoder dec = new FrameDecoder(c.index(), ctx.analysis());
        Dissection d = dec.decode(frame);
        TreeItem<TreeEntry> root = FieldTreeModel.build(d, dec.fields(), ctx.comments(frame));
        root.setExpanded(true);
        root.getChildren().getFirst().getChildren().addAll(timeLines(c.index(), frame));
        if (tree.getRoot() != null) rememberExpanded(tree.getRoot(), "");
        applyExpanded(root, "");
        tree.setRoot(root);
        hex.show(c.index().bytes(frame));
    }

    int shownFrame() { return shown; }

    // ------------------------------------------------------------------ expanded subtrees

    /**
     * Which subtrees were last expanded or collapsed, by their path of keys (layer id, field name, or the line's
     * label), so that a BTH opened in one frame is open in the next, as Wireshark keeps its subtrees' state by
     * protocol and field; subtrees never touched keep their default (Analysis open, the rest closed). Bounded by
     * the spec's headers and fields and the few labelled lines; capped anyway.
     */
    private final java.util.Map<String, Boolean> expanded = new java.util.HashMap<>();
    private static final int MAX_EXPANDED_KEYS = 4096;

    private void rememberExpanded(TreeItem<TreeEntry> item, String parent) {
        for (TreeItem<TreeEntry> c : item.getChildren()) {
            if (c.isLeaf()) continue;
            String key = parent + "/" + key(c.getValue());
            if (expanded.size() < MAX_EXPANDED_KEYS || expanded.containsKey(key)) expanded.put(key, c.isExpanded());
            rememberExpanded(c, key);
        }
    }

    private void applyExpanded(TreeItem<TreeEntry> item, String parent) {
        for (TreeItem<TreeEntry> c : item.getChildren()) {
            if (c.isLeaf()) continue;
            String key = parent + "/" + key(c.getValue());
            Boolean open = expanded.get(key);
            if (open != null) c.setExpanded(open);
            applyExpanded(c, key);
        }
    }

    /** A line's identity from frame to frame: its field or layer, else its label without value or count. */
    private static String key(TreeEntry e) {
        if (e.node() != null && e.node().field() != null) return e.node().field().name();
        if (e.node() != null && e.node().header() != null) return e.node().header().id();
        String t = e.text();
        int cut = t.length();
        for (char ch : new char[] {':', '(', '['}) {
            int i = t.indexOf(ch, 1);
            if (i > 0 && i < cut) cut = i;
        }
        return t.substring(0, cut).replaceAll("[0-9]", "").strip();     // "Frame 171" is every frame's Frame line
    }

    /** View > Expand Subtrees (all = false: the selected line and everything under it) and Expand All (all = true). */
    void expand(boolean all, boolean open) {
        if (tree.getRoot() == null) return;
        TreeItem<TreeEntry> from = all ? tree.getRoot() : tree.getSelectionModel().getSelectedItem();
        if (from == null) return;
        setExpanded(from, open);
        tree.getRoot().setExpanded(true);       // not shown: its children are the top lines
    }

    private static void setExpanded(TreeItem<TreeEntry> item, boolean open) {
        if (item.isLeaf()) return;
        item.setExpanded(open);
        for (TreeItem<TreeEntry> c : item.getChildren()) setExpanded(c, open);
    }

    /** The time reference the shown frame's lines count from, and whether it is one (to redraw when they change). */
    private int shownReference;
    private boolean shownIsReference, shownIsMarked;

    /**
     * The times of Wireshark's Frame section, under the frame's summary line: arrival, delta from the previous
     * captured frame, and the time since the latest time reference at or before it or the first frame (Wireshark's
     * frame.time_relative; the filter field of that name counts from the first frame, so these lines offer no filter);
     * then whether it is marked (Wireshark's frame.marked line).
     */
    private List<TreeItem<TreeEntry>> timeLines(io.metaroce.dissector.FrameIndex ix, int frame) {
        long t = ix.timeNanos(frame);
        int ref = ctx.timeReferenceOf(frame);
        shownReference = ref;
        shownIsReference = ctx.isTimeReference(frame);
        List<TreeItem<TreeEntry>> out = new ArrayList<>();
        if (shownIsReference) out.add(line("[This is a Time Reference frame]", "Edit > Set/Unset Time Reference (Ctrl+T)"));
        out.add(line("Arrival Time: " + TimeFormat.ABSOLUTE.format(t, 0, 0) + " UTC", "frame.time_epoch"));
        out.add(line("[Time delta from previous captured frame: " + TimeFormat.seconds(t - ix.timeNanos(frame > 1 ? frame - 1 : 1))
                + " seconds]", "frame.time_delta"));
        out.add(line("[Time since reference or first frame: " + TimeFormat.seconds(t - ix.timeNanos(ref == 0 ? 1 : ref))
                + " seconds]", "frame.time_relative, counted from the latest time reference at or before this frame"));
        if (ix.timeShift() != null)     // Wireshark's line after Edit > Time Shift
            out.add(line("[Time shift for this packet: " + TimeFormat.seconds(t - ix.fileTimeNanos(frame)) + " seconds]",
                    "frame.offset_shift: Edit > Time Shift (Ctrl+Shift+T)"));
        shownIsMarked = ctx.isMarked(frame);
        out.add(line("[Frame is marked: " + (shownIsMarked ? "True" : "False") + "]", "frame.marked: Edit > Mark/Unmark Packet (Ctrl+M)"));
        return out;
    }

    private static TreeItem<TreeEntry> line(String text, String tooltip) {
        return new TreeItem<>(new TreeEntry(text, null, null, -1, 0, tooltip, null));
    }

    /** Selects the deepest tree line whose bytes hold byte b (a field before its layer, the layer before data). */
    void selectByte(int b) {
        if (tree.getRoot() == null) return;
        List<TreeItem<TreeEntry>> all = new ArrayList<>();
        for (TreeItem<TreeEntry> top : tree.getRoot().getChildren()) FieldTreeModel.walk(top, all);
        TreeItem<TreeEntry> best = null;
        for (TreeItem<TreeEntry> it : all) {
            TreeEntry e = it.getValue();
            if (e.node() == null || !e.hasBytes() || b < e.offset() || b >= e.offset() + e.length()) continue;
            if (best == null || e.length() <= best.getValue().length()) best = it;
        }
        if (best == null) return;
        for (TreeItem<TreeEntry> p = best.getParent(); p != null; p = p.getParent()) p.setExpanded(true);
        tree.getSelectionModel().select(best);
        int row = tree.getRow(best);
        if (row >= 0) tree.scrollTo(Math.max(0, row - 2));
    }

    /** A tree line with its doc tooltip; expert lines coloured by severity. */
    private static final class EntryCell extends TreeCell<TreeEntry> {
        /**
         * One tooltip per cell, its text changed with the line: a new Tooltip (a popup control) for every line shown
         * was about a tenth of the FX thread's CPU in a jump to another frame.
         */
        private final Tooltip doc = new Tooltip();

        @Override
        protected void updateItem(TreeEntry e, boolean empty) {
            super.updateItem(e, empty);
            if (empty || e == null) {
                setText(null);
                setTooltip(null);
                setStyle("");
                setUnderline(false);
                return;
            }
            setText(e.text());
            setUnderline(e.link() != 0);       // a link to another frame, as Wireshark shows one
            if (e.tooltip() == null) setTooltip(null);
            else {
                doc.setText(e.tooltip());
                setTooltip(doc);
            }
            if (e.expert() != null) {
                setStyle(switch (e.expert().severity()) {
                    case ERROR -> "-fx-background-color: #ff5c5c;";
                    case WARN -> "-fx-background-color: #f7ef8d;";
                    default -> "-fx-background-color: #a0cbf5;";
                });
            } else setStyle(e.link() != 0 ? "-fx-text-fill: #0645ad;" : "");
        }
    }
}
