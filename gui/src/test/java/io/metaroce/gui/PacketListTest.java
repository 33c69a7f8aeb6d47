package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.dissector.FrameIndex;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import javafx.stage.Stage;

/** The packet list on samples with known truth: verdicts in Info, click to select, time formats, sorting, columns. */
class PacketListTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void infoShowsTheRetransmissionsTheTruthLabelsAndNoOthers(FxRobot robot) {
        String name = "rocev2-gbn-loss";
        open(robot, name);
        Set<Integer> retx = new HashSet<>(Samples.labelled(name, "retransmission"));
        assertEquals(64, retx.size());
        for (int f = 1; f <= Samples.frames(name); f++) {
            String info = cell(robot, f, "Info");
            assertEquals(retx.contains(f), info.contains("[Retransmission (nak)]"), "#" + f + ": " + info);
        }
        assertTrue(cell(robot, 1, "Protocol").startsWith("RoCEv2"));
        // The NAKs that caused them are named as Wireshark users read them.
        boolean nak = false;
        for (int f = 1; f <= Samples.frames(name); f++) nak |= cell(robot, f, "Info").contains("[NAK seq err]");
        assertTrue(nak, "a NAK PSN sequence error is shown as [NAK seq err]");
    }

    @Test
    void spuriousRetransmissionsAreMarked(FxRobot robot) {
        String name = "metaroce-spray-lossy-path";
        open(robot, name);
        Set<Integer> spurious = new HashSet<>(Samples.labelled(name, "spurious"));
        assertFalse(spurious.isEmpty());
        for (int f = 1; f <= Samples.frames(name); f++)
            assertEquals(spurious.contains(f), cell(robot, f, "Info").contains("[Spurious]"), "#" + f);
        assertEquals("MetaRoCE", cell(robot, spurious.iterator().next(), "Protocol"));
    }

    @Test
    void clickingARowSelectsItsFrameAndShowsItsTree(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        int frame = Samples.labelled("rocev2-gbn-loss", "retransmission").getFirst();
        robot.clickOn(row(robot, frame));
        Fx.until("selection", () -> ctx.selectedFrame() == frame);
        assertEquals(frame, window.detail().shownFrame());
        assertTrue(window.detail().tree().getRoot().getChildren().getFirst().getValue().text().startsWith("Frame " + frame + ":"));
        // ... and the context selects back: Go to packet moves the table's selection.
        robot.interact(() -> assertEquals(null, Navigation.goTo(ctx, "5")));
        assertEquals(5, table(robot).getSelectionModel().getSelectedItem());
        robot.interact(() -> assertEquals("Packet 999 is not in the capture (1..192)", Navigation.goTo(ctx, "999")));
        assertEquals(5, ctx.selectedFrame());
    }

    @Test
    void theTimeColumnSwitchesBetweenAbsoluteRelativeAndDelta(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        FrameIndex ix = ctx.capture().index();
        long rel = ix.timeNanos(3) - ix.timeNanos(1), delta = ix.timeNanos(3) - ix.timeNanos(2);
        assertEquals(TimeFormat.seconds(rel), cell(robot, 3, "Time"));
        menuItem(robot, "time-delta");
        assertEquals(TimeFormat.seconds(delta), cell(robot, 3, "Time"));
        menuItem(robot, "time-absolute");
        String abs = cell(robot, 3, "Time");
        assertTrue(abs.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{9}"), abs);
        assertTrue(abs.endsWith(String.format("%09d", ix.timeNanos(3) % 1_000_000_000L)), abs);
    }

    @Test
    void sortingAColumnSortsTheFramesAndTheSelectionStays(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        robot.interact(() -> ctx.select(40));
        robot.clickOn(robot.lookup(".column-header").match((javafx.scene.Node n) -> n.getId() != null && n.getId().equals("PSN")).queryAs(javafx.scene.Node.class));
        Fx.until("sorted view", () -> !ctx.view().ascending());
        TableView<Integer> t = table(robot);
        long last = -1;
        for (int r = 0; r < t.getItems().size(); r++) {
            String psn = cell(robot, t.getItems().get(r), "PSN");
            long v = psn.isEmpty() ? -1 : Long.parseLong(psn);
            assertTrue(v >= last, "row " + r + " PSN " + v + " after " + last);
            last = v;
        }
        assertEquals(40, ctx.selectedFrame());
        assertEquals(40, t.getSelectionModel().getSelectedItem());
        assertEquals(192, t.getItems().size());
    }

    @Test
    void everyColumnCanBeHiddenFromTheColumnChooser(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        TableView<Integer> t = table(robot);
        assertTrue(t.isTableMenuButtonVisible());
        assertEquals(List.of(PacketTable.COLUMNS), t.getColumns().stream().map(TableColumn::getText).toList());
        robot.clickOn(robot.lookup(".show-hide-columns-button").queryAs(javafx.scene.Node.class));
        // The item of the chooser's popup, not the column header that has the same text.
        javafx.scene.Node item = robot.lookup(".context-menu .label")
                .match(org.testfx.matcher.control.LabeledMatchers.hasText("QP")).query();
        robot.clickOn(item);
        Fx.until("QP hidden", () -> !t.getColumns().get(5).isVisible());
    }
}
