package io.metaroce.gui.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.AnalyzeOutput;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.RdmaMessage;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.GuiWindows;
import io.metaroce.gui.testutil.GuiHarness;
import io.metaroce.gui.testutil.Sample;
import io.metaroce.gui.testutil.WindowTestBase;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** Statistics > RDMA Messages, headless (Monocle): the CLI's messages, narrowed by flow, linked to the packet list. */
class MessagesWindowTest extends WindowTestBase {

    @Start
    void start(Stage stage) { setUp(stage); }

    /**
     * rocev2-read-atomic (WRITE, SEND, READ with a resent READ, atomics): the rows are analyze --messages jsonl's
     * lines, one by one and in its order; as many as analyze's Msgs column counts; the flow chooser keeps one flow's.
     */
    @Test
    void rowsAreAnalyzeMessagesAndTheChooserNarrows(FxRobot robot) throws Exception {
        String sample = "rocev2-read-atomic";
        GuiHarness.open(robot, ctx, sample);
        robot.interact(() -> new MessagesWindow().open(ctx));
        TableView<RdmaMessage> table = robot.lookup("#messages-table").queryAs(TableView.class);
        GuiHarness.until("message rows", () -> !table.getItems().isEmpty());
        StringBuilder cli = new StringBuilder();
        AnalyzeOutput.messages(Sample.path(sample), AnalysisSettings.DEFAULT, true, cli, null, -1, null);
        List<String> rows = new ArrayList<>();
        for (RdmaMessage m : table.getItems()) rows.add(m.toJson());
        assertEquals(List.of(cli.toString().split("\n")), rows);
        // Copy writes the cells as shown: the time with analyze's 6 decimals, a message without completion "-".
        TableCopy.Grid grid = TableCopy.grid(table);
        assertEquals(table.getItems().size(), grid.rows().size());
        int time = grid.header().indexOf("Time (s)"), completion = grid.header().indexOf("Completion (us)");
        RdmaMessage first = table.getItems().getFirst();
        assertEquals(String.format(java.util.Locale.ROOT, "%.6f", first.startNs() / 1e9), grid.rows().getFirst().get(time));
        assertEquals(first.completionNs() < 0 ? "-" : String.format(java.util.Locale.ROOT, "%.3f", first.completionNs() / 1e3),
                grid.rows().getFirst().get(completion));
        long counted = 0;
        String busiest = null;
        long most = -1;
        for (FlowSummary f : ctx.analysis().flows()) {
            counted += f.counters().messages();
            if (f.counters().messages() > most) {
                most = f.counters().messages();
                busiest = f.id();
            }
        }
        assertEquals(counted, table.getItems().size(), "analyze's Msgs column");
        assertTrue(table.getItems().stream().anyMatch(m -> m.kind().equals("READ") && m.retransmitted() > 0),
                "the resent READ counts into its message");
        ComboBox<String> flows = robot.lookup("#messages-flow").queryAs(ComboBox.class);
        String chosen = busiest;
        robot.interact(() -> flows.setValue(chosen));
        assertEquals(most, table.getItems().size());
        assertTrue(table.getItems().stream().allMatch(m -> m.flow().equals(chosen)));
        Label status = robot.lookup("#messages-status").queryAs(Label.class);
        assertTrue(status.getText().startsWith(most + " "), status.getText());
    }

    /** A double-click, and Enter, select the message's first packet in the packet list. */
    @Test
    void doubleClickAndEnterSelectTheFirstPacket(FxRobot robot) {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        robot.interact(() -> new MessagesWindow().open(ctx));
        TableView<RdmaMessage> table = robot.lookup("#messages-table").queryAs(TableView.class);
        GuiHarness.until("message rows", () -> table.getItems().size() > 3);
        RdmaMessage third = table.getItems().get(2);
        TableRow<?> row = robot.from(table).lookup(".table-row-cell").match((TableRow<?> x) -> x.getIndex() == 2).query();
        robot.doubleClickOn(row);
        GuiHarness.until("selection", () -> ctx.selectedFrame() == third.frame());
        RdmaMessage second = table.getItems().get(1);
        robot.interact(() -> {
            table.getSelectionModel().select(1);
            table.requestFocus();
        });
        robot.type(KeyCode.ENTER);
        GuiHarness.until("selection by Enter", () -> ctx.selectedFrame() == second.frame());
        assertTrue(second.frame() != third.frame());
    }

    /** The window is one item of the Statistics menu; the cap is said when it bites. */
    @Test
    void menuItemAndCap() {
        GuiWindow w = GuiWindows.ALL.stream().filter(x -> x instanceof MessagesWindow).findFirst().orElseThrow();
        assertEquals("RDMA Messages...", w.title());
        assertEquals(GuiWindow.Place.STATISTICS, w.place());
        assertEquals("3 messages", MessagesWindow.summary(3, 3, 3));
        assertEquals("2 of 3 messages (the first 3 of 10 kept)", MessagesWindow.summary(2, 3, 10));
    }
}
