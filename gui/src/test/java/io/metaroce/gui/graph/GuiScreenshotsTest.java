package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.stats.CapturePropertiesWindow;
import io.metaroce.gui.stats.ConversationsWindow;
import io.metaroce.gui.stats.ExpertInfoWindow;
import io.metaroce.gui.testutil.GuiHarness;
import io.metaroce.gui.testutil.Png;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeTableView;
import javafx.scene.image.Image;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * Pictures of every statistics window and graph for two samples (the spray sample and RoCEv2 go-back-N; the
 * heatmap also for the path-down sample), written as PNGs to target/screenshots, or to the folder named by
 * -Dscreenshots.dir (docs/images for the README). Runs headless (Monocle) in every build; under Xvfb with GTK
 * for the committed pictures. Each picture is checked to show its content, not an empty window.
 */
@ExtendWith(ApplicationExtension.class)
class GuiScreenshotsTest {
    private static final Path DIR = Path.of(System.getProperty("screenshots.dir", "target/screenshots"));
    private GuiContext ctx;

    @Start
    void start(Stage stage) {
        ctx = new GuiContext(stage);
        stage.setScene(new Scene(new Label("main window"), 300, 100));
        stage.show();
    }

    @AfterEach
    void closeWindows(FxRobot robot) {
        GuiHarness.closeWindows(robot);
    }

    @Test
    void sprayedMetaRoce(FxRobot robot) throws Exception {
        shoot(robot, "metaroce-spray-lossy-path", "spray");
    }

    @Test
    void rocev2GoBackN(FxRobot robot) throws Exception {
        shoot(robot, "rocev2-gbn-loss", "gbn");
    }

