package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.samples.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * A big capture shows its first frames before the whole index is built, then every frame; a frame selected and a
 * filter applied while only the first frames were shown stay, the filter now over every frame.
 */
class FirstScreenTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void theFirstFramesShowFirstAndTheSelectionAndFilterSurviveTheWholeIndex(FxRobot robot) throws Exception {
        Path pcap = config.resolve("big.pcap");
        Simulator.run("rocev2-clean", Simulator.params("rocev2-clean").set("frames", "100000"), pcap,
                config.resolve("big.json"));
        assertTrue(Files.size(pcap) > GuiContext.FIRST_SCREEN_BYTES, "the capture is big enough: " + Files.size(pcap));
        List<Integer> captures = new CopyOnWriteArrayList<>();
        String filter = "frame.number <= 70000";
        robot.interact(() -> {
            ctx.captureProperty().addListener((o, a, c) -> {
                if (c != null) captures.add(c.frames());
            });
            ctx.viewProperty().addListener((o, a, v) -> {
                if (captures.size() == 1 && v.size() == GuiContext.FIRST_SCREEN_FRAMES && ctx.selectedFrame() == 0) {
                    assertTrue(ctx.select(100));
                    assertEquals(null, ctx.applyFilter(filter));
                }
            });
        });
        Fx.openAndAnalyze(robot, window, ctx, pcap);
        Fx.until("the filter over every frame", () -> !ctx.busyProperty().get() && ctx.view().size() == 70_000);
        int n = ctx.capture().frames();
        assertTrue(n >= 100_000, "frames " + n);
        assertEquals(List.of(GuiContext.FIRST_SCREEN_FRAMES, n), captures, "first frames, then every frame");
        assertEquals(filter, ctx.appliedFilterProperty().get());
        assertEquals(100, ctx.selectedFrame());
        assertEquals(100, table(robot).getSelectionModel().getSelectedItem());
        assertEquals(List.of(), errors);
        Files.deleteIfExists(pcap);
    }
}
