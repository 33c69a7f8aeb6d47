package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapWriter;
import io.metaroce.dissector.DecodeAs;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.dissector.Icrc;
import io.metaroce.dissector.IcrcStatus;
import io.metaroce.gui.stats.ConversationRow;
import io.metaroce.gui.stats.ConversationsWindow;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Udp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * {@code metaroce gui -r FILE -Y FILTER}: the capture opens with the filter applied once its frames are in, the filter
 * bar showing it, as Wireshark's {@code -Y} does (MetaRoceApp hands the parsed command line to MainWindow#open).
 * {@code metaroce gui -d udp.port==N,roce} and Analyze > Decode As: RoCE on another UDP port is dissected and analyzed.
 */
class CommandLineFilterTest extends GuiTestBase {
    /** Where the sample with its RoCE moved to UDP port 4792 is written. */
    @TempDir
    Path tmp;

    @Start
    void start(Stage s) throws Exception { setUp(s); }

    private Set<Integer> shown() {
        Set<Integer> shown = new HashSet<>();
        for (int r = 0; r < ctx.view().size(); r++) shown.add(ctx.view().frameAt(r));
        return shown;
    }

    @Test
    void aFilterOnAnalysisFieldsWaitsForTheAnalysisAndShowsOnlyItsFrames(FxRobot robot) throws Exception {
        String name = "rocev2-gbn-loss";
        GuiArgs args = GuiArgs.parse(new String[] {"-r", Samples.capture(name).toString(), "-Y", "analysis.retransmission"});
        robot.interact(() -> window.open(args.file(), args.filter()));
        assertEquals("analysis.retransmission", window.filterBar().editor().getText(), "the bar shows it from the start");
        Fx.until("filtered after the analysis", () -> ctx.analysis() != null && !ctx.busyProperty().get() && !ctx.view().isAll());
        Set<Integer> expected = new HashSet<>(Samples.labelled(name, "retransmission"));
        assertTrue(!expected.isEmpty() && expected.size() < Samples.frames(name), "the sample has some retransmissions");
        assertEquals(expected, shown());
        assertEquals(expected.size(), table(robot).getItems().size());
        assertEquals("analysis.retransmission", ctx.appliedFilterProperty().get());
        assertEquals("analysis.retransmission", window.filterBar().editor().getText());
        assertEquals(List.of(), errors);
    }

    @Test
    void aFilterOnHeaderFieldsAppliesOnceTheFramesAreIn(FxRobot robot) throws Exception {
        String name = "rocev2-gbn-loss";
        GuiArgs args = GuiArgs.parse(new String[] {Samples.capture(name).toString(), "-Y", "bth.opcode == rc_acknowledge"});
        robot.interact(() -> window.open(args.file(), args.filter()));
        Fx.until("filtered", () -> ctx.analysis() != null && !ctx.busyProperty().get() && !ctx.view().isAll());
        assertTrue(ctx.view().size() > 0 && ctx.view().size() < Samples.frames(name), "some frames, not all: " + ctx.view().size());
        for (int r = 0; r < ctx.view().size(); r++) assertTrue(cell(robot, ctx.view().frameAt(r), "Info").startsWith("RC Acknowledge"));
        assertEquals("bth.opcode == rc_acknowledge", window.filterBar().editor().getText());
        assertEquals(List.of(), errors);
        // A file opened afterwards from the menu starts unfiltered, as before.
        open(robot, "rocev2-clean");
        assertTrue(ctx.view().isAll());
        assertEquals("", window.filterBar().editor().getText());
    }

