package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
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
 * say every frame was captured and none dropped. Capture > Start and Stop by their key (Shortcut+E), and a second
 * capture from Capture > Options... to a chosen file with a packet count.
 */
class CaptureToolbarTest extends GuiTestBase {
    private static final String SAMPLE = "rocev2-gbn-loss";

    /** Never at the same time as GuiMenusIT in the other fork: see ExclusiveUse. */
    private static io.metaroce.testsupport.ExclusiveUse keys;

    @org.junit.jupiter.api.BeforeAll
    static void alone() { keys = io.metaroce.testsupport.ExclusiveUse.acquire("gui-keys"); }

    @org.junit.jupiter.api.AfterAll
    static void done() { keys.close(); }

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
            MenuItem startItem = findItem(robot, "capture-menu-start"), stopItem = findItem(robot, "capture-menu-stop"),
                    restartItem = findItem(robot, "capture-menu-restart"), optionsItem = findItem(robot, "capture-menu-options");
            assertTrue(!startItem.isDisable() && stopItem.isDisable() && restartItem.isDisable() && !optionsItem.isDisable());
            // Capture > Start's key, Shortcut+E (Wireshark's), with the focus in the packet list.
            robot.interact(() -> table(robot).requestFocus());
            robot.push(KeyCode.SHORTCUT, KeyCode.E);
            Label counters = robot.lookup("#capture-counters").queryAs(Label.class);
            Fx.until("the capture to run", () -> counters.getText().startsWith(capIf + ": captured 0"),
                    () -> "counters '" + counters.getText() + "', errors " + errors + ", status '" + ctx.statusProperty().get() + "'");
            assertTrue(errors.isEmpty(), errors.toString());
            assertTrue(startItem.isDisable() && !stopItem.isDisable() && !restartItem.isDisable() && optionsItem.isDisable(),
                    "while capturing: Stop and Restart, not Start nor Options; " + counters.getText() + " " + errors + " " + ctx.statusProperty().get());
            assertTrue(robot.lookup("#capture-start").queryButton().isDisabled());

            int frames = Samples.frames(SAMPLE);
            Set<Integer> retx = new HashSet<>(Samples.labelled(SAMPLE, "retransmission"));
            int part = 150;     // the first part holds retransmissions (111..150), the second the rest
            assertTrue(retx.stream().anyMatch(f -> f <= part) && retx.stream().anyMatch(f -> f > part));
            long firstSent = System.nanoTime();
            assertEquals(Integer.toString(part), send(ns, sendIf, Samples.capture(SAMPLE), 1, part));
            // The rows arrive while the capture runs: no stop, no file opened.
            Fx.until("the first part listed", () -> table(robot).getItems().size() == part,
                    () -> table(robot).getItems().size() + " rows; " + counters.getText());
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
            robot.interact(() -> table(robot).requestFocus());
            robot.push(KeyCode.SHORTCUT, KeyCode.E);    // now Capture > Stop's

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
            assertTrue(!startItem.isDisable() && stopItem.isDisable() && restartItem.isDisable() && !optionsItem.isDisable());

