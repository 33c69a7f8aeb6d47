package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * {@code metaroce gui -r FILE -Y FILTER}: the capture opens with the filter applied once its frames are in, the filter
 * bar showing it, as Wireshark's {@code -Y} does (MetaRoceApp hands the parsed command line to MainWindow#open).
 */
class CommandLineFilterTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    private Set<Integer> shown() {
        Set<Integer> shown = new HashSet<>();
        for (int r = 0; r < ctx.view().size(); r++) shown.add(ctx.view().frameAt(r));
        return shown;
    }

    @Test
    void aFilterOnAnalysisFieldsWaitsForTheAnalysisAndShowsOnlyItsFrames(FxRobot robot) throws Exception {
        String name = "rocev2-gbn-loss";
        GuiArgs args = GuiArgs.parse(new String[] {"-r", Samples.capture(name).toString(), "-Y", "analysis.retransmission"});
        robot.interact(() -> window.open(args.file(), args.filter()));
        assertEquals("analysis.retransmission", window.filterBar().editor().getText(), "the bar shows it from the start");
        Fx.until("filtered after the analysis", () -> ctx.analysis() != null && !ctx.busyProperty().get() && !ctx.view().isAll());
        Set<Integer> expected = new HashSet<>(Samples.labelled(name, "retransmission"));
        assertTrue(!expected.isEmpty() && expected.size() < Samples.frames(name), "the sample has some retransmissions");
        assertEquals(expected, shown());
        assertEquals(expected.size(), table(robot).getItems().size());
        assertEquals("analysis.retransmission", ctx.appliedFilterProperty().get());
        assertEquals("analysis.retransmission", window.filterBar().editor().getText());
        assertEquals(List.of(), errors);
    }

    @Test
    void aFilterOnHeaderFieldsAppliesOnceTheFramesAreIn(FxRobot robot) throws Exception {
        String name = "rocev2-gbn-loss";
        GuiArgs args = GuiArgs.parse(new String[] {Samples.capture(name).toString(), "-Y", "bth.opcode == rc_acknowledge"});
        robot.interact(() -> window.open(args.file(), args.filter()));
        Fx.until("filtered", () -> ctx.analysis() != null && !ctx.busyProperty().get() && !ctx.view().isAll());
        assertTrue(ctx.view().size() > 0 && ctx.view().size() < Samples.frames(name), "some frames, not all: " + ctx.view().size());
        for (int r = 0; r < ctx.view().size(); r++) assertTrue(cell(robot, ctx.view().frameAt(r), "Info").startsWith("RC Acknowledge"));
        assertEquals("bth.opcode == rc_acknowledge", window.filterBar().editor().getText());
        assertEquals(List.of(), errors);
        // A file opened afterwards from the menu starts unfiltered, as before.
        open(robot, "rocev2-clean");
        assertTrue(ctx.view().isAll());
        assertEquals("", window.filterBar().editor().getText());
    }
}
