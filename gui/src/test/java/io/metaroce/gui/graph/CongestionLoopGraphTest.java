package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.AnalyzeOutput;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.gui.testutil.GuiHarness;
import io.metaroce.gui.testutil.Sample;
import io.metaroce.gui.testutil.WindowTestBase;
import io.metaroce.samples.Simulator;
import io.metaroce.testsupport.PauseFrames;
import io.metaroce.testsupport.PauseFrames.Frame;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javafx.scene.control.ComboBox;
import javafx.scene.image.Image;
import javafx.scene.image.PixelReader;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * Graphs > Congestion Loop, headless (Monocle): the flows it offers and the CE marks and CNPs it draws are analyze's
 * ({@code analyze -T json}'s {@code congestion_loop}, computed here by analyze's own output code), a click on a CNP
 * selects that CNP's frame, and the paused runs of the flow's PFC class are drawn as bands.
 */
class CongestionLoopGraphTest extends WindowTestBase {
    @TempDir
    Path tmp;

    @Start
    void start(Stage stage) { setUp(stage); }

    private static JsonNode analyzeJson(Path file) throws Exception {
        StringBuilder out = new StringBuilder();
        AnalyzeOutput.write(file, AnalysisSettings.DEFAULT, AnalyzeOutput.Form.JSON, false, out);
        return new ObjectMapper().readTree(out.toString());
    }

    private CongestionGraph open(FxRobot robot, String flow) {
        CongestionGraph[] g = new CongestionGraph[1];
        robot.interact(() -> g[0] = CongestionLoopWindow.open(ctx, flow));
        return g[0];
    }

    @SuppressWarnings("unchecked")
    private static ComboBox<Map<String, Object>> chooser(FxRobot robot) {
        return robot.lookup("#cc-flow").queryAs(ComboBox.class);
    }

    /**
     * On both congestion samples, every flow the chooser lists is one of analyze's congestion-loop rows, the first the
     * one with most CNPs, and each flow's graph has as many CE and CNP markers as analyze counts for it.
     */
    @Test
    void markersAreAnalyzesCountsOnEveryFlow(FxRobot robot) throws Exception {
        for (String scenario : List.of("rocev2-ecn-cnp", "rocev2-cnp-ignored")) {
            GuiHarness.open(robot, ctx, scenario);
            JsonNode rows = analyzeJson(Sample.path(scenario)).get("congestion_loop").get("flows");
            assertFalse(rows.isEmpty(), scenario);
            CongestionGraph graph = open(robot, null);
            GuiHarness.until("graph of " + scenario, () -> graph.series() != null);
            ComboBox<Map<String, Object>> flows = chooser(robot);
            assertEquals(rows.size(), flows.getItems().size(), scenario);
            long most = 0;
            for (JsonNode r : rows) most = Math.max(most, r.get("cnps").asLong());
            assertEquals(most, ((Number) flows.getItems().getFirst().get("cnps")).longValue());
            assertEquals(flows.getItems().getFirst().get("flow"), graph.series().flowId());
            long markers = 0;
            for (JsonNode r : rows) {
                String id = r.get("flow").asText();
                CongestionSeries s = build(id);
                assertEquals(r.get("ce_marks").asLong(), s.ce().size(), scenario + " CE marks of " + id);
                assertEquals(r.get("cnps").asLong(), s.cnp().size(), scenario + " CNPs of " + id);
                assertEquals(r.get("verdict").asText(), s.loop().get("verdict"));
                markers += s.ce().size() + s.cnp().size();
                // The flow's data shows as a rate and a pace.
                long bytes = 0;
                for (int i = 0; i < s.rate().size(); i++) bytes += s.rate().value(i);
                assertTrue(bytes > 0, id);
                assertTrue(s.pace().size() > 0, id);
            }
            assertTrue(markers > 0);
            assertTrue(robot.lookup("#cc-figures").queryLabeled().getText().startsWith("Verdict: "));
            GuiHarness.closeWindows(robot);
        }
    }

    private CongestionSeries build(String flowId) throws Exception {
        int[] frames = ctx.framesMatching(FlowSeries.flowFilter(flowId));
        Map<String, Object> row = CongestionSeries.rowOf(ctx.analysis().result().congestionLoop(), flowId);
        return CongestionSeries.build(ctx.capture().index(), ctx.analysis(), flowId, frames, row,
                ctx.analysis().result().pauseRuns(), null);
    }

