package io.metaroce.gui.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.AnalyzeOutput;
import io.metaroce.analysis.diagnosis.Finding;
import io.metaroce.gui.testutil.GuiHarness;
import io.metaroce.gui.testutil.Sample;
import io.metaroce.gui.testutil.WindowTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.TableRow;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * Statistics > Diagnosis and Graphs > Loss Timeline, headless (Monocle): the window shows what {@code analyze -T json}
 * concludes (its {@code diagnosis} and {@code loss_timeline}, computed here by analyze's own output code) and links
 * back to the packet list.
 */
class DiagnosisWindowTest extends WindowTestBase {

    @Start
    void start(Stage stage) { setUp(stage); }

    private static JsonNode analyzeJson(String scenario) throws Exception {
        StringBuilder out = new StringBuilder();
        AnalyzeOutput.write(Sample.path(scenario), AnalysisSettings.DEFAULT, AnalyzeOutput.Form.JSON, false, out);
        return new ObjectMapper().readTree(out.toString());
    }

    private DiagnosisWindow.View open(FxRobot robot, boolean onTimeline) {
        DiagnosisWindow.View[] v = new DiagnosisWindow.View[1];
        robot.interact(() -> v[0] = DiagnosisWindow.open(ctx, onTimeline));
        return v[0];
    }

    private DiagnosisWindow.View openOn(FxRobot robot, String scenario, boolean onTimeline) {
        GuiHarness.open(robot, ctx, scenario);
        DiagnosisWindow.View v = open(robot, onTimeline);
        GuiHarness.until("diagnosis of " + scenario, () -> v.result().get() != null);
        return v;
    }

    /** The finding rows are analyze's findings: rule, subject and start, in its order; the MR-DIAG rule beside. */
    @Test
    void findingsAreAnalyzesOnRetryExhausted(FxRobot robot) throws Exception {
        DiagnosisWindow.View v = openOn(robot, "rocev2-retry-exhausted", false);
        JsonNode want = analyzeJson("rocev2-retry-exhausted").get("diagnosis").get("findings");
        assertFalse(want.isEmpty());
        List<Finding> rows = new ArrayList<>(v.findings().getItems());
        assertEquals(want.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(want.get(i).get("rule").asText(), rows.get(i).rule());
            assertEquals(want.get(i).get("subject").asText(), rows.get(i).subject());
            assertEquals(want.get(i).get("started_ns").asLong(), rows.get(i).startedNs());
        }
        assertEquals("MR-DIAG-002", DiagnosisRun.ruleId(rows.getFirst().rule()));
        // The Started column in the packet list's format (seconds since the first frame by default).
        String started = (String) v.findings().getColumns().get(4).getCellData(0);
        assertEquals(io.metaroce.gui.TimeFormat.RELATIVE.format(rows.getFirst().startedNs(), v.result().get().firstNs(), 0), started);
        JsonNode hang = analyzeJson("rocev2-retry-exhausted").get("diagnosis").get("hang_snapshot").get("qps");
        assertEquals(hang.size(), v.hang().getItems().size());
        assertEquals(hang.get(0).get("flow").asText(), v.hang().getItems().getFirst().flow());
        assertEquals(analyzeJson("rocev2-retry-exhausted").get("diagnosis").get("time_split").size(), v.split().getItems().size());

        // Copy follows the tab: on Hang snapshot it copies that table (header and rows), on the chart it is off.
        List<List<String>> copied = new ArrayList<>();
        String[] label = new String[1];
        boolean[] offOnChart = new boolean[1];
        robot.interact(() -> {
            v.tabs().getSelectionModel().select(1);
            javafx.scene.control.MenuButton copy = (javafx.scene.control.MenuButton) v.stage().getScene().lookup("#table-copy");
            label[0] = copy.getText();
            copy.getItems().stream().filter(i -> "copy-csv".equals(i.getId())).findFirst().orElseThrow().fire();
            copied.addAll(TableCopy.parseCsv(javafx.scene.input.Clipboard.getSystemClipboard().getString()));
            v.tabs().getSelectionModel().select(DiagnosisWindow.TIMELINE_TAB);
            offOnChart[0] = copy.isDisabled();
        });
        assertEquals("Copy hang snapshot", label[0]);
        assertEquals(v.hang().getColumns().stream().map(c -> c.getText()).toList(), copied.getFirst());
        assertEquals(v.hang().getItems().size() + 1, copied.size());
        assertEquals(v.hang().getItems().getFirst().flow(), copied.get(1).get(copied.getFirst().indexOf("QP (requester)")));
        assertTrue(offOnChart[0], "the loss timeline is a chart: Save, not Copy");
    }

    /** The diagnosis sees the training steps as analyze does: the straggler's finding is in the window too. */
    @Test
    void stragglerIsAnalyzesOnStraggler(FxRobot robot) throws Exception {
        DiagnosisWindow.View v = openOn(robot, "rocev2-straggler", false);
        JsonNode want = analyzeJson("rocev2-straggler").get("diagnosis").get("findings");
        List<Finding> rows = new ArrayList<>(v.findings().getItems());
        assertEquals(want.size(), rows.size());
        boolean straggler = false;
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(want.get(i).get("rule").asText(), rows.get(i).rule());
            assertEquals(want.get(i).get("subject").asText(), rows.get(i).subject());
            straggler |= rows.get(i).rule().equals("step-straggler");
        }
        assertTrue(straggler, "analyze finds the straggler: " + want);
        assertEquals("MR-DIAG-024", DiagnosisRun.ruleId("step-straggler"));
    }

    /** A double-click on a finding selects its evidence frame; an evidence link selects its frame. */
    @Test
    void doubleClickAndEvidenceLinksSelectFrames(FxRobot robot) {
        DiagnosisWindow.View v = openOn(robot, "rocev2-retry-exhausted", false);
        Finding f = v.findings().getItems().getFirst();
        long primary = DiagnosisWindow.primary(f);
        assertTrue(primary > 0);
        TableRow<?> row = robot.from(v.findings()).lookup(".table-row-cell").match((TableRow<?> x) -> x.getIndex() == 0).query();
        robot.doubleClickOn(row);
        GuiHarness.until("selection of " + primary, () -> ctx.selectedFrame() == primary);
        long last = f.evidence().getLast();
        assertTrue(last != primary);
        Hyperlink link = robot.lookup("#evidence-" + last).queryAs(Hyperlink.class);
        robot.clickOn(link);
        GuiHarness.until("selection of " + last, () -> ctx.selectedFrame() == last);
    }

    /** "Filter on this QP" applies the display filter of the QP and its answers; the packet list shows just them. */
    @Test
    void filterOnThisQpSetsTheDisplayFilter(FxRobot robot) {
        DiagnosisWindow.View v = openOn(robot, "rocev2-retry-exhausted", false);
        Finding f = v.findings().getItems().getFirst();
        String peer = v.result().get().diagnosis().flows().get(f.subject());
        assertNotNull(peer, "the dead QP's answers are paired");
        int all = ctx.view().size();
        robot.clickOn("#diagnosis-filter");
        String want = "analysis.flow == \"" + f.subject() + "\" || analysis.flow == \"" + peer + "\"";
        GuiHarness.until("filter applied", () -> want.equals(ctx.appliedFilterProperty().get()) && !ctx.busyProperty().get());
        assertTrue(ctx.view().size() > 0 && ctx.view().size() < all, ctx.view().size() + " of " + all);
    }

    /**
     * An NCCL warning pasted in the lookup bar narrows the findings, hang snapshot and time split to its QPs, as
     * {@code analyze --nccl} does (the same DiagnosisOptions lookup); Show all brings the whole diagnosis back.
     */
    @Test
    void ncclWarningLooksUpItsQps(FxRobot robot) {
        DiagnosisWindow.View v = openOn(robot, "rocev2-peer-dead", false);
        io.metaroce.analysis.diagnosis.Diagnosis all = v.result().get().diagnosis();
        io.metaroce.analysis.diagnosis.Diagnosis want = new io.metaroce.analysis.diagnosis.DiagnosisOptions(null, null, "10.0.0.3").apply(all);
        assertTrue(want.timeSplit().size() < all.timeSplit().size() && !want.findings().isEmpty(), "the lookup narrows to the dead peer's QPs");
        // As a log prints it, with its time stamp: the bar says when it was logged against the capture.
        robot.interact(() -> v.nccl().setText("2026-01-01T00:00:01Z host:1:2 [0] NET/IB : Got completion from peer 192.168.1.3<4242> "
                + "with status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.3 hca mlx5_0"));
        robot.clickOn("#diagnosis-lookup");
        GuiHarness.until("lookup shown", () -> !v.lookup().getText().isEmpty());
        assertEquals(want.findings(), new ArrayList<>(v.findings().getItems()));
        assertEquals(want.hang().entries(), new ArrayList<>(v.hang().getItems()));
        assertEquals(want.timeSplit().size(), v.split().getItems().size());
        assertTrue(v.lookup().getText().contains("status 12 IBV_WC_RETRY_EXC_ERR"), v.lookup().getText());
        assertTrue(v.lookup().getText().contains("Lookup --peer 10.0.0.3: "), v.lookup().getText());
        assertTrue(v.lookup().getText().contains("\n    logged at 2026-01-01T00:00:01.000000Z, 0.99"), v.lookup().getText());
        assertTrue(v.lookup().getText().contains(" s after the capture's first frame"), v.lookup().getText());
        robot.clickOn("#diagnosis-show-all");
        GuiHarness.until("whole diagnosis back", () -> v.lookup().getText().isEmpty());
        assertEquals(all.findings(), new ArrayList<>(v.findings().getItems()));
        // Not a warning: said in the status line, the rows stay.
        robot.interact(() -> v.nccl().setText("NCCL INFO all fine"));
        robot.clickOn("#diagnosis-lookup");
        GuiHarness.until("refusal said", () -> v.status().getText().startsWith("Not an NCCL completion warning"));
        assertEquals(all.findings().size(), v.findings().getItems().size());
    }

    @Test
    void filtersForEachKindOfSubject() {
        assertEquals("analysis.flow == \"10.0.0.1>10.0.0.2/0x000020\"", DiagnosisWindow.filterFor("10.0.0.1>10.0.0.2/0x000020", null));
        assertEquals("ip.addr == 10.0.0.1 && ip.addr == 10.0.0.2", DiagnosisWindow.filterFor("10.0.0.1<>10.0.0.2", null));
        assertEquals("ipv6.src == fd00::1 && ipv6.dst == fd00::2", DiagnosisWindow.filterFor("fd00::1>fd00::2", null));
        assertNull(DiagnosisWindow.filterFor("switch port 3 class 3", null));
    }

    /** A clean capture: no row, "No problem found." where the rows would be. */
    @Test
    void cleanCaptureSaysNoProblemFound(FxRobot robot) throws Exception {
        DiagnosisWindow.View v = openOn(robot, "rocev2-clean", false);
        assertTrue(analyzeJson("rocev2-clean").get("diagnosis").get("findings").isEmpty());
        assertTrue(v.findings().getItems().isEmpty());
        assertEquals("No problem found.", robot.lookup("#diagnosis-empty").queryLabeled().getText());
        assertTrue(v.status().getText().startsWith("No problem found"), v.status().getText());
    }

    /**
     * The timeline's finer bins add up to analyze's columns, row by row, on two samples (timeouts; NAKs and
     * spurious resends left out); the pattern line is analyze's.
     */
    @Test
    void timelineTotalsAreAnalyzes(FxRobot robot) throws Exception {
        for (String scenario : List.of("rocev2-retry-exhausted", "metaroce-spray-lossy-path", "rocev2-ecn-cnp")) {
            DiagnosisWindow.View v = openOn(robot, scenario, true);
            DiagnosisRun r = v.result().get();
            JsonNode series = analyzeJson(scenario).get("loss_timeline").get("series");
            long any = 0;
            for (int k = 0; k < DiagnosisRun.SERIES.length; k++) {
                long want = 0;
                for (JsonNode x : series.get(DiagnosisRun.SERIES[k])) want += x.asLong();
                assertEquals(want, r.total(k), scenario + " " + DiagnosisRun.SERIES[k]);
                if (k > 0) any += want;
            }
            assertTrue(any > 0, scenario + " has losses or congestion to count");
            StringBuilder text = new StringBuilder();
            AnalyzeOutput.write(Sample.path(scenario), AnalysisSettings.DEFAULT, AnalyzeOutput.Form.TEXT, false, text);
            String pattern = v.pattern().getText();
            assertTrue(pattern.startsWith("Loss pattern: ") && text.toString().contains(pattern + "\n"), pattern);
            assertEquals(3, v.tabs().getSelectionModel().getSelectedIndex());
            if (scenario.equals("rocev2-retry-exhausted")) saveTimeline(robot, v, r);
            GuiHarness.closeWindows(robot);
        }
    }

    /**
     * The loss timeline's Save As...: the CSV has a row per finer bin and a column per count drawn, each adding up to
     * the run's total; the PNG is the chart at its size.
     */
    private static void saveTimeline(FxRobot robot, DiagnosisWindow.View v, DiagnosisRun r) throws Exception {
        javafx.scene.control.Button save = robot.lookup("#graph-save-as").queryButton();
        Path dir = Path.of("target/exports");
        Files.createDirectories(dir);
        for (String name : List.of("loss-timeline.csv", "loss-timeline.png")) {
            Path file = dir.resolve(name);
            Files.deleteIfExists(file);
            String[] error = {"not done"};
            robot.interact(() -> io.metaroce.gui.graph.GraphExport.saveTo(save, file, e -> error[0] = e));
            GuiHarness.until("saved " + name, () -> !"not done".equals(error[0]));
            assertNull(error[0]);
        }
        List<String> csv = Files.readAllLines(dir.resolve("loss-timeline.csv"));
        assertEquals(DiagnosisRun.FINE_BINS + 1, csv.size());
        List<Integer> rows = v.chart().rows();
        for (int i = 0; i < rows.size(); i++) {
            long sum = 0;
            for (String line : csv.subList(1, csv.size())) sum += Long.parseLong(line.split(",")[i + 1]);
            assertEquals(r.total(rows.get(i)), sum, DiagnosisRun.LABELS[rows.get(i)]);
        }
        java.awt.image.BufferedImage png = javax.imageio.ImageIO.read(dir.resolve("loss-timeline.png").toFile());
        assertEquals(Math.round(v.chart().getWidth()), png.getWidth());
        assertEquals(Math.round(v.chart().getHeight()), png.getHeight());
    }

    /** A click on a timeline column selects the first frame of that time in the packet list. */
    @Test
    void clickOnATimelineColumnSelectsItsFirstFrame(FxRobot robot) {
        DiagnosisWindow.View v = openOn(robot, "rocev2-retry-exhausted", true);
        GuiHarness.until("chart laid out", () -> v.chart().columns() > 8);
        int n = v.chart().columns();
        // The first column with a retransmission.
        long[] retx = v.result().get().columns(1, n);
        int c = 0;
        while (retx[c] == 0) c++;
        int want = v.result().get().firstFrameIn(c, n);
        assertTrue(want > 1);
        int col = c;
        robot.clickOn(GuiHarness.screen(v.chart(), v.chart().columnCenter(col), 20));
        GuiHarness.until("selection of " + want, () -> ctx.selectedFrame() == want);
    }

    /** Neither a file that is no capture nor a capture without frames makes the windows fail. */
    @Test
    void garbageAndEmptyCapturesOpenTheWindows(FxRobot robot, @TempDir Path dir) throws Exception {
        Path garbage = dir.resolve("garbage.pcap");
        Files.write(garbage, "this is not a capture at all, just text\n".repeat(10).getBytes());
        List<String> errors = new ArrayList<>();
        robot.interact(() -> ctx.setErrorSink(errors::add));
        robot.interact(() -> ctx.open(garbage));
        GuiHarness.until("garbage refused", () -> !errors.isEmpty());
        DiagnosisWindow.View g = open(robot, false);
        assertEquals("No capture is open.", robot.lookup("#diagnosis-empty").queryLabeled().getText());
        assertNull(g.result().get());
        assertEquals("No capture is open.", ((javafx.scene.control.Label) g.recovery().getPlaceholder()).getText());
        GuiHarness.closeWindows(robot);
        Path empty = dir.resolve("empty.pcap");
        // A pcap file header (microseconds, little-endian, Ethernet) and no record.
        Files.write(empty, new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                (byte) 0xff, (byte) 0xff, 0, 0, 1, 0, 0, 0});
        robot.interact(() -> ctx.open(empty));
        GuiHarness.until("empty capture open", () -> ctx.capture() != null && !ctx.busyProperty().get());
        DiagnosisWindow.View e = open(robot, true);
        GuiHarness.until("nothing to diagnose", () -> v(robot).startsWith("No frames"));
        assertNull(e.result().get());
        assertEquals("No frames: nothing to diagnose.", ((javafx.scene.control.Label) e.recovery().getPlaceholder()).getText());
    }

    /**
     * The Congestion loop tab lists analyze's congestion-loop rows with its verdicts and counts, on both congestion
     * samples; a double-click on a row opens the Congestion Loop graph of that flow.
     */
    @Test
    void congestionLoopTabIsAnalyzes(FxRobot robot) throws Exception {
        for (String scenario : List.of("rocev2-ecn-cnp", "rocev2-cnp-ignored")) {
            DiagnosisWindow.View v = openOn(robot, scenario, false);
            JsonNode want = analyzeJson(scenario).get("congestion_loop").get("flows");
            assertEquals(want.size(), v.loop().getItems().size(), scenario);
            java.util.Map<String, String> verdicts = new java.util.HashMap<>();
            for (JsonNode r : want) verdicts.put(r.get("flow").asText(), r.get("verdict").asText() + " " + r.get("ce_marks") + " " + r.get("cnps"));
            for (java.util.Map<String, Object> m : v.loop().getItems()) {
                assertEquals(verdicts.get(m.get("flow")), m.get("verdict") + " " + m.get("ce_marks") + " " + m.get("cnps"), scenario);
            }
            // The Verdict column shows it.
            assertEquals(v.loop().getItems().getFirst().get("verdict"), v.loop().getColumns().getLast().getCellData(0));
            assertTrue(v.pauses().getItems().isEmpty());
            assertEquals("No PAUSE or PFC frames in the capture.", ((javafx.scene.control.Label) v.pauses().getPlaceholder()).getText());
            GuiHarness.closeWindows(robot);
        }
        DiagnosisWindow.View v = openOn(robot, "rocev2-cnp-ignored", false);
        assertTrue(robot.lookup("#diagnosis-loop-notes").queryLabeled().getText().contains("cnp-ignored "));
        robot.interact(() -> v.tabs().getSelectionModel().select(DiagnosisWindow.LOOP_TAB));
        String flow = (String) v.loop().getItems().getFirst().get("flow");
        TableRow<?> row = robot.from(v.loop()).lookup(".table-row-cell").match((TableRow<?> x) -> x.getIndex() == 0).query();
        robot.doubleClickOn(row);
        GuiHarness.until("graph of " + flow, () -> robot.lookup("#cc-graph").tryQuery().map(n -> {
            var s = ((io.metaroce.gui.graph.CongestionGraph) n).series();
            return s != null && s.flowId().equals(flow);
        }).orElse(false));
    }

    /** A JSON value as analyze's text table prints it: "-" for null. */
    private static String cell(JsonNode n) { return n == null || n.isNull() ? "-" : n.asText(); }

    /**
     * The Recovery tab's rows are analyze's {@code recovery} senders, every column the number {@code analyze -T json}
     * gives (a go-back-to-the-message-start NIC and a go-back-N one).
     */
    @Test
    void recoveryTabIsAnalyzes(FxRobot robot) throws Exception {
        for (String scenario : List.of("rocev2-go-back-message-start", "rocev2-gbn-loss")) {
            DiagnosisWindow.View v = openOn(robot, scenario, false);
            JsonNode want = analyzeJson(scenario).get("recovery").get("senders");
            assertEquals(want.size(), v.recovery().getItems().size(), scenario);
            for (int i = 0; i < want.size(); i++) {
                JsonNode w = want.get(i);
                JsonNode tf = w.get("timeouts_from_oldest");
                List<String> expected = List.of(cell(w.get("sender")), cell(w.get("tap")), cell(w.get("naks")),
                        cell(w.get("from_nak_psn")), cell(w.get("earlier")) + " (" + cell(w.get("earlier_message_start")) + ")",
                        cell(w.get("later")), cell(w.get("not_answered")), cell(w.get("not_judged")), cell(w.get("extra_psns_median")),
                        w.get("nak_to_resend_ns_median").isNull() ? "-"
                                : String.format(java.util.Locale.ROOT, "%.3f", w.get("nak_to_resend_ns_median").asLong() / 1e3),
                        cell(w.get("timeouts")), w.get("timer_ns").isNull() ? "-"
                                : String.format(java.util.Locale.ROOT, "%.3f", w.get("timer_ns").asLong() / 1e3),
                        tf.isNull() ? "-" : tf.asLong() + "/" + (tf.asLong()
                                + w.get("timeouts_earlier").asLong() + w.get("timeouts_later").asLong()),
                        cell(w.get("verdict")));
                List<String> shown = new ArrayList<>();
                for (var c : v.recovery().getColumns()) shown.add(String.valueOf(c.getCellData(i)));
                assertEquals(expected, shown, scenario);
            }
            GuiHarness.closeWindows(robot);
        }
    }

    /**
     * On rocev2-go-back-message-start a double-click on the sender's row selects the first NAK it answered wrongly
     * (an Acknowledge from its peer, before every resend analyze gives as evidence) and "Go to its resend" the resend
     * that answered it: one of analyze's evidence frames, the first packet of a message, a few PSNs before the NAK's.
     * On rocev2-gbn-loss (every NAK answered from its PSN) there is nothing to go to.
     */
    @Test
    void recoveryRowGoesToTheFirstNakAnsweredWrongly(FxRobot robot) throws Exception {
        DiagnosisWindow.View v = openOn(robot, "rocev2-go-back-message-start", false);
        JsonNode sender = analyzeJson("rocev2-go-back-message-start").get("recovery").get("senders").get(0);
        assertEquals("go-back-message-start", sender.get("verdict").asText());
        long[] e = v.result().get().recoveryExample(sender.get("sender").asText());
        assertNotNull(e);
        assertEquals(io.metaroce.analysis.AnalysisResult.RECOVERY_EARLIER, e[2]);
        List<Long> evidence = new ArrayList<>();
        for (JsonNode f : sender.get("evidence_frames")) evidence.add(f.asLong());
        assertTrue(evidence.contains(e[1]), evidence + " " + e[1]);
        for (long f : evidence) assertTrue(e[0] < f, "the first NAK answered wrongly comes before every wrong resend");
        io.metaroce.dissector.Dissection nak = ctx.capture().index().dissect((int) e[0], new io.metaroce.dissector.Dissector(),
                new io.metaroce.dissector.Dissection());
        io.metaroce.dissector.Dissection resend = ctx.capture().index().dissect((int) e[1], new io.metaroce.dissector.Dissector(),
                new io.metaroce.dissector.Dissection());
        assertEquals(0x11, nak.opcodeValue());
        assertTrue(resend.opcodeValue() == 0x06 || resend.opcodeValue() == 0x00, "a message's first packet: " + resend.opcodeValue());
        int back = (nak.psn() - resend.psn()) & 0xFFFFFF;
        assertTrue(back > 0 && back < 16, "resent " + back + " PSNs before the NAK's");

        robot.interact(() -> v.tabs().getSelectionModel().select(DiagnosisWindow.RECOVERY_TAB));
        TableRow<?> row = robot.from(v.recovery()).lookup(".table-row-cell").match((TableRow<?> x) -> x.getIndex() == 0).query();
        robot.doubleClickOn(row.localToScreen(40, row.getHeight() / 2), javafx.scene.input.MouseButton.PRIMARY);
        GuiHarness.until("the NAK selected", () -> ctx.selectedFrame() == e[0]);
        assertTrue(v.status().getText().contains("frame " + e[0] + ", answered by a resend from before its PSN in frame " + e[1]),
                v.status().getText());
        robot.clickOn("#recovery-go-resend");
        GuiHarness.until("its resend selected", () -> ctx.selectedFrame() == e[1]);
        GuiHarness.closeWindows(robot);

        DiagnosisWindow.View g = openOn(robot, "rocev2-gbn-loss", false);
        assertNull(g.result().get().recoveryExample(String.valueOf(g.recovery().getItems().getFirst().get("sender"))));
        robot.interact(() -> g.tabs().getSelectionModel().select(DiagnosisWindow.RECOVERY_TAB));
        assertTrue(robot.lookup("#recovery-go-nak").queryButton().isDisabled());
    }

    /**
     * A row's context menu offers a jump per kind of wrong answer its sender has, and only those: the first resend from
     * before the NAK's PSN where analyze counts earlier answers, from after it where it counts later ones at the
     * sender's tap, the first unanswered NAK where it counts ignored ones (rocev2-nak-ignored, whose NAKs the sender
     * ignores, rocev2-go-back-message-start and conformance-violations' one late resend); each item selects its frame,
     * the NAK or the resend it names. A sender
     * without a wrong answer (rocev2-gbn-loss) gets one disabled item.
     */
    @Test
    void recoveryRowMenuHasAnExamplePerKind(FxRobot robot) throws Exception {
        int items = 0;
        java.util.Set<String> kinds = new java.util.TreeSet<>();
        for (String scenario : List.of("rocev2-nak-ignored", "rocev2-go-back-message-start", "conformance-violations", "rocev2-gbn-loss")) {
            DiagnosisWindow.View v = openOn(robot, scenario, false);
            robot.interact(() -> v.tabs().getSelectionModel().select(DiagnosisWindow.RECOVERY_TAB));
            JsonNode senders = analyzeJson(scenario).get("recovery").get("senders");
            for (int i = 0; i < senders.size(); i++) {
                JsonNode w = senders.get(i);
                String sender = w.get("sender").asText();
                List<String> want = new ArrayList<>();
                if (w.get("earlier").asLong() > 0) want.add("recovery-go-earlier");
                if (w.get("later").asLong() > 0 && "sender".equals(w.get("tap").asText())) want.add("recovery-go-later");
                if (w.get("not_answered").asLong() > 0) want.add("recovery-go-unanswered");
                int index = i;
                TableRow<?> row = robot.from(v.recovery()).lookup(".table-row-cell").match((TableRow<?> x) -> x.getIndex() == index).query();
                javafx.scene.control.ContextMenu menu = row.getContextMenu();
                List<String> ids = new ArrayList<>();
                for (javafx.scene.control.MenuItem m : menu.getItems()) if (m.getId() != null) ids.add(m.getId());
                assertEquals(want, ids, scenario + " " + sender);
                if (want.isEmpty()) {
                    assertEquals(1, menu.getItems().size());
                    assertTrue(menu.getItems().getFirst().isDisable());
                }
                for (javafx.scene.control.MenuItem m : menu.getItems()) {
                    if (m.getId() == null) continue;
                    int kind = m.getId().endsWith("earlier") ? io.metaroce.analysis.AnalysisResult.RECOVERY_EARLIER
                            : m.getId().endsWith("later") ? io.metaroce.analysis.AnalysisResult.RECOVERY_LATER
                            : io.metaroce.analysis.AnalysisResult.RECOVERY_NOT_ANSWERED;
                    long[] e = v.result().get().recoveryExample(sender, kind);
                    assertTrue(e != null && e[0] > 0 && e[1] > e[0], scenario + " " + m.getText());
                    long target = kind == io.metaroce.analysis.AnalysisResult.RECOVERY_NOT_ANSWERED ? e[0] : e[1];
                    assertEquals(RecoveryTab.menuText(kind) + " (frame " + target + ")", m.getText());
                    robot.interact(() -> ctx.select(1));
                    robot.interact(m::fire);
                    GuiHarness.until(m.getText(), () -> ctx.selectedFrame() == target);
                    io.metaroce.dissector.Dissection nak = ctx.capture().index().dissect((int) e[0],
                            new io.metaroce.dissector.Dissector(), new io.metaroce.dissector.Dissection());
                    assertEquals(0x11, nak.opcodeValue(), "the example's NAK is an Acknowledge: " + m.getText());
                    if (kind == io.metaroce.analysis.AnalysisResult.RECOVERY_NOT_ANSWERED) {
                        // analyze's evidence names each ignored NAK (the other evidence frames are resends): the
                        // example is the first of them, also when it was judged ignored only later (at the timer).
                        long firstIgnored = Long.MAX_VALUE;
                        for (JsonNode ev : w.get("evidence_frames")) {
                            io.metaroce.dissector.Dissection d = ctx.capture().index().dissect(ev.asInt(),
                                    new io.metaroce.dissector.Dissector(), new io.metaroce.dissector.Dissection());
                            if (d.opcodeValue() == 0x11) firstIgnored = Math.min(firstIgnored, ev.asLong());
                        }
                        assertEquals(firstIgnored, e[0], scenario + " " + w.get("evidence_frames"));
                    }
                    kinds.add(m.getId());
                    items++;
                }
            }
            // The double-click's example is the earliest NAK of the kinds the menu offers.
            String first = senders.get(0).get("sender").asText();
            long[] any = v.result().get().recoveryExample(first);
            for (int kind : DiagnosisRun.RECOVERY_KINDS) {
                long[] e = v.result().get().recoveryExample(first, kind);
                if (e != null) assertTrue(any != null && any[0] <= e[0], scenario);
            }
            GuiHarness.closeWindows(robot);
        }
        assertEquals(java.util.Set.of("recovery-go-earlier", "recovery-go-later", "recovery-go-unanswered"), kinds, "items: " + items);
    }

    /** A capture without a NAK or timeout go-back, and a MetaRoCE one (its QP 1 management flows are RoCEv2): the Recovery tab says why it is empty. */
    @Test
    void recoveryTabSaysWhyItIsEmpty(FxRobot robot) {
        DiagnosisWindow.View v = openOn(robot, "rocev2-clean", false);
        assertTrue(v.recovery().getItems().isEmpty());
        assertEquals(RecoveryTab.NONE, ((javafx.scene.control.Label) v.recovery().getPlaceholder()).getText());
        GuiHarness.closeWindows(robot);
        DiagnosisWindow.View m = openOn(robot, "metaroce-spray-lossy-path", false);
        assertTrue(m.recovery().getItems().isEmpty());
        assertEquals(RecoveryTab.META_ROCE, ((javafx.scene.control.Label) m.recovery().getPlaceholder()).getText());
    }

    /** A capture without CE marks, CNPs or pause frames: both tabs say there is nothing, in a sentence. */
    @Test
    void congestionAndFlowControlTabsWithoutEvidence(FxRobot robot) {
        DiagnosisWindow.View v = openOn(robot, "rocev2-clean", false);
        assertTrue(v.loop().getItems().isEmpty());
        assertEquals("No CE marks or CNPs in the capture: no congestion loop to judge.",
                ((javafx.scene.control.Label) v.loop().getPlaceholder()).getText());
        assertTrue(v.pauses().getItems().isEmpty());
        assertEquals("No PAUSE or PFC frames in the capture.", ((javafx.scene.control.Label) v.pauses().getPlaceholder()).getText());
    }

    /**
     * The Flow control tab on rocev2-ecn-cnp's frames followed by a PFC storm (class 3 paused for 250 ms by XOFFs every
     * 50 us): analyze's rows (sender, class, frames, paused share) with the storm it diagnoses; a double-click selects
     * the storm's first frame.
     */
    @Test
    void flowControlTabShowsAnalyzesPausesAndStorms(FxRobot robot, @TempDir Path dir) throws Exception {
        List<io.metaroce.testsupport.PauseFrames.Frame> l = new ArrayList<>();
        try (io.metaroce.capture.PacketSource src = io.metaroce.capture.CaptureFiles.open(Sample.path("rocev2-ecn-cnp"))) {
            while (src.next()) l.add(new io.metaroce.testsupport.PauseFrames.Frame(src.timestampNanos(),
                    src.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
        }
        long end = l.getLast().timeNanos();
        for (long t = end + 1_000; t <= end + 250_000_000L; t += 50_000) {
            l.add(new io.metaroce.testsupport.PauseFrames.Frame(t, io.metaroce.testsupport.PauseFrames.pfc(
                    io.metaroce.testsupport.PauseFrames.SWITCH_A, 0x08, 0, 0, 0, 65535)));
        }
        Path file = io.metaroce.testsupport.PauseFrames.write(dir.resolve("storm.pcap"), l);
        robot.interact(() -> ctx.open(file));
        GuiHarness.until("capture analyzed", () -> ctx.capture() != null && ctx.analysis() != null && ctx.analysisDone().isDone());
        DiagnosisWindow.View v = open(robot, false);
        GuiHarness.until("diagnosis", () -> v.result().get() != null);
        StringBuilder out = new StringBuilder();
        AnalyzeOutput.write(file, AnalysisSettings.DEFAULT, AnalyzeOutput.Form.JSON, false, out);
        JsonNode json = new ObjectMapper().readTree(out.toString());
        JsonNode classes = json.get("flow_control").get("classes");
        assertEquals(classes.size(), v.pauses().getItems().size());
        java.util.Map<String, Object> row = v.pauses().getItems().getFirst();
        assertEquals(classes.get(0).get("source").asText(), row.get("source"));
        assertEquals(classes.get(0).get("frames").asLong(), ((Number) row.get("frames")).longValue());
        assertEquals(String.format(java.util.Locale.ROOT, ">=%.2f", classes.get(0).get("paused_share").asDouble() * 100),
                v.pauses().getColumns().get(10).getCellData(0));
        long storms = 0;
        for (JsonNode f : json.get("diagnosis").get("findings")) if (f.get("rule").asText().equals("pfc-pause-storm")) storms++;
        assertEquals(1, storms);
        assertEquals(1, v.pauses().getColumns().get(12).getCellData(0));
        robot.interact(() -> v.tabs().getSelectionModel().select(DiagnosisWindow.PAUSE_TAB));
        TableRow<?> r = robot.from(v.pauses()).lookup(".table-row-cell").match((TableRow<?> x) -> x.getIndex() == 0).query();
        // On the row's Source cell (the row is wider than the window since the Stops column).
        robot.doubleClickOn(r.localToScreen(40, r.getHeight() / 2), javafx.scene.input.MouseButton.PRIMARY);
        long first = DiagnosisWindow.findings(v.result().get(), row, "pfc-pause-storm").getFirst().evidence().getFirst();
        GuiHarness.until("storm's first frame selected", () -> ctx.selectedFrame() == first);
    }

    /**
     * The Flow control tab names the flows each pause row stops: on rocev2-pfc-storm 10.0.0.1's NIC pauses class 3,
     * which stops 10.0.0.2's QP (priority 3, sent to that NIC) and not 10.0.0.3's QP on priority 4, sent to the same
     * NIC; on rocev2-pfc-heavy both QPs are on priority 3 and both are stopped. The frame counts are the frames of each
     * flow sent to the pause's source (counted here from dissect's fields).
     */
    @Test
    void flowControlRowsNameTheFlowsTheyStop(FxRobot robot) throws Exception {
        for (String scenario : List.of("rocev2-pfc-storm", "rocev2-pfc-heavy")) {
            DiagnosisWindow.View v = openOn(robot, scenario, false);
            GuiHarness.until("pause rows of " + scenario, () -> !v.pauses().getItems().isEmpty());
            java.util.Map<String, Object> row = v.pauses().getItems().getFirst();
            assertEquals("02:00:00:00:01:10", row.get("source"));
            assertEquals(3L, ((Number) row.get("class")).longValue());
            // Per flow sent to the source: its frames, and the priority of its frames.
            java.util.Map<String, long[]> sent = new java.util.TreeMap<>();
            io.metaroce.dissector.Dissector dis = new io.metaroce.dissector.Dissector();
            io.metaroce.dissector.Dissection d = new io.metaroce.dissector.Dissection();
            io.metaroce.analysis.FrameFacts facts = new io.metaroce.analysis.FrameFacts();
            for (int f = 1; f <= ctx.capture().frames(); f++) {
                ctx.capture().index().dissect(f, dis, d);
                facts.from(d);
                if (!facts.roce || macOf(ctx, f) != 0x020000000110L) continue;
                String id = new io.metaroce.analysis.FlowKey().set(facts.v6, facts.srcHi, facts.srcLo, facts.dstHi, facts.dstLo, facts.destQp).id();
                sent.computeIfAbsent(id, k -> new long[] {facts.pcp, 0})[1]++;
            }
            assertEquals(2, sent.size(), scenario + ": two QPs send to 10.0.0.1");
            String stops = (String) v.pauses().getColumns().get(2).getCellData(0);
            int listed = 0;
            for (java.util.Map.Entry<String, long[]> e : sent.entrySet()) {
                String item = e.getKey() + String.format(java.util.Locale.ROOT, " (%,d frames)", e.getValue()[1]);
                if (e.getValue()[0] == 3) {
                    assertTrue(stops.contains(item), scenario + ": " + item + " in " + stops);
                    listed++;
                } else {
                    assertFalse(stops.contains(e.getKey()), scenario + ": the priority-" + e.getValue()[0] + " QP " + e.getKey() + " in " + stops);
                }
            }
            assertEquals(scenario.equals("rocev2-pfc-heavy") ? 2 : 1, listed, scenario + ": " + stops);
            GuiHarness.closeWindows(robot);
        }
    }

    private static long macOf(io.metaroce.gui.GuiContext ctx, int frame) {
        byte[] b = ctx.capture().index().bytes(frame);
        long m = 0;
        for (int i = 0; i < 6; i++) m = (m << 8) | (b[i] & 0xFF);
        return m;
    }

    private static String v(FxRobot robot) { return robot.lookup("#diagnosis-empty").queryLabeled().getText(); }
}
