package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** Opening damaged and wrong files, exporting packets, recent files, and moving around the capture. */
class FileHandlingTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void aCutCaptureOpensWithEveryReadableFrameAndABannerNamingTheOffset(FxRobot robot) throws Exception {
        byte[] whole = Files.readAllBytes(Samples.capture("rocev2-clean"));
        Path cut = config.resolve("cut.pcapng");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 50));
        int readable;
        try (PacketSource src = CaptureFiles.open(cut)) {
            int n = 0;
            while (src.next()) n++;
            readable = n;
        }
        robot.interact(() -> window.open(cut));
        Fx.until("cut capture loaded", () -> ctx.capture() != null && !ctx.busyProperty().get());
        assertEquals(readable, ctx.capture().frames());
        assertEquals(readable, table(robot).getItems().size());
        String banner = robot.lookup("#banner").queryLabeled().getText();
        assertTrue(robot.lookup("#banner").query().isVisible());
        long offset = ctx.capture().problems().getFirst().offset();
        assertTrue(banner.startsWith("The capture is damaged at byte offset " + offset + ": "), banner);
        assertTrue(banner.endsWith("(the " + readable + " frames before it are shown)"), banner);
        assertEquals(List.of(), errors);
    }

    /**
     * View > Reload on a capture still being written: a file cut mid-frame, opened, filtered, a frame selected; the
     * rest appended; Reload shows every frame, the filter and the selection kept, the banner gone.
     */
    @Test
    void reloadShowsTheFramesTheFileGainedKeepingFilterAndSelection(FxRobot robot) throws Exception {
        byte[] whole = Files.readAllBytes(Samples.capture("rocev2-clean"));
        Path growing = config.resolve("growing.pcapng");
        int cut = whole.length / 2;
        Files.write(growing, java.util.Arrays.copyOf(whole, cut));
        robot.interact(() -> window.open(growing));
        Fx.until("half loaded", () -> ctx.capture() != null && !ctx.busyProperty().get());
        int half = ctx.capture().frames();
        assertTrue(half > 3 && half < Samples.frames("rocev2-clean"), half + " frames");
        robot.interact(() -> window.filterBar().prepare("frame.number != 2"));
        robot.interact(() -> window.filterBar().apply());
        Fx.until("filtered", () -> !ctx.busyProperty().get() && ctx.view().size() == half - 1);
        robot.interact(() -> ctx.select(3));
        Files.write(growing, java.util.Arrays.copyOfRange(whole, cut, whole.length), java.nio.file.StandardOpenOption.APPEND);
        menuItem(robot, "view-reload");
        int all = Samples.frames("rocev2-clean");
        Fx.until("reloaded", () -> ctx.capture() != null && ctx.capture().frames() == all && !ctx.busyProperty().get()
                && ctx.view().size() == all - 1 && ctx.selectedFrame() == 3);
        assertEquals("frame.number != 2", ctx.appliedFilterProperty().get());
        assertEquals("frame.number != 2", window.filterBar().editor().getText());
        assertNull(ctx.bannerProperty().get(), "the whole file reads cleanly now");
        assertEquals(3, table(robot).getSelectionModel().getSelectedItem());
        assertEquals(List.of(), errors);
    }

    @Test
    void aFileThatIsNotACaptureGivesAMessageAndNoCrash(FxRobot robot) throws Exception {
        Path text = config.resolve("notes.txt");
        Files.writeString(text, "this is not a capture file\n");
        robot.interact(() -> window.open(text));
        Fx.until("error reported", () -> !errors.isEmpty());
        assertTrue(errors.getFirst().startsWith("Cannot open " + text + ":"), errors.getFirst());
        assertNull(ctx.capture());
        assertEquals(0, table(robot).getItems().size());
        // The window still works: a good file opens after it.
        open(robot, "rocev2-clean");
        assertTrue(ctx.capture().frames() > 0);
    }

    @Test
    void exportWritesAllDisplayedSelectedOrOneFlowToPcapng(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        robot.interact(() -> ctx.applyFilter("analysis.retransmission"));
        Fx.until("filtered", () -> !ctx.view().isAll() && !ctx.busyProperty().get());
        robot.interact(() -> ctx.select(ctx.view().frameAt(0)));
        for (PacketExport.Range r : PacketExport.Range.values()) {
            Path out = config.resolve(r + ".pcapng");
            int[] frames = PacketExport.frames(ctx, r);
            robot.interact(() -> ExportDialog.export(ctx, r, out));
            Fx.until("export " + r, () -> ctx.statusProperty().get().startsWith("Exported " + frames.length + " packets to " + out));
            try (PacketSource src = CaptureFiles.open(out)) {
                int n = 0;
                while (src.next()) {
                    int f = frames[n++];
                    assertArrayEquals(ctx.capture().index().bytes(f), src.data().toArray(ValueLayout.JAVA_BYTE), r + " #" + f);
                    assertEquals(ctx.capture().index().timeNanos(f), src.timestampNanos());
                }
                assertEquals(frames.length, n, r.toString());
            }
        }
        assertEquals(192, PacketExport.frames(ctx, PacketExport.Range.ALL).length);
        assertEquals(64, PacketExport.frames(ctx, PacketExport.Range.DISPLAYED).length);
        assertEquals(1, PacketExport.frames(ctx, PacketExport.Range.SELECTED).length);
        int[] flow = PacketExport.frames(ctx, PacketExport.Range.FLOW);
        String id = PacketExport.flowId(ctx.capture(), ctx.analysis(), ctx.selectedFrame());
        int truth = 0;
        for (var f : Samples.truth("rocev2-gbn-loss").get("frames")) if (f.get("flow").asText().equals(id)) truth++;
        assertEquals(truth, flow.length, "the frames of flow " + id);
        assertEquals(List.of(), errors);
    }

    @Test
    void recentFilesAreRememberedNewestFirst(FxRobot robot) {
        open(robot, "rocev2-clean");
        open(robot, "rocev2-gbn-loss");
        List<Path> recent = new RecentFiles(config.resolve("recent")).list();
        assertEquals(List.of(Samples.capture("rocev2-gbn-loss").toAbsolutePath().normalize(),
                Samples.capture("rocev2-clean").toAbsolutePath().normalize()), recent);
    }

    @Test
    void goToPacketWithCtrlGAndNextPreviousRetransmission(FxRobot robot) {
        String name = "rocev2-gbn-loss";
        open(robot, name);
        robot.clickOn(table(robot));
        robot.press(KeyCode.CONTROL).press(KeyCode.G).release(KeyCode.G).release(KeyCode.CONTROL);
        Fx.until("go-to dialog", () -> robot.lookup("#goto-field").tryQuery().isPresent());
        robot.clickOn("#goto-field").write("77").type(KeyCode.ENTER);
        Fx.until("frame 77", () -> ctx.selectedFrame() == 77);
        assertEquals(77, table(robot).getSelectionModel().getSelectedItem());

        List<Integer> retx = Samples.labelled(name, "retransmission");
        robot.interact(() -> ctx.select(1));
        int first = next(robot, Navigation.Kind.RETRANSMISSION, true);
        assertEquals(retx.getFirst(), first);
        assertEquals(retx.get(1), next(robot, Navigation.Kind.RETRANSMISSION, true));
        robot.interact(() -> ctx.select(retx.getFirst()));
        assertEquals(retx.getLast(), next(robot, Navigation.Kind.RETRANSMISSION, false), "previous wraps to the last");
        robot.interact(() -> ctx.select(1));
        int expert = next(robot, Navigation.Kind.EXPERT, true);
        assertTrue(expert > 1 && !ctx.analysis().events().at(expert).isEmpty(), "next expert item: " + expert);
    }

    private int next(FxRobot robot, Navigation.Kind kind, boolean forward) {
        java.util.concurrent.CompletableFuture<?>[] f = new java.util.concurrent.CompletableFuture<?>[1];
        robot.interact(() -> f[0] = Navigation.next(ctx, kind, forward));
        Fx.until("search", () -> f[0].isDone());
        return ctx.selectedFrame();
    }
}
