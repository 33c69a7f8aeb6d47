package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.samples.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.control.ScrollBar;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * A capture longer than the packet list's row window: the table holds a window, an outer scroll bar moves it, and
 * selecting or going to a frame far away moves the window so that the frame is shown and selected.
 */
class LongCaptureTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void theTableShowsAMovingWindowOfALongCapture(FxRobot robot) throws Exception {
        int frames = RowWindow.MAX + 20_000;
        Path pcap = config.resolve("long.pcap");
        Simulator.run("rocev2-clean", Simulator.params("rocev2-clean").set("frames", Integer.toString(frames)), pcap,
                Files.createTempFile("long", ".json"));
        Fx.openAndAnalyze(robot, window, ctx, pcap);
        int n = ctx.capture().frames();
        assertTrue(n >= frames, "frames " + n);
        assertEquals(RowWindow.MAX, table(robot).getItems().size());
        ScrollBar outer = (ScrollBar) window.packets().getRight();
        assertTrue(outer.isVisible());
        assertEquals(n - 1, (int) outer.getMax());

        int far = n - 10;
        robot.interact(() -> assertEquals(null, Navigation.goTo(ctx, Integer.toString(far))));
        assertEquals(far, table(robot).getSelectionModel().getSelectedItem());
        assertTrue(table(robot).getItems().contains(far));
        assertEquals("" + far, cell(robot, far, "No."));
        // The outer bar moves the window back to the start.
        robot.interact(() -> outer.setValue(0));
        assertEquals(1, table(robot).getItems().getFirst());
        robot.interact(() -> ctx.select(2));
        assertEquals(2, table(robot).getSelectionModel().getSelectedItem());
        Files.deleteIfExists(pcap);
    }
}
