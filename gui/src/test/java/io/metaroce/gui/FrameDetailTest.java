package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Point2D;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** The field tree and the bytes of the selected frame, linked both ways, on frames whose content is known. */
class FrameDetailTest extends GuiTestBase {
    /** conformance-violations frame 171: Eth/IPv4/UDP/BTH/AETH, 62 bytes, bad ICRC 0x726ffc58. */
    private static final int BAD_ICRC = 171, BTH = 14 + 20 + 8;

    @Start
    void start(Stage s) throws Exception { setUp(s); }

    private TreeItem<TreeEntry> find(TreeView<TreeEntry> tree, java.util.function.Predicate<TreeEntry> p) {
        List<TreeItem<TreeEntry>> all = new ArrayList<>();
        FieldTreeModel.walk(tree.getRoot(), all);
        return all.stream().filter(i -> p.test(i.getValue())).findFirst().orElse(null);
    }

    private TreeItem<TreeEntry> field(TreeView<TreeEntry> tree, String name) {
        return find(tree, e -> e.node() != null && e.node().field() != null && e.node().field().name().equals(name));
    }

    @Test
    void theTreeShowsEveryLayerFieldAndTheExpertItemWithDocTooltips(FxRobot robot) {
        open(robot, "conformance-violations");
        robot.interact(() -> ctx.select(BAD_ICRC));
        TreeView<TreeEntry> tree = window.detail().tree();
        List<String> top = tree.getRoot().getChildren().stream().map(i -> i.getValue().text()).toList();
        assertTrue(top.getFirst().startsWith("Frame 171: 62 bytes on wire, 62 bytes captured; eth:ip:udp:bth:aeth"), top.toString());
        assertTrue(top.contains("Base Transport Header (BTH)"), top.toString());
        assertTrue(top.stream().anyMatch(t -> t.startsWith("Invariant CRC: 0x726ffc58 [bad, computed 0x79c2f7f5]")), top.toString());
        assertEquals("Expert Info (1)", top.getLast());
        TreeItem<TreeEntry> icrc = find(tree, e -> e.text().startsWith("Invariant CRC"));
        assertTrue(icrc.getChildren().getFirst().getValue().text().startsWith("[error/checksum] bad ICRC 0x726ffc58"));
        TreeItem<TreeEntry> psn = field(tree, "bth.psn");
        assertEquals("Packet sequence number: 4031588", psn.getValue().text());
        assertTrue(psn.getValue().tooltip().startsWith("bth.psn"), psn.getValue().tooltip());
        TreeItem<TreeEntry> kind = field(tree, "aeth.syndrome.kind");
        assertEquals("Kind: ACK (0)", kind.getValue().text());
        assertEquals("aeth.syndrome", kind.getParent().getValue().node().field().name(), "subfields under their field");
        assertNotNull(find(tree, e -> e.text().equals("Opcode: RC Acknowledge (0x11)")));
    }

    /** Each tree line shows its own doc as tooltip; a line shown again for another frame keeps its tooltip object. */
    @Test
    void treeLinesReuseTheirTooltipFromFrameToFrame(FxRobot robot) {
        open(robot, "conformance-violations");
        robot.interact(() -> ctx.select(BAD_ICRC));
        java.util.Map<javafx.scene.control.TreeCell<?>, javafx.scene.control.Tooltip> first = tooltips(robot);
        assertFalse(first.isEmpty());
        robot.interact(() -> ctx.select(BAD_ICRC - 1));
        java.util.Map<javafx.scene.control.TreeCell<?>, javafx.scene.control.Tooltip> second = tooltips(robot);
        int kept = 0;
        for (var e : second.entrySet()) if (first.get(e.getKey()) == e.getValue()) kept++;
        assertTrue(kept > 0, "no line kept its tooltip: " + first.size() + " then " + second.size() + " lines");
    }

    /** The tree's cells that show a line with a tooltip, each checked to show its own line's doc. */
    private static java.util.Map<javafx.scene.control.TreeCell<?>, javafx.scene.control.Tooltip> tooltips(FxRobot robot) {
        java.util.Map<javafx.scene.control.TreeCell<?>, javafx.scene.control.Tooltip> out = new java.util.IdentityHashMap<>();
        robot.interact(() -> { });
        for (javafx.scene.Node n : robot.lookup("#field-tree .tree-cell").queryAll()) {
            javafx.scene.control.TreeCell<?> c = (javafx.scene.control.TreeCell<?>) n;
            if (c.isEmpty() || c.getItem() == null || c.getTooltip() == null) continue;
            assertEquals(((TreeEntry) c.getItem()).tooltip(), c.getTooltip().getText());
            out.put(c, c.getTooltip());
        }
        return out;
    }

