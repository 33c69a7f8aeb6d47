package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.FlowGraph;
import io.metaroce.dissector.Dissection;
import io.metaroce.gui.ColoringRules;
import io.metaroce.gui.FrameDecoder;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.GuiWindows;
import io.metaroce.gui.testutil.GuiHarness;
import io.metaroce.gui.testutil.Png;
import io.metaroce.gui.testutil.WindowTestBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.image.Image;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * Statistics > Flow Graph, headless (Monocle): rows for the displayed packets in capture order, the analysis'
 * comment on the resent packets, "Limit to display filter" off shows them all, the selected packet's flow, "Flow
 * type" RoCE only and "Addresses" standard as {@code dissect -z flow,roce|any,standard} has them, a new display
 * filter redrawing the graph, a click selects the packet in the main window; and its picture for the README
 * (-Dscreenshots.dir).
 */
class FlowGraphWindowTest extends WindowTestBase {
    private static final Path DIR = Path.of(System.getProperty("screenshots.dir", "target/screenshots"));
    /** Every frame of the capture, every type, a node per host. */
    private static final FlowGraphWindow.Choices ALL = new FlowGraphWindow.Choices(false, false, FlowGraph.Type.ANY, FlowGraph.Mode.NETWORK);

    @TempDir
    Path tmp;

    @Start
    void start(Stage stage) { setUp(stage); }

    private TableView<Integer> open(FxRobot robot) {
        robot.interact(() -> new FlowGraphWindow().open(ctx));
        TableView<Integer> table = robot.lookup("#flow-graph-table").queryAs(TableView.class);
        GuiHarness.until("flow graph rows", () -> !table.getItems().isEmpty());
        return table;
    }

    private static String comment(TableView<Integer> t, int row) { return (String) t.getColumns().get(3).getCellData(row); }

    /**
     * rocev2-gbn-loss under a display filter (the NAKs and the resends): one row per displayed packet in frame order,
     * every resent packet's comment says so with its cause, every NAK's says NAK; unticking "Limit to display filter"
     * shows the whole capture.
     */
    @Test
    void rowsAreTheDisplayedPacketsWithTheirVerdicts(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        int all = ctx.capture().frames();
        robot.interact(() -> assertNull(ctx.applyFilter("analysis.retransmission || aeth.syndrome.kind == nak")));
        GuiHarness.until("the filter applied", () -> ctx.view().size() < all);
        int[] shown = ctx.view().toArray();
        int[] retx = ctx.framesMatching("analysis.retransmission");
        assertTrue(retx.length > 0 && retx.length < shown.length, "resends and NAKs shown");
        TableView<Integer> table = open(robot);
        int[] rows = table.getItems().stream().mapToInt(Integer::intValue).toArray();
        assertArrayEquals(shown, rows, "one row per displayed packet, in frame order");
        int resent = 0, naks = 0;
        for (int i = 0; i < rows.length; i++) {
            boolean isRetx = java.util.Arrays.binarySearch(retx, rows[i]) >= 0;
            String c = comment(table, i);
            if (isRetx) {
                assertTrue(c.startsWith("Retransmission (nak) of frame "), rows[i] + ": " + c);
                resent++;
            } else {
                assertTrue(c.startsWith("NAK PSN Sequence Error, resend from PSN "), rows[i] + ": " + c);
                naks++;
            }
        }
        assertEquals(retx.length, resent);
        assertTrue(naks > 0);
        CheckBox limit = robot.lookup("#flow-graph-limit").queryAs(CheckBox.class);
        robot.clickOn(limit);
        GuiHarness.until("every packet", () -> table.getItems().size() == all);
        assertEquals(1, table.getItems().getFirst());
    }