    /**
     * {@code gui FILE} and {@code gui -d udp.port==4792,roce FILE}, with the sample's RoCE moved to port 4792: plain,
     * its frames are UDP and nothing is analyzed; with -d, they are the RoCE frames of the sample (the same Info,
     * BTH fields and good ICRCs) and QP Conversations lists the flows analyze -d lists, the sample's own.
     */
    @Test
    void decodeAsOnTheCommandLineDecodesAnotherPortAsRoce(FxRobot robot) throws Exception {
        Path moved = onPort4792("rocev2-gbn-loss");
        openAsTheAppDoes(robot, moved.toString());
        assertEquals("UDP", cell(robot, 1, "Protocol"));
        assertEquals("", cell(robot, 1, "PSN"));
        assertEquals(List.of(), ctx.analysis().flows(), "no RoCE, no flow");

        openAsTheAppDoes(robot, "-d", "udp.port==4792,roce", moved.toString());
        assertEquals(Set.of(4791, 4792), ctx.settings().rocePorts());
        assertEquals(Set.of(4791, 4792), FrameDecoder.config(ctx.capture().index()).roceUdpPorts(),
                "the ports the statistics windows' own passes dissect with");
        assertSameFramesAsTheSample(robot, "rocev2-gbn-loss");
        assertEquals(analyzeFlows(moved, List.of("udp.port==4792,roce")), conversations(robot));
        assertEquals(analyzeFlows(Samples.capture("rocev2-gbn-loss"), List.of()), conversations(robot), "the sample's own flows");
        assertEquals(List.of(), errors);
    }

    /**
     * The packet list's Decode As... (prefilled with the selected packet's UDP port 4792) and OK: the capture opens
     * again decoded, its display filter and selected packet kept; a mistake is said in the commands' words.
     */
    @Test
    void decodeAsDialogOpensTheCaptureAgainWithTheFilterAndSelectionKept(FxRobot robot) throws Exception {
        Path moved = onPort4792("rocev2-gbn-loss");
        openAsTheAppDoes(robot, moved.toString(), "-Y", "frame.number <= 40");
        Fx.until("filtered", () -> !ctx.busyProperty().get() && ctx.view().size() == 40);
        robot.interact(() -> ctx.select(7));
        MenuItem item = table(robot).getContextMenu().getItems().stream()
                .filter(i -> "list-decode-as".equals(i.getId())).findFirst().orElseThrow();
        robot.interact(item::fire);
        TextField port = robot.lookup("#decode-as-port").queryAs(TextField.class);
        assertEquals("4792", port.getText(), "the selected packet's UDP destination port");
        TableView<?> ports = robot.lookup("#decode-as-table").queryAs(TableView.class);
        assertEquals(List.of(4791), List.copyOf(ports.getItems()));
        Button add = robot.lookup("#decode-as-add").queryAs(Button.class);
        robot.interact(() -> {
            port.setText("udp.port==x,roce");
            add.fire();
        });
        assertEquals("-d expects udp.port==N,roce (or infiniband), not 'udp.port==x,roce'",
                robot.lookup("#decode-as-problem").queryAs(Label.class).getText(), "analyze -d's line");
        assertEquals(List.of(4791), List.copyOf(ports.getItems()));
        robot.interact(() -> {
            port.setText("4792");
            add.fire();
        });
        assertEquals(List.of(4791, 4792), List.copyOf(ports.getItems()));
        assertEquals(Set.of(4791), ctx.settings().rocePorts(), "nothing changes before OK");
        DialogPane pane = (DialogPane) port.getScene().getRoot();
        robot.interact(() -> ((Button) pane.lookupButton(ButtonType.OK)).fire());
        Fx.until("opened again and analyzed", () -> ctx.analysis() != null && !ctx.busyProperty().get()
                && ctx.view().size() == 40 && ctx.selectedFrame() == 7);
        assertEquals(Set.of(4791, 4792), ctx.settings().rocePorts());
        assertEquals("frame.number <= 40", ctx.appliedFilterProperty().get());
        assertEquals("frame.number <= 40", window.filterBar().editor().getText());
        assertSameFramesAsTheSample(robot, "rocev2-gbn-loss");
        assertEquals(analyzeFlows(moved, List.of("4792")), conversations(robot));
        assertEquals(List.of(), errors);
    }

