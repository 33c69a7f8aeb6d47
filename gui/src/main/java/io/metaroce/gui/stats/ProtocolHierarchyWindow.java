package io.metaroce.gui.stats;

import io.metaroce.dissector.stats.ProtocolHierarchy;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;

/**
 * Statistics > Protocol Hierarchy, as Wireshark's: the protocols of the frames as a tree (Frame at the top, each
 * header under the one it follows), with the share and count of the frames and bytes that contain it and of those it
 * ends. The counts are the dissector's {@link ProtocolHierarchy}, the one {@code dissect -z io,phs} prints; a row's
 * "Apply as Filter" / "Prepare as Filter" put its protocol's display filter in the filter bar (InfiniBand's is
 * {@code infiniband}, as Wireshark's). "Limit to display filter" counts the displayed frames only.
 */
public final class ProtocolHierarchyWindow implements GuiWindow {
    @Override
    public Place place() { return Place.STATISTICS; }

    @Override
    public String title() { return "Protocol Hierarchy"; }

    /** A row: the protocol's name and display filter, and its counts against the whole (frames, bytes). */
    public record Line(String protocol, String filter, long packets, long bytes, long endPackets, long endBytes,
                       long allPackets, long allBytes) {
        public double percentPackets() { return allPackets == 0 ? 0 : 100.0 * packets / allPackets; }

        public double percentBytes() { return allBytes == 0 ? 0 : 100.0 * bytes / allBytes; }
    }

    /** The tree of a hierarchy's rows under a Frame root (every frame counted), expanded. */
    static TreeItem<Line> tree(ProtocolHierarchy h) {
        long frames = h.frames(), bytes = h.bytes();
        long rootEndFrames = frames, rootEndBytes = bytes;
        for (ProtocolHierarchy.Row r : h.rows()) {
            if (r.depth() != 0) continue;
            rootEndFrames -= r.frames();
            rootEndBytes -= r.bytes();
        }
        TreeItem<Line> root = new TreeItem<>(new Line("Frame", "frame", frames, bytes, rootEndFrames, rootEndBytes, frames, bytes));
        root.setExpanded(true);
        List<TreeItem<Line>> parents = new ArrayList<>(List.of(root));
        for (ProtocolHierarchy.Row r : h.rows()) {
            // bth is the InfiniBand protocol of Wireshark's tree, and its filter name.
            boolean ib = r.protocol().equals("bth");
            String name = r.header().title() + (ib ? " (InfiniBand)" : "");
            TreeItem<Line> item = new TreeItem<>(new Line(name, ib ? "infiniband" : r.protocol(), r.frames(), r.bytes(),
                    r.endFrames(), r.endBytes(), frames, bytes));
            item.setExpanded(true);
            while (parents.size() > r.depth() + 1) parents.removeLast();
            parents.getLast().getChildren().add(item);
            parents.add(item);
        }
        return root;
    }

    @Override
    public void open(GuiContext ctx) {
        TreeTableView<Line> tree = new TreeTableView<>();
        tree.setId("phs-tree");
        tree.setShowRoot(true);
        tree.setColumnResizePolicy(TreeTableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TreeTableColumn<Line, String> protocol = col("Protocol", Line::protocol, 330);
        tree.getColumns().add(protocol);
        tree.getColumns().add(percent(col("Percent Packets", Line::percentPackets, 110)));
        tree.getColumns().add(col("Packets", Line::packets, 90));
        tree.getColumns().add(percent(col("Percent Bytes", Line::percentBytes, 110)));
        tree.getColumns().add(col("Bytes", Line::bytes, 100));
        tree.getColumns().add(col("End Packets", Line::endPackets, 90));
        tree.getColumns().add(col("End Bytes", Line::endBytes, 100));
        tree.setTreeColumn(protocol);
        Label status = new Label();
        status.setId("phs-status");
        MenuItem apply = new MenuItem("Apply as Filter");
        apply.setId("phs-apply-filter");
        MenuItem prepare = new MenuItem("Prepare as Filter");
        prepare.setId("phs-prepare-filter");
        apply.setOnAction(e -> filter(ctx, tree, status, true));
        prepare.setOnAction(e -> filter(ctx, tree, status, false));
        tree.setContextMenu(new ContextMenu(apply, prepare));
        StatsPass.window(ctx, "protocol-hierarchy", "Protocol Hierarchy", tree, 1000, 520, "phs-limit", status,
                ProtocolHierarchy::new, ProtocolHierarchy::add, ProtocolHierarchy::merge, h -> {
                    tree.setRoot(tree(h));
                    status.setText(h.frames() + " packets");
                });
    }

    private static void filter(GuiContext ctx, TreeTableView<Line> tree, Label status, boolean apply) {
        TreeItem<Line> item = tree.getSelectionModel().getSelectedItem();
        if (item == null) return;
        ctx.filterFromWindow(item.getValue().filter(), apply);
        status.setText((apply ? "Filter applied: " : "Filter prepared: ") + item.getValue().filter());
    }

    private static <T> TreeTableColumn<Line, T> col(String name, Function<Line, T> f, double w) {
        TreeTableColumn<Line, T> c = new TreeTableColumn<>(name);
        c.setPrefWidth(w);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue().getValue())));
        return c;
    }

    /** A percentage shown with one decimal, as Wireshark's. */
    private static TreeTableColumn<Line, Double> percent(TreeTableColumn<Line, Double> c) {
        c.setCellFactory(x -> new javafx.scene.control.TreeTableCell<>() {
            @Override
            protected void updateItem(Double v, boolean empty) {
                super.updateItem(v, empty);
                setText(empty || v == null ? null : String.format(Locale.ROOT, "%.1f", v));
            }
        });
        return c;
    }
}