    /** "Selected packet's flow": the frames of the selected packet's QP flow and of its peer, both directions. */
    @Test
    void selectedFlowShowsBothDirections(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        int nak = ctx.framesMatching("aeth.syndrome.kind == nak")[0];
        robot.interact(() -> ctx.select(nak));
        TableView<Integer> table = open(robot);
        int all = table.getItems().size();
        robot.clickOn(robot.lookup("#flow-graph-flow").queryAs(CheckBox.class));
        GuiHarness.until("the flow's packets", () -> table.getItems().size() < all && !table.getItems().isEmpty());
        String flow = FlowChoice.flowOf(ctx.capture().index(), ctx.analysis(), nak);
        io.metaroce.analysis.FlowSummary f = ctx.analysis().flows().stream().filter(x -> x.id().equals(flow)).findFirst().orElseThrow();
        List<Integer> expected = new ArrayList<>();
        for (int fr : ctx.framesMatching(FlowSeries.flowFilter(f.id()) + " || " + FlowSeries.flowFilter(f.peer()))) expected.add(fr);
        assertEquals(expected, new ArrayList<>(table.getItems()));
        assertTrue(table.getItems().contains(nak));
    }

    /**
     * The window learns the hosts a step at a time while it shows the rows: any steps give the columns of one pass,
     * and the columns known after a step are the first ones of the final list (a later host only adds one at the right).
     */
    @Test
    void hostsLearnedInStepsKeepTheirColumns(FxRobot robot) {
        GuiHarness.open(robot, ctx, "rocev2-pfc-storm");
        FlowGraphWindow.Ladder whole = FlowGraphWindow.ladder(ctx, ctx.analysis(), ALL);
        List<String> all = whole.nodes().ordered();
        assertTrue(all.size() > 2, "hosts and the pausing MACs: " + all);
        FlowGraphWindow.Learner l = new FlowGraphWindow.Learner(ctx.capture().index(), ctx.analysis(), whole.frames(), FlowGraph.Mode.NETWORK);
        while (!l.done()) {
            l.learn(7);
            List<String> sofar = l.snapshot().ordered();
            assertEquals(all.subList(0, sofar.size()), sofar);
        }
        assertEquals(all, l.snapshot().ordered());
    }