    @Test
    void selectingAFieldHighlightsItsBytesAndClickingAByteSelectsItsField(FxRobot robot) {
        open(robot, "conformance-violations");
        robot.interact(() -> ctx.select(BAD_ICRC));
        TreeView<TreeEntry> tree = window.detail().tree();
        HexPane hex = window.detail().hex();
        robot.interact(() -> tree.getSelectionModel().select(field(tree, "bth.psn")));
        assertEquals(BTH + 9, hex.highlightFrom());
        assertEquals(3, hex.highlightLength());
        // A one-bit field: the byte that holds it.
        robot.interact(() -> tree.getSelectionModel().select(field(tree, "bth.se")));
        assertEquals(BTH + 1, hex.highlightFrom());
        assertEquals(1, hex.highlightLength());
        // The ICRC, the last four bytes.
        robot.interact(() -> tree.getSelectionModel().select(find(tree, e -> e.text().startsWith("Invariant CRC"))));
        assertEquals(58, hex.highlightFrom());
        assertEquals(4, hex.highlightLength());

        // Click on the hex digits of the PSN's second byte: the PSN line is selected.
        clickByte(robot, hex, BTH + 10, false);
        Fx.until("PSN selected", () -> tree.getSelectionModel().getSelectedItem() != null
                && tree.getSelectionModel().getSelectedItem().getValue().text().startsWith("Packet sequence number"));
        assertEquals(BTH + 9, hex.highlightFrom());
        // Click on the ASCII column of an ICRC byte.
        clickByte(robot, hex, 60, true);
        Fx.until("ICRC selected", () -> tree.getSelectionModel().getSelectedItem().getValue().text().startsWith("Invariant CRC"));
        // A byte of the AETH syndrome: the deepest line holding it is a subfield.
        clickByte(robot, hex, BTH + 12, false);
        Fx.until("syndrome", () -> tree.getSelectionModel().getSelectedItem().getValue().text().startsWith("Kind")
                || tree.getSelectionModel().getSelectedItem().getValue().text().startsWith("Credit count"));
    }

    /** The tree's context menu item (its popup does not open under the headless Monocle robot: fire the item). */
    private static void contextItem(FxRobot robot, TreeView<TreeEntry> tree, String id) {
        var items = new ArrayList<javafx.scene.control.MenuItem>(tree.getContextMenu().getItems());
        for (var i : tree.getContextMenu().getItems()) if (i instanceof javafx.scene.control.Menu sub) items.addAll(sub.getItems());   // Copy >
        var item = items.stream().filter(i -> id.equals(i.getId())).findFirst().orElseThrow();
        robot.interact(item::fire);
    }

    private static void clickByte(FxRobot robot, HexPane hex, int b, boolean ascii) {
        robot.interact(() -> hex.setVvalue(0));
        Point2D p = hex.canvas().localToScreen(ascii ? hex.asciiX(b) : hex.hexX(b), hex.lineY(b));
        assertEquals(b, hex.byteAt(ascii ? hex.asciiX(b) : hex.hexX(b), hex.lineY(b)));
        robot.clickOn(p);
    }

    @Test
    void analysisVerdictsAreTheirOwnSubtree(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        int frame = Samples.labelled("rocev2-gbn-loss", "retransmission").getFirst();
        robot.interact(() -> ctx.select(frame));
        TreeView<TreeEntry> tree = window.detail().tree();
        TreeItem<TreeEntry> analysis = find(tree, e -> e.text().equals("Analysis"));
        assertNotNull(analysis);
        assertTrue(analysis.isExpanded());
        List<String> names = analysis.getChildren().stream().map(i -> i.getValue().node().field().name()).toList();
        assertTrue(names.containsAll(List.of("analysis.flow", "analysis.retransmission", "analysis.retransmission_cause")), names.toString());
        TreeItem<TreeEntry> cause = field(tree, "analysis.retransmission_cause");
        assertTrue(cause.getValue().text().endsWith(": nak"), cause.getValue().text());
        assertEquals("analysis.retransmission_cause == \"nak\"", cause.getValue().filter());

        // Go to Linked Packet: the line of analysis.original_frame links to the first copy, shown as a link; a
        // double-click jumps there, Back returns, Enter on the line jumps again.
        FrameDecoder dec = new FrameDecoder(ctx.capture().index(), ctx.analysis());
        dec.decode(frame);
        int original = (int) dec.fields().longValue(io.metaroce.dissector.FieldCatalog.get().field("analysis.original_frame"), 0);
        assertTrue(original > 0 && original < frame, "original " + original);
        TreeItem<TreeEntry> link = field(tree, "analysis.original_frame");
        assertEquals(original, link.getValue().link());
        assertEquals(0, field(tree, "analysis.flow").getValue().link(), "a flow id links nowhere");
        robot.interact(() -> {
            tree.getSelectionModel().select(link);
            tree.scrollTo(tree.getRow(link));
        });
        javafx.scene.control.TreeCell<?> cell = robot.lookup(".tree-cell")
                .match((javafx.scene.control.TreeCell<?> c) -> c.isVisible() && c.getItem() == link.getValue()).query();  // not the flow's measuring cell
        assertTrue(cell.isUnderline(), "shown as a link");
        assertFalse(findItem(robot, "go-linked").isDisable(), "Go > Go to Linked Packet enabled on the line");
        robot.doubleClickOn(cell);
        Fx.until("the original frame", () -> ctx.selectedFrame() == original);
        menuItem(robot, "go-back");
        Fx.until("back to the retransmission", () -> ctx.selectedFrame() == frame);
        robot.interact(() -> {
            tree.getSelectionModel().select(field(tree, "analysis.original_frame"));
            tree.requestFocus();
        });
        robot.type(javafx.scene.input.KeyCode.ENTER);
        Fx.until("Enter on the link", () -> ctx.selectedFrame() == original);
        // A link to a frame the display filter hides: the status bar says so, the selection stays.
        robot.interact(() -> assertEquals(null, ctx.applyFilter("analysis.retransmission")));
        Fx.until("filtered", () -> !ctx.busyProperty().get() && ctx.appliedFilterProperty().get().equals("analysis.retransmission"));
        robot.interact(() -> ctx.select(frame));
        robot.interact(() -> tree.getSelectionModel().select(field(tree, "analysis.original_frame")));
        contextItem(robot, tree, "tree-go-linked");
        assertEquals("Packet number " + original + " isn't displayed: clear the display filter to see it", ctx.statusProperty().get());
        assertEquals(frame, ctx.selectedFrame());
    }

