package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.testsupport.VethPair;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * The capture toolbar on a real interface (root: a veth pair whose sending end is in a network namespace of its
 * own and whose capturing end is in ours: a {@link VethPair}, removed when the test ends): start a capture, send the frames
 * of a sample with known truth in two parts; the packet list shows each part while the capture still runs, with
 * the live verdicts, following the new rows; stop: the list then holds exactly those frames, row for row what
 * the analysis of the saved file gives, with the sample's retransmission verdicts, and the status bar's counters
 * say every frame was captured and none dropped.
 */
class CaptureToolbarTest extends GuiTestBase {
    private static final String SAMPLE = "rocev2-gbn-loss";

    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void captureSendStopShowsTheFramesSentAndTheirCounters(FxRobot robot) throws Exception {
        String why = VethPair.unavailable();
        assumeTrue(why == null, why);
        try (VethPair veth = VethPair.receiverHere("gui")) {
            String ns = veth.nsA, sendIf = veth.ifA, capIf = veth.ifB;

            @SuppressWarnings("unchecked")
            ComboBox<String> iface = robot.lookup("#capture-interface").queryAs(ComboBox.class);
            robot.interact(() -> iface.getEditor().setText(capIf));
            robot.clickOn("#capture-start");
            Label counters = robot.lookup("#capture-counters").queryAs(Label.class);
            Fx.until("the capture to run", () -> counters.getText().startsWith(capIf + ": captured 0"));
            assertTrue(errors.isEmpty(), errors.toString());

            int frames = Samples.frames(SAMPLE);
            Set<Integer> retx = new HashSet<>(Samples.labelled(SAMPLE, "retransmission"));
            int part = 150;     // the first part holds retransmissions (111..150), the second the rest
            assertTrue(retx.stream().anyMatch(f -> f <= part) && retx.stream().anyMatch(f -> f > part));
            long firstSent = System.nanoTime();
            assertEquals(Integer.toString(part), send(ns, sendIf, Samples.capture(SAMPLE), 1, part));
            // The rows arrive while the capture runs: no stop, no file opened.
            Fx.until("the first part listed", () -> table(robot).getItems().size() == part);
            assertFalse(robot.lookup("#capture-stop").queryButton().isDisabled(), "still capturing");
            assertTrue(ctx.analysis() == null, "the list is the live one");
            Fx.until("the list to follow the new rows", () -> lastRowShown(robot));

            // --tap auto decides at the end of a burst that comes a second or more after the first frame
            // (TapPrescan.PAUSE_NS): the second part must start after that second, or on a fast machine both parts
            // fall inside it and the decision waits for traffic that never comes.
            long settle = firstSent + 1_500_000_000L - System.nanoTime();
            if (settle > 0) Thread.sleep(settle / 1_000_000);
            assertEquals(Integer.toString(frames - part), send(ns, sendIf, Samples.capture(SAMPLE), part + 1, frames));
            Fx.until("every frame listed", () -> table(robot).getItems().size() == frames);
            Fx.until("every frame captured", () -> counters.getText().contains("captured " + frames + ","));
            Fx.until("the list to follow the new rows", () -> lastRowShown(robot));
            // The running analysis' verdicts (with --tap auto the first frames wait until the tap is known: here
            // the pause after the first part and the next frame settle it) and the coloring rules they drive.
            Fx.until("the live verdicts", () -> retx.stream().allMatch(f -> cell(robot, f, "Info").contains("[Retransmission (nak)]")));
            for (int f = 1; f <= frames; f++) assertEquals(retx.contains(f), cell(robot, f, "Info").contains("[Retransmission"), "live #" + f);
            int firstRetx = retx.stream().min(Integer::compare).orElseThrow();
            assertTrue(row(robot, firstRetx).getStyle().contains("#f0a0a0"), "coloured as a retransmission: " + row(robot, firstRetx).getStyle());
            assertFalse(robot.lookup("#capture-stop").queryButton().isDisabled(), "still capturing");
            assertTrue(ctx.analysis() == null, "the list is the live one");
            robot.interact(() -> table(robot).scrollTo(table(robot).getItems().size() - 1));
            robot.clickOn("#capture-stop");

            Fx.until("the captured frames open", () -> ctx.capture() != null && ctx.analysis() != null && !ctx.busyProperty().get());
            assertTrue(errors.isEmpty(), errors.toString());
            assertEquals(frames, ctx.capture().frames());
            assertEquals(frames, table(robot).getItems().size());
            assertEquals(capIf + ": captured " + frames + ", kernel drops 0, interface drops 0, our drops 0; analyzed " + frames,
                    counters.getText());
            // The frames went through unchanged and in order: the sample's retransmissions are the ones marked.
            for (int f = 1; f <= frames; f++) {
                assertEquals(retx.contains(f), cell(robot, f, "Info").contains("[Retransmission (nak)]"), "#" + f);
            }
            // Row for row what the analysis of the saved capture gives (every column, and the coloring).
            Path saved = ctx.capture().file();
            AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, GuiContext.ANALYSIS_OPTIONS);
            s.run(saved);
            try (PacketSource src = CaptureFiles.open(saved)) {
                OpenCapture oc = new OpenCapture(saved, src, FrameIndex.build(src), List.of(), false);
                RowCache expected = new RowCache(oc, s, window.packets().rules());
                for (int f = 1; f <= frames; f++) {
                    String[] want = expected.row(f).text();
                    String[] cols = {"Source", "Destination", "Protocol", "QP", "PSN", "Info"};
                    for (int k = 0; k < cols.length; k++) assertEquals(want[k], cell(robot, f, cols[k]), cols[k] + " #" + f);
                    assertEquals(Long.toString(oc.index().originalLength(f)), cell(robot, f, "Length"), "#" + f);
                }
            }
            assertTrue(robot.lookup("#capture-start").queryButton().isVisible() && !robot.lookup("#capture-start").queryButton().isDisabled(),
                    "a new capture can start");
        }
    }

    @Test
    void anUnknownInterfaceIsOneMessageAndNothingStarts(FxRobot robot) {
        String why = VethPair.unavailable();
        assumeTrue(why == null, why);
        @SuppressWarnings("unchecked")
        ComboBox<String> iface = robot.lookup("#capture-interface").queryAs(ComboBox.class);
        robot.interact(() -> iface.getEditor().setText("mrgui-nonesuch"));
        robot.clickOn("#capture-start");
        Fx.until("the error", () -> !errors.isEmpty());
        assertEquals(List.of("no such interface 'mrgui-nonesuch' (list them with: metaroce capture -D)"), errors);
        assertFalse(robot.lookup("#capture-start").queryButton().isDisabled());
        assertTrue(robot.lookup("#capture-stop").queryButton().isDisabled());
    }

    /** Sends frames from..to of the file from namespace ns on iface in a separate JVM; returns what it printed (the count). */
    private static String send(String ns, String iface, Path file, int from, int to) throws IOException, InterruptedException {
        List<String> cmd = VethPair.javaIn(ns, LiveSender.class.getName(), iface, file.toString(),
                Integer.toString(from), Integer.toString(to));
        Path out = Files.createTempFile("gui-live-send", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the sender did not finish");
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8).strip();
            assertEquals(0, p.exitValue(), printed);
            return printed;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