    /**
     * On cnp-ignored (a sender tap: the rate does not drop), a click on a CNP marker selects that CNP's frame in the
     * packet list (a CNP: opcode 0x81, of the flow's peer direction); hovering it names the frame; the selected frame is
     * marked in the graph.
     */
    @Test
    void clickOnACnpSelectsItsFrame(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-cnp-ignored");
        CongestionGraph graph = open(robot, null);
        GuiHarness.until("series", () -> graph.series() != null);
        PointSet cnp = graph.series().cnp();
        assertTrue(cnp.size() > 2);
        int i = cnp.size() / 2;
        long t = cnp.time(i);
        // Zoomed to 10 us around it: no other CNP within the click radius (CNPs are 50 us apart at least).
        robot.interact(() -> graph.setViewport(new Viewport(t - 10_000, t + 10_000, graph.viewport().y0(), graph.viewport().y1(),
                graph.plotWidth(), graph.plotHeight())));
        double x = graph.paneX(t), y = graph.paneY(cnp.value(i));
        assertEquals(cnp.frame(i), graph.frameAt(x, y));
        // Save As...: the zoomed view as drawn, the CNP's cross in its colour; the CSV every point of every series.
        java.awt.image.BufferedImage png = GraphWindowsTest.readPng(GraphWindowsTest.save(robot, GraphWindowsTest.EXPORTS.resolve("congestion-loop.png")), graph);
        assertTrue(GraphWindowsTest.colourNear(png, x, y, MarkerKind.CNP.argb(), 2), "the CNP marker in the PNG");
        CongestionSeries s = graph.series();
        List<String> csv = Files.readAllLines(GraphWindowsTest.save(robot, tmp.resolve("cc.csv")));
        assertEquals(s.rate().size() + s.pace().size() + s.ce().size() + s.cnp().size() + s.paused().size(), csv.size() - 1);
        assertTrue(csv.contains("CNP," + GraphExport.seconds(t) + ",,," + cnp.frame(i)), "the CNP as a row");
        assertTrue(graph.hoverText(x - 78, y - 30).startsWith("CNP: frame " + cnp.frame(i) + " "), graph.hoverText(x - 78, y - 30));
        robot.clickOn(graph.localToScreen(x, y), MouseButton.PRIMARY);
        GuiHarness.until("CNP frame selected", () -> ctx.selectedFrame() == cnp.frame(i));
        Dissection d = ctx.capture().index().dissect(cnp.frame(i), new Dissector(), new Dissection());
        assertEquals(0x81, d.opcodeValue());
        assertEquals(t, graph.selectedTime());
        // A click on empty rate space selects nothing.
        robot.interact(() -> ctx.select(1));
        assertEquals(0, graph.frameAt(graph.paneX(t + 5_000), graph.paneY(graph.series().maxRate() / 2.0)));
    }

    /**
     * The packet list's selection moves the selected-frame line, a node over the canvas, without redrawing the series;
     * a view that no longer holds the time hides it, and a view that does shows it again at the time's x.
     */
    @Test
    void selectionMovesItsLineWithoutRedrawingTheSeries(FxRobot robot) {
        GuiHarness.open(robot, ctx, "rocev2-cnp-ignored");
        CongestionGraph graph = open(robot, null);
        GuiHarness.until("series", () -> graph.series() != null && graph.redraws() > 0);
        PointSet cnp = graph.series().cnp();
        int i = cnp.size() / 2, j = i + 1;
        long before = graph.redraws();
        robot.interact(() -> ctx.select(cnp.frame(i)));
        assertEquals(cnp.time(i), graph.selectedTime());
        assertEquals(graph.paneX(cnp.time(i)), graph.selectedLineX(), 1e-9);
        robot.interact(() -> ctx.select(cnp.frame(j)));
        assertEquals(graph.paneX(cnp.time(j)), graph.selectedLineX(), 1e-9);
        assertTrue(graph.selectedLineX() > graph.paneX(cnp.time(i)));
        assertEquals(before, graph.redraws(), "moving the selection redrew the series");
        // Zoomed to 10 us around the other CNP: the line is out of view; back around it, at its new x.
        long t = cnp.time(j), other = cnp.time(i);
        robot.interact(() -> graph.setViewport(new Viewport(other - 10_000, other + 10_000, graph.viewport().y0(),
                graph.viewport().y1(), graph.plotWidth(), graph.plotHeight())));
        assertTrue(Double.isNaN(graph.selectedLineX()), "a line outside the view is hidden");
        robot.interact(() -> graph.setViewport(new Viewport(t - 10_000, t + 10_000, graph.viewport().y0(),
                graph.viewport().y1(), graph.plotWidth(), graph.plotHeight())));
        assertEquals(graph.paneX(t), graph.selectedLineX(), 1e-9);
        assertEquals(graph.paneX(graph.viewport().x0() + 10_000), graph.selectedLineX(), 1e-6);
    }

