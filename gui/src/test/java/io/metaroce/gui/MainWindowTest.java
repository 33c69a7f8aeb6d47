package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCombination;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The main window opens a bundled sample headless (Monocle) and shows every frame with its analysis. */
@ExtendWith(ApplicationExtension.class)
class MainWindowTest {
    private GuiContext ctx;
    private MainWindow window;
    private Stage stage;
    private final List<String> errors = new ArrayList<>();
    /** The window's config files (colouring rules, recent files), deleted by JUnit after the test. */
    @TempDir
    Path config;

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        ctx = new GuiContext(stage);
        ctx.setErrorSink(errors::add);
        window = new MainWindow(ctx, config.resolve("colorfilters"), config.resolve("recent"));
        window.show();
    }

    @Test
    void opensASampleAndShowsItsPacketsAndMenus(FxRobot robot) {
        String name = "rocev2-gbn-loss";
        Fx.openAndAnalyze(robot, window, ctx, Samples.capture(name));
        assertTrue(stage.isShowing());
        assertEquals("rocev2-gbn-loss.pcapng - MetaRoCE Analyzer", stage.getTitle());
        TableView<?> table = robot.lookup("#packet-list").queryTableView();
        assertEquals(Samples.frames(name), table.getItems().size());
        assertEquals(1, table.getItems().getFirst());
        assertTrue(robot.lookup(".table-row-cell").tryQuery().isPresent(), "rows are rendered");
        MenuBar bar = robot.lookup(".menu-bar").query();
        List<String> menus = bar.getMenus().stream().map(Menu::getText).toList();
        assertEquals(List.of("File", "Edit", "View", "Go", "Analyze", "Statistics", "Graphs"), menus);
        MenuItem decodeAs = bar.getMenus().get(4).getItems().stream().filter(i -> "menu-decode-as".equals(i.getId())).findFirst().orElseThrow();
        assertEquals("Decode As...", decodeAs.getText());
        assertEquals(KeyCombination.keyCombination("Shift+Shortcut+U"), decodeAs.getAccelerator(), "Wireshark's shortcut");
        MenuItem applyColumn = bar.getMenus().get(4).getItems().stream().filter(i -> "menu-apply-column".equals(i.getId())).findFirst().orElseThrow();
        assertEquals(KeyCombination.keyCombination("Shift+Shortcut+I"), applyColumn.getAccelerator(), "Wireshark's shortcut");
        assertTrue(robot.lookup("#status").queryLabeled().getText().startsWith(Samples.frames(name) + " frames, "),
                robot.lookup("#status").queryLabeled().getText());
        assertNull(ctx.bannerProperty().get());
        assertEquals(List.of(), errors);
    }

    /**
     * Statistics > Diagnosis and Graphs > Loss Timeline open the Diagnosis window from the menus; its Started column
     * follows View > Time Display Format.
     */
    @Test
    void diagnosisMenusOpenTheWindowInThePacketListsTimeFormat(FxRobot robot) {
        Fx.openAndAnalyze(robot, window, ctx, Samples.capture("rocev2-retry-exhausted"));
        javafx.scene.control.MenuItem diag = window.statisticsMenu().getItems().stream()
                .filter(m -> "Diagnosis".equals(m.getText())).findFirst().orElseThrow();
        robot.interact(diag::fire);
        TableView<io.metaroce.analysis.diagnosis.Finding> findings = robot.lookup("#diagnosis-findings").queryTableView();
        io.metaroce.gui.testutil.GuiHarness.until("findings", () -> !findings.getItems().isEmpty());
        long started = findings.getItems().getFirst().startedNs();
        long first = ctx.capture().index().timeNanos(1);
        assertEquals(TimeFormat.RELATIVE.format(started, first, first), findings.getColumns().get(4).getCellData(0));
        robot.interact(() -> window.packets().timeFormatProperty().set(TimeFormat.ABSOLUTE));
        assertEquals(TimeFormat.ABSOLUTE.format(started, first, first), findings.getColumns().get(4).getCellData(0));
        io.metaroce.gui.testutil.GuiHarness.closeWindows(robot);
        javafx.scene.control.MenuItem tl = window.graphsMenu().getItems().stream()
                .filter(m -> "Loss Timeline".equals(m.getText())).findFirst().orElseThrow();
        robot.interact(tl::fire);
        javafx.scene.control.TabPane tabs = robot.lookup("#diagnosis-tabs").query();
        assertEquals("Loss timeline", tabs.getSelectionModel().getSelectedItem().getText());
        assertEquals(List.of(), errors);
    }

    /** Graphs > Congestion Loop opens the graph on the flow with the most CNPs of analyze's congestion loop. */
    @Test
    void congestionLoopMenuOpensTheGraph(FxRobot robot) {
        Fx.openAndAnalyze(robot, window, ctx, Samples.capture("rocev2-ecn-cnp"));
        javafx.scene.control.MenuItem item = window.graphsMenu().getItems().stream()
                .filter(m -> "Congestion Loop".equals(m.getText())).findFirst().orElseThrow();
        robot.interact(item::fire);
        io.metaroce.gui.graph.CongestionGraph graph = robot.lookup("#cc-graph").query();
        io.metaroce.gui.testutil.GuiHarness.until("congestion graph", () -> graph.series() != null);
        long most = 0;
        for (var m : io.metaroce.gui.graph.CongestionSeries.rows(ctx.analysis().result().congestionLoop())) {
            most = Math.max(most, ((Number) m.get("cnps")).longValue());
        }
        assertEquals(most, graph.series().cnp().size());
        assertEquals(List.of(), errors);
    }
}
