package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A main window on a fresh stage per test (headless Monocle), with its own config directory and collected errors.
 */
@ExtendWith(ApplicationExtension.class)
public abstract class GuiTestBase {
    GuiContext ctx;
    MainWindow window;
    Stage stage;
    Path config;
    final List<String> errors = new ArrayList<>();

    /** Called from each test class's {@code @Start} (TestFX looks for it on the test class itself). */
    void setUp(Stage stage) throws Exception {
        this.stage = stage;
        CSS_LOG.addHandler(cssWarnings);
        config = Files.createTempDirectory("gui-config");
        ctx = new GuiContext(stage);
        ctx.setErrorSink(errors::add);
        window = new MainWindow(ctx, config.resolve("colorfilters"), config.resolve("recent"));
        window.show();
    }

    /**
     * Closes this test's capture, so that no work of it (analysis, filter, warm-up) reaches its window after the
     * test: TestFX keeps one primary stage, the next test puts its own window's scene on it, and a table of the old,
     * detached scene laid out then has no stylesheet to resolve its cells' looked-up colours against (the ~40
     * "ClassCastException ... while converting value for '-fx-border-color' from rule '*.table-cell'" warnings).
     */
    @AfterEach
    void closeCapture(FxRobot robot) throws java.io.IOException {
        if (ctx != null) robot.interact(ctx::close);
        if (config != null) {        // this test's config directory: left behind, a full run left ~300 in /tmp
            try (var paths = Files.walk(config)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
        CSS_LOG.removeHandler(cssWarnings);
        assertEquals(List.of(), cssWarnings.seen, "JavaFX CSS warnings during the test");
    }

    /** JavaFX's CSS logger (held: a logger only weakly referenced loses its handlers). */
    private static final java.util.logging.Logger CSS_LOG = java.util.logging.Logger.getLogger("javafx.css");
    private final CssWarnings cssWarnings = new CssWarnings();

    /** Collects what JavaFX logs about CSS it could not apply (a test fails on any). */
    private static final class CssWarnings extends java.util.logging.Handler {
        final List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());

        @Override
        public void publish(java.util.logging.LogRecord r) {
            if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) seen.add(String.valueOf(r.getMessage()));
        }

        @Override
        public void flush() { }

        @Override
        public void close() { }
    }

    void open(FxRobot robot, String sample) { Fx.openAndAnalyze(robot, window, ctx, Samples.capture(sample)); }

    @SuppressWarnings("unchecked")
    TableView<Integer> table(FxRobot robot) { return (TableView<Integer>) robot.lookup("#packet-list").queryAs(TableView.class); }

    /** True when the packet list shows its last row (a live list that follows its new rows). */
    boolean lastRowShown(FxRobot robot) {
        boolean[] out = {false};
        robot.interact(() -> {
            var flow = (javafx.scene.control.skin.VirtualFlow<?>) table(robot).lookup(".virtual-flow");
            out[0] = flow.getLastVisibleCell() != null && flow.getLastVisibleCell().getIndex() == table(robot).getItems().size() - 1;
        });
        return out[0];
    }

    /** The rendered row showing frame (scrolled into view first). */
    TableRow<?> row(FxRobot robot, int frame) {
        TableView<Integer> t = table(robot);
        int r = t.getItems().indexOf(frame);
        robot.interact(() -> t.scrollTo(Math.max(0, r - 2)));
        return robot.lookup(".table-row-cell").match((TableRow<?> x) -> x.getItem() != null && x.getItem().equals(frame)).query();
    }

    /** Fires the menu item with this id (menus are popups: their items are not in the scene graph). */
    void menuItem(FxRobot robot, String id) {
        javafx.scene.control.MenuItem item = findItem(robot, id);
        robot.interact(item::fire);
    }

    /** Ticks or clears the check menu item with this id, as a click on it does. */
    void checkItem(FxRobot robot, String id, boolean on) {
        javafx.scene.control.CheckMenuItem item = (javafx.scene.control.CheckMenuItem) findItem(robot, id);
        robot.interact(() -> item.setSelected(on));
    }

    javafx.scene.control.MenuItem findItem(FxRobot robot, String id) {
        javafx.scene.control.MenuBar bar = robot.lookup(".menu-bar").query();
        javafx.scene.control.MenuItem[] found = new javafx.scene.control.MenuItem[1];
        for (javafx.scene.control.Menu m : bar.getMenus()) find(m, id, found);
        if (found[0] == null) throw new AssertionError("no menu item " + id);
        return found[0];
    }

    private static void find(javafx.scene.control.Menu m, String id, javafx.scene.control.MenuItem[] found) {
        for (javafx.scene.control.MenuItem i : m.getItems()) {
            if (id.equals(i.getId())) found[0] = i;
            if (i instanceof javafx.scene.control.Menu sub) find(sub, id, found);
        }
    }

    /**
     * The text the packet list shows in this frame's cell, read on the FX thread (after every event queued before
     * it). Not {@code robot.interact}: that also waits for the FX events after the call, five rounds each with a
     * 10 ms sleep (TestFX's waitForFxEvents), at least 50 ms per cell read; a read changes nothing to wait for, and
     * the tests read a column of every frame (CaptureToolbarTest about 1,700 cells: 97 s of the CI run of
     * 2026-12-03, PacketListTest 55 s). Tests that need the window settled wait with {@link Fx#until} first.
     */
    String cell(FxRobot robot, int frame, String column) {
        return WaitForAsyncUtils.waitFor(WaitForAsyncUtils.asyncFx(() -> window.packets().cellText(frame, column)));
    }

    /** The clipboard's text after the FX events queued so far (Edit > Copy), checked against what the action copied. */
    String copied(FxRobot robot) {
        String[] out = new String[1];
        robot.interact(() -> out[0] = javafx.scene.input.Clipboard.getSystemClipboard().getString());
        assertEquals(window.edit().lastCopied(), out[0], "the clipboard holds what was copied");
        return out[0];
    }
}
