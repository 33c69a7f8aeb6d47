package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.gui.testutil.GuiHarness;
import io.metaroce.gui.testutil.WindowTestBase;
import java.util.List;
import javafx.geometry.Point2D;
import javafx.scene.control.ChoiceBox;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** The graph windows, headless (Monocle), on bundled samples: what they draw from and what a click selects. */
class GraphWindowsTest extends WindowTestBase {
    private static final String DATA_FLOW = "10.0.0.1>10.0.0.2/0x000013";

    @Start
    void start(Stage stage) { setUp(stage); }

    /**
     * PSN graph of the spray sample's data flow: clicking the retransmission marker of frame 45 selects frame 45 in
     * the context; selecting frame 6 in the context (the packet list) rings it in the graph; a wheel step zooms.
     */
    @Test
    void psnGraphClickSelectsAndSelectionIsMarked(FxRobot robot) {
        GuiHarness.open(robot, ctx, "metaroce-spray-lossy-path");
        PsnGraph[] g = new PsnGraph[1];
        robot.interact(() -> g[0] = PsnGraphWindow.open(ctx, DATA_FLOW));
        PsnGraph graph = g[0];
        GuiHarness.until("series", () -> graph.series() != null);
        assertEquals(DATA_FLOW, graph.series().flowId());
        PointSet rtx = graph.series().markers(MarkerKind.RETRANSMISSION);
        assertEquals(5, rtx.size());
        int i = rtx.indexOfFrame(45);
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
    void ioGraphSumsAndClickSelects(FxRobot robot) {
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
        int best = 0;
        for (int b = 0; b < d.bins(); b++) if (d.value(1, b) > d.value(1, best)) best = b;
        assertTrue(d.value(1, best) > 0);
        double x = graph.paneX((double) best * d.intervalNs()), y = graph.paneY(d.value(1, best));
        robot.clickOn(graph.localToScreen(x, y), MouseButton.PRIMARY);
        int expected = d.firstFrame(1, best);
        GuiHarness.until("frame " + expected + " selected", () -> ctx.selectedFrame() == expected);
        assertTrue(ctx.analysis().verdictOf(expected).retransmission());
        // A bad filter is refused with its column, the graph keeps its data.
        robot.interact(() -> robot.lookup("#io-filter-1").queryTextInputControl().setText("analysis.retransmission =="));
        robot.clickOn("#io-apply");
        assertTrue(robot.lookup("#io-status").queryLabeled().getText().contains("column"));
        assertEquals(d, graph.data());
    }

    /**
     * Path heatmap of the spray sample: 4 paths; by loss the lossy path 2 holds the hottest cell; a click on that
     * cell selects a data frame sent on path 2; switching to RTT recolours the cells.
     */
    @Test
    void heatmapShowsTheLossyPathAndClickSelects(FxRobot robot) {
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