    /**
     * Decode As > Save: the capture opens again decoded and the QP Conversations window already open lists its flows
     * (Wireshark retaps its open dialogs), the marks stay; the table is written in Wireshark's decode_as_entries
     * format beside the coloring rules, and the next main window on that config starts with it.
     */
    @Test
    void decodeAsSaveKeepsThePortsAndOpenWindowsFollow(FxRobot robot) throws Exception {
        Path moved = onPort4792("rocev2-gbn-loss");
        openAsTheAppDoes(robot, moved.toString());
        io.metaroce.gui.graph.PsnGraph[] psn = {null};
        robot.interact(() -> {
            ctx.setMarked(new int[] {3, 5}, true);
            new ConversationsWindow().open(ctx);
            psn[0] = io.metaroce.gui.graph.PsnGraphWindow.open(ctx, null);
            new io.metaroce.gui.stats.DiagnosisWindow().open(ctx);
        });
        @SuppressWarnings("unchecked")
        TableView<ConversationRow> t = robot.lookup("#conversations-table").queryAs(TableView.class);
        Fx.until("no flow on plain UDP", () -> robot.lookup(".label").queryAllAs(Label.class).stream()
                .anyMatch(l -> "0 flows".equals(l.getText())));
        Label psnStatus = robot.lookup("#psn-status").queryAs(Label.class);
        Fx.until("no flow to graph on plain UDP", () -> "No flow with data packets".equals(psnStatus.getText()));
        Label diagnosis = robot.lookup("#diagnosis-status").queryAs(Label.class);
        @SuppressWarnings("unchecked")
        TableView<Object> findings = robot.lookup("#diagnosis-findings").queryAs(TableView.class);
        Fx.until("nothing to diagnose on plain UDP", () -> "No problem found".equals(diagnosis.getText()));

        robot.interact(() -> DecodeAsDialog.show(ctx));
        TextField port = robot.lookup("#decode-as-port").queryAs(TextField.class);
        robot.interact(() -> {
            port.setText("udp.port==4792,roce");
            robot.lookup("#decode-as-add").queryAs(Button.class).fire();
        });
        robot.interact(() -> robot.lookup("#decode-as-save").queryAs(Button.class).fire());
        Fx.until("opened again, analyzed, and the open window computed again",
                () -> ctx.analysis() != null && !ctx.busyProperty().get() && !t.getItems().isEmpty());
        Set<String> ids = new TreeSet<>();
        for (ConversationRow r : t.getItems()) ids.add(r.id());
        assertEquals(analyzeFlows(moved, List.of("4792")), ids);
        assertEquals(List.of(3, 5), java.util.Arrays.stream(ctx.markedFrames()).boxed().toList(), "marks kept");
        // The PSN graph opened before follows too: its flows are the decoded capture's, drawn from the new capture.
        @SuppressWarnings("unchecked")
        javafx.scene.control.ComboBox<FlowSummary> psnFlows = robot.lookup("#psn-flow").queryAs(javafx.scene.control.ComboBox.class);
        Fx.until("the PSN graph drawn again", () -> psn[0].series() != null && psnStatus.getText().endsWith(" data packets"));
        robot.interact(() -> {
            assertTrue(!psnFlows.getItems().isEmpty() && ids.containsAll(psnFlows.getItems().stream().map(FlowSummary::id).toList()),
                    psnFlows.getItems().toString());
            assertEquals(psnFlows.getValue().id(), psn[0].series().flowId());
        });
        // So does the Diagnosis window: the decoded capture's findings.
        Fx.until("diagnosed again", () -> !findings.getItems().isEmpty() && diagnosis.getText().endsWith("evidence frame)"));
        robot.interact(() -> {
            t.getScene().getWindow().hide();
            psn[0].getScene().getWindow().hide();
            findings.getScene().getWindow().hide();
        });

        Path saved = config.resolve("decode_as_entries");
        assertTrue(Files.readAllLines(saved).contains("decode_as_entry: udp.port,4792,(none),InfiniBand"), Files.readString(saved));
        Set<Integer> next = new HashSet<>();
        robot.interact(() -> {
            GuiContext again = new GuiContext(new Stage());
            new MainWindow(again, config.resolve("colorfilters"), config.resolve("recent"));
            next.addAll(again.settings().rocePorts());
        });
        assertEquals(Set.of(4791, 4792), next, "the next session starts with the saved table");

        // A file copied from Wireshark: its comments and other tables stay when the analyzer saves over it.
        Files.writeString(saved, "# Wireshark's header\ndecode_as_entry: tcp.port,8080,(none),HTTP\n"
                + "decode_as_entry: udp.port,4793,(none),InfiniBand\ndecode_as_entry: udp.port,x,(none),RoCE\n");
        DecodeAsEntries read = DecodeAsEntries.load(saved);
        assertEquals(Set.of(4793), read.ports());
        assertEquals(null, read.save(saved, List.of(4791, 4794)));
        assertEquals(List.of("# Wireshark's header", "decode_as_entry: tcp.port,8080,(none),HTTP",
                "decode_as_entry: udp.port,4794,(none),InfiniBand"), Files.readAllLines(saved));
        assertEquals(List.of(), errors);
    }

