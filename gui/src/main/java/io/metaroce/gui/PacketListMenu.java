package io.metaroce.gui;

import java.util.function.Consumer;
import javafx.scene.Node;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.input.MouseEvent;

/**
 * The packet list's context menu, as Wireshark's: "Apply as Filter" and "Prepare as Filter" take the value of the
 * cell that was right-clicked (its column: Source gives {@code ip.src == ...}, QP {@code bth.dest_qp == ...}),
 * "Filter on this Flow" the packet's QP flow; a custom column's cell gives its field equal to the cell's first
 * value. The row clicked is selected first, so the filter is about the packet the user sees selected.
 */
final class PacketListMenu {
    private final GuiContext ctx;
    private String column;
    /** The custom column right-clicked, or null. */
    private CustomColumn custom;

    private PacketListMenu(GuiContext ctx) { this.ctx = ctx; }

    /** Adds the menu to table; apply and prepare are the filter bar's. */
    static void install(TableView<Integer> table, GuiContext ctx, Consumer<String> apply, Consumer<String> prepare) {
        PacketListMenu m = new PacketListMenu(ctx);
        // The column under the mouse when the menu is asked for (a press of any button: the menu opens on it).
        table.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> {
            TableColumn<?, ?> c = columnAt(e.getPickResult().getIntersectedNode());
            m.column = c == null ? null : c.getText();
            m.custom = c != null && c.getUserData() instanceof CustomColumn cc ? cc : null;
        });
        MenuItem applyItem = new MenuItem("Apply as Filter");
        applyItem.setId("list-apply-filter");
        applyItem.setOnAction(e -> m.withFilter(false, apply));
        MenuItem prepareItem = new MenuItem("Prepare as Filter");
        prepareItem.setId("list-prepare-filter");
        prepareItem.setOnAction(e -> m.withFilter(false, prepare));
        MenuItem flowItem = new MenuItem("Filter on this Flow");
        flowItem.setId("list-flow-filter");
        flowItem.setOnAction(e -> m.withFilter(true, apply));
        table.setContextMenu(new ContextMenu(applyItem, prepareItem, new SeparatorMenuItem(), flowItem));
        MenuItem decodeAsItem = new MenuItem("Decode As...");     // prefilled with the clicked packet's UDP port
        decodeAsItem.setId("list-decode-as");
        decodeAsItem.setOnAction(e -> DecodeAsDialog.show(ctx));
        table.getContextMenu().getItems().addAll(new SeparatorMenuItem(), decodeAsItem);
        table.getContextMenu().getItems().add(FollowStreamDialog.menu(ctx, "list-"));     // Follow > RoCE QP Stream
    }

    private void withFilter(boolean flow, Consumer<String> action) {
        int frame = ctx.selectedFrame();
        OpenCapture c = ctx.capture();
        if (frame == 0 || c == null) return;
        FrameDecoder dec = new FrameDecoder(c.index(), custom != null ? ctx.analysis() : null);   // a custom analysis.* column
        var d = dec.decode(frame);
        String f = flow ? PacketFilters.flow(d) : custom != null ? customFilter(dec, custom) : PacketFilters.forColumn(d, frame, column);
        if (f != null) action.accept(f);
    }

    private static TableColumn<?, ?> columnAt(Node n) {
        for (; n != null; n = n.getParent()) {
            if (n instanceof TableCell<?, ?> cell && cell.getTableColumn() != null) return cell.getTableColumn();
        }
        return null;
    }

    /** A custom column's cell: its field equal to its first value, as the field tree's line gives; "!field" when empty. */
    private static String customFilter(FrameDecoder dec, CustomColumn c) {
        var ff = dec.fields();
        return ff.count(c.def()) == 0 ? "!" + c.def().name() : FieldTreeModel.filterOf(c.def(), ff, 0);
    }
}