    /**
     * Hovering is on its own layer: mouse moves over the plot name what is under the mouse (a CNP's frame, else the
     * bucket's rate) in the hover text at the plot's top right with a line at the mouse's x, and never redraw the
     * canvas (the series); leaving the graph hides both, also without a redraw.
     */
    @Test
    void hoverDoesNotRedrawTheSeries(FxRobot robot) {
        GuiHarness.open(robot, ctx, "rocev2-cnp-ignored");
        CongestionGraph graph = open(robot, null);
        GuiHarness.until("series", () -> graph.series() != null && graph.redraws() > 0);
        PointSet cnp = graph.series().cnp();
        int i = cnp.size() / 2;
        long t = cnp.time(i);
        robot.interact(() -> graph.setViewport(new Viewport(t - 10_000, t + 10_000, graph.viewport().y0(), graph.viewport().y1(),
                graph.plotWidth(), graph.plotHeight())));
        javafx.scene.Node canvas = graph.getChildrenUnmodifiable().getFirst();
        long before = graph.redraws();
        double x = graph.paneX(t), y = graph.paneY(cnp.value(i));
        // The event's coordinates are the scene's (its constructor's x and y): the graph sits under the flow chooser.
        javafx.geometry.Point2D at = graph.localToScene(x, y);
        robot.interact(() -> canvas.fireEvent(PsnGraphBenchmark.mouse(javafx.scene.input.MouseEvent.MOUSE_MOVED, at.getX(), at.getY())));
        String onCnp = graph.hover();
        assertTrue(onCnp.startsWith("CNP: frame " + cnp.frame(i) + " at "), onCnp);
        assertEquals(onCnp, graph.hoverLabel().getText());
        assertTrue(graph.hoverLabel().isVisible());
        assertEquals(Math.round(x) + 0.5, graph.hoverLineX());
        // The text ends at the plot area's right edge, inside it.
        javafx.geometry.Bounds b = graph.hoverLabel().getBoundsInParent();
        assertTrue(b.getMaxX() <= graph.paneX(graph.viewport().x1()) && b.getMaxX() > graph.paneX(graph.viewport().x1()) - 20, b.toString());
        // Empty rate space 5 us later: the bucket's rate, as hoverText says it.
        double x2 = graph.paneX(t + 5_000), y2 = graph.paneY(graph.series().maxRate() / 2.0);
        javafx.geometry.Point2D at2 = graph.localToScene(x2, y2);
        robot.interact(() -> canvas.fireEvent(PsnGraphBenchmark.mouse(javafx.scene.input.MouseEvent.MOUSE_MOVED, at2.getX(), at2.getY())));
        assertTrue(graph.hover().contains(" Mb/s in the "), graph.hover());
        assertEquals(graph.hoverText(x2 - 78, y2 - 30), graph.hoverLabel().getText());
        assertEquals(Math.round(x2) + 0.5, graph.hoverLineX());
        robot.interact(() -> graph.fireEvent(PsnGraphBenchmark.mouse(javafx.scene.input.MouseEvent.MOUSE_EXITED, at2.getX(), at2.getY())));
        assertEquals("", graph.hover());
        assertFalse(graph.hoverLabel().isVisible());
        assertTrue(Double.isNaN(graph.hoverLineX()));
        assertEquals(before, graph.redraws(), "hovering redrew the series");
        // A click on the CNP still reaches the canvas through the hover layer.
        robot.clickOn(graph.localToScreen(x, y), MouseButton.PRIMARY);
        GuiHarness.until("CNP frame selected", () -> ctx.selectedFrame() == cnp.frame(i));
    }