    /**
     * Edit > Preferences > Protocols > RoCEv2 and Edit > Configuration Profiles on a small sample moved to UDP port 4792:
     * a bad port is refused with -d's words and saves nothing; 4792 decodes the open capture and is saved in the
     * Default profile's decode_as_entries. A copy of Default (a bad name refused first) given its own coloring rules
     * and saved filters: switching to it colours the open list with its rules and gives the filter bar its bookmarks,
     * without opening the capture again (the same Decode As ports); back to Default from the status bar's menu.
     */
    @Test
    void preferencesAndProfilesApplyToTheOpenCapture(FxRobot robot) throws Exception {
        Path moved = onPort4792("rocev2-read-atomic");
        openAsTheAppDoes(robot, moved.toString());
        @SuppressWarnings("unchecked")
        javafx.scene.control.Dialog<ButtonType>[] prefs = new javafx.scene.control.Dialog[1];
        robot.interact(() -> prefs[0] = PreferencesDialog.show(window));
        @SuppressWarnings("unchecked")
        javafx.scene.control.TreeView<String> pages = robot.lookup("#prefs-pages").queryAs(javafx.scene.control.TreeView.class);
        robot.interact(() -> pages.getSelectionModel().select(pages.getRoot().getChildren().get(2).getChildren().getFirst()));
        robot.interact(() -> {
            robot.lookup("#prefs-roce-ports").queryAs(TextField.class).setText("4792, 70000");
            robot.lookup("#prefs-ok").queryAs(Button.class).fire();
        });
        Label problem = robot.lookup("#prefs-problem").queryAs(Label.class);
        String refused = problem.getText();
        assertTrue(refused.startsWith("RoCEv2: ") && refused.contains("70000"), refused);
        assertTrue(prefs[0].isShowing(), "the dialog stays open on a bad value");
        assertEquals(Set.of(4791), ctx.settings().rocePorts());
        assertTrue(!Files.exists(config.resolve("decode_as_entries")), "nothing saved");
        robot.interact(() -> {
            robot.lookup("#prefs-roce-ports").queryAs(TextField.class).setText("udp.port==4792,roce");
            pages.getSelectionModel().select(pages.getRoot().getChildren().get(1));
        });
        robot.interact(() -> {
            robot.lookup("#prefs-snaplen").queryAs(TextField.class).setText("0");
            robot.lookup("#prefs-ok").queryAs(Button.class).fire();
        });
        assertEquals("Capture: snap length must be at least 1, not 0", problem.getText(), "the capture command's words");
        assertTrue(!Files.exists(config.resolve("decode_as_entries")) && !Files.exists(config.resolve("capture")), "nothing saved");
        robot.interact(() -> {
            robot.lookup("#prefs-snaplen").queryAs(TextField.class).setText("128");
            pages.getSelectionModel().select(pages.getRoot().getChildren().getFirst());
        });
        robot.interact(() -> {
            robot.lookup("#prefs-beside").queryAs(javafx.scene.control.CheckBox.class).setSelected(true);
            robot.lookup("#prefs-ok").queryAs(Button.class).fire();
        });
        assertTrue(!prefs[0].isShowing(), problem.getText());
        assertEquals("128", window.captureBar().settings().snapLength);
        assertTrue(Files.readAllLines(config.resolve("capture")).contains("capture.snaplen: 128"));
        assertTrue(Files.readAllLines(config.resolve("preferences")).contains("gui.packet_details_beside_list: TRUE"));
        assertEquals(javafx.geometry.Orientation.HORIZONTAL, window.panes().getOrientation());
        Fx.until("decoded again", () -> ctx.analysis() != null && !ctx.busyProperty().get()
                && FrameDecoder.config(ctx.capture().index()).roceUdpPorts().contains(4792));
        assertEquals("RoCEv2", cell(robot, 1, "Protocol"));
        assertTrue(Files.readAllLines(config.resolve("decode_as_entries")).contains("decode_as_entry: udp.port,4792,(none),InfiniBand"));

        // Edit > Configuration Profiles...: a bad name, then Copy of Default (its Decode As too), given rules of its own.
        robot.interact(() -> ProfilesDialog.show(window));
        TextField name = robot.lookup("#profiles-name").queryAs(TextField.class);
        robot.interact(() -> {
            name.setText("fabric/b");
            robot.lookup("#profiles-copy").queryAs(Button.class).fire();
        });
        assertEquals("A profile name cannot contain '/'.", robot.lookup("#profiles-problem").queryAs(Label.class).getText());
        robot.interact(() -> {
            name.setText("fabric-b");
            robot.lookup("#profiles-copy").queryAs(Button.class).fire();
        });
        Path folder = config.resolve("profiles").resolve("fabric-b");
        assertEquals(Files.readAllLines(config.resolve("decode_as_entries")), Files.readAllLines(folder.resolve("decode_as_entries")));
        ColoringRules.Rule all = new ColoringRules.Rule("Everything", "frame.number >= 1", "#000000", "#123456", true);
        new ColoringRules(List.of(all)).save(folder.resolve("colorfilters"));
        FilterBookmarks.write(folder.resolve("dfilters"), List.of(new FilterBookmarks.Bookmark("NAKs", "aeth.syndrome.type == 3")));
        @SuppressWarnings("unchecked")
        javafx.scene.control.ListView<String> list = robot.lookup("#profiles-list").queryAs(javafx.scene.control.ListView.class);
        int reopened = ctx.redissectionsProperty().get();
        OpenCapture open = ctx.capture();
        robot.interact(() -> {
            assertEquals(List.of("Default", "fabric-b"), List.copyOf(list.getItems()));
            list.getSelectionModel().select("fabric-b");
            robot.lookup("#profiles-ok").queryAs(Button.class).fire();
        });
        assertEquals("Profile: fabric-b", robot.lookup("#status-profile").queryAs(Label.class).getText());
        assertEquals(List.of(all), ctx.coloringRules().rules());
        Fx.until("the list coloured by the profile's rule", () -> row(robot, 1).getStyle().contains("#123456"));
        assertEquals(List.of(new FilterBookmarks.Bookmark("NAKs", "aeth.syndrome.type == 3")), window.filterBar().bookmarks());
        assertTrue(ctx.capture() == open && ctx.redissectionsProperty().get() == reopened,
                "the same Decode As ports: the capture is not opened again (Wireshark's)");
        assertEquals("fabric-b", new Profiles(config).lastUsed(), "the next start opens it");

        // Back through the status bar's menu: Default's rules and filters again.
        robot.interact(() -> {
            List<MenuItem> items = ProfilesDialog.switchItems(window);
            assertEquals(List.of("Default", "fabric-b"), items.subList(0, 2).stream().map(MenuItem::getText).toList());
            assertTrue(((javafx.scene.control.RadioMenuItem) items.get(1)).isSelected());
            items.getFirst().fire();
        });
        assertEquals(ColoringRules.defaults().rules(), ctx.coloringRules().rules());
        assertEquals(FilterBookmarks.DEFAULTS, window.filterBar().bookmarks());
        assertEquals("Profile: Default", robot.lookup("#status-profile").queryAs(Label.class).getText());
        assertEquals(List.of(), errors);
    }