    @Test
    void applyAsFilterFromATreeFieldFiltersThePacketList(FxRobot robot) {
        open(robot, "conformance-violations");
        robot.interact(() -> ctx.select(BAD_ICRC));
        TreeView<TreeEntry> tree = window.detail().tree();
        TreeItem<TreeEntry> dst = field(tree, "ip.dst");
        robot.interact(() -> tree.getSelectionModel().select(dst));
        contextItem(robot, tree, "tree-apply-filter");
        Fx.until("filtered", () -> ctx.appliedFilterProperty().get().equals("ip.dst == 10.0.0.1") && !ctx.busyProperty().get());
        assertEquals("ip.dst == 10.0.0.1", window.filterBar().editor().getText());
        assertTrue(ctx.view().rowOf(BAD_ICRC) >= 0);
        assertTrue(ctx.view().size() < ctx.capture().frames());
        for (int r = 0; r < ctx.view().size(); r++) assertEquals("10.0.0.1", cell(robot, ctx.view().frameAt(r), "Destination"));
        assertEquals(BAD_ICRC, ctx.selectedFrame(), "the selected frame is still shown and selected");
        // Prepare only fills the bar.
        robot.interact(() -> tree.getSelectionModel().select(field(tree, "bth.psn")));
        contextItem(robot, tree, "tree-prepare-filter");
        assertEquals("bth.psn == 4031588", window.filterBar().editor().getText());
        assertEquals("ip.dst == 10.0.0.1", ctx.appliedFilterProperty().get());
    }