    /**
     * A capture of rocev2-ecn-cnp's frames (VLAN priority 3, all sent to 10.0.0.1's MAC) with PFC frames: two XOFF/XON
     * runs on class 3 from 10.0.0.1's NIC (they stop the flows sent to it), one on class 5 from a switch and one on
     * class 3 from another switch (they stop other traffic). The graph shades the two runs that stop the flow only.
     */
    @Test
    void pausedRunsOfTheFlowsClassAreBands(FxRobot robot) throws Exception {
        List<Frame> l = new ArrayList<>();
        try (PacketSource src = CaptureFiles.open(Sample.path("rocev2-ecn-cnp"))) {
            while (src.next()) l.add(new Frame(src.timestampNanos(), src.data().toArray(ValueLayout.JAVA_BYTE)));
        }
        long t0 = l.getFirst().timeNanos();
        long host1 = 0x020000000110L;
        List<Frame> pauses = List.of(
                new Frame(t0 + 100_000, PauseFrames.pfc(host1, 0x08, 0, 0, 0, 65535)),
                new Frame(t0 + 120_000, PauseFrames.pfc(host1, 0x08, 0, 0, 0, 0)),
                new Frame(t0 + 300_000, PauseFrames.pfc(host1, 0x08, 0, 0, 0, 65535)),
                new Frame(t0 + 330_000, PauseFrames.pfc(host1, 0x08, 0, 0, 0, 0)),
                new Frame(t0 + 200_000, PauseFrames.pfc(PauseFrames.SWITCH_B, 0x20, 0, 0, 0, 0, 0, 65535)),
                new Frame(t0 + 210_000, PauseFrames.pfc(PauseFrames.SWITCH_B, 0x20, 0, 0, 0, 0, 0, 0)),
                new Frame(t0 + 400_000, PauseFrames.pfc(PauseFrames.SWITCH_A, 0x08, 0, 0, 0, 65535)),
                new Frame(t0 + 420_000, PauseFrames.pfc(PauseFrames.SWITCH_A, 0x08, 0, 0, 0, 0)));
        l.addAll(pauses);
        l.sort((a, b) -> Long.compare(a.timeNanos(), b.timeNanos()));
        Path file = PauseFrames.write(tmp.resolve("ecn-pfc.pcap"), l);
        robot.interact(() -> ctx.open(file));
        GuiHarness.until("capture analyzed", () -> ctx.capture() != null && ctx.analysis() != null && !ctx.busyProperty().get()
                && ctx.analysisDone().isDone());
        CongestionGraph graph = open(robot, null);
        GuiHarness.until("series", () -> graph.series() != null);
        CongestionSeries s = graph.series();
        assertEquals(3, s.priority());
        assertEquals(host1, s.dstMac());
        assertEquals(2, s.paused().size());
        long origin = s.originNs();
        assertEquals(t0 + 100_000 - origin, s.paused().getFirst()[0]);
        assertEquals(t0 + 120_000 - origin, s.paused().getFirst()[1]);
        assertEquals(t0 + 300_000 - origin, s.paused().get(1)[0]);
        assertTrue(graph.hoverText(graph.paneX(s.paused().get(1)[0] + 10_000) - 78, 60).contains("paused 30.000 us"),
                graph.hoverText(graph.paneX(s.paused().get(1)[0] + 10_000) - 78, 60));
        // The bands are drawn: the pause colour fills part of the plot.
        javafx.scene.image.Image[] img = new javafx.scene.image.Image[1];
        robot.interact(() -> img[0] = graph.snapshot(null, null));
        assertTrue(io.metaroce.gui.testutil.Png.fraction(img[0], 0xFFE3CA) > 0.003, "paused bands drawn");
        assertSameDrawing(robot, graph, "bands");
        // Analyze counts the four runs in its flow control report (three sources and classes).
        assertEquals(3, analyzeJson(file).get("flow_control").get("classes").size());
        assertEquals(4, ctx.analysis().result().pauseRuns().size());
    }

    /**
     * The fast redraw (markers and bands one path per kind, the dense runs of the rate and pace lines filled into one
     * image) draws what the reference drawing (a shape per marker, the lines stroked whole) draws: on a 40,000-frame
     * incast whose flow has several rate buckets per pixel column at full range (the dense case, checked: columns were
     * filled) and zoomed in until buckets are pixels apart (every segment stroked), the same pixels within
     * anti-aliasing, and as much ink of each colour.
     */
    @Test
    void fastRedrawDrawsWhatTheReferenceDrawingDraws(FxRobot robot) throws Exception {
        Path pcap = tmp.resolve("incast.pcap");
        Simulator.run("rocev2-ecn-cnp", Simulator.params("rocev2-ecn-cnp").set("frames", "40000"), pcap, tmp.resolve("truth.json"));
        robot.interact(() -> ctx.open(pcap));
        GuiHarness.until("capture analyzed", () -> ctx.capture() != null && ctx.analysis() != null && !ctx.busyProperty().get()
                && ctx.analysisDone().isDone());
        CongestionGraph graph = open(robot, null);
        GuiHarness.until("series", () -> graph.series() != null);
        CongestionSeries s = graph.series();
        assertTrue(s.rate().size() > 3 * graph.plotWidth(), "dense: " + s.rate().size() + " buckets");
        robot.interact(graph::resetView);
        assertTrue(graph.denseColumns() > graph.plotWidth() / 2, "full range filled " + graph.denseColumns() + " columns");
        assertSameDrawing(robot, graph, "full range");
        Viewport full = graph.viewport();
        double mid = (full.x0() + full.x1()) / 2, span = 100.0 * s.bucketNs();
        robot.interact(() -> graph.setViewport(new Viewport(mid - span / 2, mid + span / 2, full.y0(), full.y1(), full.width(), full.height())));
        assertEquals(0, graph.denseColumns(), "100 buckets across the plot: every segment stroked");
        assertSameDrawing(robot, graph, "100 buckets");
    }