    /**
     * Analyze > Enabled Protocols: RoCE (bth) unchecked, OK opens the capture again with its frames as plain UDP (the
     * Protocol column says so, no flow is analyzed), the choice is in the profile's disabled_protos, and the next
     * main window on that config starts with it (the dialog shows it unchecked); MetaRoCE's box is greyed out.
     */
    @Test
    void enabledProtocolsSwitchRoceOffAndTheProfileKeepsIt(FxRobot robot) throws Exception {
        openAsTheAppDoes(robot, Samples.capture("rocev2-gbn-loss").toString());
        assertEquals("RoCEv2", cell(robot, 5, "Protocol"));
        Path file = config.resolve(EnabledProtocolsDialog.FILE_NAME);
        javafx.scene.control.Dialog<?>[] dialog = {null};
        robot.interact(() -> dialog[0] = EnabledProtocolsDialog.show(ctx, file));
        robot.interact(() -> {
            assertTrue(robot.lookup("#proto-mrth").queryAs(javafx.scene.control.CheckBox.class).isDisabled(), "MetaRoCE: dissect only");
            robot.lookup("#proto-search").queryAs(TextField.class).setText("base transport");
            robot.lookup("#proto-invert").queryAs(Button.class).fire();
            assertFalse(robot.lookup("#proto-bth").queryAs(javafx.scene.control.CheckBox.class).isSelected());
            ((Button) dialog[0].getDialogPane().lookupButton(ButtonType.OK)).fire();
        });
        Fx.until("opened again as UDP", () -> ctx.analysis() != null && !ctx.busyProperty().get() && "UDP".equals(cell(robot, 5, "Protocol")));
        assertEquals(Set.of(), ctx.settings().rocePorts(), "no port decoded as RoCE");
        assertEquals(Set.of(4791), ctx.decodeAsPorts(), "Decode As' own table unchanged");
        assertEquals(List.of("bth"), Files.readAllLines(file).stream().filter(l -> !l.startsWith("#")).toList());
        Set<String> next = new HashSet<>();
        boolean[] unchecked = {false};
        robot.interact(() -> {
            GuiContext again = new GuiContext(new Stage());
            new MainWindow(again, config.resolve("colorfilters"), config.resolve("recent"));
            next.addAll(again.protocolsOff());
            var d = EnabledProtocolsDialog.show(again, file);
            unchecked[0] = !((javafx.scene.control.CheckBox) d.getDialogPane().lookup("#proto-bth")).isSelected();
            d.close();
        });
        assertEquals(Set.of("bth"), next, "the next session starts with RoCE off");
        assertTrue(unchecked[0], "and its dialog shows it");
        assertEquals(List.of(), errors);
    }