    /**
     * "Addresses: Standard": a node per host and QP, the nodes {@code dissect -q -z flow,any,standard} prints, learned
     * here as its FlowStat learns them (every frame: the sender's QP as the analysis paired it, the receiver's from
     * BTH) and in its order (on rocev2-gbn-loss its header starts with the CM endpoints, QP 1, then the data QPs).
     * A display filter applied in the main window while it is open redraws exactly that filter's frames, the
     * Addresses choice kept, and the bar names the filter.
     */
    @Test
    void standardAddressesAreDissectsNodesAndAFilterRedraws(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        TableView<Integer> table = open(robot);
        int all = ctx.capture().frames();
        GuiHarness.until("every packet", () -> table.getItems().size() == all);
        Label status = robot.lookup("#flow-graph-status").queryAs(Label.class);
        Label filter = robot.lookup("#flow-graph-filter").queryAs(Label.class);
        GuiHarness.until("hosts learned", () -> status.getText().endsWith(" hosts"));
        assertEquals("(no filter applied)", filter.getText());
        double hostWidth = table.getColumns().get(2).getPrefWidth();

        FlowGraph.Nodes cli = new FlowGraph.Nodes();
        FrameDecoder decoder = new FrameDecoder(ctx.capture().index(), ctx.analysis());
        AnalysisFrameFields analysis = ctx.analysis().frameFields();
        for (int f = 1; f <= all; f++) {
            Dissection d = decoder.decode(f);
            if (!FlowGraph.selects(FlowGraph.Type.ANY, d)) continue;
            cli.learn(f, FlowGraph.from(FlowGraph.Mode.STANDARD, d, FlowGraph.sourceQp(d, analysis)), FlowGraph.to(FlowGraph.Mode.STANDARD, d));
        }
        List<String> nodes = cli.ordered();
        // What `dissect -q -z flow,any,standard` printed for this sample (its header, the columns in order).
        assertEquals(List.of("10.0.0.1:0x1", "10.0.0.2:0x1", "10.0.0.1:0x11", "10.0.0.2:0x13", "10.0.0.1:0x19", "10.0.0.2:0x20"),
                nodes.subList(0, 6));

        ChoiceBox<?> mode = robot.lookup("#flow-graph-mode").queryAs(ChoiceBox.class);
        robot.interact(() -> mode.getSelectionModel().select(1));
        GuiHarness.until("QP nodes learned", () -> status.getText().equals(all + " packets, " + nodes.size() + " nodes"));
        assertEquals(nodes, FlowGraphWindow.ladder(ctx, ctx.analysis(),
                new FlowGraphWindow.Choices(true, false, FlowGraph.Type.ANY, FlowGraph.Mode.STANDARD)).nodes().ordered());
        assertEquals(nodes.size() * FlowGraphWindow.NODE_WIDTH + 4, table.getColumns().get(2).getPrefWidth(), "a column per node");
        assertTrue(table.getColumns().get(2).getPrefWidth() > hostWidth, "more nodes than hosts");

        String syndromes = "infiniband.aeth.syndrome";
        robot.interact(() -> assertNull(ctx.applyFilter(syndromes)));
        int[] acks = ctx.framesMatching(syndromes);
        assertTrue(acks.length > 0 && acks.length < all, "the ACKs and NAKs");
        GuiHarness.until("the filter's frames", () -> table.getItems().size() == acks.length && status.getText().endsWith(" nodes"));
        assertArrayEquals(acks, table.getItems().stream().mapToInt(Integer::intValue).toArray(), "exactly the filter's frames");
        assertEquals(syndromes, filter.getText());
        assertEquals(1, mode.getSelectionModel().getSelectedIndex(), "the choice stays");

        // Export... as ASCII writes, byte for byte, what dissect -z flow prints for the same choices.
        Path txt = exportTo(robot, tmp.resolve("flow.txt"));
        // The packaged CLI's jar run directly (the launcher would first train its AOT cache after a build: ~10 s).
        Path sample = io.metaroce.gui.testutil.Sample.path("rocev2-gbn-loss").toAbsolutePath().normalize();
        Path jar = sample.getParent().getParent().getParent().resolve("cli/target/metaroce.jar");
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-jar", jar.toString(), "dissect", "-q", "-r", sample.toString(), "-z", "flow,any,standard," + syndromes);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        byte[] cliOut = p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor());
        assertTrue(cliOut.length > 1000, "dissect printed the diagram");
        assertEquals(new String(cliOut, java.nio.charset.StandardCharsets.UTF_8), java.nio.file.Files.readString(txt), "the CLI's bytes");
        assertArrayEquals(cliOut, java.nio.file.Files.readAllBytes(txt));
        // ... and as PNG every row (header, a row per frame), the NAK rows in their rule's red.
        java.awt.image.BufferedImage png = javax.imageio.ImageIO.read(exportTo(robot, GraphWindowsTest.EXPORTS.resolve("flow-graph.png")).toFile());
        int shownNodes = FlowGraphWindow.ladder(ctx, ctx.analysis(), new FlowGraphWindow.Choices(true, false, FlowGraph.Type.ANY,
                FlowGraph.Mode.STANDARD)).nodes().ordered().size();
        assertEquals(FlowGraphWindow.pngWidth(shownNodes), png.getWidth());
        assertEquals(FlowGraphWindow.PNG_HEADER + acks.length * (int) FlowGraphWindow.ROW_HEIGHT, png.getHeight());
        int red = 0;
        for (int y = 0; y < png.getHeight(); y++) if ((png.getRGB(5, y) & 0xFFFFFF) == 0xcc0000) red++;
        assertTrue(red > 0, "a NAK row in red");

        // Reset: every choice back to its default (after changing each), the graph redrawn and shown from the top.
        CheckBox limit = robot.lookup("#flow-graph-limit").queryAs(CheckBox.class);
        CheckBox flowOnly = robot.lookup("#flow-graph-flow").queryAs(CheckBox.class);
        ChoiceBox<?> type = robot.lookup("#flow-graph-type").queryAs(ChoiceBox.class);
        robot.interact(() -> {
            ctx.select(acks[acks.length - 1]);
            limit.setSelected(false);
            flowOnly.setSelected(true);
            type.getSelectionModel().select(1);
        });
        robot.interact(() -> table.scrollTo(table.getItems().size() - 1));
        robot.clickOn("#flow-graph-reset");
        assertTrue(limit.isSelected());
        assertFalse(flowOnly.isSelected());
        assertEquals(0, type.getSelectionModel().getSelectedIndex());
        assertEquals(0, mode.getSelectionModel().getSelectedIndex());
        GuiHarness.until("the default graph", () -> table.getItems().size() == acks.length && status.getText().endsWith(" hosts"));
        GuiHarness.until("the top row shown", () -> robot.from(table).lookup(".table-row-cell")
                .match((TableRow<?> x) -> x.getIndex() == 0 && x.getItem() != null).tryQuery().isPresent());
    }