    @Test
    void pathDownHeatmap(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "metaroce-path-down");
        PathHeatmapView[] v = new PathHeatmapView[1];
        robot.interact(() -> v[0] = PathHeatmapWindow.open(ctx, null));
        GuiHarness.until("heatmap", () -> v[0].heatmap() != null);
        Image img = snap(robot, v[0]);
        Png.write(img, DIR.resolve("gui-heatmap-path-down.png"));
        assertTrue(Png.fraction(img, ColorScale.of(HeatMetric.LOSS).at(0)) > 0.05, "green cells of the healthy paths");
    }

    /**
     * The Diagnosis window's four tabs (findings with the first selected, hang snapshot, time split, loss timeline) for
     * the retry-exhaustion sample (a dead QP: timeouts) and the link-down sample (two QPs die at one instant).
     */
    @Test
    void diagnosisAndLossTimeline(FxRobot robot) throws Exception {
        for (String[] s : new String[][] {{"rocev2-retry-exhausted", "retry"}, {"rocev2-link-down", "link-down"}}) {
            GuiHarness.open(robot, ctx, s[0]);
            io.metaroce.gui.stats.DiagnosisWindow.View[] v = new io.metaroce.gui.stats.DiagnosisWindow.View[1];
            robot.interact(() -> v[0] = io.metaroce.gui.stats.DiagnosisWindow.open(ctx, false));
            GuiHarness.until("diagnosis", () -> v[0].result().get() != null);
            Image findings = snap(robot, lastWindowRoot());
            Png.write(findings, DIR.resolve("gui-diagnosis-" + s[1] + ".png"));
            assertTrue(1 - Png.fraction(findings, 0xFFFFFF) > 0.02, "the findings show");
            for (int tab = 1; tab <= 2; tab++) {
                int t = tab;
                robot.interact(() -> v[0].tabs().getSelectionModel().select(t));
                Png.write(snap(robot, lastWindowRoot()), DIR.resolve("gui-diagnosis-" + (t == 1 ? "hang-" : "time-split-") + s[1] + ".png"));
            }
            robot.interact(() -> v[0].tabs().getSelectionModel().select(3));
            GuiHarness.until("timeline laid out", () -> v[0].chart().columns() > 8);
            Image tl = snap(robot, lastWindowRoot());
            Png.write(tl, DIR.resolve("gui-loss-timeline-" + s[1] + ".png"));
            assertTrue(Png.fraction(tl, 0xD62728) > 0.0005, "retransmission bars drawn");
            GuiHarness.closeWindows(robot);
        }
    }

    /**
     * Graphs > Congestion Loop on cnp-ignored (a sender whose rate does not drop after its CNPs) and on the incast with
     * PFC pauses of its class added (shaded bands), and the Diagnosis window's Congestion loop tab on the incast.
     */
    @Test
    void congestionLoop(FxRobot robot, @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-cnp-ignored");
        Image ignored = congestionGraph(robot);
        Png.write(ignored, DIR.resolve("gui-congestion-loop-cnp-ignored.png"));
        assertTrue(Png.fraction(ignored, MarkerKind.CNP.argb()) > 0.0003, "CNP markers drawn");
        GuiHarness.closeWindows(robot);
        java.util.List<io.metaroce.testsupport.PauseFrames.Frame> l = new java.util.ArrayList<>();
        try (io.metaroce.capture.PacketSource src = io.metaroce.capture.CaptureFiles.open(io.metaroce.gui.testutil.Sample.path("rocev2-ecn-cnp"))) {
            while (src.next()) l.add(new io.metaroce.testsupport.PauseFrames.Frame(src.timestampNanos(),
                    src.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
        }
        long t0 = l.getFirst().timeNanos();
        // The receiver's NIC (10.0.0.1, where the incast's frames go) pauses class 3 (the incast's priority) twice: 40 us
        // and 25 us, each ended by an XON.
        for (long[] p : new long[][] {{60_000, 100_000}, {230_000, 255_000}}) {
            l.add(new io.metaroce.testsupport.PauseFrames.Frame(t0 + p[0], io.metaroce.testsupport.PauseFrames.pfc(
                    0x020000000110L, 0x08, 0, 0, 0, 65535)));
            l.add(new io.metaroce.testsupport.PauseFrames.Frame(t0 + p[1], io.metaroce.testsupport.PauseFrames.pfc(
                    0x020000000110L, 0x08, 0, 0, 0, 0)));
        }
        l.sort((a, b) -> Long.compare(a.timeNanos(), b.timeNanos()));
        Path file = io.metaroce.testsupport.PauseFrames.write(tmp.resolve("rocev2-ecn-cnp-pfc.pcap"), l);
        robot.interact(() -> ctx.open(file));
        GuiHarness.until("pfc capture analyzed", () -> ctx.capture() != null && ctx.analysis() != null && ctx.analysisDone().isDone());
        Image pfc = congestionGraph(robot);
        Png.write(pfc, DIR.resolve("gui-congestion-loop-ecn-cnp-pfc.png"));
        assertTrue(Png.fraction(pfc, 0xFFE3CA) > 0.003, "paused bands drawn");
        GuiHarness.closeWindows(robot);
        GuiHarness.open(robot, ctx, "rocev2-ecn-cnp");
        io.metaroce.gui.stats.DiagnosisWindow.View[] v = new io.metaroce.gui.stats.DiagnosisWindow.View[1];
        robot.interact(() -> v[0] = io.metaroce.gui.stats.DiagnosisWindow.open(ctx, false));
        GuiHarness.until("diagnosis", () -> v[0].result().get() != null);
        robot.interact(() -> v[0].tabs().getSelectionModel().select(io.metaroce.gui.stats.DiagnosisWindow.LOOP_TAB));
        Image tab = snap(robot, lastWindowRoot());
        Png.write(tab, DIR.resolve("gui-diagnosis-congestion-loop-ecn-cnp.png"));
        assertTrue(1 - Png.fraction(tab, 0xFFFFFF) > 0.02, "the rows show");
    }

    /**
     * The Diagnosis window with an NCCL warning looked up (rocev2-retry-exhausted: the retry-exceeded warning of its
     * dead QP's peer, built as NcclWarningTest's), and its Flow control tab on rocev2-pfc-storm: the storm's row names
     * the QP it stops (priority 3) and not the priority-4 QP sent to the same NIC.
     */
    @Test
    void diagnosisNcclLookupAndFlowControl(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-retry-exhausted");
        io.metaroce.gui.stats.DiagnosisWindow.View[] v = new io.metaroce.gui.stats.DiagnosisWindow.View[1];
        robot.interact(() -> v[0] = io.metaroce.gui.stats.DiagnosisWindow.open(ctx, false));
        GuiHarness.until("diagnosis", () -> v[0].result().get() != null);
        robot.interact(() -> {
            v[0].nccl().setText("NET/IB : Got completion from peer 192.168.0.9<7> with status=12 opcode=0 len=0 vendor err 129 "
                    + "(Send) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2 hca mlx5_0");
            v[0].nccl().fireEvent(new javafx.event.ActionEvent());
        });
        GuiHarness.until("lookup shown", () -> !v[0].lookup().getText().isEmpty());
        robot.interact(() -> v[0].findings().getSelectionModel().select(0));
        Image nccl = snap(robot, lastWindowRoot());
        Png.write(nccl, DIR.resolve("gui-diagnosis-nccl-retry.png"));
        assertTrue(v[0].lookup().getText().contains("IBV_WC_RETRY_EXC_ERR"), v[0].lookup().getText());
        GuiHarness.closeWindows(robot);
        GuiHarness.open(robot, ctx, "rocev2-pfc-storm");
        robot.interact(() -> v[0] = io.metaroce.gui.stats.DiagnosisWindow.open(ctx, false));
        GuiHarness.until("diagnosis", () -> v[0].result().get() != null && !v[0].pauses().getItems().isEmpty());
        robot.interact(() -> {
            v[0].tabs().getSelectionModel().select(io.metaroce.gui.stats.DiagnosisWindow.PAUSE_TAB);
            v[0].pauses().getSelectionModel().select(0);
        });
        Image pauses = snap(robot, lastWindowRoot());
        Png.write(pauses, DIR.resolve("gui-diagnosis-flow-control-pfc-storm.png"));
        String stops = (String) v[0].pauses().getColumns().get(2).getCellData(0);
        assertTrue(stops.startsWith("10.0.0.2>10.0.0.1/0x000017 (") && !stops.contains("0x00001c"), stops);
    }

    /**
     * The Diagnosis window's Recovery tab on rocev2-go-back-message-start: the sender that goes back to the message's
     * first packet after each NAK, with its first NAK answered wrongly selected in the packet list (as a double-click
     * on the row does).
     */
    @Test
    void diagnosisRecovery(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-go-back-message-start");
        io.metaroce.gui.stats.DiagnosisWindow.View[] v = new io.metaroce.gui.stats.DiagnosisWindow.View[1];
        robot.interact(() -> v[0] = io.metaroce.gui.stats.DiagnosisWindow.open(ctx, false));
        GuiHarness.until("diagnosis", () -> v[0].result().get() != null && !v[0].recovery().getItems().isEmpty());
        robot.interact(() -> {
            v[0].tabs().getSelectionModel().select(io.metaroce.gui.stats.DiagnosisWindow.RECOVERY_TAB);
            v[0].recovery().getSelectionModel().select(0);
        });
        robot.clickOn("#recovery-go-nak");
        GuiHarness.until("the NAK selected", () -> ctx.selectedFrame() > 0);
        Image tab = snap(robot, lastWindowRoot());
        Png.write(tab, DIR.resolve("gui-diagnosis-recovery-message-start.png"));
        assertTrue(1 - Png.fraction(tab, 0xFFFFFF) > 0.02, "the rows show");
        assertTrue("go-back-message-start".equals(v[0].recovery().getColumns().getLast().getCellData(0)));
    }

    private Image congestionGraph(FxRobot robot) {
        CongestionGraph[] g = new CongestionGraph[1];
        robot.interact(() -> g[0] = CongestionLoopWindow.open(ctx, null));
        GuiHarness.until("congestion graph", () -> g[0].series() != null);
        return snap(robot, lastWindowRoot());
    }

    /** Statistics > RDMA Messages on rocev2-gbn-loss: the two QPs' WRITE messages with their resent packets. */
    @Test
    void messagesWindow(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        robot.interact(() -> new io.metaroce.gui.stats.MessagesWindow().open(ctx));
        GuiHarness.until("message rows", () -> filled(robot));
        Image img = snap(robot, lastWindowRoot());
        Png.write(img, DIR.resolve("gui-messages-gbn-loss.png"));
        assertTrue(1 - Png.fraction(img, 0xFFFFFF) > 0.02, "the rows show");
    }

    private void shoot(FxRobot robot, String scenario, String tag) throws Exception {
        GuiHarness.open(robot, ctx, scenario);
        // A frame selected in the packet list, so the graphs show their selection mark.
        int sel = (int) ctx.analysis().events().all().stream().filter(e -> e.type().label().contains("retransmission"))
                .findFirst().orElseThrow().frame();
        robot.interact(() -> ctx.select(sel));
        for (GuiWindow w : List.of(new CapturePropertiesWindow(), new ExpertInfoWindow(), new ConversationsWindow())) {
            robot.interact(() -> w.open(ctx));
            GuiHarness.until(w.title(), () -> filled(robot));
            Image img = snap(robot, lastWindowRoot());
            Png.write(img, DIR.resolve("gui-" + slug(w.title()) + "-" + tag + ".png"));
            assertTrue(1 - Png.fraction(img, 0xFFFFFF) > 0.02, w.title() + " shows something");
            GuiHarness.closeWindows(robot);
        }
        PsnGraph[] g = new PsnGraph[1];
        robot.interact(() -> g[0] = PsnGraphWindow.open(ctx, null));
        GuiHarness.until("psn graph", () -> g[0].series() != null);
        Image psn = snap(robot, lastWindowRoot());
        Png.write(psn, DIR.resolve("gui-psn-graph-" + tag + ".png"));
        assertTrue(Png.fraction(psn, MarkerKind.RETRANSMISSION.argb()) > 0.0005, "retransmission markers drawn");
        GuiHarness.closeWindows(robot);
        IoGraph[] io = new IoGraph[1];
        robot.interact(() -> io[0] = IoGraphWindow.open(ctx, null));
        GuiHarness.until("io graph", () -> io[0].data() != null);
        Image iog = snap(robot, lastWindowRoot());
        Png.write(iog, DIR.resolve("gui-io-graph-" + tag + ".png"));
        assertTrue(Png.fraction(iog, 0x1F77B4) > 0.001, "the all-packets line drawn");
        GuiHarness.closeWindows(robot);
        PathHeatmapView[] h = new PathHeatmapView[1];
        robot.interact(() -> h[0] = PathHeatmapWindow.open(ctx, null));
        GuiHarness.until("heatmap", () -> h[0].heatmap() != null
                || robot.lookup("#heatmap-status").queryLabeled().getText().startsWith("No MetaRoCE"));
        Png.write(snap(robot, lastWindowRoot()), DIR.resolve("gui-heatmap-" + tag + ".png"));
    }

    /** The newest window has its data: a table with rows or a tree with a root. */
    private static boolean filled(FxRobot robot) {
        Node root = lastWindowRoot();
        for (Node n : robot.from(root).lookup(".table-view").queryAll())
            if (n instanceof TableView<?> t && !t.getItems().isEmpty()) return true;
        for (Node n : robot.from(root).lookup(".tree-table-view").queryAll())
            if (n instanceof TreeTableView<?> t && t.getRoot() != null) return true;
        return false;
    }

    private static Node lastWindowRoot() {
        List<Window> ws = Window.getWindows().stream().filter(w -> w instanceof Stage s && s.getOwner() != null).toList();
        return ws.getLast().getScene().getRoot();
    }

    private static Image snap(FxRobot robot, Node n) {
        Image[] img = new Image[1];
        robot.interact(() -> img[0] = n.getScene() != null && n == n.getScene().getRoot() ? n.getScene().snapshot(null) : n.snapshot(null, null));
        return img[0];
    }

    private static String slug(String title) { return title.toLowerCase().replaceAll("[^a-z0-9]+", "-"); }
}
