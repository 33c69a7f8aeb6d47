package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FrameIndex;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import javafx.scene.input.KeyCode;
import javafx.scene.paint.Color;
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

    /**
     * Columns saved as they change (a custom one added, QP hidden, Info moved last) read back alike by a new main
     * window on the same config directory; a garbage file gives the default columns and says why.
     */
    @Test
    void columnsAreSavedAndReadBackAndABadFileGivesTheDefaults(FxRobot robot) throws Exception {
        TableView<Integer> t = table(robot);
        robot.interact(() -> {
            window.columns().applyAsColumn("aeth.syndrome");
            t.getColumns().get(5).setVisible(false);
            var info = t.getColumns().get(8);
            t.getColumns().remove(info);        // as a drag of its header to the end
            t.getColumns().add(info);
        });
        List<ColumnSpec> before = window.packets().columns();
        assertEquals("aeth.syndrome", before.get(8).field());
        assertEquals("Info", before.get(9).title());
        assertFalse(before.get(5).shown());
        MainWindow[] again = new MainWindow[2];
        robot.interact(() -> again[0] = new MainWindow(new GuiContext(new Stage()), config.resolve("colorfilters"), config.resolve("recent")));
        assertEquals(rounded(before), rounded(again[0].packets().columns()));
        assertEquals(null, again[0].columns().lastProblem());
        java.nio.file.Files.writeString(PacketColumns.fileBeside(config.resolve("colorfilters")), "No.\tbth.nosuch\tshown\t70\n\u0000garbage");
        robot.interact(() -> again[1] = new MainWindow(new GuiContext(new Stage()), config.resolve("colorfilters"), config.resolve("recent")));
        assertEquals(rounded(PacketColumns.defaults()), rounded(again[1].packets().columns()));
        assertTrue(again[1].columns().lastProblem().contains("line 1: 'bth.nosuch' is not a valid field"), again[1].columns().lastProblem());
    }

    private static List<String> rounded(List<ColumnSpec> cols) {
        return cols.stream().map(c -> c.title() + "|" + c.field() + "|" + c.shown() + "|" + Math.round(c.width())).toList();
    }

    /** Column Preferences: an unknown field is refused with the reason; a custom column added, then removed. */
    @Test
    @SuppressWarnings("unchecked")
    void columnPreferencesRefuseAnUnknownFieldAndRemoveACustomColumn(FxRobot robot) {
        javafx.scene.control.Dialog<?>[] d = new javafx.scene.control.Dialog<?>[1];
        Runnable show = () -> robot.interact(() -> {
            d[0] = ColumnPreferencesDialog.create(stage, window.packets().columns(), window.columns()::setColumns);
            d[0].show();
        });
        show.run();
        javafx.scene.control.TextField title = robot.lookup("#column-prefs-title").queryAs(javafx.scene.control.TextField.class),
                field = robot.lookup("#column-prefs-field").queryAs(javafx.scene.control.TextField.class);
        javafx.scene.control.ListView<ColumnSpec> list = robot.lookup("#column-prefs-list").queryAs(javafx.scene.control.ListView.class);
        javafx.scene.control.Button add = robot.lookup("#column-prefs-add").queryAs(javafx.scene.control.Button.class);
        robot.interact(() -> {
            field.setText("bth.nosuch");
            add.fire();
        });
        assertEquals("'bth.nosuch' is not a valid field (see dissect --list-fields)", robot.lookup("#column-prefs-error").queryLabeled().getText());
        assertEquals(PacketTable.COLUMNS.length, list.getItems().size());
        robot.interact(() -> {
            title.setText("Syndrome");
            field.setText("aeth.syndrome");
            add.fire();
            ((javafx.scene.control.Button) d[0].getDialogPane().lookupButton(javafx.scene.control.ButtonType.OK)).fire();
        });
        assertEquals(List.of(new ColumnSpec("Syndrome", "aeth.syndrome", true, 100)), window.packets().columns().stream().filter(ColumnSpec::custom).toList());
        show.run();
        javafx.scene.control.ListView<ColumnSpec> list2 = robot.lookup("#column-prefs-list").queryAs(javafx.scene.control.ListView.class);
        robot.interact(() -> {
            list2.getSelectionModel().select(PacketTable.COLUMNS.length);
            robot.lookup("#column-prefs-remove").queryAs(javafx.scene.control.Button.class).fire();
            ((javafx.scene.control.Button) d[0].getDialogPane().lookupButton(javafx.scene.control.ButtonType.OK)).fire();
        });
        assertEquals(List.of(PacketTable.COLUMNS), window.packets().columns().stream().map(ColumnSpec::title).toList());
        assertEquals(rounded(PacketColumns.defaults()), rounded(PacketColumns.load(PacketColumns.fileBeside(config.resolve("colorfilters"))).columns()), "saved");
        // A custom column's header menu removes it too; a built-in one's offers no removal.
        TableView<Integer> t = table(robot);
        robot.interact(() -> window.columns().applyAsColumn("bth.dest_qp"));
        var items = window.columns().headerItems(t.getColumns().getLast());
        var builtinItems = window.columns().headerItems(t.getColumns().getFirst());
        assertTrue(builtinItems.stream().filter(i -> "column-remove".equals(i.getId())).findFirst().orElseThrow().isDisable());
        robot.interact(() -> items.stream().filter(i -> "column-remove".equals(i.getId())).findFirst().orElseThrow().fire());
        assertEquals(PacketTable.COLUMNS.length, t.getColumns().size());
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

    /** Presses a key combination as a user does (the menu's accelerator handles it), then releases it. */
    private static void keys(FxRobot robot, KeyCode... codes) {
        robot.press(codes);
        KeyCode[] reversed = new KeyCode[codes.length];
        for (int i = 0; i < codes.length; i++) reversed[i] = codes[codes.length - 1 - i];
        robot.release(reversed);
    }

    @Test
    void copySummaryAsTextOrCsvHoldsTheSelectedRowsVisibleColumns(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        TableView<Integer> t = table(robot);
        robot.interact(() -> t.getColumns().get(5).setVisible(false));     // QP: hidden columns are not copied
        robot.interact(() -> window.columns().applyAsColumn("bth.psn"));   // custom columns shown are
        robot.clickOn(row(robot, 5));
        robot.interact(() -> t.getSelectionModel().select(t.getItems().indexOf(3)));   // as Ctrl+click adds a row
        Fx.until("two rows", () -> t.getSelectionModel().getSelectedItems().size() == 2 && ctx.selectedFrame() == 3);
        List<String> cols = t.getVisibleLeafColumns().stream().map(TableColumn::getText).toList();
        assertFalse(cols.contains("QP"));
        assertEquals("Packet sequence number", cols.getLast());
        StringBuilder text = new StringBuilder(String.join("\t", cols)).append('\n'), csv = new StringBuilder();
        csv.append('"').append(String.join("\",\"", cols)).append("\"\n");
        for (int f : new int[] {3, 5}) {       // in display order, whatever order they were picked in
            List<String> cells = cols.stream().map(c -> cell(robot, f, c)).toList();
            text.append(String.join("\t", cells)).append('\n');
            csv.append('"').append(String.join("\",\"", cells.stream().map(c -> c.replace("\"", "\"\"")).toList())).append("\"\n");
        }
        keys(robot, KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.C);       // Edit > Copy > Summary as Text
        assertEquals(text.toString(), copied(robot));
        menuItem(robot, "edit-copy-csv");
        assertEquals(csv.toString(), copied(robot));
        keys(robot, KeyCode.CONTROL, KeyCode.C);                      // Ctrl+C in the list: the same text
        assertEquals(text.toString(), copied(robot));
    }

    @Test
    void markedPacketsAreBlackWalkedByNextMarkExportedAloneAndForgottenOnClose(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        int[] marks = {7, 20, 41};
        robot.clickOn(row(robot, 1));
        for (int f : marks) {
            robot.interact(() -> ctx.select(f));
            keys(robot, KeyCode.CONTROL, KeyCode.M);
        }
        Fx.until("3 marked", () -> ctx.markedCount() == 3);
        assertArrayEquals(marks, ctx.markedFrames());
        robot.interact(() -> ctx.select(1));
        TableRow<?> marked = row(robot, 20), plain = row(robot, 21);
        robot.interact(() -> { });
        assertEquals(Color.BLACK, marked.getBackground().getFills().getFirst().getFill(), "a marked row is black");
        assertFalse(Color.BLACK.equals(plain.getBackground().getFills().getFirst().getFill()));
        TableCell<?, ?> info = robot.from(marked).lookup(".table-cell").query();
        assertEquals(Color.WHITE, info.getTextFill(), "with white text");
        // Next Mark walks them in display order and wraps at the end, as Wireshark's; Previous wraps back.
        List<Integer> walked = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            keys(robot, KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.N);
            walked.add(ctx.selectedFrame());
        }
        assertEquals(List.of(7, 20, 41, 7), walked);
        menuItem(robot, "edit-previous-mark");
        assertEquals(41, ctx.selectedFrame());
        // Ctrl+M on a marked packet unmarks it.
        keys(robot, KeyCode.CONTROL, KeyCode.M);
        assertArrayEquals(new int[] {7, 20}, ctx.markedFrames());
        keys(robot, KeyCode.CONTROL, KeyCode.M);
        // File > Export Specified Packets > Marked packets only: exactly those frames.
        Path out = config.resolve("marked.pcapng");
        robot.interact(() -> ExportDialog.export(ctx, PacketExport.Range.MARKED, out));
        Fx.until("exported", () -> ctx.statusProperty().get().startsWith("Exported 3 packets to "));
        try (PacketSource src = CaptureFiles.open(out)) {
            List<Long> times = new java.util.ArrayList<>();
            while (src.next()) times.add(src.timestampNanos());
            FrameIndex ix = ctx.capture().index();
            assertEquals(List.of(ix.timeNanos(7), ix.timeNanos(20), ix.timeNanos(41)), times);
        }
        // Wireshark's frame.marked: a line of the Frame section, and the display filter frame.marked == 1 shows just
        // the marked packets, its negation the others.
        robot.interact(() -> ctx.select(20));
        assertTrue(window.detail().tree().getRoot().getChildren().getFirst().getChildren().stream()
                .anyMatch(i -> i.getValue().text().equals("[Frame is marked: True]")));
        robot.interact(() -> ctx.applyFilter("frame.marked == 1"));
        Fx.until("marked only", () -> !ctx.view().isAll() && !ctx.busyProperty().get());
        assertArrayEquals(marks, ctx.view().toArray());
        robot.interact(() -> ctx.applyFilter("!(frame.marked == 1) && frame.number <= 41"));
        Fx.until("the others", () -> !ctx.busyProperty().get() && ctx.view().size() == 38);
        robot.interact(() -> ctx.applyFilter(""));
        Fx.until("all", () -> ctx.view().isAll() && !ctx.busyProperty().get());
        // Unmark All Displayed, Mark All Displayed (over a filter: only the frames shown).
        menuItem(robot, "edit-unmark-all");
        assertEquals(0, ctx.markedCount());
        assertEquals(0, PacketExport.frames(ctx, PacketExport.Range.MARKED).length, "greyed out in the dialog");
        robot.interact(() -> ctx.applyFilter("analysis.retransmission"));
        Fx.until("filtered", () -> !ctx.view().isAll() && !ctx.busyProperty().get());
        menuItem(robot, "edit-mark-all");
        assertArrayEquals(ctx.view().toArray(), ctx.markedFrames());
        // Marks belong to the open capture.
        robot.interact(ctx::close);
        assertEquals(0, ctx.markedCount());
        assertEquals(List.of(), errors);
    }

    @Test
    void aTimeReferenceReadsRefAndLaterRelativeTimesCountFromIt(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        FrameIndex ix = ctx.capture().index();
        int n = 50, m = 80, frames = m + 20;      // the frames before, between and after the two references
        String[] before = new String[frames + 1];
        for (int f = 1; f <= frames; f++) before[f] = cell(robot, f, "Time");
        robot.clickOn(row(robot, 1));
        robot.interact(() -> ctx.select(n));
        keys(robot, KeyCode.CONTROL, KeyCode.T);        // Edit > Set/Unset Time Reference
        Fx.until("reference set", () -> ctx.isTimeReference(n));
        robot.interact(() -> ctx.select(m));
        menuItem(robot, "edit-time-ref");
        assertEquals("*REF*", cell(robot, n, "Time"));
        assertEquals("*REF*", cell(robot, m, "Time"));
        for (int f = 1; f <= frames; f++) {
            if (f == n || f == m) continue;
            String want = f < n ? before[f] : TimeFormat.seconds(ix.timeNanos(f) - ix.timeNanos(f < m ? n : m));
            assertEquals(want, cell(robot, f, "Time"), "#" + f);
        }
        // The field tree's Frame section says the same (Wireshark's frame.time_relative line).
        robot.interact(() -> ctx.select(n + 5));
        List<String> frameLines = window.detail().tree().getRoot().getChildren().getFirst().getChildren().stream().map(i -> i.getValue().text()).toList();
        assertTrue(frameLines.contains("[Time since reference or first frame: " + TimeFormat.seconds(ix.timeNanos(n + 5) - ix.timeNanos(n)) + " seconds]"), frameLines.toString());
        robot.interact(() -> ctx.applyFilter("frame.ref_time"));       // Wireshark's field of the reference frames
        Fx.until("references only", () -> !ctx.view().isAll() && !ctx.busyProperty().get());
        assertArrayEquals(new int[] {n, m}, ctx.view().toArray());
        robot.interact(() -> ctx.applyFilter(""));
        Fx.until("all", () -> ctx.view().isAll() && !ctx.busyProperty().get());
        robot.interact(() -> ctx.select(n));
        assertEquals("[This is a Time Reference frame]", window.detail().tree().getRoot().getChildren().getFirst().getChildren().getFirst().getValue().text());
        // Delta and absolute times do not change, but for *REF*.
        menuItem(robot, "time-delta");
        assertEquals(TimeFormat.seconds(ix.timeNanos(n + 1) - ix.timeNanos(n)), cell(robot, n + 1, "Time"));
        assertEquals("*REF*", cell(robot, n, "Time"));
        menuItem(robot, "time-relative");
        // Next/Previous Time Reference walk them, wrapping.
        robot.interact(() -> ctx.select(1));
        menuItem(robot, "edit-next-time-ref");
        assertEquals(n, ctx.selectedFrame());
        menuItem(robot, "edit-next-time-ref");
        assertEquals(m, ctx.selectedFrame());
        menuItem(robot, "edit-previous-time-ref");
        assertEquals(n, ctx.selectedFrame());
        // Ctrl+T again unsets the one selected; Unset All the rest: every time as before.
        keys(robot, KeyCode.CONTROL, KeyCode.T);
        assertEquals(TimeFormat.seconds(ix.timeNanos(n) - ix.timeNanos(1)), cell(robot, n, "Time"));
        menuItem(robot, "edit-unset-time-refs");
        for (int f = 1; f <= frames; f++) assertEquals(before[f], cell(robot, f, "Time"), "#" + f);
    }
}