            // Capture > Options... (the same veth pair: one capture more): the interface, an output file and "stop
            // after N packets" chosen in the dialog, Start there; more frames are sent than N: the file holds exactly
            // the first N, and it (not a temporary copy) opens in the window. The toolbar shows the interface the
            // dialog chose: they share one settings object.
            robot.interact(() -> iface.getEditor().setText(""));
            Path out = config.resolve("chosen.pcap");
            int n = 40;
            robot.interact(() -> findItem(robot, "capture-menu-options").fire());
            robot.interact(() -> {
                text(robot, "#capture-options-interfaces").setText(capIf);
                text(robot, "#capture-options-output").setText(out.toString());
                text(robot, "#capture-options-stop-packets").setText(Integer.toString(n));
                ((javafx.scene.control.RadioButton) robot.lookup("#capture-options-pcap").query()).setSelected(true);     // dumpcap -P
            });
            // The capture shown is the first one's temporary file: Start asks first, as Wireshark's; Cancel keeps it
            // and the dialog, "Continue without Saving" starts.
            List<String> asked = new java.util.ArrayList<>();
            CaptureSaving.Answer[] answer = {CaptureSaving.Answer.CANCEL};
            window.saving().setAsker((header, text, save, discard) -> {
                asked.add(header + " " + text);
                return answer[0];
            });
            robot.interact(() -> ((javafx.scene.control.Button) robot.lookup("#capture-options-start").query()).fire());
            assertEquals(List.of("Do you want to save the changes you've made to the capture file of the live capture before"
                    + " starting a new capture? Your captured packets will be lost if you don't save them."), asked);
            assertFalse(window.captureBar().capturingProperty().get(), "Cancel: no capture");
            assertTrue(robot.lookup("#capture-options-start").tryQuery().isPresent(), "Cancel: the dialog stays");
            answer[0] = CaptureSaving.Answer.DISCARD;
            robot.interact(() -> ((javafx.scene.control.Button) robot.lookup("#capture-options-start").query()).fire());
            Fx.until("the capture to run", () -> counters.getText().startsWith(capIf + ": captured 0"));
            assertTrue(errors.isEmpty(), errors.toString());
            assertEquals(2, asked.size());
            assertTrue(robot.lookup("#capture-options-start").tryQuery().isEmpty(), "the dialog closed");
            assertEquals(capIf, iface.getEditor().getText());
            assertEquals("100", send(ns, sendIf, Samples.capture(SAMPLE), 1, 100));
            Fx.until("the chosen file to open", () -> ctx.capture() != null && ctx.capture().file().equals(out) && ctx.analysis() != null && !ctx.busyProperty().get());
            assertTrue(errors.isEmpty(), errors.toString());
            assertEquals(out, ctx.capture().file(), "the chosen file, not a temporary one");
            assertEquals(n, ctx.capture().frames());
            int inFile = 0;
            try (PacketSource src = CaptureFiles.open(out)) {
                while (src.next()) inFile++;
            }
            assertEquals(n, inFile, "frames in " + out);
            byte[] magic = java.util.Arrays.copyOf(Files.readAllBytes(out), 4);
            assertArrayEquals(new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1}, magic, "Output format pcap: pcap's magic");
            assertFalse(window.captureBar().settings().pcapng, "the choice is kept with the capture settings");
            assertEquals("chosen.pcap - MetaRoCE Analyzer", stage.getTitle());
        }
    }

    /**
     * (In the unknown interface's test: its window.) No root needed: the Options dialog's capture filter turns green when libpcap compiles it for the interface's link
     * type and red with libpcap's message when not; Start with a bad setting says why in the dialog with the words of
     * {@code metaroce capture} and starts nothing; Close keeps the settings in the file beside colorfilters; the saved
     * capture filters (Wireshark's cfilters: comments, quoted names) are read, offered in the toolbar, written back,
     * and the shipped ones compile.
     */
    private void optionsCheckTheFilterRefuseWithTheCliWordsAndKeepTheSavedFilters(FxRobot robot) throws Exception {
        robot.interact(() -> findItem(robot, "capture-menu-options").fire());
        TextField filter = text(robot, "#capture-options-filter");
        Label filterMessage = robot.lookup("#capture-options-filter-message").queryAs(Label.class);
        robot.interact(() -> {
            text(robot, "#capture-options-interfaces").setText("lo");
            filter.setText("udp port 4791 or ether proto 0x8808");
        });
        assertEquals(CaptureFilterCheck.GOOD, filter.getStyle());
        assertEquals("", filterMessage.getText());
        robot.interact(() -> filter.setText("udp prot 4791"));
        assertEquals(CaptureFilterCheck.BAD, filter.getStyle());
        assertTrue(filterMessage.getText().startsWith("bad capture filter 'udp prot 4791': "), filterMessage.getText());
        robot.interact(() -> filter.setText("ether proto 0x8808"));

        Label message = robot.lookup("#capture-options-message").queryAs(Label.class);
        String[][] refused = {
                {"#capture-options-stop-packets", "0", "-c must be at least 1, not 0"},
                {"#capture-options-ring-kb", "0", "-b filesize:0: must be above 0"},
                {"#capture-options-stop-seconds", "-2", "-a duration:-2: must not be negative"},
                {"#capture-options-ring-files", "3", "-b files:N needs -b filesize:KB or -b duration:S"},
                {"#capture-options-ring-seconds", "10", "a ring buffer (-b) needs a file: choose one under Output"},
                {"#capture-options-stop-files", "2", "-a files:N needs a ring buffer (-b filesize or -b duration)"}};
        Path out = config.resolve("out.pcapng");
        for (String[] r : refused) {
            robot.interact(() -> {
                for (String id : List.of("#capture-options-stop-packets", "#capture-options-ring-kb", "#capture-options-stop-seconds",
                        "#capture-options-ring-files", "#capture-options-ring-seconds", "#capture-options-stop-files")) text(robot, id).setText("");
                text(robot, "#capture-options-output").setText(r[0].endsWith("stop-files") ? out.toString() : "");
                text(robot, r[0]).setText(r[1]);
                ((javafx.scene.control.Button) robot.lookup("#capture-options-start").query()).fire();
            });
            assertEquals(r[2], message.getText(), r[0] + " " + r[1]);
            assertFalse(window.captureBar().capturingProperty().get());
        }
        assertTrue(errors.isEmpty(), errors.toString());
        robot.interact(() -> ((javafx.scene.control.Button) robot.lookup(".dialog-pane .button:cancel").query()).fire());
        CaptureSettings kept = CaptureSettings.load(CaptureSettings.fileBeside(config.resolve("colorfilters")));
        assertEquals(List.of("lo", "ether proto 0x8808", out.toString(), "2"), List.of(kept.interfaces.get(), kept.filter.get(), kept.output, kept.stopFiles));
        assertEquals("ether proto 0x8808", text(robot, "#capture-filter").getText(), "the toolbar's filter is the dialog's");

        Path cfilters = config.resolve("cfilters");
        Files.writeString(cfilters, "# saved by Wireshark\n\"PFC only\" ether proto 0x8808\n\n\"RoCE, IPv6\"  ip6 and udp port 4791\n");
        List<FilterBookmarks.Bookmark> read = CaptureFilters.read(cfilters);
        assertEquals(List.of(new FilterBookmarks.Bookmark("PFC only", "ether proto 0x8808"),
                new FilterBookmarks.Bookmark("RoCE, IPv6", "ip6 and udp port 4791")), read);
        List<MenuItem> offered = window.captureBar().filterItems(f -> window.captureBar().settings().filter.set(f));
        assertEquals(List.of("PFC only: ether proto 0x8808", "RoCE, IPv6: ip6 and udp port 4791"), offered.stream().map(MenuItem::getText).toList());
        robot.interact(() -> offered.get(1).fire());
        assertEquals("ip6 and udp port 4791", text(robot, "#capture-filter").getText());
        List<FilterBookmarks.Bookmark> more = new java.util.ArrayList<>(read);
        more.add(new FilterBookmarks.Bookmark("Said \"hi\"", "udp"));
        CaptureFilters.write(cfilters, more);
        assertTrue(Files.readString(cfilters).startsWith("# "), "a comment line first");
        assertTrue(Files.readAllLines(cfilters).contains("\"Said 'hi'\" udp"), Files.readString(cfilters));
        assertEquals(3, CaptureFilters.read(cfilters).size());
        for (FilterBookmarks.Bookmark b : CaptureFilters.DEFAULTS) assertEquals(null, CaptureFilters.check(b.filter()), b.toString());
        Files.delete(cfilters);
        assertEquals(CaptureFilters.DEFAULTS, CaptureFilters.read(cfilters), "no file: the shipped filters");
        robot.interact(() -> {     // the next capture of this window: no stop condition left from the refusals
            window.captureBar().settings().stopFiles = "";
            window.captureBar().settings().output = "";
        });
    }

    private static TextField text(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(TextField.class);
    }

    @Test
    void anUnknownInterfaceIsOneMessageAndNothingStarts(FxRobot robot) throws Exception {
        optionsCheckTheFilterRefuseWithTheCliWordsAndKeepTheSavedFilters(robot);     // needs no root: first
        errors.clear();
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
