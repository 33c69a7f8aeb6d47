package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.gui.search.FlowHit;
import io.metaroce.gui.search.FlowSearchWindow;
import io.metaroce.gui.search.SampleIndex;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.lucene.LuceneFlowIndex;
import io.metaroce.testsupport.Launcher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * Go > Flow Search on a real index built by {@code metaroce index} from sample captures (headless, Monocle): a typed
 * query shows the flows {@code metaroce search} prints for it, a syntax error turns the query red with its column, a
 * double-clicked hit opens its capture in the main window showing exactly that flow's packets, and a capture moved
 * away since indexing gets a message, not a crash.
 */
class FlowSearchTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @AfterEach
    void closeWindows(FxRobot robot) { io.metaroce.gui.testutil.GuiHarness.closeWindows(robot); }

    @SuppressWarnings("unchecked")
    private TableView<FlowHit> results(FxRobot robot) { return robot.lookup("#search-results").queryAs(TableView.class); }

    @SuppressWarnings("unchecked")
    private ComboBox<String> query(FxRobot robot) { return robot.lookup("#search-query").queryAs(ComboBox.class); }

    /** Opens the window from the menu and points it at the sample index. */
    private void openSearch(FxRobot robot) {
        menuItem(robot, "menu-flow-search");
        Fx.until("flow search window", () -> robot.lookup("#flow-search").tryQuery().isPresent());
        robot.interact(() -> robot.lookup("#search-index").queryAs(javafx.scene.control.TextField.class)
                .setText(SampleIndex.get().index.toString()));
    }

    private void search(FxRobot robot, String q) {
        robot.clickOn(query(robot).getEditor()).write(q);
        robot.clickOn("#search-run");
        Fx.until("search results", () -> !robot.lookup("#search-busy").query().isVisible()
                && status(robot).contains("match"));
    }

    private String status(FxRobot robot) { return robot.lookup("#search-status").queryAs(Label.class).getText(); }

    @Test
    void aTypedQueryShowsWhatSearchPrints(FxRobot robot) {
        SampleIndex idx = SampleIndex.get();
        openSearch(robot);
        search(robot, "naks:[1 TO *] OR ce_marks:>0");
        List<String> cli = idx.searchIds("naks:[1 TO *] OR ce_marks:>0", "-n", "1000");
        assertFalse(cli.isEmpty());
        assertEquals(cli, results(robot).getItems().stream().map(FlowHit::id).toList());
        assertTrue(query(robot).getStyleClass().contains("query-valid"));
        assertEquals(List.of("naks:[1 TO *] OR ce_marks:>0"), query(robot).getItems(), "the query is in the history");
        // The index directory is remembered in the user's GUI config for the next window.
        assertEquals(idx.index.toAbsolutePath().normalize().toString(),
                new io.metaroce.gui.search.LastIndex(config.resolve("flow-index")).load().toString());
    }

    @Test
    void aSyntaxErrorIsRedWithItsColumn(FxRobot robot) {
        openSearch(robot);
        robot.clickOn(query(robot).getEditor()).write("naks:[1 TO");
        Label err = robot.lookup("#search-error").queryAs(Label.class);
        assertTrue(query(robot).getStyleClass().contains("query-invalid"));
        assertTrue(err.getText().startsWith("column "), err.getText());
        robot.write(" *]");
        assertTrue(query(robot).getStyleClass().contains("query-valid"));
        assertEquals("", err.getText());
        robot.write(" AND nakz:1");
        assertTrue(query(robot).getStyleClass().contains("query-invalid"));
        assertTrue(err.getText().startsWith("column 19: unknown field 'nakz'"), err.getText());
    }

    @Test
    void doubleClickOpensTheCaptureWithExactlyThatFlowsPackets(FxRobot robot) throws Exception {
        SampleIndex idx = SampleIndex.get();
        openSearch(robot);
        search(robot, "naks:>0 AND capture:*rocev2-gbn-loss*");
        TableView<FlowHit> t = results(robot);
        assertFalse(t.getItems().isEmpty());
        FlowHit hit = t.getItems().getFirst();
        robot.interact(() -> t.scrollTo(0));
        TableRow<?> row = robot.from(t).lookup(".table-row-cell").match((TableRow<?> r) -> r.getItem() == hit).query();
        // The double-click is delivered as the event it ends in (click count 2): on a machine this loaded, the
        // robot's two clicks may land further apart than the platform's double-click time and count as two.
        robot.interact(() -> javafx.event.Event.fireEvent(row, new javafx.scene.input.MouseEvent(javafx.scene.input.MouseEvent.MOUSE_CLICKED,
                10, 5, 10, 5, javafx.scene.input.MouseButton.PRIMARY, 2, false, false, false, false, true, false, false, true, false, false, null)));
        String filter = "analysis.flow == \"" + hit.flow() + "\"";
        try {
            Fx.until("the flow's packets", () -> ctx.capture() != null && filter.equals(ctx.appliedFilterProperty().get())
                    && !ctx.busyProperty().get());
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": " + (ctx.capture() == null ? "nothing open" : ctx.capture().file())
                    + ", filter '" + ctx.appliedFilterProperty().get() + "', status '" + ctx.statusProperty().get() + "', search status '"
                    + status(robot) + "', errors " + errors, e);
        }
        assertEquals(idx.capture("rocev2-gbn-loss"), ctx.capture().file());
        // The frames shown are the flow's frames the index stored, one for one.
        long[] stored;
        try (LuceneFlowIndex index = LuceneFlowIndex.openForReading(idx.index)) {
            stored = index.parts(hit.rootId()).stream().map(FlowDocument::frames).flatMapToLong(LongStream::of).toArray();
        }
        assertEquals(hit.packets(), stored.length, "the index holds the flow's packets");
        long[] shown = new long[ctx.view().size()];
        for (int i = 0; i < shown.length; i++) shown[i] = ctx.view().frameAt(i);
        Arrays.sort(shown);
        assertArrayEquals(stored, shown);
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void aMovedCaptureGivesAMessageNotACrash(FxRobot robot) throws Exception {
        SampleIndex idx = SampleIndex.get();
        Path copy = idx.capture(SampleIndex.MOVABLE);
        if (Files.exists(copy)) Files.move(copy, copy.resolveSibling("moved-away.pcapng"));
        openSearch(robot);
        search(robot, "capture:*" + SampleIndex.MOVABLE + "*");
        TableView<FlowHit> t = results(robot);
        assertFalse(t.getItems().isEmpty());
        robot.interact(() -> t.getSelectionModel().select(0));
        robot.clickOn("#search-open");
        Fx.until("the message", () -> !errors.isEmpty());
        assertTrue(errors.getFirst().contains(copy + " moved or deleted since it was indexed"), errors.getFirst());
        assertNull(ctx.capture(), "nothing was opened");
        assertTrue(robot.lookup("#flow-search").tryQuery().isPresent(), "the window is still there");
    }

    /**
     * Extract to pcapng: the selected flow's packets, read back, are the flow's packets of its capture (the frames
     * the index stored, bytes and times); "all matching flows" writes the very bytes {@code metaroce extract} writes
     * for the same query.
     */
    @Test
    void extractWritesTheFlowsPacketsAsExtractDoes(FxRobot robot) throws Exception {
        SampleIndex idx = SampleIndex.get();
        openSearch(robot);
        String q = "naks:>0 OR ce_marks:>0";
        search(robot, q);
        TableView<FlowHit> t = results(robot);
        FlowHit hit = t.getItems().stream().filter(h -> h.captureName().startsWith("rocev2-gbn-loss")).findFirst().orElseThrow();
        robot.interact(() -> t.getSelectionModel().clearAndSelect(t.getItems().indexOf(hit)));
        FlowSearchWindow w = (FlowSearchWindow) robot.lookup("#flow-search").query().getUserData();

        Path one = config.resolve("one-flow.pcapng");
        robot.interact(() -> w.extractTo(one, false));
        Fx.until("the flow written", () -> status(robot).startsWith("Wrote "));
        assertEquals("Wrote " + hit.packets() + " packets of 1 flow to " + one, status(robot));
        long[] stored;
        try (LuceneFlowIndex index = LuceneFlowIndex.openForReading(idx.index)) {
            stored = index.parts(hit.rootId()).stream().map(FlowDocument::frames).flatMapToLong(LongStream::of).sorted().toArray();
        }
        List<String> expected = new ArrayList<>(), written = new ArrayList<>();
        try (PacketSource src = CaptureFiles.open(idx.capture("rocev2-gbn-loss"))) {
            while (src.next()) if (Arrays.binarySearch(stored, src.frameNumber()) >= 0) expected.add(packet(src));
        }
        try (PacketSource src = CaptureFiles.open(one)) {
            while (src.next()) written.add(packet(src));
        }
        assertEquals(hit.packets(), expected.size());
        assertEquals(expected, written);

        Path all = config.resolve("all-flows.pcapng"), cli = config.resolve("cli.pcapng");
        robot.interact(() -> w.extractTo(all, true));
        Fx.until("every matching flow written", () -> status(robot).startsWith("Wrote ") && status(robot).endsWith(all.toString()));
        Launcher.Run r = SampleIndex.run("extract", "--index", idx.index.toString(), q, "-w", cli.toString());
        assertEquals(0, r.exit(), r.show());
        assertTrue(r.err().contains("packets of " + idx.searchIds(q, "-n", "1000").size() + " flows"), r.show());
        assertArrayEquals(Files.readAllBytes(cli), Files.readAllBytes(all));
        assertTrue(errors.isEmpty(), errors.toString());
    }

    /** One packet as the test compares it: time, lengths, link type and bytes. */
    private static String packet(PacketSource s) {
        return s.timestampNanos() + " " + s.capturedLength() + "/" + s.originalLength() + " lt" + s.linkType() + " "
                + java.util.HexFormat.of().formatHex(s.data().asSlice(0, s.capturedLength()).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
    }

    /**
     * The Connections tab: opening it draws the query's host pairs (the model's, which are {@code search
     * --connections}'s), one link per pair, red where the pair retransmitted; a click on a link searches that pair's
     * flows in the Flows tab. Also the picture for the README (target/screenshots, or -Dscreenshots.dir).
     */
    @Test
    void theConnectionsTabDrawsThePairsAndALinkClickSearchesThem(FxRobot robot) throws Exception {
        openSearch(robot);
        FlowSearchWindow w = (FlowSearchWindow) robot.lookup("#flow-search").query().getUserData();
        javafx.scene.control.TabPane tabs = robot.lookup("#search-tabs").queryAs(javafx.scene.control.TabPane.class);
        robot.interact(() -> tabs.getSelectionModel().select(1));
        Fx.until("connections drawn", () -> !w.graph().links().isEmpty() && !robot.lookup("#search-busy").query().isVisible());
        List<io.metaroce.gui.search.ConnectionRow> rows = List.copyOf(w.model().connections());
        List<javafx.scene.shape.Line> links = w.graph().links();
        assertEquals(rows, links.stream().map(l -> (io.metaroce.gui.search.ConnectionRow) l.getUserData()).toList());
        assertTrue(robot.lookup("#connections-note").queryAs(Label.class).getText().contains("host pair"));
        javafx.scene.Node root = robot.lookup("#flow-search").query();
        javafx.scene.image.Image[] img = new javafx.scene.image.Image[1];
        robot.interact(() -> img[0] = root.getScene().snapshot(null));
        io.metaroce.gui.testutil.Png.write(img[0], Path.of(System.getProperty("screenshots.dir", "target/screenshots"))
                .resolve("gui-flow-search-connections.png"));
        // The visible line under each clickable one: red exactly where the pair retransmitted.
        long red = robot.lookup("#connections-graph").queryAs(javafx.scene.layout.Pane.class).getChildrenUnmodifiable().stream()
                .filter(n -> n instanceof javafx.scene.shape.Line l && l.isMouseTransparent()
                        && io.metaroce.gui.search.ConnectionsGraph.RETRANSMITTED.equals(l.getStroke())).count();
        assertEquals(rows.stream().filter(r -> r.retransmitted() > 0).count(), red);
        assertTrue(red > 0);

        javafx.scene.shape.Line link = links.getFirst();
        io.metaroce.gui.search.ConnectionRow pair = rows.getFirst();
        robot.interact(() -> javafx.event.Event.fireEvent(link, new javafx.scene.input.MouseEvent(javafx.scene.input.MouseEvent.MOUSE_CLICKED,
                0, 0, 0, 0, javafx.scene.input.MouseButton.PRIMARY, 1, false, false, false, false, true, false, false, true, false, false, null)));
        Fx.until("the pair's flows", () -> !robot.lookup("#search-busy").query().isVisible() && status(robot).contains("match"));
        assertEquals(pair.term(), query(robot).getEditor().getText());
        assertEquals(pair.flows(), results(robot).getItems().size());
        assertTrue(results(robot).getItems().stream().allMatch(h -> h.src().equals(pair.src()) && h.dst().equals(pair.dst())));
        assertEquals("search-tab-flows", tabs.getSelectionModel().getSelectedItem().getId());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    /** The main window's hook: the window is reachable from the Go menu with its shortcut. */
    @Test
    void theMenuItemHasAShortcut(FxRobot robot) {
        javafx.scene.control.MenuBar bar = robot.lookup(".menu-bar").query();
        javafx.scene.control.MenuItem mi = bar.getMenus().stream().flatMap(m -> m.getItems().stream())
                .filter(i -> "menu-flow-search".equals(i.getId())).findFirst().orElseThrow();
        assertEquals(javafx.scene.input.KeyCombination.keyCombination("Shortcut+Shift+F"), mi.getAccelerator());
    }
}
