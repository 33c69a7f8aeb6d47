package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.javafx.scene.input.DragboardHelper;
import com.sun.javafx.tk.TKClipboard;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import javafx.event.Event;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.image.Image;
import javafx.scene.input.DataFormat;
import javafx.scene.input.DragEvent;
import javafx.scene.input.Dragboard;
import javafx.scene.input.TransferMode;
import javafx.stage.Stage;
import javafx.util.Pair;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * Dropping a capture file on the window opens it; the packet list's context menu applies, prepares and flow-filters
 * what it says. (Under the headless Monocle platform there is no OS drag source and context menus do not pop up,
 * so the drop is the platform's pair of DragEvents carrying a file list, and the menu items are fired after the
 * robot's right-click on the cell, as the popup would.)
 */
class DropAndContextMenuTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void droppingACaptureFileOnTheWindowOpensIt(FxRobot robot) {
        Path file = Samples.capture("rocev2-ecn-cnp").toAbsolutePath().normalize();
        Dragboard[] board = new Dragboard[1];     // a Dragboard is made on the FX thread only
        robot.interact(() -> board[0] = DragboardHelper.createDragboard(new FileClipboard(List.of(file.toFile()))));
        Node root = stage.getScene().getRoot();
        Bounds b = root.localToScreen(root.getBoundsInLocal());
        double x = b.getCenterX(), y = b.getCenterY();
        DragEvent[] over = new DragEvent[1];
        robot.moveTo(x, y);
        robot.interact(() -> {
            over[0] = new DragEvent(DragEvent.DRAG_OVER, board[0], x - b.getMinX(), y - b.getMinY(), x, y, null, null, null, null);
            Event.fireEvent(root, over[0]);
            Event.fireEvent(root, new DragEvent(DragEvent.DRAG_DROPPED, board[0], x - b.getMinX(), y - b.getMinY(), x, y,
                    TransferMode.COPY, null, null, null));
        });
        Fx.until("the dropped file is open", () -> ctx.capture() != null && ctx.capture().file().toAbsolutePath().normalize().equals(file));
        Fx.until("analysed", () -> !ctx.busyProperty().get());
        assertEquals(Samples.frames("rocev2-ecn-cnp"), ctx.capture().frames());
        assertTrue(stage.getTitle().startsWith("rocev2-ecn-cnp.pcapng"), stage.getTitle());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void packetListContextMenuAppliesPreparesAndFiltersOnTheFlow(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        int frame = Samples.labelled("rocev2-gbn-loss", "retransmission").getFirst();
        row(robot, frame);
        String qp = cell(robot, frame, "QP"), src = cell(robot, frame, "Source"), dst = cell(robot, frame, "Destination");

        // Right-click the QP cell of the packet, Apply as Filter: only that QP's packets are shown, it stays selected.
        robot.rightClickOn(cellOf(robot, frame, "QP"));
        Fx.until("selected by the right-click", () -> ctx.selectedFrame() == frame);
        fire(robot, "list-apply-filter");
        String qpFilter = "bth.dest_qp == " + qp;
        Fx.until("QP filter applied", () -> qpFilter.equals(ctx.appliedFilterProperty().get()) && !ctx.busyProperty().get());
        assertEquals(qpFilter, window.filterBar().editor().getText());
        assertTrue(ctx.view().size() > 1 && ctx.view().size() < ctx.capture().frames(), "rows: " + ctx.view().size());
        for (int r = 0; r < ctx.view().size(); r++) assertEquals(qp, cell(robot, ctx.view().frameAt(r), "QP"));
        assertEquals(frame, ctx.selectedFrame());

        // Right-click its Source cell, Prepare as Filter: the bar holds the filter, the applied one is unchanged.
        robot.rightClickOn(cellOf(robot, frame, "Source"));
        fire(robot, "list-prepare-filter");
        assertEquals("ip.src == " + src, window.filterBar().editor().getText());
        assertEquals(qpFilter, ctx.appliedFilterProperty().get());

        // Filter on this Flow: source, destination and QP of the packet, as QP Conversations' button.
        robot.interact(() -> ctx.applyFilter(""));
        Fx.until("unfiltered", () -> !ctx.busyProperty().get() && ctx.view().size() == ctx.capture().frames());
        robot.rightClickOn(cellOf(robot, frame, "Info"));
        fire(robot, "list-flow-filter");
        String flow = "ip.src == " + src + " && ip.dst == " + dst + " && bth.dest_qp == " + qp;
        Fx.until("flow filter applied", () -> flow.equals(ctx.appliedFilterProperty().get()) && !ctx.busyProperty().get());
        assertTrue(ctx.view().size() > 1 && ctx.view().size() < ctx.capture().frames(), "rows: " + ctx.view().size());
        for (int r = 0; r < ctx.view().size(); r++) {
            int f = ctx.view().frameAt(r);
            assertEquals(List.of(src, dst, qp), List.of(cell(robot, f, "Source"), cell(robot, f, "Destination"), cell(robot, f, "QP")));
        }
        assertTrue(ctx.view().rowOf(frame) >= 0);

        // A custom column's cell (put first, on screen): its field equal to the cell's value.
        robot.interact(() -> {
            var cols = new java.util.ArrayList<>(window.packets().columns());
            cols.addFirst(new ColumnSpec("PSN field", "bth.psn", true, 100));
            window.columns().setColumns(cols);
        });
        robot.rightClickOn(cellOf(robot, frame, "PSN field"));
        fire(robot, "list-prepare-filter");
        assertEquals("bth.psn == " + cell(robot, frame, "PSN"), window.filterBar().editor().getText());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    // ------------------------------------------------------------------ helpers

    @SuppressWarnings("unchecked")
    private TableCell<Integer, ?> cellOf(FxRobot robot, int frame, String column) {
        row(robot, frame);
        TableCell<Integer, ?> c = robot.lookup(".table-cell").match((TableCell<Integer, ?> x) -> x.getTableColumn() != null
                && column.equals(x.getTableColumn().getText()) && x.getTableRow() != null
                && Integer.valueOf(frame).equals(x.getTableRow().getItem())).query();
        assertNotNull(c, column + " cell of " + frame);
        return c;
    }

    private void fire(FxRobot robot, String id) {
        TableView<Integer> t = table(robot);
        MenuItem item = t.getContextMenu().getItems().stream().filter(i -> id.equals(i.getId())).findFirst().orElseThrow();
        robot.interact(item::fire);
    }

    /** What the platform's drag clipboard holds when a file manager drags files: the file list, copy allowed. */
    private record FileClipboard(List<File> files) implements TKClipboard {
        @Override public Set<DataFormat> getContentTypes() { return Set.of(DataFormat.FILES); }
        @SafeVarargs @Override public final boolean putContent(Pair<DataFormat, Object>... content) { return false; }
        @Override public Object getContent(DataFormat f) { return DataFormat.FILES.equals(f) ? files : null; }
        @Override public boolean hasContent(DataFormat f) { return DataFormat.FILES.equals(f); }
        @Override public Set<TransferMode> getTransferModes() { return Set.of(TransferMode.COPY); }
        @Override public void setDragView(Image image) { }
        @Override public void setDragViewOffsetX(double offsetX) { }
        @Override public void setDragViewOffsetY(double offsetY) { }
        @Override public Image getDragView() { return null; }
        @Override public double getDragViewOffsetX() { return 0; }
        @Override public double getDragViewOffsetY() { return 0; }
    }
}
