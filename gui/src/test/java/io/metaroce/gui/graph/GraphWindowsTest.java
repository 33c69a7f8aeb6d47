package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.gui.testutil.GuiHarness;
import io.metaroce.gui.testutil.WindowTestBase;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.Button;
import javafx.geometry.Point2D;
import javafx.scene.control.ChoiceBox;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** The graph windows, headless (Monocle), on bundled samples: what they draw from and what a click selects. */
class GraphWindowsTest extends WindowTestBase {
    private static final String DATA_FLOW = "10.0.0.1>10.0.0.2/0x000013";

    /** Where the tests' exported pictures go (under target: to look at, not kept). */
    static final Path EXPORTS = Path.of("target/exports");

    @TempDir
    Path tmp;

    @Start
    void start(Stage stage) { setUp(stage); }

    /** Saves through the open graph window's Save As button as if its file chooser returned file; waits for the write. */
    static Path save(FxRobot robot, Path file) throws Exception {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file);
        Button b = robot.lookup("#graph-save-as").queryButton();
        String[] result = new String[1];
        boolean[] done = new boolean[1];
        robot.interact(() -> GraphExport.saveTo(b, file, e -> {
            result[0] = e;
            done[0] = true;
        }));
        GuiHarness.until("saved " + file.getFileName(), () -> done[0]);
        assertEquals(null, result[0]);
        return file;
    }

    /** Whether a pixel within r of (x, y) has the colour (each channel within 24). */
    static boolean colourNear(BufferedImage img, double x, double y, int argb, int r) {
        for (int dy = -r; dy <= r; dy++)
            for (int dx = -r; dx <= r; dx++) {
                int px = (int) Math.floor(x) + dx, py = (int) Math.floor(y) + dy;
                if (px < 0 || py < 0 || px >= img.getWidth() || py >= img.getHeight()) continue;
                int c = img.getRGB(px, py);
                if (Math.abs(((c >> 16) & 0xFF) - ((argb >> 16) & 0xFF)) < 24 && Math.abs(((c >> 8) & 0xFF) - ((argb >> 8) & 0xFF)) < 24
                        && Math.abs((c & 0xFF) - (argb & 0xFF)) < 24) return true;
            }
        return false;
    }

    /** The PNG is the graph pane as drawn, at its size. */
    static BufferedImage readPng(Path file, javafx.scene.layout.Region pane) throws Exception {
        BufferedImage img = javax.imageio.ImageIO.read(file.toFile());
        assertEquals(Math.round(pane.getWidth()), img.getWidth(), "the pane's width");
        assertEquals(Math.round(pane.getHeight()), img.getHeight(), "the pane's height");
        return img;
    }

    /**
     * PSN graph of the spray sample's data flow: clicking the retransmission marker of frame 45 selects frame 45 in
     * the context; selecting frame 6 in the context (the packet list) rings it in the graph; a wheel step zooms.
     */
    @Test
    void psnGraphClickSelectsAndSelectionIsMarked(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "metaroce-spray-lossy-path");
        PsnGraph[] g = new PsnGraph[1];
        robot.interact(() -> g[0] = PsnGraphWindow.open(ctx, DATA_FLOW));
        PsnGraph graph = g[0];
        GuiHarness.until("series", () -> graph.series() != null);
        assertEquals(DATA_FLOW, graph.series().flowId());
        PointSet rtx = graph.series().markers(MarkerKind.RETRANSMISSION);
        assertEquals(5, rtx.size());
        int i = rtx.indexOfFrame(45);
        // Save As...: the PNG is the pane as drawn (the resend of frame 45 in the retransmission red); the CSV a row per
        // point drawn (the data packets and every marker shown).
        BufferedImage png = readPng(save(robot, EXPORTS.resolve("psn-graph.png")), graph);
        assertTrue(colourNear(png, graph.paneX(rtx.time(i)), graph.paneY(rtx.value(i)), MarkerKind.RETRANSMISSION.argb(), 0),
                "frame 45's marker in the PNG");
        List<String> csv = Files.readAllLines(save(robot, tmp.resolve("psn.csv")), StandardCharsets.UTF_8);
        int points = graph.series().data().size();
        for (MarkerKind k : MarkerKind.values()) points += graph.series().markers(k).size();
        assertEquals(points, csv.size() - 1, "a row per point");
        assertTrue(csv.contains(GraphExport.seconds(rtx.time(i)) + "," + graph.series().rawPsn(rtx.value(i)) + ",Retransmission,45"),
                "frame 45's resend as a row");
        Point2D p = graph.localToScreen(graph.paneX(rtx.time(i)), graph.paneY(rtx.value(i)));
        robot.clickOn(p, MouseButton.PRIMARY);
        GuiHarness.until("frame 45 selected", () -> ctx.selectedFrame() == 45);
        robot.interact(() -> ctx.select(6));
        assertEquals(6, graph.selectedFrame());
        assertTrue(graph.selectionShown());
        Viewport before = graph.viewport();
        javafx.scene.Node canvas = graph.getChildrenUnmodifiable().getFirst();
        GuiHarness.wheel(robot, canvas, graph.paneX(rtx.time(i)), graph.paneY(rtx.value(i)), 80);
        GuiHarness.until("zoomed", () -> graph.viewport().x1() - graph.viewport().x0() < before.x1() - before.x0());
        // Zooming around the marker keeps it under the mouse: clicking there again still selects frame 45.
        robot.interact(() -> ctx.select(0));
        robot.clickOn(graph.localToScreen(graph.paneX(rtx.time(i)), graph.paneY(rtx.value(i))), MouseButton.PRIMARY);
        GuiHarness.until("frame 45 selected again", () -> ctx.selectedFrame() == 45);
    }

    /**
     * IO graph of the gbn sample with two series (all frames, retransmissions): the intervals add up to the frame
     * and retransmission totals; clicking the highest retransmission point selects a retransmission.
     */
    @Test
    void ioGraphSumsAndClickSelects(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        IoGraph[] g = new IoGraph[1];
        robot.interact(() -> g[0] = IoGraphWindow.open(ctx, List.of(
                new IoSeries("all", "", IoSeries.Metric.PACKETS, 0xFF1F77B4),
                new IoSeries("rtx", "analysis.retransmission", IoSeries.Metric.PACKETS, 0xFFD62728))));
        IoGraph graph = g[0];
        GuiHarness.until("io data", () -> graph.data() != null);
        IoGraphData d = graph.data();
        assertEquals(ctx.capture().frames(), sum(d, 0));
        assertEquals(ctx.analysis().result().total("retransmitted_packets"), sum(d, 1));
        // Save As... CSV, as Wireshark's: a row per interval, a column per series, which add up to the frames counted
        // one by one (every frame; those the retransmission filter matches).
        List<String> csv = Files.readAllLines(save(robot, tmp.resolve("io.csv")), StandardCharsets.UTF_8);
        assertEquals("\"Interval start\",\"all\",\"rtx\"", csv.getFirst());
        assertEquals(d.bins(), csv.size() - 1);
        long all = 0, rtx = 0;
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",");
            all += Long.parseLong(f[1]);
            rtx += Long.parseLong(f[2]);
        }
        long frames = 0;
        try (io.metaroce.capture.PacketSource src = io.metaroce.capture.CaptureFiles.open(io.metaroce.gui.testutil.Sample.path("rocev2-gbn-loss"))) {
            while (src.next()) frames++;
        }
        assertEquals(frames, all, "the all-frames column sums to the capture's frames, read one by one");
        assertEquals(ctx.framesMatching("analysis.retransmission").length, rtx);
        BufferedImage png = readPng(save(robot, EXPORTS.resolve("io-graph.png")), graph);
        int best = 0;
        for (int b = 0; b < d.bins(); b++) if (d.value(1, b) > d.value(1, best)) best = b;
        assertTrue(d.value(1, best) > 0);
        double x = graph.paneX((double) best * d.intervalNs()), y = graph.paneY(d.value(1, best));
        assertTrue(colourNear(png, x, y, 0xFFD62728, 2), "the rtx series' point in its colour in the PNG");
        robot.clickOn(graph.localToScreen(x, y), MouseButton.PRIMARY);
        int expected = d.firstFrame(1, best);
        GuiHarness.until("frame " + expected + " selected", () -> ctx.selectedFrame() == expected);
        assertTrue(ctx.analysis().verdictOf(expected).retransmission());
        // A bad filter is refused with its column, the graph keeps its data.
        robot.interact(() -> robot.lookup("#io-filter-1").queryTextInputControl().setText("analysis.retransmission =="));
        robot.clickOn("#io-apply");
        assertTrue(robot.lookup("#io-status").queryLabeled().getText().contains("column"));
        assertEquals(d, graph.data());
        robot.interact(() -> robot.lookup("#io-filter-1").queryTextInputControl().setText("analysis.retransmission"));
        // Edit > Ignore Packet: ignored frames are counted in no series (Wireshark's statistics leave them out).
        robot.interact(() -> ctx.setIgnored(new int[] {1, 2, 3, 4, 5}, true));
        long counted = frames;
        GuiHarness.until("io data without the 5 ignored frames", () -> graph.data() != d && graph.data() != null
                && sum(graph.data(), 0) == counted - 5);
    }

    /**
     * Path heatmap of the spray sample: 4 paths; by loss the lossy path 2 holds the hottest cell; a click on that
     * cell selects a data frame sent on path 2; switching to RTT recolours the cells.
     */
    @Test
    void heatmapShowsTheLossyPathAndClickSelects(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "metaroce-spray-lossy-path");
        PathHeatmapView[] v = new PathHeatmapView[1];
        robot.interact(() -> v[0] = PathHeatmapWindow.open(ctx, null));
        PathHeatmapView view = v[0];
        GuiHarness.until("heatmap", () -> view.heatmap() != null);
        PathHeatmap h = view.heatmap();
        assertEquals(DATA_FLOW, h.flowId());
        assertEquals(4, h.paths());
        int bestPath = -1, bestBin = -1;
        double best = -1;
        for (int p = 0; p < h.paths(); p++)
            for (int b = 0; b < h.bins(); b++) {
                double x = h.value(HeatMetric.LOSS, p, b);
                if (!Double.isNaN(x) && x > best) { best = x; bestPath = p; bestBin = b; }
            }
        assertEquals(2, bestPath);
        assertEquals(ColorScale.of(HeatMetric.LOSS).argb(best, view.scaleMax()), view.cellArgb(bestPath, bestBin));
        double[] c = view.cellCentre(bestPath, bestBin);
        // Save As...: the PNG has the hottest cell's colour at its centre; the CSV is the path x interval matrix shown.
        BufferedImage png = readPng(save(robot, EXPORTS.resolve("path-heatmap.png")), view);
        assertTrue(colourNear(png, c[0], c[1], view.cellArgb(bestPath, bestBin), 0), "the hottest cell in the PNG");
        List<String> csv = Files.readAllLines(save(robot, tmp.resolve("heat.csv")), StandardCharsets.UTF_8);
        assertEquals(h.paths() + 1, csv.size());
        String[] row = csv.get(1 + bestPath).split(",", -1);
        assertEquals(h.bins() + 1, row.length);
        assertEquals(best, Double.parseDouble(row[1 + bestBin]), 1e-9);
        robot.clickOn(view.localToScreen(c[0], c[1]), MouseButton.PRIMARY);
        int expected = h.firstFrame(bestPath, bestBin);
        GuiHarness.until("cell frame selected", () -> ctx.selectedFrame() == expected);
        Dissection d = ctx.capture().index().dissect(expected, new Dissector(), new Dissection());
        assertEquals(2, d.get(FieldCatalog.get().field("mrth.path_id").id(), -1));
        int lossColour = view.cellArgb(bestPath, bestBin);
        ChoiceBox<HeatMetric> metric = robot.lookup("#heatmap-metric").queryAs(ChoiceBox.class);
        robot.interact(() -> metric.setValue(HeatMetric.RTT));
        assertEquals(HeatMetric.RTT, view.metric());
        assertNotEquals(lossColour, view.cellArgb(bestPath, bestBin));
    }

    private static long sum(IoGraphData d, int s) {
        double t = 0;
        for (int b = 0; b < d.bins(); b++) t += d.value(s, b);
        return Math.round(t);
    }
}
