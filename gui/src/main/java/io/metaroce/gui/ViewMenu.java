package io.metaroce.gui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.event.ActionEvent;
import javafx.event.EventHandler;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.input.KeyCombination;
import javafx.scene.text.Font;
import javafx.stage.Stage;

/**
 * Wireshark's View menu: the filter toolbar and status bar shown or hidden, the three panes (a hidden pane gives its
 * space to the others; all three may be hidden, as in Wireshark), Zoom In/Out/Normal Size (the main window's
 * fonts; the packet list's rows and the bytes follow; the level is kept in the config directory, as Wireshark keeps
 * it in its recent file), Expand/Collapse Subtrees and All in the field tree, Colorize Packet List, Show Packet in
 * New Window and Reload, with Wireshark's order and shortcuts. The Time Display Format and Coloring Rules items
 * stay the main window's.
 */
final class ViewMenu {
    /** Wireshark's zoom steps are about a tenth of the font each; ten steps either way is far enough. */
    static final double ZOOM_STEP = 1.1;
    static final int MAX_ZOOM = 10;
    /** The packet list's row height at the default font (PacketTable's fixed cell size). */
    static final double ROW_HEIGHT = 22;

    private final GuiContext ctx;
    private final PacketTable packets;
    private final FrameDetail detail;
    private final SplitPane panes;
    /** The current profile's zoom file (Wireshark keeps the zoom level in each profile's recent file). */
    private Path zoomStore;
    final BooleanProperty filterToolbar = new SimpleBooleanProperty(true), statusBar = new SimpleBooleanProperty(true),
            packetList = new SimpleBooleanProperty(true), packetDetails = new SimpleBooleanProperty(true),
            packetBytes = new SimpleBooleanProperty(true);
    private final double baseFont = Font.getDefault().getSize();
    private Parent zoomed;
    private int zoom;

    ViewMenu(GuiContext ctx, PacketTable packets, FrameDetail detail, SplitPane panes, Path zoomStore) {
        this.ctx = ctx;
        this.packets = packets;
        this.detail = detail;
        this.panes = panes;
        this.zoomStore = zoomStore;
        packetList.addListener((o, a, b) -> layoutPanes());
        packetDetails.addListener((o, a, b) -> layoutPanes());
        packetBytes.addListener((o, a, b) -> layoutPanes());
    }

    /** The View menu, with the main window's Time Display Format and Coloring Rules in Wireshark's places. */
    Menu menu(Menu timeFormat, MenuItem coloringRules) {
        CheckMenuItem colorize = check("Colorize Packet List", null, "view-colorize", packets.colorizeProperty());
        Menu view = new Menu("View", null,
                check("Filter Toolbar", null, "view-filter-toolbar", filterToolbar),
                check("Status Bar", null, "view-status-bar", statusBar),
                new SeparatorMenuItem(),
                check("Packet List", null, "view-packet-list", packetList),
                check("Packet Details", null, "view-packet-details", packetDetails),
                check("Packet Bytes", null, "view-packet-bytes", packetBytes),
                new SeparatorMenuItem(),
                timeFormat,
                new SeparatorMenuItem(),
                item("Zoom In", "Shortcut+Equals", "view-zoom-in", e -> zoom(zoom + 1)),
                item("Zoom Out", "Shortcut+Minus", "view-zoom-out", e -> zoom(zoom - 1)),
                item("Normal Size", "Shortcut+0", "view-zoom-normal", e -> zoom(0)),
                new SeparatorMenuItem(),
                treeItem("Expand Subtrees", "Shift+Right", "view-expand-subtrees", false, true),
                treeItem("Collapse Subtrees", "Shift+Left", "view-collapse-subtrees", false, false),
                treeItem("Expand All", "Shortcut+Right", "view-expand-all", true, true),
                treeItem("Collapse All", "Shortcut+Left", "view-collapse-all", true, false),
                new SeparatorMenuItem(),
                colorize, coloringRules,
                new SeparatorMenuItem(),
                item("Show Packet in New Window", null, "view-packet-window", e -> packetWindow(ctx, ctx.selectedFrame())),
                item("Reload", "Shortcut+R", "view-reload", e -> ctx.reload()));
        view.setId("menu-view");
        return view;
    }

    /** The scene whose fonts Zoom changes: its root's font size, and the key Shortcut+Plus as a second Zoom In. */
    void install(Scene scene) {
        zoomed = scene.getRoot();
        // Shortcut+Plus: the + key, Shift+= on most layouts, and the keypad's.
        KeyCombination plus = KeyCombination.keyCombination("Shortcut+Plus"), add = KeyCombination.keyCombination("Shortcut+Add"),
                shiftEquals = new javafx.scene.input.KeyCodeCombination(javafx.scene.input.KeyCode.EQUALS,
                        KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
        scene.addEventHandler(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (plus.match(e) || add.match(e) || shiftEquals.match(e)) {
                zoom(zoom + 1);
                e.consume();
            }
        });
        apply(readZoom());
    }

