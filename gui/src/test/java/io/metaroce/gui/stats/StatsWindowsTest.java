package io.metaroce.gui.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.analysis.EventType;
import io.metaroce.gui.testutil.GuiHarness;
import io.metaroce.gui.testutil.WindowTestBase;
import io.metaroce.gui.testutil.Sample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableRow;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** The statistics windows, headless (Monocle), on bundled samples with known truth. */
class StatsWindowsTest extends WindowTestBase {

    @Start
    void start(Stage stage) { setUp(stage); }

    /**
     * Expert Info on the spray sample: the tree's counts are the analysis' (5 retransmissions, 3 spurious, the path
     * down as the only error) plus validate's; double-clicking the path-down item selects its frame.
     */
    @Test
    void expertInfoCountsAndDoubleClickSelects(FxRobot robot) {
        GuiHarness.open(robot, ctx, "metaroce-spray-lossy-path");
        robot.interact(() -> new ExpertInfoWindow().open(ctx));
        TreeTableView<ExpertInfoWindow.Line> tree = robot.lookup("#expert-tree").queryAs(TreeTableView.class);
        GuiHarness.until("expert tree", () -> tree.getRoot() != null);
        var events = ctx.analysis().events();
        assertEquals(5, count(tree, "retransmission"));
        assertEquals(3, count(tree, "spurious_retransmission"));
        assertEquals(events.count(EventType.NAK), count(tree, "nak"));
        TreeItem<ExpertInfoWindow.Line> errors = tree.getRoot().getChildren().getFirst();
        assertEquals("Error", errors.getValue().summary());
        long downFrame = events.of(EventType.PATH_DOWN).getFirst().frame();
        TreeItem<ExpertInfoWindow.Line> down = find(tree.getRoot(), l -> l.frame() == downFrame && l.count() < 0
                && l.message() != null && l.message().startsWith("path 2 down"));
        assertNotNull(down);
        // Rule nodes start collapsed (Wireshark's habit): open the path-down rule as a user would.
        robot.interact(() -> down.getParent().setExpanded(true));
        int row = tree.getRow(down);
        assertTrue(row > 0);
        robot.interact(() -> tree.scrollTo(row));
        TreeTableRow<?> r = robot.from(tree).lookup(".tree-table-row-cell").match((TreeTableRow<?> x) -> x.getIndex() == row).query();
        robot.doubleClickOn(r);
        GuiHarness.until("selection", () -> ctx.selectedFrame() == downFrame);
        assertEquals(downFrame, ctx.selectedFrame());
    }

    /** Conformance sample: every rule validate broke is in the tree with validate's count, under "conformance". */
    @Test
    void expertInfoHasValidateFindings(FxRobot robot) {
        GuiHarness.open(robot, ctx, "conformance-violations");
        robot.interact(() -> new ExpertInfoWindow().open(ctx));
        TreeTableView<ExpertInfoWindow.Line> tree = robot.lookup("#expert-tree").queryAs(TreeTableView.class);
        GuiHarness.until("expert tree", () -> tree.getRoot() != null);
        var v = io.metaroce.validate.FileValidator.validate(Sample.path("conformance-violations"),
                io.metaroce.validate.ValidateSettings.defaults(), false, null);
        assertFalse(v.rulesBroken().isEmpty());
        for (var rule : v.rulesBroken()) {
            long[] c = v.counts(rule.id());
            assertEquals(c[0] + c[1] + c[2], count(tree, rule.id()), rule.id());
        }
    }

