package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        assertEquals(List.of("File", "Edit", "View", "Go", "Capture", "Analyze", "Statistics", "Graphs", "Help"), menus);
        MenuItem decodeAs = bar.getMenus().get(5).getItems().stream().filter(i -> "menu-decode-as".equals(i.getId())).findFirst().orElseThrow();
        assertEquals("Decode As...", decodeAs.getText());
        assertEquals(KeyCombination.keyCombination("Shift+Shortcut+U"), decodeAs.getAccelerator(), "Wireshark's shortcut");
        MenuItem applyColumn = bar.getMenus().get(5).getItems().stream().filter(i -> "menu-apply-column".equals(i.getId())).findFirst().orElseThrow();
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

    /**
     * Help > About: the version line is the launcher's {@code metaroce --version} (the packaged CLI jar run, as the
     * launcher runs it), the licence Apache-2.0, every artifact of docs/licenses.md in the Licences tab, the config
     * files in Folders; Keyboard Shortcuts lists the menu bar's accelerators, Go to Packet's Ctrl+G among them.
     */
    @Test
    void aboutShowsTheLaunchersVersionTheLicencesAndTheShortcuts(FxRobot robot) throws Exception {
        Path root = Samples.dir().getParent().getParent();
        Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-jar",
                root.resolve("cli/target/metaroce.jar").toString(), "--version").redirectErrorStream(true).start();
        String version = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), version);
        MenuBar bar = robot.lookup(".menu-bar").query();
        Menu help = bar.getMenus().getLast();
        robot.interact(() -> help.getItems().getLast().fire());
        String about = robot.lookup("#about-text").queryLabeled().getText();
        assertEquals(version, about.lines().findFirst().orElseThrow(), "metaroce --version's line");
        assertTrue(about.contains("Licence: Apache-2.0"), about);
        assertTrue(about.contains("Java " + System.getProperty("java.version")), about);
        TableView<List<String>> licences = robot.lookup("#about-licences").queryTableView();
        String listed = licences.getItems().toString();
        String md = java.nio.file.Files.readString(root.resolve("docs/licenses.md"));
        java.util.regex.Matcher artifact = java.util.regex.Pattern.compile("`([a-z0-9.-]+:[a-z0-9._-]+)`").matcher(md);
        int artifacts = 0;
        for (; artifact.find(); artifacts++) assertTrue(listed.contains(artifact.group(1)), artifact.group(1) + " not in " + listed);
        assertTrue(artifacts > 20, artifacts + " artifacts in docs/licenses.md");
        assertEquals(md.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| component")).count(), licences.getItems().size());
        TableView<List<String>> folders = robot.lookup("#about-folders").queryTableView();
        assertTrue(folders.getItems().contains(List.of("Coloring rules", config.resolve("colorfilters").toAbsolutePath().toString())),
                folders.getItems().toString());
        io.metaroce.gui.testutil.GuiHarness.closeWindows(robot);
        // After a switch of configuration profile, the Folders tab names the new profile's files, and the zoom level
        // and name resolution are the profile's own (Wireshark keeps them per profile).
        robot.interact(() -> {
            window.viewMenu().zoom(2);
            window.nameResolution().network.set(true);
            assertEquals(null, window.profiles().create("lab"));
            assertEquals(null, window.useProfile("lab"));
            assertEquals(0, window.viewMenu().zoomLevel(), "lab has no zoom of its own yet");
            assertFalse(window.nameResolution().network.get(), "Wireshark's defaults in a new profile");
            window.viewMenu().zoom(-1);
            help.getItems().getLast().fire();
        });
        folders = robot.lookup("#about-folders").queryTableView();
        assertTrue(folders.getItems().contains(List.of("Coloring rules", config.resolve("profiles/lab/colorfilters").toAbsolutePath().toString())),
                folders.getItems().toString());
        io.metaroce.gui.testutil.GuiHarness.closeWindows(robot);
        robot.interact(() -> {
            assertEquals(null, window.useProfile("Default"));
            assertEquals(2, window.viewMenu().zoomLevel());
            assertTrue(window.nameResolution().network.get());
            assertEquals(null, window.useProfile("lab"));
            assertEquals(-1, window.viewMenu().zoomLevel());
        });

        robot.interact(() -> help.getItems().getFirst().fire());
        javafx.scene.control.TabPane tabs = robot.lookup("#about").query();
        assertEquals("Keyboard Shortcuts", tabs.getSelectionModel().getSelectedItem().getText());
        TableView<List<String>> keys = robot.lookup("#about-shortcuts").queryTableView();
        assertTrue(keys.getItems().contains(List.of(KeyCombination.keyCombination("Shortcut+G").getDisplayText(), "Go > Go to Packet...")),
                keys.getItems().toString());
        assertTrue(keys.getItems().contains(List.of(KeyCombination.keyCombination("Shortcut+R").getDisplayText(), "View > Reload")),
                keys.getItems().toString());
        int accelerators = 0;
        for (Menu m : bar.getMenus()) accelerators += accelerators(m);
        assertEquals(accelerators, keys.getItems().size(), "every accelerator of the menu bar");
        // No key of the Go menu does anything else (it gave Ctrl+. to the conversation, retransmissions Ctrl+Alt+.);
        // Capture's Start and Stop share Ctrl+E as in Wireshark (one of them is enabled at a time).
        for (List<String> k : keys.getItems()) {
            if (!k.get(1).startsWith("Go > ")) continue;
            List<String> same = keys.getItems().stream().filter(o -> o.get(0).equals(k.get(0))).map(o -> o.get(1)).toList();
            assertEquals(List.of(k.get(1)), same, k.get(0));
        }
        assertTrue(keys.getItems().contains(List.of(KeyCombination.keyCombination("Shortcut+Period").getDisplayText(), "Go > Next Packet in Conversation")),
                keys.getItems().toString());
        io.metaroce.gui.testutil.GuiHarness.closeWindows(robot);
    }

    private static int accelerators(Menu m) {
        int n = 0;
        for (MenuItem i : m.getItems()) n += i instanceof Menu sub ? accelerators(sub) : i.getAccelerator() != null ? 1 : 0;
        return n;
    }
}