    int zoomLevel() { return zoom; }

    /** Another profile's zoom level (Edit > Configuration Profiles), read from its folder. */
    void useZoomFile(Path file) {
        zoomStore = file;
        apply(readZoom());
    }

    /** The font size at this zoom level, in pixels (Wireshark: a tenth more or less a step). */
    double fontSize(int level) { return Math.round(baseFont * Math.pow(ZOOM_STEP, level) * 10) / 10.0; }

    void zoom(int level) {
        apply(level);
        writeZoom();
    }

    private void apply(int level) {
        zoom = Math.clamp(level, -MAX_ZOOM, MAX_ZOOM);
        double size = fontSize(zoom);
        if (zoomed != null) zoomed.setStyle(zoom == 0 ? "" : "-fx-font-size: " + size + "px;");
        // The list's rows have a fixed height (a fast list): it follows the font, else taller text is cut.
        packets.table().setFixedCellSize(Math.round(ROW_HEIGHT * size / baseFont));
        detail.hex().setFontSize(Math.round(HexPane.FONT_SIZE * size / baseFont * 10) / 10.0);
    }

    private int readZoom() {
        if (zoomStore == null) return 0;
        try {
            return Integer.parseInt(Files.readString(zoomStore).strip());
        } catch (IOException | NumberFormatException e) {
            return 0;       // none saved yet, or not ours: the normal size
        }
    }

    private void writeZoom() {
        if (zoomStore == null) return;
        try {
            Files.createDirectories(zoomStore.getParent());
            Files.writeString(zoomStore, zoom + "\n");
        } catch (IOException e) {
            ctx.status("Zoom not saved: " + e.getMessage());
        }
    }

    /** The panes shown, top to bottom; a hidden one's space goes to the others. */
    private void layoutPanes() {
        List<Node> inner = new ArrayList<>(), outer = new ArrayList<>();
        if (packetDetails.get()) inner.add(detail.tree());
        if (packetBytes.get()) inner.add(detail.hex());
        if (packetList.get()) outer.add(packets);
        if (!inner.isEmpty()) outer.add(detail);
        if (!detail.getItems().equals(inner)) {
            detail.getItems().setAll(inner);
            if (inner.size() == 2) detail.setDividerPositions(0.6);
        }
        if (!panes.getItems().equals(outer)) {
            panes.getItems().setAll(outer);
            if (outer.size() == 2) panes.setDividerPositions(0.5);
        }
    }

    /**
     * Shift/Shortcut+Left/Right are text editing keys too: typed in the filter bar they select or move there, as in
     * Wireshark (a text field consumes them before the menu accelerators see them).
     */
    private MenuItem treeItem(String text, String accelerator, String id, boolean all, boolean open) {
        return item(text, accelerator, id, e -> detail.expand(all, open));
    }

    /**
     * View > Show Packet in New Window: the field tree and bytes of this frame in a window of their own that stays
     * on it (a second one can show another frame beside it); it closes with the capture.
     */
    static Stage packetWindow(GuiContext ctx, int frame) {
        if (frame == 0 || ctx.capture() == null) return null;
        FrameDetail d = FrameDetail.pinned(ctx, frame);
        d.setOrientation(Orientation.VERTICAL);
        Stage st = io.metaroce.gui.stats.Windows.show(ctx, "packet-window", "Packet " + frame, d, 800, 700);
        javafx.beans.value.ChangeListener<OpenCapture> closer = new javafx.beans.value.ChangeListener<>() {
            @Override
            public void changed(javafx.beans.value.ObservableValue<? extends OpenCapture> o, OpenCapture a, OpenCapture b) {
                ctx.captureProperty().removeListener(this);
                st.close();
            }
        };
        ctx.captureProperty().addListener(closer);
        st.setOnHidden(e -> ctx.captureProperty().removeListener(closer));
        return st;
    }

    private static CheckMenuItem check(String text, String accelerator, String id, BooleanProperty p) {
        CheckMenuItem c = new CheckMenuItem(text);
        c.setId(id);
        if (accelerator != null) c.setAccelerator(KeyCombination.keyCombination(accelerator));
        c.selectedProperty().bindBidirectional(p);
        return c;
    }

    private static MenuItem item(String text, String accelerator, String id, EventHandler<ActionEvent> h) {
        MenuItem mi = new MenuItem(text);
        mi.setId(id);
        if (accelerator != null) mi.setAccelerator(KeyCombination.keyCombination(accelerator));
        mi.setOnAction(h);
        return mi;
    }
}