    /** Exports through the open Flow Graph's Export... as if its file chooser returned file; waits for the file. */
    private static Path exportTo(FxRobot robot, Path file) throws Exception {
        java.nio.file.Files.createDirectories(file.toAbsolutePath().getParent());
        javafx.scene.control.Button b = robot.lookup("#flow-graph-export").queryButton();
        String[] result = new String[1];
        boolean[] done = new boolean[1];
        @SuppressWarnings("unchecked")
        var to = (java.util.function.BiConsumer<Path, java.util.function.Consumer<String>>) b.getProperties().get(FlowGraphWindow.EXPORT_TO);
        robot.interact(() -> to.accept(file, e -> {
            result[0] = e;
            done[0] = true;
        }));
        GuiHarness.until("exported " + file.getFileName(), () -> done[0]);
        assertNull(result[0]);
        return file;
    }

    /**
     * "Flow type: RoCE only" on rocev2-pfc-storm (thousands of PFC pause frames, no RoCE): the rows are the frames
     * FlowGraph.selects(ROCE, ...) keeps, as {@code dissect -z flow,roce,network} counts them, no pause among them.
     */
    @Test
    void roceOnlyDropsTheOtherFrames(FxRobot robot) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-pfc-storm");
        TableView<Integer> table = open(robot);
        int all = ctx.capture().frames();
        GuiHarness.until("every packet", () -> table.getItems().size() == all);
        List<Integer> roce = new ArrayList<>();
        FrameDecoder decoder = new FrameDecoder(ctx.capture().index(), ctx.analysis());
        for (int f = 1; f <= all; f++) if (decoder.decode(f).isRoce()) roce.add(f);
        int[] pauses = ctx.framesMatching("macc");
        assertTrue(pauses.length > all / 2 && !roce.isEmpty(), pauses.length + " pauses, " + roce.size() + " RoCE of " + all);
        robot.interact(() -> robot.lookup("#flow-graph-type").queryAs(ChoiceBox.class).getSelectionModel().select(1));
        GuiHarness.until("the RoCE frames", () -> table.getItems().size() == roce.size());
        assertEquals(roce, new ArrayList<>(table.getItems()));
        java.util.Set<Integer> shown = new java.util.HashSet<>(table.getItems());
        for (int p : pauses) assertTrue(!shown.contains(p), "pause frame " + p);
    }

    /** A click on a row selects its packet in the main window's packet list. */
    @Test
    void clickSelectsThePacket(FxRobot robot) {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        TableView<Integer> table = open(robot);
        int third = table.getItems().get(2);
        TableRow<?> row = robot.from(table).lookup(".table-row-cell").match((TableRow<?> x) -> x.getIndex() == 2).query();
        robot.clickOn(row);
        GuiHarness.until("selection", () -> ctx.selectedFrame() == third);
    }

    /**
     * The rows take the packet list's coloring rules, the user's own included: with a saved colorfilters file whose
     * first rule is {@code infiniband.bth.opcode == 17} (the Acknowledges: ACKs and NAKs) in a colour of its own, then
     * the defaults, every Acknowledge row has that rule's colours, every resent packet the Retransmission rule's, the
     * rest none. Saving new rules while the window is open recolours the rows on screen (the packet list's way).
     */
    @Test
    void rowsTakeTheUsersColoringRules(FxRobot robot, @TempDir Path config) throws Exception {
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        TableView<Integer> table = open(robot);
        int nak = ctx.framesMatching("aeth.syndrome.kind == nak")[0];
        robot.interact(() -> table.scrollTo(Math.max(0, table.getItems().indexOf(nak) - 3)));
        GuiHarness.until("the NAK row drawn", () -> row(robot, table, nak) != null);
        assertTrue(row(robot, table, nak).getStyle().contains("#cc0000"), "the default NAK rule first: " + row(robot, table, nak).getStyle());

        List<ColoringRules.Rule> mine = new ArrayList<>();
        mine.add(new ColoringRules.Rule("Acknowledges", "infiniband.bth.opcode == 17", "#ffffff", "#1f7a3d", true));
        mine.addAll(ColoringRules.defaults().rules());
        Path file = config.resolve("metaroce/colorfilters");
        new ColoringRules(mine).save(file);
        robot.interact(() -> ctx.setColoringRules(ColoringRules.load(file)));
        robot.interact(() -> { });
        assertTrue(row(robot, table, nak).getStyle().contains("-fx-background-color: #1f7a3d"), "recoloured: " + row(robot, table, nak).getStyle());

        // Each frame's colour is the first rule whose filter, run over the whole capture, matches it.
        ColoringRules rules = ctx.coloringRules();
        List<int[]> matching = new ArrayList<>();
        for (ColoringRules.Rule r : rules.rules()) matching.add(ctx.framesMatching(r.filter()));
        FlowGraphWindow.Rows rows = new FlowGraphWindow.Rows();
        int frames = ctx.capture().frames();
        String[] got = new String[frames + 1];
        robot.interact(() -> {
            rows.use(ctx, FlowGraphWindow.ladder(ctx, ctx.analysis(), ALL).nodes(), FlowGraph.Mode.NETWORK);
            for (int f = 1; f <= frames; f++) {
                ColoringRules.Rule c = rows.colour(f);
                got[f] = c == null ? null : c.name();
            }
        });
        java.util.Map<String, Integer> count = new java.util.TreeMap<>();
        for (int f = 1; f <= frames; f++) {
            String want = null;
            for (int i = 0; i < matching.size() && want == null; i++) {
                if (java.util.Arrays.binarySearch(matching.get(i), f) >= 0) want = rules.rules().get(i).name();
            }
            assertEquals(want, got[f], "frame " + f);
            if (want != null) count.merge(want, 1, Integer::sum);
        }
        assertEquals(ctx.framesMatching("infiniband.bth.opcode == 17").length, count.get("Acknowledges"), count.toString());
        assertEquals(ctx.framesMatching("analysis.retransmission").length, count.get("Retransmission"), count.toString());
        assertEquals(null, count.get("NAK / NACK"), "the user's rule comes first: " + count);
    }

    private static TableRow<?> row(FxRobot robot, TableView<Integer> table, int frame) {
        return robot.from(table).lookup(".table-row-cell").match((TableRow<?> x) -> x.getItem() != null && x.getItem().equals(frame))
                .<TableRow<?>>tryQuery().orElse(null);
    }

    /** One Statistics menu item; the picture of the go-back-N ladder with a NAK and its resends in view. */
    @Test
    void menuItemAndPicture(FxRobot robot) throws Exception {
        GuiWindow w = GuiWindows.ALL.stream().filter(x -> x instanceof FlowGraphWindow).findFirst().orElseThrow();
        assertEquals("Flow Graph...", w.title());
        assertEquals(GuiWindow.Place.STATISTICS, w.place());
        GuiHarness.open(robot, ctx, "rocev2-gbn-loss");
        int nak = ctx.framesMatching("aeth.syndrome.kind == nak")[0];
        TableView<Integer> table = open(robot);
        robot.interact(() -> table.scrollTo(Math.max(0, table.getItems().indexOf(nak) - 6)));
        GuiHarness.until("the NAK row drawn", () -> robot.from(table).lookup(".table-row-cell")
                .match((TableRow<?> x) -> x.getItem() != null && x.getItem().equals(nak)).tryQuery().isPresent());
        robot.interact(() -> { });
        Image[] img = new Image[1];
        robot.interact(() -> img[0] = table.getScene().snapshot(null));
        Png.write(img[0], DIR.resolve("gui-flow-graph-gbn.png"));
        assertTrue(Png.fraction(img[0], 0xcc0000) > 0.005, "the NAK row in the NAK rule's red");
        assertTrue(Png.fraction(img[0], 0xf0a0a0) > 0.005, "resent rows in the Retransmission rule's colour");
    }
}
