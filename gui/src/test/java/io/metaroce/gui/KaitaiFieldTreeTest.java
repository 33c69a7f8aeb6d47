package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FieldNode;
import io.metaroce.dissector.FrameTree;
import io.metaroce.dissector.KaitaiFrameTree;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import javafx.geometry.Point2D;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * The field tree is the Kaitai parse of the selected frame, and the robot uses it as a person does: click a packet,
 * click a field line (its Kaitai bytes light up in the hex pane), click a byte (its field line is selected). Frames
 * cut short or with an unknown opcode show what was readable and an expert item, with no error.
 */
class KaitaiFieldTreeTest extends GuiTestBase {
    private static final int BTH = 14 + 20 + 8;

    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void clickAPacketThenAFieldThenAByte(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        int frame = Samples.labelled("rocev2-gbn-loss", "retransmission").getFirst();
        robot.clickOn(row(robot, frame));
        Fx.until("tree of the clicked frame", () -> window.detail().shownFrame() == frame);
        TreeView<TreeEntry> tree = window.detail().tree();
        HexPane hex = window.detail().hex();
        FrameTree kaitai = kaitaiTree(robot, frame);
        FieldNode psn = kaitaiField(kaitai, "bth.psn");
        assertEquals(BTH + 9, psn.offset());

        // Click the PSN line: its three bytes are highlighted, and they hold the value the line shows.
        clickLine(robot, tree, "bth", e -> e.text().startsWith("Packet sequence number:"));
        Fx.until("PSN bytes highlighted", () -> hex.highlightFrom() == psn.offset());
        assertEquals(psn.length(), hex.highlightLength());
        byte[] b = hex.data();
        int value = (b[psn.offset()] & 0xFF) << 16 | (b[psn.offset() + 1] & 0xFF) << 8 | (b[psn.offset() + 2] & 0xFF);
        assertEquals("Packet sequence number: " + value, selected(tree).text());

        // A one-bit field: the byte that holds it.
        clickLine(robot, tree, "bth", e -> e.text().startsWith("Acknowledge request:"));
        Fx.until("A bit's byte highlighted", () -> hex.highlightFrom() == kaitaiField(kaitai, "bth.ack_req").offset());
        assertEquals(1, hex.highlightLength());
        assertEquals(BTH + 8, hex.highlightFrom());

        // Click a byte of the destination QP in the hex pane: that line is selected, its bytes highlighted.
        FieldNode qp = kaitaiField(kaitai, "bth.dest_qp");
        clickByte(robot, hex, qp.offset() + 1);
        Fx.until("Destination QP selected", () -> selected(tree) != null && selected(tree).text().startsWith("Destination QP"));
        assertEquals(qp.offset(), hex.highlightFrom());
        assertEquals(3, hex.highlightLength());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void aFrameCutInsideItsCmMessageShowsWhatWasReadableAndAnExpertItem(FxRobot robot) {
        open(robot, "capture-gaps-truncated");
        robot.clickOn(row(robot, 1));     // UD SEND Only to QP 1, the CM REQ cut by the snap length
        Fx.until("tree of frame 1", () -> window.detail().shownFrame() == 1);
        List<String> top = topLines(window.detail().tree());
        assertTrue(top.contains("Base Transport Header (BTH)"), top.toString());
        assertTrue(top.getLast().startsWith("Expert Info ("), top.toString());
        List<TreeItem<TreeEntry>> all = new ArrayList<>();
        FieldTreeModel.walk(window.detail().tree().getRoot(), all);
        assertTrue(all.stream().anyMatch(i -> i.getValue().expert() != null && i.getValue().text().contains("cut by the snap length")),
                "the expert item names the cut");
        assertTrue(all.stream().anyMatch(i -> i.getValue().text().startsWith("Destination QP: 0x000001")), "the BTH was read");
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void anUnknownOpcodeShowsTheBthAndAnExpertItem(FxRobot robot) {
        Fx.openAndAnalyze(robot, window, ctx, Path.of("..", "samples", "reference", "roce_edge.pcap"));
        robot.clickOn(row(robot, 1));     // opcode 0x80 on RoCEv2
        Fx.until("tree of frame 1", () -> window.detail().shownFrame() == 1);
        List<TreeItem<TreeEntry>> all = new ArrayList<>();
        FieldTreeModel.walk(window.detail().tree().getRoot(), all);
        assertTrue(all.stream().anyMatch(i -> i.getValue().text().equals("Opcode: 0x80")), "the opcode line without a name");
        assertTrue(all.stream().anyMatch(i -> i.getValue().expert() != null && i.getValue().text().contains("opcode 0x80")),
                "an expert item about the opcode");
        assertTrue(errors.isEmpty(), errors.toString());
    }

    // ------------------------------------------------------------------ helpers

    /** The Kaitai tree of the frame, built apart from the window: what the window must show. */
    private FrameTree kaitaiTree(FxRobot robot, int frame) {
        FrameTree[] t = new FrameTree[1];
        robot.interact(() -> {
            FrameDecoder dec = new FrameDecoder(ctx.capture().index(), ctx.analysis());
            Dissection d = dec.decode(frame);
            t[0] = KaitaiFrameTree.of(d, dec.fields());
        });
        return t[0];
    }

    private static FieldNode kaitaiField(FrameTree t, String name) {
        for (FieldNode layer : t.layers())
            for (FieldNode f : layer.children()) if (f.field() != null && f.field().name().equals(name)) return f;
        throw new AssertionError("no " + name);
    }

    private static List<String> topLines(TreeView<TreeEntry> tree) {
        return tree.getRoot().getChildren().stream().map(i -> i.getValue().text()).toList();
    }

    private static TreeEntry selected(TreeView<TreeEntry> tree) {
        TreeItem<TreeEntry> i = tree.getSelectionModel().getSelectedItem();
        return i == null ? null : i.getValue();
    }

    /** Expands the layer, scrolls its line into view and clicks the rendered cell of the first line that matches. */
    @SuppressWarnings("unchecked")
    private static void clickLine(FxRobot robot, TreeView<TreeEntry> tree, String header, Predicate<TreeEntry> line) {
        TreeItem<TreeEntry>[] target = new TreeItem[1];
        robot.interact(() -> {
            for (TreeItem<TreeEntry> top : tree.getRoot().getChildren()) {
                FieldNode n = top.getValue().node();
                if (n == null || n.header() == null || !n.header().id().equals(header)) continue;
                top.setExpanded(true);
                for (TreeItem<TreeEntry> c : top.getChildren()) if (line.test(c.getValue())) target[0] = c;
            }
            assertNotNull(target[0], "a line under " + header);
            tree.scrollTo(Math.max(0, tree.getRow(target[0]) - 1));
        });
        TreeCell<TreeEntry> cell = robot.lookup(".tree-cell")
                .match((TreeCell<TreeEntry> c) -> c.getTreeItem() == target[0] && c.isVisible()).query();
        robot.clickOn(cell);
        Fx.until("line selected", () -> tree.getSelectionModel().getSelectedItem() == target[0]);
    }

    private static void clickByte(FxRobot robot, HexPane hex, int b) {
        robot.interact(() -> hex.setVvalue(0));
        Point2D p = hex.canvas().localToScreen(hex.hexX(b), hex.lineY(b));
        robot.clickOn(p);
    }
}