    /**
     * Apply as Column on bth.psn (the tree's context menu), and a column of ip.addr (two occurrences a frame, source
     * and destination): every frame's cells read what {@code metaroce dissect -T fields} prints (the CLI jar run
     * once); sorting by the bth.psn column orders the frames by its numbers.
     */
    @Test
    void applyAsColumnShowsWhatDissectFieldsPrintsForEveryFrame(FxRobot robot) throws Exception {
        Path sample = Samples.capture("conformance-violations");
        // The CLI jar this build made, by this JVM's java (the launcher would first train its AOT cache on a new jar).
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "--enable-native-access=ALL-UNNAMED",
                "-jar", Samples.dir().getParent().getParent().resolve("cli/target/metaroce.jar").toString(),
                "dissect", "-r", sample.toString(), "-T", "fields", "-e", "bth.psn", "-e", "ip.addr");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();     // runs while the window opens the same file
        open(robot, "conformance-violations");
        robot.interact(() -> ctx.select(BAD_ICRC));
        TreeView<TreeEntry> tree = window.detail().tree();
        robot.interact(() -> tree.getSelectionModel().select(field(tree, "bth.psn")));
        contextItem(robot, tree, "tree-apply-column");
        robot.interact(() -> window.columns().applyAsColumn("ip.addr"));
        List<String> expected = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, p.waitFor());
        var cols = window.packets().table().getColumns();
        int n = cols.size();
        assertEquals(List.of("Info", "Packet sequence number", "Source or destination address"),
                cols.subList(n - 3, n).stream().map(javafx.scene.control.TableColumn::getText).toList(), "after Info, titled with the fields' labels");
        assertEquals(ctx.capture().frames(), expected.size());
        List<String> shown = new ArrayList<>();
        robot.interact(() -> {
            for (int f = 1; f <= ctx.capture().frames(); f++)
                shown.add(window.packets().cellText(f, cols.get(n - 2)) + "\t" + window.packets().cellText(f, cols.get(n - 1)));
        });
        assertEquals(expected, shown);
        assertTrue(shown.stream().anyMatch(l -> l.matches("\\d+\t[0-9.]+,[0-9.]+")), "ip.addr's two occurrences joined with ,");
        // File > Export Packet Dissections > As CSV writes the custom columns too, as the list shows them.
        java.io.ByteArrayOutputStream csv = new java.io.ByteArrayOutputStream();
        robot.interact(() -> {
            int[] all = java.util.stream.IntStream.rangeClosed(1, ctx.capture().frames()).toArray();
            DissectionExport.write(ctx.capture(), ctx.analysis(), all, DissectionExport.Format.CSV, null,
                    DissectionExport.SummaryCells.of(ctx, window.packets()), csv, x -> { }, () -> false);
        });
        List<String> exported = new ArrayList<>();
        for (List<String> row : io.metaroce.gui.stats.TableCopy.parseCsv(csv.toString(java.nio.charset.StandardCharsets.UTF_8)).subList(1, expected.size() + 1))
            exported.add(row.get(row.size() - 2) + "\t" + row.getLast());
        assertEquals(expected, exported);
        // Sorted by the custom column: by the PSNs' numbers (of 1 to 8 digits: their text order differs).
        robot.interact(() -> window.packets().table().getSortOrder().setAll(List.of(cols.get(n - 2))));     // a header click
        Fx.until("sorted view", () -> !ctx.view().ascending());
        List<String> sorted = new ArrayList<>();
        robot.interact(() -> {
            for (int r = 0; r < ctx.view().size(); r++) sorted.add(window.packets().cellText(ctx.view().frameAt(r), cols.get(n - 2)));
        });
        assertEquals(expected.size(), sorted.size());
        boolean textOrderDiffers = false;
        for (int r = 1; r < sorted.size(); r++) {
            long a = sorted.get(r - 1).isEmpty() ? -1 : Long.parseLong(sorted.get(r - 1)), b = sorted.get(r).isEmpty() ? -1 : Long.parseLong(sorted.get(r));
            assertTrue(a <= b, "row " + r + ": " + b + " after " + a);
            textOrderDiffers |= sorted.get(r - 1).compareTo(sorted.get(r)) > 0;
        }
        assertTrue(textOrderDiffers, "not vacuous: a text sort would order these otherwise");
        // The header's tooltip is the field's filter name.
        Fx.until("header tooltip", () -> robot.lookup(".column-header").queryAll().stream()
                .anyMatch(h -> "bth.psn".equals(h.getProperties().get("metaroce.header-tip"))));
    }

    @Test
    void copyGivesTheFieldNameValueFilterVisibleLinesAndTheFramesBytes(FxRobot robot) {
        open(robot, "conformance-violations");
        robot.interact(() -> ctx.select(BAD_ICRC));
        TreeView<TreeEntry> tree = window.detail().tree();
        TreeItem<TreeEntry> psn = field(tree, "bth.psn");
        robot.interact(() -> tree.getSelectionModel().select(psn));
        contextItem(robot, tree, "tree-copy-field-name");
        assertEquals("bth.psn", copied(robot));
        contextItem(robot, tree, "tree-copy-value");
        assertEquals("4031588", copied(robot));
        menuItem(robot, "edit-copy-filter");
        String filter = copied(robot);
        contextItem(robot, tree, "tree-prepare-filter");
        assertEquals(window.filterBar().editor().getText(), filter, "As Filter copies what Prepare as Filter prepares");
        // All Visible Items: a line per line shown, a level deeper four spaces further in.
        robot.interact(() -> psn.getParent().setExpanded(true));
        contextItem(robot, tree, "tree-copy-visible");
        List<String> lines = copied(robot).lines().toList();
        assertEquals(tree.getExpandedItemCount(), lines.size());
        assertEquals(tree.getRoot().getChildren().getFirst().getValue().text(), lines.getFirst());
        assertTrue(lines.contains("    Packet sequence number: 4031588"), lines.toString());
        // The bytes: tshark -x's layout (dissect -x prints the same lines: HexDumpLines), and the hex digits alone.
        byte[] bytes = ctx.capture().index().bytes(BAD_ICRC);
        menuItem(robot, "edit-copy-hex-dump");
        assertEquals(tsharkHex(bytes), copied(robot));
        var stream = window.detail().hex().getContextMenu().getItems().stream().filter(i -> "hex-copy-stream".equals(i.getId())).findFirst().orElseThrow();
        robot.interact(stream::fire);
        StringBuilder hex = new StringBuilder();
        for (byte b : bytes) hex.append(String.format("%02x", b & 0xFF));
        assertEquals(hex.toString(), copied(robot));
    }

    /** tshark -x's lines for these bytes: offset, two spaces, the bytes, three spaces, the printable ASCII. */
    private static String tsharkHex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (int at = 0; at < b.length; at += 16) {
            s.append(String.format("%04x ", at));
            for (int i = at; i < at + 16; i++) s.append(i < b.length ? String.format(" %02x", b[i] & 0xFF) : "   ");
            s.append("   ");
            for (int i = at; i < Math.min(b.length, at + 16); i++) s.append(b[i] >= 0x20 && b[i] < 0x7F ? (char) b[i] : '.');
            s.append('\n');
        }
        return s.toString();
    }

    private TreeItem<TreeEntry> top(TreeView<TreeEntry> tree, String text) {
        return tree.getRoot().getChildren().stream().filter(i -> i.getValue().text().equals(text)).findFirst().orElseThrow();
    }

    /** The non-leaf lines under item (not item), by whether they are expanded. */
    private static List<Boolean> states(TreeItem<TreeEntry> item) {
        List<TreeItem<TreeEntry>> all = new ArrayList<>();
        for (TreeItem<TreeEntry> c : item.getChildren()) FieldTreeModel.walk(c, all);
        return all.stream().filter(i -> !i.isLeaf()).map(TreeItem::isExpanded).toList();
    }

    /**
     * View > Expand Subtrees opens the selected line and everything under it, nothing else; the subtree stays open
     * on the next frame (as Wireshark keeps a protocol's subtree open); Collapse Subtrees closes it; Expand All and
     * Collapse All open and close every line. Shift+Right in the tree expands; in the filter bar it selects text.
     */
    @Test
    void expandAndCollapseSubtreesAndAllAndTheStateFollowsFromFrameToFrame(FxRobot robot) {
        open(robot, "conformance-violations");
        robot.interact(() -> ctx.select(BAD_ICRC));
        TreeView<TreeEntry> tree = window.detail().tree();
        String bthText = "Base Transport Header (BTH)";
        TreeItem<TreeEntry> bth = top(tree, bthText), ip = tree.getRoot().getChildren().get(2);
        assertFalse(bth.isExpanded());
        int collapsedRows = tree.getExpandedItemCount();
        robot.interact(() -> tree.getSelectionModel().select(bth));
        menuItem(robot, "view-expand-subtrees");
        assertTrue(bth.isExpanded());
        assertFalse(states(bth).contains(false), "every line under BTH open");
        assertFalse(ip.isExpanded(), "only the selected subtree");
        assertTrue(tree.getExpandedItemCount() > collapsedRows);

        robot.interact(() -> ctx.select(BAD_ICRC - 1));
        TreeItem<TreeEntry> nextBth = top(tree, bthText);
        assertTrue(nextBth != bth && nextBth.isExpanded(), "BTH stays open on the next frame");
        assertFalse(tree.getRoot().getChildren().get(2).isExpanded());
        robot.interact(() -> tree.getSelectionModel().select(nextBth));
        menuItem(robot, "view-collapse-subtrees");
        assertFalse(nextBth.isExpanded());
        robot.interact(() -> ctx.select(BAD_ICRC));
        assertFalse(top(tree, bthText).isExpanded(), "closed stays closed");

        menuItem(robot, "view-expand-all");
        assertFalse(states(tree.getRoot()).contains(false), "Expand All");
        List<TreeItem<TreeEntry>> all = new ArrayList<>();
        for (TreeItem<TreeEntry> c : tree.getRoot().getChildren()) FieldTreeModel.walk(c, all);
        assertEquals(all.size(), tree.getExpandedItemCount(), "every line shown");
        menuItem(robot, "view-collapse-all");
        assertFalse(states(tree.getRoot()).contains(true), "Collapse All");
        assertEquals(tree.getRoot().getChildren().size(), tree.getExpandedItemCount(), "the top lines only");

        robot.interact(() -> {
            tree.requestFocus();
            tree.getSelectionModel().select(top(tree, bthText));
        });
        robot.press(javafx.scene.input.KeyCode.SHIFT).press(javafx.scene.input.KeyCode.RIGHT)
                .release(javafx.scene.input.KeyCode.RIGHT).release(javafx.scene.input.KeyCode.SHIFT);
        assertTrue(top(tree, bthText).isExpanded(), "Shift+Right in the tree");
        robot.interact(() -> {
            window.filterBar().prepare("bth");
            window.filterBar().editor().positionCaret(0);
        });
        robot.press(javafx.scene.input.KeyCode.SHIFT).press(javafx.scene.input.KeyCode.RIGHT)
                .release(javafx.scene.input.KeyCode.RIGHT).release(javafx.scene.input.KeyCode.SHIFT);
        assertEquals("b", window.filterBar().editor().getSelectedText(), "Shift+Right in the filter bar selects");
        assertEquals(List.of(), errors);
    }

    /**
     * The View menu's looks, on one opened capture: Zoom In grows the tree's font, the list's rows and the bytes
     * (saved), Normal Size puts them back; Packet Bytes off takes the hex pane out of the window (the tree gets its
     * space), on puts it back, the list and the bars hide alike; Colorize Packet List off draws rows uncoloured;
     * Show Packet in New Window shows the chosen frame's tree and bytes in a window that stays on it when the
     * selection moves (a second one shows another frame), and both close with the capture.
     */
    @Test
    void viewMenuZoomsHidesPanesColorizesAndShowsAPacketInANewWindow(FxRobot robot) throws Exception {
        open(robot, "conformance-violations");
        robot.interact(() -> ctx.select(BAD_ICRC));
        TreeView<TreeEntry> tree = window.detail().tree();
        double font = treeFont(robot), row = table(robot).getFixedCellSize(), hex = window.detail().hex().fontSize();
        assertEquals(22, row);
        menuItem(robot, "view-zoom-in");
        menuItem(robot, "view-zoom-in");
        assertTrue(treeFont(robot) > font * 1.15, font + " -> " + treeFont(robot));
        assertTrue(table(robot).getFixedCellSize() > row * 1.15, "rows follow the font: " + table(robot).getFixedCellSize());
        assertTrue(window.detail().hex().fontSize() > hex * 1.15);
        assertEquals("2", java.nio.file.Files.readString(config.resolve("zoom")).strip(), "kept for the next start");
        menuItem(robot, "view-zoom-normal");
        assertEquals(font, treeFont(robot));
        assertEquals(row, table(robot).getFixedCellSize());
        assertEquals(hex, window.detail().hex().fontSize());
        menuItem(robot, "view-zoom-out");
        assertTrue(treeFont(robot) < font);
        menuItem(robot, "view-zoom-normal");
        assertTrue(tree.getRoot() != null);

        assertTrue(robot.lookup("#hex-pane").tryQuery().isPresent());
        checkItem(robot, "view-packet-bytes", false);
        assertTrue(robot.lookup("#hex-pane").tryQuery().isEmpty(), "no hex pane in the scene");
        assertTrue(robot.lookup("#field-tree").tryQuery().isPresent());
        assertEquals(1, window.detail().getItems().size());
        checkItem(robot, "view-packet-bytes", true);
        assertTrue(robot.lookup("#hex-pane").tryQuery().isPresent());
        assertEquals(List.of(window.detail().tree(), window.detail().hex()), List.copyOf(window.detail().getItems()));
        checkItem(robot, "view-packet-list", false);
        assertTrue(robot.lookup("#packet-list").tryQuery().isEmpty());
        checkItem(robot, "view-packet-list", true);
        assertTrue(robot.lookup("#packet-list").tryQuery().isPresent());
        checkItem(robot, "view-status-bar", false);
        javafx.scene.Node status = stage.getScene().lookup("#status");
        assertFalse(status.getParent().isVisible());
        assertFalse(status.getParent().isManaged(), "takes no space");
        checkItem(robot, "view-filter-toolbar", false);
        assertFalse(window.filterBar().isManaged());

        robot.interact(() -> ctx.select(1));        // a selected row shows the selection's colour, not the rule's
        String badIcrc = row(robot, BAD_ICRC).getStyle();
        assertTrue(badIcrc.contains(ColoringRules.defaults().rules().stream().filter(r -> r.name().equals("Bad ICRC"))
                .findFirst().orElseThrow().background()), badIcrc);
        checkItem(robot, "view-colorize", false);
        assertEquals("", row(robot, BAD_ICRC).getStyle(), "Colorize Packet List off: uncoloured, the rules kept");
        checkItem(robot, "view-colorize", true);
        assertEquals(badIcrc, row(robot, BAD_ICRC).getStyle());

        robot.interact(() -> ctx.select(BAD_ICRC));
        menuItem(robot, "view-packet-window");
        robot.interact(() -> ctx.select(BAD_ICRC - 1));
        MenuItem fromList = table(robot).getContextMenu().getItems().stream()
                .filter(i -> "list-packet-window".equals(i.getId())).findFirst().orElseThrow();
        robot.interact(fromList::fire);
        List<FrameDetail> shown = new ArrayList<>();
        robot.interact(() -> {
            for (javafx.stage.Window w : javafx.stage.Window.getWindows())
                if (w.getScene() != null && w.getScene().getRoot() instanceof FrameDetail d && "packet-window".equals(d.getId())) shown.add(d);
        });
        assertEquals(2, shown.size());
        List<Integer> frames = shown.stream().map(FrameDetail::shownFrame).sorted().toList();
        assertEquals(List.of(BAD_ICRC - 1, BAD_ICRC), frames);
        FrameDetail first = shown.stream().filter(d -> d.shownFrame() == BAD_ICRC).findFirst().orElseThrow();
        String summary = first.tree().getRoot().getChildren().getFirst().getValue().text();
        assertTrue(summary.startsWith("Frame 171: 62 bytes on wire"), summary);
        robot.interact(() -> ctx.select(5));
        assertEquals(BAD_ICRC, first.shownFrame(), "does not follow the selection");
        assertEquals(summary, first.tree().getRoot().getChildren().getFirst().getValue().text());
        assertEquals(62, first.hex().data().length);
        robot.interact(() -> ctx.close());
        robot.interact(() -> { });
        assertFalse(first.getScene().getWindow().isShowing(), "closes with the capture");
        assertEquals(List.of(), errors);
    }

    /** The font of the field tree's first line as drawn (after the CSS pass). */
    private double treeFont(FxRobot robot) {
        double[] out = {0};
        robot.interact(() -> {
            window.detail().tree().applyCss();
            window.detail().tree().layout();
            for (javafx.scene.Node n : window.detail().tree().lookupAll(".tree-cell")) {
                javafx.scene.control.TreeCell<?> c = (javafx.scene.control.TreeCell<?>) n;
                if (!c.isEmpty()) out[0] = c.getFont().getSize();
            }
        });
        return out[0];
    }

    @Test
    void viewNameResolutionNamesTheListsAddressesAndResolvedAddressesListsThem(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        assertEquals("10.0.0.2", cell(robot, 3, "Source"), "Wireshark's default: network names off");
        Path hosts = java.nio.file.Files.writeString(config.resolve("fabric-hosts"), "# fabric\n10.0.0.1 gpu-node-01\n10.0.0.2 gpu-node-02 # comment\n");
        robot.interact(() -> window.nameResolution().commandLine(null, List.of(hosts)));
        checkItem(robot, "view-resolve-network", true);
        org.testfx.util.WaitForAsyncUtils.waitFor(10, java.util.concurrent.TimeUnit.SECONDS, () -> "gpu-node-02".equals(cell(robot, 3, "Source")));
        assertEquals("gpu-node-01", cell(robot, 3, "Destination"));
        assertEquals("mn", java.nio.file.Files.readString(config.resolve("name-resolution")).strip(), "kept for the next start (physical on)");
        // Find Packet (in the list) and Export Packet Dissections read the names the list shows, not the addresses.
        @SuppressWarnings("unchecked")
        java.util.concurrent.CompletableFuture<FindPacket.Result>[] found = new java.util.concurrent.CompletableFuture[1];
        robot.interact(() -> {
            ctx.select(1);
            window.findBar().set(FindPacket.Where.LIST, FindPacket.How.STRING, "GPU-NODE-02", false);
            found[0] = window.findBar().find(true);
        });
        FindPacket.Result hit = found[0].get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertNotNull(hit.hit(), "found by the name the list shows");
        int at = hit.hit().frame();
        assertTrue(List.of(cell(robot, at, "Source"), cell(robot, at, "Destination")).contains("gpu-node-02"), "frame " + at);
        DissectionExport.SummaryCells[] cells = new DissectionExport.SummaryCells[1];
        robot.interact(() -> cells[0] = DissectionExport.SummaryCells.of(ctx, window.packets()));
        String[] row = new String[cells[0].columns().size()];
        FrameDecoder dec = new FrameDecoder(ctx.capture().index(), ctx.analysis());
        cells[0].row(3, dec.decode(3), dec.fields(), row);
        assertEquals("gpu-node-02", row[cells[0].columns().indexOf("Source")]);

        robot.interact(() -> new io.metaroce.gui.stats.ResolvedAddressesWindow().open(ctx));
        javafx.scene.control.TableView<io.metaroce.gui.stats.ResolvedAddressesWindow.Entry> resolved = robot.lookup("#resolved-table").query();
        org.testfx.util.WaitForAsyncUtils.waitFor(10, java.util.concurrent.TimeUnit.SECONDS, () -> org.testfx.util.WaitForAsyncUtils.waitFor(
                org.testfx.util.WaitForAsyncUtils.asyncFx(() -> resolved.getItems().size() == 2)));
        List<String> rows = new ArrayList<>();
        robot.interact(() -> resolved.getItems().forEach(e -> rows.add(e.type() + " " + e.address() + " " + e.name() + " " + e.source())));
        assertEquals(List.of("Host 10.0.0.1 gpu-node-01 hosts: " + hosts, "Host 10.0.0.2 gpu-node-02 hosts: " + hosts), rows);

        checkItem(robot, "view-resolve-network", false);
        org.testfx.util.WaitForAsyncUtils.waitFor(10, java.util.concurrent.TimeUnit.SECONDS, () -> "10.0.0.2".equals(cell(robot, 3, "Source")));
        assertEquals("m", java.nio.file.Files.readString(config.resolve("name-resolution")).strip());
    }

    /**
     * Analyze > Follow > RoCE QP Stream on a READ/WRITE connection (rocev2-read-atomic frame 5, stream 1): the
     * direction chooser's byte counts are the payload the two flows' frames carry (read here frame by frame), one
     * coloured text block per frame with payload, "Show data as" Hex Dump changes the text; the main window is
     * filtered to the stream and Back restores the filter before; Filter Out applies !(the stream).
     */
    @Test
    void followRoceQpStreamShowsBothDirectionsAndFiltersTheMainWindow(FxRobot robot) throws Exception {
        open(robot, "rocev2-read-atomic");
        String before = "";     // no filter before: Back shows every frame again
        robot.interact(() -> ctx.select(5));
        menuItem(robot, "follow-roce");
        Fx.until("the stream read", () -> robot.lookup("#follow-direction").tryQuery().isPresent()
                && !((javafx.scene.control.ComboBox<?>) robot.lookup("#follow-direction").query()).getItems().isEmpty());
        javafx.scene.control.ComboBox<?> direction = robot.lookup("#follow-direction").query();
        javafx.scene.text.TextFlow text = robot.lookup("#follow-text").query();
        String filter = ((javafx.scene.control.Label) robot.lookup("#follow-status").query()).getText().substring("Filter: ".length());
        String[] flows = {filter.split("\"")[1], filter.split("\"")[3]};
        long[] bytes = new long[2];
        int blocks = 0;
        FrameDecoder dec = new FrameDecoder(ctx.capture().index(), ctx.analysis());
        for (int node = 0; node < 2; node++) {
            for (int f : ctx.framesMatching("analysis.flow == \"" + flows[node] + "\"")) {
                int n = Math.max(0, dec.decode(f).payloadLength());
                bytes[node] += n;
                if (n > 0) blocks++;
            }
        }
        assertTrue(bytes[0] > 0 && bytes[1] > 0, "WRITEs one way, READ responses the other");
        List<String> items = new ArrayList<>();
        robot.interact(() -> direction.getItems().forEach(i -> items.add(i.toString())));
        assertEquals("Entire conversation (" + (bytes[0] + bytes[1]) + " bytes)", items.get(0));
        assertTrue(items.get(1).endsWith(" (" + bytes[0] + " bytes)") && items.get(2).endsWith(" (" + bytes[1] + " bytes)"), items.toString());
        assertEquals(blocks, text.getChildren().size(), "one block per frame with payload");
        Fx.until("the main window filtered to the stream", () -> filter.equals(ctx.appliedFilterProperty().get()) && !ctx.busyProperty().get());
        assertEquals(ctx.framesMatching(filter).length, ctx.view().size(), "the packet list shows the stream");
        String ascii = ((javafx.scene.text.Text) text.getChildren().get(0)).getText();
        int firstPayload = Integer.MAX_VALUE;
        for (String flowId : flows) {
            for (int f : ctx.framesMatching("analysis.flow == \"" + flowId + "\"")) if (dec.decode(f).payloadLength() > 0) firstPayload = Math.min(firstPayload, f);
        }
        assertEquals(dec.decode(firstPayload).payloadLength() + 1, ascii.length(),
                "ASCII as Wireshark's dialog: the first block's bytes and a line end, no tshark byte count line: " + ascii);
        robot.interact(() -> ((javafx.scene.control.ComboBox<String>) robot.lookup("#follow-show-as").query()).getSelectionModel().select("Hex Dump"));
        String hex = ((javafx.scene.text.Text) text.getChildren().get(0)).getText();
        assertTrue(hex.startsWith("00000000  ") && !hex.equals(ascii), hex);
        robot.interact(() -> direction.getSelectionModel().select(2));
        assertTrue(text.getChildren().stream().allMatch(n -> ((javafx.scene.text.Text) n).getText().startsWith("\t")), "B to A only: node 1's blocks");
        robot.interact(() -> ((javafx.scene.control.Button) robot.lookup("#follow-back").query()).fire());
        Fx.until("Back restores the filter", () -> before.equals(ctx.appliedFilterProperty().get()) && !ctx.busyProperty().get()
                && ctx.view().size() == ctx.capture().frames());
        robot.interact(() -> ctx.select(5));
        menuItem(robot, "follow-roce");
        Fx.until("the stream read again", () -> robot.lookup("#follow-filter-out").tryQuery().isPresent()
                && ((javafx.scene.control.Label) robot.lookup("#follow-status").query()).getText().startsWith("Filter: "));
        robot.interact(() -> ((javafx.scene.control.Button) robot.lookup("#follow-filter-out").query()).fire());
        Fx.until("Filter Out", () -> ("!(" + filter + ")").equals(ctx.appliedFilterProperty().get()) && !ctx.busyProperty().get());
        // Analyze > Conversation Filter > RoCE QP: the same two flows; Apply as Filter > ...and not Selected joins the
        // tree's selected field to the filter applied, as Wireshark joins them.
        robot.interact(() -> ctx.applyFilter(""));
        Fx.until("every frame", () -> ctx.view().size() == ctx.capture().frames() && !ctx.busyProperty().get());
        robot.interact(() -> ctx.select(5));
        menuItem(robot, "analyze-conversation-roce");
        Fx.until("Conversation Filter", () -> filter.equals(ctx.appliedFilterProperty().get()) && !ctx.busyProperty().get());
        TreeItem<TreeEntry> psn = field(window.detail().tree(), "bth.psn");
        robot.interact(() -> window.detail().tree().getSelectionModel().select(psn));
        menuItem(robot, "analyze-apply-and-not-selected");
        String joined = "(" + filter + ") && (!(" + psn.getValue().filter() + "))";
        Fx.until("...and not Selected", () -> joined.equals(ctx.appliedFilterProperty().get()) && !ctx.busyProperty().get(),
                () -> ctx.appliedFilterProperty().get());
    }
}