    /**
     * What MetaRoceApp does with the command line: its -d ports first (added to those Decode As saved), then the
     * capture and its filter.
     */
    private void openAsTheAppDoes(FxRobot robot, String... args) throws Exception {
        GuiArgs a = GuiArgs.parse(args);
        robot.interact(() -> {
            Set<Integer> ports = new HashSet<>(ctx.settings().rocePorts());
            ports.addAll(a.rocePorts());
            ctx.decodeAs(ports);
            window.open(a.file(), a.filter());
        });
        Fx.until("analysis", () -> ctx.analysis() != null && !ctx.busyProperty().get());
    }

    /** The shown frames (the first 40) have the sample's Protocol, QP, PSN and Info, and their ICRC is good. */
    private void assertSameFramesAsTheSample(FxRobot robot, String sample) throws Exception {
        List<String[]> expected = new ArrayList<>();
        try (PacketSource src = CaptureFiles.open(Samples.capture(sample))) {
            FrameIndex ix = FrameIndex.build(src);
            for (int f = 1; f <= 40; f++) {
                Dissection d = ix.dissect(f, new Dissector(), new Dissection());
                expected.add(new String[] {d.isRoce() ? "RoCEv2" : "?", String.valueOf(d.psn())});
            }
        }
        for (int f = 1; f <= 40; f++) {
            assertEquals(expected.get(f - 1)[0], cell(robot, f, "Protocol"), "frame " + f);
            assertEquals(expected.get(f - 1)[1], cell(robot, f, "PSN"), "frame " + f);
            assertTrue(!cell(robot, f, "Info").contains("ICRC"), cell(robot, f, "Info"));
        }
        Dissection d = new FrameDecoder(ctx.capture().index(), ctx.analysis()).decode(1);
        assertEquals(IcrcStatus.GOOD, d.icrcStatus(), "the moved frames' ICRC was recomputed");
    }