    /**
     * Expert Info on the retry-exhaustion sample: the diagnosis (MR-DIAG-002, qp-retry-exhausted) under the group
     * "diagnosis", on the dead QP, at the frame validate reports (the first send of the PSN it resent); a
     * double-click selects that frame.
     */
    @Test
    void expertInfoShowsTheDiagnosisAndSelectsItsEvidenceFrame(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-retry-exhausted");
        robot.interact(() -> new ExpertInfoWindow().open(ctx));
        TreeTableView<ExpertInfoWindow.Line> tree = robot.lookup("#expert-tree").queryAs(TreeTableView.class);
        GuiHarness.until("expert tree", () -> tree.getRoot() != null);
        JsonNode truth = new ObjectMapper().readTree(truthOf("rocev2-retry-exhausted").toFile());
        String dead = truth.get("diagnosis").get(0).get("flow").asText();
        var v = io.metaroce.validate.FileValidator.validate(Sample.path("rocev2-retry-exhausted"),
                io.metaroce.validate.ValidateSettings.defaults(), false, null);
        var finding = v.findings().stream().filter(f -> f.rule().equals("MR-DIAG-002")).findFirst().orElseThrow();
        assertEquals(dead, finding.flow());
        TreeItem<ExpertInfoWindow.Line> item = find(tree.getRoot(), l -> l.count() < 0 && l.frame() == finding.frame()
                && dead.equals(l.flow()) && l.message() != null && l.message().startsWith("qp-retry-exhausted"));
        assertNotNull(item, "no qp-retry-exhausted item at frame " + finding.frame());
        assertEquals("diagnosis", item.getParent().getParent().getValue().group());
        assertTrue(item.getParent().getValue().summary().startsWith("MR-DIAG-002: qp-retry-exhausted"), item.getParent().getValue().summary());
        robot.interact(() -> item.getParent().setExpanded(true));
        int row = tree.getRow(item);
        assertTrue(row > 0);
        robot.interact(() -> tree.scrollTo(row));
        TreeTableRow<?> r = robot.from(tree).lookup(".tree-table-row-cell").match((TreeTableRow<?> x) -> x.getIndex() == row).query();
        robot.doubleClickOn(r);
        GuiHarness.until("selection", () -> ctx.selectedFrame() == finding.frame());
        assertEquals(finding.frame(), ctx.selectedFrame());
    }

    /**
     * QP Conversations on the spray sample: one row per flow with the truth's counters (228 packets, 8
     * retransmissions, 3 spurious on the data flow); "Filter on this flow" applies its filter; a double-click
     * selects the flow's first frame.
     */
    @Test
    void conversationsShowTheFlowsAndLinkBack(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "metaroce-spray-lossy-path");
        robot.interact(() -> new ConversationsWindow().open(ctx));
        TableView<ConversationRow> table = robot.lookup("#conversations-table").queryAs(TableView.class);
        GuiHarness.until("conversation rows", () -> !table.getItems().isEmpty());
        JsonNode truth = new ObjectMapper().readTree(truthOf("metaroce-spray-lossy-path").toFile());
        assertEquals(truth.get("flows").size(), table.getItems().size());
        ConversationRow data = table.getItems().stream().filter(r -> r.id().equals("10.0.0.1>10.0.0.2/0x000013")).findFirst().orElseThrow();
        JsonNode tf = truth.get("flows").get(0).get("counters");
        assertEquals(tf.get("packets").asLong(), data.packets());
        assertEquals(tf.get("retransmitted").asLong(), data.retransmissions());
        assertEquals(tf.get("spurious").asLong(), data.spurious());
        int idx = table.getItems().indexOf(data);
        TableRow<?> row = robot.from(table).lookup(".table-row-cell").match((TableRow<?> x) -> x.getIndex() == idx).query();
        robot.clickOn(row);
        robot.clickOn("#conv-filter");
        GuiHarness.until("filter applied", () -> data.filter().equals(ctx.appliedFilterProperty().get()));
        robot.interact(() -> ctx.applyFilter(""));
        GuiHarness.until("filter cleared", () -> ctx.appliedFilterProperty().get().isEmpty());
        robot.doubleClickOn(row);
        long first = -1;
        for (JsonNode fr : truth.get("frames"))
            if (fr.get("flow").asText().equals(data.id())) {
                first = fr.get("n").asLong();
                break;
            }
        long firstOfFlow = first;
        assertTrue(first > 0);
        GuiHarness.until("selection", () -> ctx.selectedFrame() == firstOfFlow);

