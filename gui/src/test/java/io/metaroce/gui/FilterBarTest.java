package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javafx.scene.control.MenuItem;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** The display filter bar: typed filters turn green or red, Enter filters off the UI thread, history, completion. */
class FilterBarTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    private void type(FxRobot robot, String text) {
        robot.interact(() -> window.filterBar().editor().setText(""));
        robot.clickOn(window.filterBar().editor()).write(text);
    }

    @Test
    void typingShowsValidityAndTheErrorColumnAndEnterFiltersToTheTruth(FxRobot robot) {
        String name = "rocev2-gbn-loss";
        open(robot, name);
        FilterBar bar = window.filterBar();
        type(robot, "bth.psn ==");
        assertTrue(bar.getStyleClass().contains(FilterBar.INVALID));
        assertTrue(bar.errorText().startsWith("column 11: "), bar.errorText());
        robot.type(KeyCode.ENTER);
        assertEquals(192, ctx.view().size(), "a red filter changes nothing");

        type(robot, "analysis.retransmission");
        assertTrue(bar.getStyleClass().contains(FilterBar.VALID));
        assertEquals("", bar.errorText());
        robot.type(KeyCode.ENTER);
        Fx.until("filter applied", () -> ctx.appliedFilterProperty().get().equals("analysis.retransmission") && !ctx.busyProperty().get());
        Set<Integer> shown = new HashSet<>();
        for (int r = 0; r < ctx.view().size(); r++) shown.add(ctx.view().frameAt(r));
        assertEquals(new HashSet<>(Samples.labelled(name, "retransmission")), shown);
        assertEquals(shown.size(), table(robot).getItems().size());
        assertEquals(List.of("analysis.retransmission"), bar.history());

        type(robot, "bth.opcode == rc_acknowledge");
        assertEquals("bth.opcode == rc_acknowledge", bar.editor().getText());
        robot.type(KeyCode.ENTER);
        Fx.until("second filter (applied: " + ctx.appliedFilterProperty().get() + ", status " + ctx.statusProperty().get() + ", errors " + errors + ")", () -> ctx.appliedFilterProperty().get().startsWith("bth.opcode") && !ctx.busyProperty().get());
        assertEquals(List.of("bth.opcode == rc_acknowledge", "analysis.retransmission"), bar.history());
        for (int r = 0; r < ctx.view().size(); r++) assertTrue(cell(robot, ctx.view().frameAt(r), "Info").startsWith("RC Acknowledge"));

        robot.clickOn("#filter-clear");
        Fx.until("cleared", () -> ctx.view().isAll());
        assertEquals(192, table(robot).getItems().size());
    }

    @Test
    void namesAndWiresharkAliasesAreCompleted(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        type(robot, "bth.ps");
        Fx.until("completions", () -> window.filterBar().completions().isShowing());
        List<String> offered = window.filterBar().completions().getItems().stream().map(MenuItem::getText).toList();
        assertTrue(offered.contains("bth.psn"), offered.toString());
        MenuItem psn = window.filterBar().completions().getItems().stream().filter(i -> i.getText().equals("bth.psn")).findFirst().orElseThrow();
        robot.interact(psn::fire);
        assertEquals("bth.psn", window.filterBar().editor().getText());
        assertTrue(FilterBar.candidates("infiniband.bth.ps").contains("infiniband.bth.psn"));
        assertTrue(FilterBar.candidates("analysis.spu").contains("analysis.spurious"));
        assertTrue(FilterBar.candidates("expert.r").contains("expert.rule"));
    }

    @Test
    void aFilterNamingAnalysisFieldsWaitsForTheAnalysisAndCanBeCancelled(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        // Cancelling a running filter keeps the view it replaced.
        int[] calls = {0};
        int[] result = FrameFilter.run(ctx.capture().index(), ctx.analysis(), compile("frame"), f -> calls[0]++, () -> true);
        assertNull(result);
        assertNotNull(FrameFilter.run(ctx.capture().index(), ctx.analysis(), compile("frame"), f -> calls[0]++, () -> false));
        assertFalse(ctx.busyProperty().get());
    }

    private static io.metaroce.filter.DisplayFilter compile(String s) {
        try {
            return GuiContext.compile(s);
        } catch (io.metaroce.filter.FilterException e) {
            throw new AssertionError(e);
        }
    }
}