    /** Snapshots the graph drawn fast and drawn the reference way and compares them (see the test above). */
    private static void assertSameDrawing(FxRobot robot, CongestionGraph graph, String what) {
        Image[] img = new Image[2];
        robot.interact(() -> {
            graph.referenceDrawing = false;
            graph.redraw();
            img[0] = graph.snapshot(null, null);
            graph.referenceDrawing = true;
            graph.redraw();
            img[1] = graph.snapshot(null, null);
            graph.referenceDrawing = false;
            graph.redraw();
        });
        PixelReader fast = img[0].getPixelReader(), ref = img[1].getPixelReader();
        int w = (int) img[0].getWidth(), h = (int) img[0].getHeight(), differ = 0;
        int[] colours = {0x1F77B4, 0x9467BD, MarkerKind.CE.argb() & 0xFFFFFF, MarkerKind.CNP.argb() & 0xFFFFFF, 0xFFE3CA};
        long[] inkFast = new long[colours.length], inkRef = new long[colours.length];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int a = fast.getArgb(x, y), b = ref.getArgb(x, y);
                int d = Math.max(Math.abs(((a >> 16) & 0xFF) - ((b >> 16) & 0xFF)),
                        Math.max(Math.abs(((a >> 8) & 0xFF) - ((b >> 8) & 0xFF)), Math.abs((a & 0xFF) - (b & 0xFF))));
                if (d > 64) differ++;
                for (int c = 0; c < colours.length; c++) {
                    if (near(a, colours[c])) inkFast[c]++;
                    if (near(b, colours[c])) inkRef[c]++;
                }
            }
        }
        double share = (double) differ / ((long) w * h);
        assertTrue(share < 0.005, what + ": " + differ + " pixels differ (" + share + ")");
        for (int c = 0; c < colours.length; c++) {
            assertTrue(Math.abs(inkFast[c] - inkRef[c]) <= 20 + inkRef[c] / 20,
                    what + String.format(": ink of %06x: %d pixels fast, %d reference", colours[c], inkFast[c], inkRef[c]));
        }
        assertTrue(inkRef[0] > 100, what + ": the rate line is drawn");
    }

    private static boolean near(int argb, int rgb) {
        return Math.abs(((argb >> 16) & 0xFF) - ((rgb >> 16) & 0xFF)) < 24 && Math.abs(((argb >> 8) & 0xFF) - ((rgb >> 8) & 0xFF)) < 24
                && Math.abs((argb & 0xFF) - (rgb & 0xFF)) < 24;
    }

    /** A capture without CE marks or CNPs says so; so does one without frames; neither fails. */
    @Test
    void noEvidenceAndEmptyCaptures(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-clean");
        assertNull(analyzeJson(Sample.path("rocev2-clean")).get("congestion_loop"));
        CongestionGraph graph = open(robot, null);
        GuiHarness.until("no congestion loop", () -> robot.lookup("#cc-status").queryLabeled().getText().startsWith("No flow with CE marks"));
        assertNull(graph.series());
        assertTrue(chooser(robot).getItems().isEmpty());
        GuiHarness.closeWindows(robot);
        Path empty = tmp.resolve("empty.pcap");
        Files.write(empty, new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                (byte) 0xff, (byte) 0xff, 0, 0, 1, 0, 0, 0});
        robot.interact(() -> ctx.open(empty));
        GuiHarness.until("empty capture open", () -> ctx.capture() != null && !ctx.busyProperty().get());
        CongestionGraph e = open(robot, null);
        GuiHarness.until("empty capture: nothing", () -> {
            String s = robot.lookup("#cc-status").queryLabeled().getText();
            return s.startsWith("No flow with CE marks") || s.startsWith("The analysis did not finish");
        });
        assertNull(e.series());
    }
}