        // Copy > as CSV: the visible columns (one hidden here) and the rows in the order sorted by, cell for cell.
        TableColumn<ConversationRow, ?> packets = table.getColumns().get(3), service = table.getColumns().get(2);
        robot.interact(() -> {
            service.setVisible(false);
            packets.setSortType(TableColumn.SortType.DESCENDING);
            table.getSortOrder().setAll(List.of(packets));
        });
        robot.clickOn("#table-copy");
        robot.clickOn("#copy-csv");
        String[] copied = new String[1];
        robot.interact(() -> copied[0] = javafx.scene.input.Clipboard.getSystemClipboard().getString());
        List<List<String>> csv = TableCopy.parseCsv(copied[0]);
        assertEquals(table.getItems().size() + 1, csv.size());
        List<String> header = new ArrayList<>();
        for (TableColumn<ConversationRow, ?> c : table.getVisibleLeafColumns()) header.add(c.getText());
        assertFalse(header.contains("Service"));
        assertEquals(header, csv.getFirst());
        long prev = Long.MAX_VALUE;
        for (int r = 0; r < table.getItems().size(); r++) {
            List<String> cells = new ArrayList<>();
            for (TableColumn<ConversationRow, ?> c : table.getVisibleLeafColumns()) {
                Object v = c.getCellData(r);
                cells.add(v == null ? "" : v.toString());
            }
            assertEquals(cells, csv.get(r + 1), "row " + r);
            long n = Long.parseLong(csv.get(r + 1).get(header.indexOf("Packets")));
            assertTrue(n <= prev, "sorted by packets, most first");
            prev = n;
        }
        assertTrue(robot.lookup("#conversations-status").queryLabeled().getText().startsWith("Copied " + table.getItems().size() + " rows"));
    }

    /**
     * The tables' shared Copy: RFC 4180 quoting of a comma, a quote and a line break, read back as the cells; YAML a
     * mapping per row; a tree table's expanded rows with their depth.
     */
    @Test
    void copyQuotesAndReadsBack(FxRobot robot) {
        TableView<String[]> t = new TableView<>();
        for (int i = 0; i < 3; i++) {
            int k = i;
            TableColumn<String[], String> c = new TableColumn<>(i == 0 ? "Name, full" : "Col " + i);
            c.setCellValueFactory(cd -> new javafx.beans.property.ReadOnlyObjectWrapper<>(cd.getValue()[k]));
            t.getColumns().add(c);
        }
        t.getItems().addAll(new String[] {"a,b", "say \"hi\"", "12"}, new String[] {"line\nbreak", null, "-3.5"});
        TableCopy.Grid g = TableCopy.grid(t);
        String csv = TableCopy.csv(g);
        assertEquals("\"Name, full\",Col 1,Col 2\r\n\"a,b\",\"say \"\"hi\"\"\",12\r\n\"line\nbreak\",,-3.5\r\n", csv);
        assertEquals(List.of(List.of("Name, full", "Col 1", "Col 2"), List.of("a,b", "say \"hi\"", "12"), List.of("line\nbreak", "", "-3.5")),
                TableCopy.parseCsv(csv));
        assertEquals("---\n- \"Name, full\": \"a,b\"\n  \"Col 1\": \"say \\\"hi\\\"\"\n  \"Col 2\": 12\n"
                + "- \"Name, full\": \"line\\nbreak\"\n  \"Col 1\": null\n  \"Col 2\": -3.5\n", TableCopy.yaml(g));
        // Built and read on the JavaFX thread, as the window's copy is (off it, the row count flaked once in four runs).
        String[] treeCsv = new String[1];
        robot.interact(() -> {
            TreeTableView<String> tree = new TreeTableView<>(new TreeItem<>("root"));
            tree.setShowRoot(false);
            TreeItem<String> a = new TreeItem<>("a"), b = new TreeItem<>("b"), hidden = new TreeItem<>("hidden");
            a.getChildren().add(b);
            b.getChildren().add(hidden);
            a.setExpanded(true);
            tree.getRoot().getChildren().add(a);
            tree.getRoot().setExpanded(true);
            TreeTableColumn<String, String> name = new TreeTableColumn<>("Name");
            name.setCellValueFactory(cd -> new javafx.beans.property.ReadOnlyObjectWrapper<>(cd.getValue().getValue()));
            tree.getColumns().add(name);
            treeCsv[0] = TableCopy.csv(TableCopy.grid(tree));
        });
        assertEquals("Level,Name\r\n0,a\r\n1,b\r\n", treeCsv[0]);
    }

    /**
     * Protocol Hierarchy on the GBN sample: the InfiniBand row counts the frames the infiniband filter matches, and
     * every row the frames its own filter matches; its "Apply as Filter" applies infiniband; "Limit to display filter"
     * counts the displayed frames only.
     */
    @Test
    void protocolHierarchyCountsWhatItsFiltersMatch(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        robot.interact(() -> new ProtocolHierarchyWindow().open(ctx));
        TreeTableView<ProtocolHierarchyWindow.Line> tree = robot.lookup("#phs-tree").queryAs(TreeTableView.class);
        GuiHarness.until("hierarchy", () -> tree.getRoot() != null);
        assertEquals(ctx.capture().frames(), tree.getRoot().getValue().packets());
        List<TreeItem<ProtocolHierarchyWindow.Line>> all = new ArrayList<>();
        collect(tree.getRoot(), all);
        TreeItem<ProtocolHierarchyWindow.Line> ib = all.stream().filter(i -> i.getValue().filter().equals("infiniband")).findFirst().orElseThrow();
        assertEquals(ctx.framesMatching("infiniband").length, ib.getValue().packets());
        assertTrue(all.size() > 8, "a tree, not a row: " + all.size());
        for (TreeItem<ProtocolHierarchyWindow.Line> i : all) {
            assertEquals(ctx.framesMatching(i.getValue().filter()).length, i.getValue().packets(), i.getValue().filter());
        }
        robot.interact(() -> {
            tree.getSelectionModel().select(ib);
            tree.getContextMenu().getItems().stream().filter(m -> "phs-apply-filter".equals(m.getId())).findFirst().orElseThrow().fire();
        });
        GuiHarness.until("infiniband applied", () -> "infiniband".equals(ctx.appliedFilterProperty().get()));
        robot.interact(() -> ctx.applyFilter("frame.number <= 10"));
        GuiHarness.until("filter applied", () -> ctx.view().size() == 10);
        robot.clickOn("#phs-limit");
        GuiHarness.until("limited hierarchy", () -> tree.getRoot().getValue().packets() == 10);
        assertEquals(10, tree.getRoot().getChildren().getFirst().getValue().packets());
        // Edit > Ignore Packet: the pass over every frame leaves the ignored ones out, as Wireshark's statistics.
        robot.clickOn("#phs-limit");
        robot.interact(() -> ctx.setIgnored(new int[] {20, 21, 22}, true));
        int frames = ctx.capture().frames();
        GuiHarness.until("hierarchy without the 3 ignored frames", () -> tree.getRoot().getValue().packets() == frames - 3);
    }

    /**
     * Endpoints and Conversations on the GBN sample: an IPv4 endpoint's packets are the frames with its address; a
     * UDP conversation's "Apply as Filter" (A <-> B) puts its filter in the bar and the packet list then shows exactly
     * its packets (its twin, the same ports the other way round, is spelt out of the filter); "Limit to display
     * filter" counts the displayed frames only.
     */
    @Test
    void endpointsAndConversationsByLayer(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        robot.interact(() -> new EndpointsWindow().open(ctx));
        TableView<io.metaroce.dissector.stats.Endpoints.Endpoint> ip = robot.lookup("#endpoints-table-ip").queryAs(TableView.class);
        GuiHarness.until("endpoints", () -> !ip.getItems().isEmpty());
        for (var e : ip.getItems()) assertEquals(ctx.framesMatching("ip.addr==" + e.address()).length, e.frames(), e.address());
        TableView<io.metaroce.dissector.stats.Endpoints.Endpoint> eth = robot.lookup("#endpoints-table-eth").queryAs(TableView.class);
        assertEquals(2, eth.getItems().size());

        robot.interact(() -> new LayerConversationsWindow().open(ctx));
        TableView<io.metaroce.dissector.stats.Conversations.Conversation> udp = robot.lookup("#conv-table-udp").queryAs(TableView.class);
        GuiHarness.until("conversations", () -> !udp.getItems().isEmpty());
        var row = udp.getItems().getFirst();
        assertTrue(udp.getItems().stream().anyMatch(row::twinOf), "the sample has the twin this test is about");
        String expected = row.exactFilter(true);
        robot.interact(() -> {
            udp.getSelectionModel().select(row);
            var apply = (javafx.scene.control.Menu) udp.getContextMenu().getItems().getFirst();
            apply.getItems().stream().filter(m -> "conv-udp-apply-both".equals(m.getId())).findFirst().orElseThrow().fire();
        });
        GuiHarness.until("conversation filter applied", () -> expected.equals(ctx.appliedFilterProperty().get()));
        assertEquals(row.frames(), ctx.view().size());
        assertEquals(ctx.framesMatching(row.filterAtoB()).length, row.abFrames());
        robot.interact(() -> ctx.applyFilter("frame.number <= 50"));
        GuiHarness.until("filter applied", () -> ctx.view().size() == 50);
        robot.clickOn("#layer-conversations-limit");
        GuiHarness.until("limited conversations", () -> udp.getItems().stream().mapToLong(c -> c.frames()).sum() == 50);
    }

    /** Capture File Properties on the cut, gappy sample: the truth's truncated frames and capture gaps, in red. */
    @Test
    void capturePropertiesShowIntegrity(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "capture-gaps-truncated");
        robot.interact(() -> new CapturePropertiesWindow().open(ctx));
        TableView<CaptureProperties.Row> table = robot.lookup("#properties-table").queryAs(TableView.class);
        GuiHarness.until("property rows", () -> !table.getItems().isEmpty());
        JsonNode truth = new ObjectMapper().readTree(truthOf("capture-gaps-truncated").toFile()).get("capture");
        CaptureProperties.Row trunc = row(table, "Truncated frames (snap length)");
        assertEquals(String.format("%,d", truth.get("truncated").asLong()), trunc.value());
        assertTrue(truth.get("truncated").asLong() > 0 && trunc.warn());
        CaptureProperties.Row gaps = row(table, "Capture gaps (PSNs the capture lost)");
        assertEquals(String.format("%,d", ((Number) ctx.analysis().result().capture().get("capture_gaps")).longValue()), gaps.value());
        assertTrue(gaps.warn());
        assertEquals(String.format("%,d", truth.get("frames").asLong()), row(table, "Frames").value());
    }

    /**
     * Statistics > Packet Lengths on the GBN sample: its rows (every column) are the tree dissect -z plen,tree prints
     * (the dissector's StatsTrees over the file); its display filter counts only the frames the filter matches, and
     * Save As writes tshark's text of what it shows.
     */
    @Test
    void packetLengthsAreTheCliTreeAndFollowTheirFilter(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        io.metaroce.dissector.stats.StatsTrees cli = new io.metaroce.dissector.stats.StatsTrees(io.metaroce.dissector.stats.StatsTrees.Kind.PLEN);
        io.metaroce.dissector.Dissector dissector = new io.metaroce.dissector.Dissector();
        io.metaroce.dissector.Dissection d = new io.metaroce.dissector.Dissection();
        // As dissect reads (each frame knows the capture's first time): a FrameIndex of the file, every frame in order.
        try (var src = io.metaroce.capture.CaptureFiles.open(Sample.path("rocev2-gbn-loss"))) {
            io.metaroce.dissector.FrameIndex index = io.metaroce.dissector.FrameIndex.build(src);
            for (int f = 1; f <= index.size(); f++) cli.add(index.dissect(f, dissector, d));
        }
        robot.interact(() -> new StatsTreeWindow(io.metaroce.dissector.stats.StatsTrees.Kind.PLEN).open(ctx));
        TreeTableView<StatsTreeWindow.Row> table = robot.lookup("#stattree-table").queryAs(TreeTableView.class);
        GuiHarness.until("packet lengths", () -> table.getRoot() != null);
        List<String> want = new ArrayList<>(), got = new ArrayList<>();
        robot.interact(() -> {
            for (StatsTreeWindow.Row r : StatsTreeWindow.flatten(StatsTreeWindow.rows(cli.tree()))) want.add(r.name() + " " + String.join("|", r.values()));
            for (StatsTreeWindow.Row r : StatsTreeWindow.flatten(table.getRoot())) got.add(r.name() + " " + String.join("|", r.values()));
        });
        assertEquals(want, got);
        assertEquals(11, got.size(), "the root and its ten ranges");
        assertTrue(got.getFirst().startsWith("Packet Lengths " + ctx.capture().frames() + "|"), got.getFirst());

        int matching = ctx.framesMatching("ip.src == 10.0.0.2").length;
        assertTrue(matching > 0 && matching < ctx.capture().frames(), "a filter that picks some frames: " + matching);
        robot.interact(() -> {
            robot.lookup("#stattree-filter").queryAs(javafx.scene.control.TextField.class).setText("ip.src == 10.0.0.2");
            robot.lookup("#stattree-apply").queryAs(javafx.scene.control.Button.class).fire();
        });
        GuiHarness.until("filtered lengths", () -> {
            long[] n = new long[1];
            robot.interact(() -> n[0] = table.getRoot() == null ? -1 : Long.parseLong(table.getRoot().getChildren().getFirst().getValue().value(0)));
            return n[0] == matching;
        });
        Path saved = java.nio.file.Files.createTempFile("plen", ".txt");
        robot.interact(() -> {
            try {
                io.metaroce.dissector.stats.StatsTrees filtered = StatsTreeWindow.count(ctx.capture().index(),
                        ctx.framesMatching("ip.src == 10.0.0.2"), io.metaroce.dissector.stats.StatsTrees.Kind.PLEN, x -> { }, () -> false);
                StatsTreeWindow.save(saved, filtered.tree(), table);
                assertEquals(filtered.tree().text(), java.nio.file.Files.readString(saved));
                assertTrue(filtered.tree().text().contains("\nPacket Lengths     " + matching + " "), filtered.tree().text());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        java.nio.file.Files.deleteIfExists(saved);
        // Edit > Ignore Packet: the tree counts the frames but the ignored ones (Wireshark's statistics skip them).
        robot.interact(() -> {
            robot.lookup("#stattree-filter").queryAs(javafx.scene.control.TextField.class).setText("");
            ctx.setIgnored(new int[] {1, 2, 3, 4, 5}, true);
        });
        int all = ctx.capture().frames();
        GuiHarness.until("lengths without the 5 ignored frames", () -> {
            long[] n = new long[1];
            robot.interact(() -> n[0] = table.getRoot() == null ? -1 : Long.parseLong(table.getRoot().getChildren().getFirst().getValue().value(0)));
            return n[0] == all - 5;
        });
    }

    /**
     * Statistics > Service Response Time > RoCE: per operation, the calls are the requests that carry
     * analysis.ack_rtt_ns (retransmissions left out), the filter narrows them, and double-clicking a procedure applies
     * the filter of its requests in the main window.
     */
    @Test
    void serviceResponseTimeCountsTheAnsweredRequestsAndFiltersThem(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-read-atomic");
        ctx.analysisDone().get(30, java.util.concurrent.TimeUnit.SECONDS);
        robot.interact(() -> ServiceResponseTimeWindow.open(ctx));
        TableView<io.metaroce.dissector.stats.ServiceResponseTime.Row> table = robot.lookup("#srt-table").queryAs(TableView.class);
        GuiHarness.until("srt rows", () -> !table.getItems().isEmpty());
        List<String> procedures = new ArrayList<>();
        robot.interact(() -> {
            for (var r : table.getItems()) procedures.add(r.procedure());
        });
        assertEquals(List.of("SEND", "RDMA WRITE", "RDMA READ", "Compare & Swap", "Fetch & Add"), procedures);
        for (String[] p : new String[][] {{"RDMA READ", "0x0c"}, {"Compare & Swap", "0x13"}, {"RDMA WRITE", "0x08 0x09 0x0a 0x0b"}}) {
            int answered = ctx.framesMatching("analysis.ack_rtt_ns && !analysis.retransmission && bth.opcode in {" + p[1] + "}").length;
            assertTrue(answered > 0, p[0]);
            long[] calls = new long[1];
            robot.interact(() -> calls[0] = table.getItems().stream().filter(r -> r.procedure().equals(p[0])).findFirst().orElseThrow().calls());
            assertEquals(answered, calls[0], p[0]);
        }
        robot.interact(() -> {
            robot.lookup("#srt-filter").queryAs(javafx.scene.control.TextField.class).setText("bth.opcode == 0x0c");
            robot.lookup("#srt-apply").queryAs(javafx.scene.control.Button.class).fire();
        });
        GuiHarness.until("only the READs", () -> {
            boolean[] one = new boolean[1];
            robot.interact(() -> one[0] = table.getItems().size() == 1 && table.getItems().getFirst().procedure().equals("RDMA READ"));
            return one[0];
        });
        robot.doubleClickOn(robot.from(table).lookup(".table-row-cell").nth(0).queryAs(TableRow.class));
        // The READ request's opcode under every reliable transport (RC 0x0c, RD 0x4c, XRC 0xac).
        String reads = io.metaroce.dissector.stats.ServiceResponseTime.filter(2);
        assertTrue(reads.startsWith("bth.opcode in {0x0c "), reads);
        GuiHarness.until("the READs' filter applied", () -> ctx.appliedFilterProperty().get().equals(reads));
    }

    private static CaptureProperties.Row row(TableView<CaptureProperties.Row> t, String name) {
        return t.getItems().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no row " + name));
    }

    static Path truthOf(String scenario) {
        Path p = Sample.path(scenario);
        return p.resolveSibling(scenario + ".truth.json");
    }

    /** The count of the rule node whose summary starts with "rule: ". */
    private static long count(TreeTableView<ExpertInfoWindow.Line> tree, String rule) {
        List<TreeItem<ExpertInfoWindow.Line>> all = new ArrayList<>();
        collect(tree.getRoot(), all);
        long n = 0;
        for (TreeItem<ExpertInfoWindow.Line> i : all)
            if (i.getValue().summary().startsWith(rule + ": ") && i.getValue().count() >= 0) n += i.getValue().count();
        return n;
    }

    private static <T> void collect(TreeItem<T> i, List<TreeItem<T>> out) {
        out.add(i);
        for (TreeItem<T> c : i.getChildren()) collect(c, out);
    }

    private static TreeItem<ExpertInfoWindow.Line> find(TreeItem<ExpertInfoWindow.Line> i,
                                                        java.util.function.Predicate<ExpertInfoWindow.Line> p) {
        if (i.getValue() != null && p.test(i.getValue())) return i;
        for (TreeItem<ExpertInfoWindow.Line> c : i.getChildren()) {
            TreeItem<ExpertInfoWindow.Line> f = find(c, p);
            if (f != null) return f;
        }
        return null;
    }
}