    /** The flow ids QP Conversations lists. */
    private Set<String> conversations(FxRobot robot) {
        robot.interact(() -> new ConversationsWindow().open(ctx));
        @SuppressWarnings("unchecked")
        TableView<ConversationRow> t = robot.lookup("#conversations-table").queryAs(TableView.class);
        Fx.until("conversation rows", () -> !t.getItems().isEmpty());
        Set<String> ids = new TreeSet<>();
        for (ConversationRow r : t.getItems()) ids.add(r.id());
        robot.interact(() -> t.getScene().getWindow().hide());
        return ids;
    }

    /** The flow ids {@code metaroce analyze -r file -d ...} lists: its settings, its ports from the same parser. */
    private static Set<String> analyzeFlows(Path file, List<String> decodeAs) throws Exception {
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT.withPorts(DecodeAs.ports(decodeAs)), AnalysisSession.Options.RESULTS);
        Set<String> ids = new TreeSet<>();
        for (FlowSummary f : s.run(file).flows()) ids.add(f.id());
        assertTrue(!ids.isEmpty(), "flows in " + file);
        return ids;
    }

    /**
     * The sample with its RoCEv2 frames sent to UDP port 4792 instead of 4791, as pcap: a lab's other port. The ICRC
     * covers the UDP ports (rocev2-facts.md section 5), so it is computed again: the frames are as good as before.
     */
    private Path onPort4792(String sample) throws Exception {
        Path out = tmp.resolve(sample + "-4792.pcap");
        Icrc icrc = new Icrc();
        Dissector dissector = new Dissector(new DissectorConfig(Set.of(4791), false));
        int moved = 0;
        try (PacketSource src = CaptureFiles.open(Samples.capture(sample));
             PcapWriter w = PcapWriter.create(out, CaptureFormat.PCAP_NS, 1, 65535)) {
            FrameIndex ix = FrameIndex.build(src);
            Dissection d = new Dissection();
            for (int f = 1; f <= ix.size(); f++) {
                byte[] b = ix.bytes(f);
                ix.dissect(f, dissector, d);
                int udp = d.offsetOf(Udp.HEADER);
                if (d.isRoce() && udp >= 0 && d.icrcOffset() > 0) {
                    b[udp + 2] = (byte) (4792 >> 8);
                    b[udp + 3] = (byte) 4792;
                    boolean v6 = d.offsetOf(Ipv6.HEADER) >= 0;
                    int ip = d.offsetOf(v6 ? Ipv6.HEADER : Ip.HEADER);
                    long crc = icrc.overIp(b, 0, ip, udp - ip, v6, d.bthOffset(), d.icrcOffset());
                    for (int i = 0; i < 4; i++) b[d.icrcOffset() + i] = (byte) (crc >>> (8 * i));     // least significant byte first
                    moved++;
                }
                w.write(ix.timeNanos(f), b, 0, b.length, ix.originalLength(f));
            }
        }
        assertEquals(Samples.frames(sample), moved, "every frame of the sample is RoCE");
        assertTrue(Files.size(out) > 0);
        return out;
    }
}
