package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowGraph;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.gui.ColoringRules;
import io.metaroce.gui.FrameDecoder;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.OpenCapture;
import io.metaroce.gui.stats.Windows;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.VPos;
import javafx.scene.SnapshotParameters;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;
import javax.imageio.ImageIO;

/**
 * Statistics > Flow Graph: Wireshark's ladder diagram of the displayed packets ("Limit to display filter", on by
 * default, the bar under the graph names the filter) or of the whole capture, or of the selected packet's flow in
 * both directions; "Flow type" keeps every frame or the RoCE ones, "Addresses" names the nodes by host (network)
 * or by host and QP (standard), the choices of {@code dissect -z flow,TYPE,MODE}. Node columns are the hosts,
 * each row one packet: time, an arrow from sender to receiver with the Info above it and the QP numbers at its ends,
 * and the analysis' verdict as comment; rows take the colours of the first packet-list colouring rule they match
 * (the user's own rules too, recoloured when the rules are saved), as Wireshark's Flow Graph does. Clicking a row
 * selects its packet in the main window. The rows are {@link FlowGraph}'s, as {@code dissect -z flow} prints them.
 *
 * <p>Fast on a large capture: the table holds only the frame numbers (4 bytes each) and decodes the rows it shows
 * (a virtualised TableView, a Canvas per visible ladder cell, a small cache of decoded rows). The node columns are
 * learned off the JavaFX thread in frame order: the rows show once the first {@link #FIRST_PASS} frames are learned
 * (a pass over every frame took 1.7-3.6 s on 1 M frames), the rest while they show; a host found later only adds a
 * column at the right, as the order of first appearance puts it there.
 */
public final class FlowGraphWindow implements GuiWindow {
    /** Pixels per node column and per row (the label line above the arrow, the QP numbers below it). */
    static final double NODE_WIDTH = 220, ROW_HEIGHT = 36;
    /** Decoded rows kept for redrawing (a screen shows about 30). */
    static final int CACHE = 1024;

    @Override
    public Place place() { return Place.STATISTICS; }

    @Override
    public String title() { return "Flow Graph..."; }

    /** The nodes of a set of frames and the frames, as one pass off the JavaFX thread learns them. */
    record Ladder(int[] frames, FlowGraph.Nodes nodes) { }

    /**
     * What the bar under the graph chose: the displayed frames or all, the selected packet's flow only, which frames
     * ({@code dissect -z flow}'s TYPE) and how the nodes are named (its MODE).
     */
    record Choices(boolean limitToFilter, boolean selectedFlow, FlowGraph.Type type, FlowGraph.Mode mode) {
        /** Wireshark's defaults: the displayed frames, every frame type, a node per host. */
        static final Choices DEFAULT = new Choices(true, false, FlowGraph.Type.ANY, FlowGraph.Mode.NETWORK);
    }

    /** The "Flow type" choices, in dissect -z flow's order (any, roce). */
    static final List<String> TYPES = List.of("All frames", "RoCE only");
    /** The "Addresses" choices: network (a node per host, the default) and standard (a node per host and QP). */
    static final List<String> MODES = List.of("Network (host)", "Standard (host:QP)");

    @Override
    public void open(GuiContext ctx) {
        TableView<Integer> table = new TableView<>();
        table.setId("flow-graph-table");
        table.setFixedCellSize(ROW_HEIGHT);
        Label status = new Label();
        status.setId("flow-graph-status");
        CheckBox limit = new CheckBox("Limit to display filter");
        limit.setId("flow-graph-limit");
        limit.setSelected(true);
        CheckBox flowOnly = new CheckBox("Selected packet's flow (both directions)");
        flowOnly.setId("flow-graph-flow");
        ChoiceBox<String> type = new ChoiceBox<>(FXCollections.observableList(TYPES));
        type.setId("flow-graph-type");
        type.getSelectionModel().select(0);
        ChoiceBox<String> mode = new ChoiceBox<>(FXCollections.observableList(MODES));
        mode.setId("flow-graph-mode");
        mode.getSelectionModel().select(0);
        // Which display filter "Limit to display filter" applies: the main window's, as it was when the rows were made.
        Label filter = new Label();
        filter.setId("flow-graph-filter");
        Rows rows = new Rows();
        TableColumn<Integer, Integer> no = new TableColumn<>("No.");
        no.setPrefWidth(70);
        no.setSortable(false);
        no.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue()));
        TableColumn<Integer, String> time = new TableColumn<>("Time");
        time.setPrefWidth(110);
        time.setSortable(false);
        time.setCellValueFactory(cd -> {
            FlowGraph.Row r = rows.row(cd.getValue());
            return new ReadOnlyObjectWrapper<>(r == null ? "" : String.format(Locale.ROOT, "%.9f", r.relativeNanos() / 1e9));
        });
        TableColumn<Integer, Integer> ladder = new TableColumn<>();
        ladder.setId("flow-graph-ladder");
        ladder.setSortable(false);
        ladder.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue()));
        ladder.setCellFactory(c -> new LadderCell(rows));
        TableColumn<Integer, String> comment = new TableColumn<>("Comment");
        comment.setPrefWidth(420);
        comment.setSortable(false);
        comment.setCellValueFactory(cd -> {
            FlowGraph.Row r = rows.row(cd.getValue());
            return new ReadOnlyObjectWrapper<>(r == null ? "" : r.comment());
        });
        table.getColumns().addAll(List.of(no, time, ladder, comment));
        table.setRowFactory(t -> {
            TableRow<Integer> row = new TableRow<>() {
                @Override
                protected void updateItem(Integer frame, boolean empty) {
                    super.updateItem(frame, empty);
                    ColoringRules.Rule c = empty || frame == null ? null : rows.colour(frame);
                    setStyle(c == null ? "" : "-fx-background-color: " + c.background() + "; -fx-text-background-color: " + c.foreground() + ";");
                }
            };
            row.setOnMouseClicked(e -> {
                if (row.getItem() != null) Windows.select(ctx, row.getItem(), status);
            });
            return row;
        });
        table.setOnKeyPressed(e -> {
            Integer f = table.getSelectionModel().getSelectedItem();
            if (e.getCode() == KeyCode.ENTER && f != null) Windows.select(ctx, f, status);
        });
        // Wireshark's buttons: Reset puts the choices back to their defaults and the view to the top; Export... saves
        // the whole diagram as PNG or as dissect -z flow's ASCII.
        Button reset = new Button("Reset");
        reset.setId("flow-graph-reset");
        Button export = new Button("Export...");
        export.setId("flow-graph-export");
        // Under the graph, as Wireshark's: its checkbox, "Flow type" and "Addresses"; then what is shown.
        HBox bar = new HBox(12, limit, filter, flowOnly, new Label("Flow type:"), type, new Label("Addresses:"), mode, reset, export, status);
        bar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(table);
        root.setBottom(bar);
        javafx.stage.Stage stage = Windows.show(ctx, "flow-graph", "Flow Graph", root, 1400, 700);
        // Rules saved in View > Coloring Rules while the window is open recolour its rows, as they do the packet list's.
        javafx.beans.value.ChangeListener<ColoringRules> recolour = (o, a, r) -> {
            rows.recolour(r);
            table.refresh();
        };
        ctx.coloringRulesProperty().addListener(recolour);
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, e -> ctx.coloringRulesProperty().removeListener(recolour));
        int[] generation = {0};
        Runnable fill = () -> {
            int gen = ++generation[0];
            Choices choices = choices(limit, flowOnly, type, mode);
            String applied = ctx.appliedFilterProperty().get();
            filter.setText(!choices.limitToFilter() ? "" : applied == null || applied.isBlank() ? "(no filter applied)" : applied);
            String nodesAre = choices.mode() == FlowGraph.Mode.STANDARD ? " nodes" : " hosts";
            Windows.afterAnalysis(ctx, status, s -> {
                Learner learner = new Learner(ctx.capture().index(), s, frames(ctx, s, choices), choices.mode());
                learner.learn(FIRST_PASS);
                return learner;
            }, learner -> {
                if (gen != generation[0]) return;
                rows.use(ctx, learner.snapshot(), choices.mode());
                showNodes(ladder, rows.nodes);
                table.setItems(frames(learner.frames));
                status.setText(learner.frames.length + " packets, " + rows.nodes.ordered().size() + nodesAre
                        + (learner.done() ? "" : " so far (learning the" + nodesAre + " of the rest ...)"));
                if (learner.done()) return;
                // The rest of the hosts, off the UI thread: a pass in frame order only appends columns, so the
                // rows already drawn keep theirs; a new host redraws the table once.
                Thread.ofPlatform().daemon().name("metaroce-flow-graph").start(() -> {
                    // Stops when the window closes or another choice starts a pass of its own.
                    while (!learner.done() && gen == generation[0] && stage.isShowing()) {
                        int before = learner.nodes.size();
                        learner.learn(FIRST_PASS);
                        boolean more = learner.nodes.size() != before, last = learner.done();
                        if (!more && !last) continue;
                        FlowGraph.Nodes snap = learner.snapshot();
                        javafx.application.Platform.runLater(() -> {
                            if (gen != generation[0]) return;
                            if (more) {
                                rows.nodes = snap;
                                showNodes(ladder, snap);
                                table.refresh();
                            }
                            if (last) status.setText(learner.frames.length + " packets, " + snap.ordered().size() + nodesAre);
                        });
                    }
                });
            });
        };
        reset.setOnAction(e -> {
            // Quietly (no pass per control), then one pass with the defaults.
            generation[0]++;
            limit.setSelected(Choices.DEFAULT.limitToFilter());
            flowOnly.setSelected(Choices.DEFAULT.selectedFlow());
            type.getSelectionModel().select(Choices.DEFAULT.type().ordinal());
            mode.getSelectionModel().select(Choices.DEFAULT.mode() == FlowGraph.Mode.STANDARD ? 1 : 0);
            fill.run();
            table.scrollTo(0);
        });
        export.setOnAction(e -> {
            Path p = GraphExport.choosePngOr(stage, "Export Flow Graph", "flow-graph", "ASCII, as dissect -z flow", "txt");
            if (p == null) return;
            export(ctx, choices(limit, flowOnly, type, mode), p, status, null);
        });
        // What Export... does once a file is chosen, for the tests (the FileChooser is native and cannot be driven).
        export.getProperties().put(EXPORT_TO, (BiConsumer<Path, Consumer<String>>)
                (p, done) -> export(ctx, choices(limit, flowOnly, type, mode), p, status, done));
        limit.setOnAction(e -> fill.run());
        flowOnly.setOnAction(e -> fill.run());
        type.setOnAction(e -> fill.run());
        mode.setOnAction(e -> fill.run());
        // A new display filter in the main window redraws a graph limited to it (the choices above stay).
        javafx.beans.value.ChangeListener<String> refilter = (o, a, f) -> {
            if (limit.isSelected()) fill.run();
        };
        ctx.appliedFilterProperty().addListener(refilter);
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, e -> ctx.appliedFilterProperty().removeListener(refilter));
        // Decode As and Reload open the capture again: the rows are made again from it (fill reads ctx's capture).
        Windows.followRedissections(ctx, status, fill);
        fill.run();
    }

    /** What the bar chooses now. */
    private static Choices choices(CheckBox limit, CheckBox flowOnly, ChoiceBox<String> type, ChoiceBox<String> mode) {
        return new Choices(limit.isSelected(), flowOnly.isSelected(),
                FlowGraph.Type.values()[Math.max(0, type.getSelectionModel().getSelectedIndex())],
                mode.getSelectionModel().getSelectedIndex() == 1 ? FlowGraph.Mode.STANDARD : FlowGraph.Mode.NETWORK);
    }

    // ------------------------------------------------------------------ Export...

    static final String EXPORT_TO = "metaroce.flowGraph.exportTo";

    /** The tallest PNG Export... writes (the largest height many image viewers and PNG decoders accept). */
    static final int MAX_PNG_HEIGHT = 32_767;
    /** The most pixels of a PNG Export... writes (128 MB of pixels in memory while it is encoded). */
    static final long MAX_PNG_PIXELS = 1L << 25;
    /** Heights of the picture's header (the node names) and of its footer line (rows left out). */
    static final int PNG_HEADER = 24, PNG_FOOTER = 22;
    /** Widths of the picture's No., Time and Comment columns, as the table's. */
    static final int PNG_NO = 70, PNG_TIME = 110, PNG_COMMENT = 420;

    /**
     * Export...: the diagram of the choices to a file, by its extension: .txt as ASCII, byte for byte what
     * {@code dissect -z flow,TYPE,MODE[,FILTER]} prints for the same frames, else a PNG of every row (up to
     * {@link #rowsInPng}; a footer line says how many were left out). The frames and nodes are learned off the JavaFX
     * thread; the PNG is drawn on it a tile at a time. done (null: none) gets the error or null on the JavaFX thread.
     */
    static void export(GuiContext ctx, Choices choices, Path file, Label status, Consumer<String> done) {
        boolean text = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".txt");
        status.setText("Exporting " + file.getFileName() + " ...");
        Windows.afterAnalysis(ctx, status, s -> {
            Ladder l = ladder(ctx, s, choices);
            if (text) {
                try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                    ascii(ctx, s, choices.mode(), l, w);
                } catch (IOException e) {
                    return "Could not export " + file + ": " + e.getMessage();
                }
                return null;
            }
            return l;
        }, r -> {
            if (r instanceof Ladder l) {
                // Drawn here a tile a pulse (a Canvas snapshot needs the JavaFX thread), encoded and written off it.
                Picture picture = new Picture(ctx, choices.mode(), l);
                Runnable[] next = new Runnable[1];
                next[0] = () -> {
                    if (!picture.step()) {
                        javafx.application.Platform.runLater(next[0]);
                        return;
                    }
                    Thread.ofPlatform().daemon().name("metaroce-flow-graph-export").start(() -> {
                        String error = writePng(picture.out, file);
                        javafx.application.Platform.runLater(() -> {
                            status.setText(error == null ? "Exported " + file : error);
                            if (done != null) done.accept(error);
                        });
                    });
                };
                next[0].run();
                return;
            }
            String error = (String) r;
            status.setText(error == null ? "Exported " + file : error);
            if (done != null) done.accept(error);
        });
    }

    /** The ASCII diagram of a ladder: {@link FlowGraph.Text}, the writer dissect -z flow prints with (nothing for no frames). */
    static void ascii(GuiContext ctx, AnalysisSession s, FlowGraph.Mode mode, Ladder l, Writer w) throws IOException {
        if (l.frames().length == 0) return;    // dissect -z flow prints nothing for a flow without frames
        FlowGraph.Text text = new FlowGraph.Text(l.nodes());
        w.write(text.header());
        FrameDecoder decoder = new FrameDecoder(ctx.capture().index(), s);
        for (int f : l.frames()) w.write(text.row(FlowGraph.row(mode, decoder.decode(f), decoder.analysis())));
    }

    /** How many rows a PNG of the ladder holds: all, or as many as fit {@link #MAX_PNG_HEIGHT} and {@link #MAX_PNG_PIXELS}. */
    static int rowsInPng(int rows, int width) {
        long byPixels = MAX_PNG_PIXELS / Math.max(1, width);
        long height = Math.min(MAX_PNG_HEIGHT, byPixels) - PNG_HEADER - PNG_FOOTER;
        return (int) Math.max(0, Math.min(rows, height / (long) ROW_HEIGHT));
    }

    /** The width of the picture of a ladder with n nodes. */
    static int pngWidth(int nodes) { return (int) (PNG_NO + PNG_TIME + Math.max(1, nodes) * NODE_WIDTH + PNG_COMMENT); }

    /** Writes a picture as PNG; the error or null. */
    static String writePng(BufferedImage picture, Path file) {
        try {
            if (!ImageIO.write(picture, "png", file.toFile())) return "Could not export " + file + ": no PNG writer";
        } catch (IOException e) {
            return "Could not export " + file + ": " + e.getMessage();
        }
        return null;
    }

    /** Draws the whole picture at once, on the JavaFX thread (the benchmark's way; Export... draws a tile a pulse). */
    static BufferedImage png(GuiContext ctx, FlowGraph.Mode mode, Ladder l) {
        Picture p = new Picture(ctx, mode, l);
        while (!p.step()) { }
        return p.out;
    }

    /**
     * The ladder drawn into one picture a tile at a time (a Canvas of {@link #TILE_W} x {@link #TILE_H} px at most,
     * snapshot, copied into the picture), on the JavaFX thread: 2,048-px tiles cost the software pipeline about 250 ms
     * each (FlowGraphBenchmark, 1 M frames), so Export... draws one smaller tile per pulse and the window stays
     * responsive between them.
     */
    static final class Picture {
        final BufferedImage out;
        private final Rows rows = new Rows();
        private final Ladder l;
        private final int n, width, height, shown;
        private final boolean cut;
        private final Canvas tile;
        private final SnapshotParameters sp = new SnapshotParameters();
        private final int[] px;
        private WritableImage img;
        private int tx, ty;

        Picture(GuiContext ctx, FlowGraph.Mode mode, Ladder l) {
            this.l = l;
            rows.use(ctx, l.nodes(), mode);
            n = Math.max(1, l.nodes().ordered().size());
            width = pngWidth(n);
            shown = rowsInPng(l.frames().length, width);
            cut = shown < l.frames().length;
            height = (int) (PNG_HEADER + shown * ROW_HEIGHT + (cut ? PNG_FOOTER : 0));
            out = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
            tile = new Canvas(Math.min(TILE_W, width), Math.min(TILE_H, height));
            px = new int[(int) (tile.getWidth() * tile.getHeight())];
            sp.setFill(Color.WHITE);
        }

        /** Draws the next tile; true when the picture is complete. */
        boolean step() {
            if (ty >= height) return true;
            int tw = Math.min(TILE_W, width - tx), th = Math.min(TILE_H, height - ty);
            GraphicsContext g = tile.getGraphicsContext2D();
            g.setTransform(1, 0, 0, 1, 0, 0);
            g.setFill(Color.WHITE);
            g.fillRect(0, 0, tile.getWidth(), tile.getHeight());
            g.translate(-tx, -ty);
            if (ty < PNG_HEADER) pngHeader(g, l.nodes(), width);
            int first = (int) Math.max(0, Math.floor((ty - PNG_HEADER) / ROW_HEIGHT));
            int last = (int) Math.min(shown - 1, Math.floor((ty + th - PNG_HEADER) / ROW_HEIGHT));
            for (int i = first; i <= last; i++) pngRow(g, rows, l.frames()[i], PNG_HEADER + i * ROW_HEIGHT, n, width);
            if (cut && ty + th > height - PNG_FOOTER) {
                g.setFill(Color.BLACK);
                g.setFont(Font.font(12));
                g.setTextAlign(TextAlignment.LEFT);
                g.setTextBaseline(VPos.CENTER);
                g.fillText("... " + (l.frames().length - shown) + " more rows of " + l.frames().length
                        + " not drawn (the picture's limit is " + MAX_PNG_HEIGHT + " px high and " + MAX_PNG_PIXELS
                        + " pixels); Export... as ASCII writes them all", 8, height - PNG_FOOTER / 2.0);
            }
            img = tile.snapshot(sp, img);
            img.getPixelReader().getPixels(0, 0, tw, th, PixelFormat.getIntArgbInstance(), px, 0, tw);
            out.setRGB(tx, ty, tw, th, px, 0, tw);
            tx += TILE_W;
            if (tx >= width) {
                tx = 0;
                ty += TILE_H;
            }
            return ty >= height;
        }
    }

    /**
     * Width and height of the Canvas the picture is drawn through: a snapshot's texture stays small, and a tile of a
     * three-host picture (1,260 x 512 px) takes the software pipeline well under 100 ms, one per pulse.
     */
    static final int TILE_W = 4096, TILE_H = 512;

    private static void pngHeader(GraphicsContext g, FlowGraph.Nodes nodes, int width) {
        g.setFill(Color.gray(0.93));
        g.fillRect(0, 0, width, PNG_HEADER);
        g.setFill(Color.BLACK);
        g.setFont(Font.font(null, javafx.scene.text.FontWeight.BOLD, 12));
        g.setTextBaseline(VPos.CENTER);
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText("No.", 6, PNG_HEADER / 2.0);
        g.fillText("Time", PNG_NO + 6, PNG_HEADER / 2.0);
        g.fillText("Comment", width - PNG_COMMENT + 6, PNG_HEADER / 2.0);
        g.setTextAlign(TextAlignment.CENTER);
        List<String> names = nodes.ordered();
        for (int i = 0; i < names.size(); i++)
            g.fillText(names.get(i), PNG_NO + PNG_TIME + i * NODE_WIDTH + NODE_WIDTH / 2, PNG_HEADER / 2.0, NODE_WIDTH - 8);
    }

    /** One row as the table shows it: its colouring rule's background, No., time, the ladder, the comment. */
    private static void pngRow(GraphicsContext g, Rows rows, int frame, double y, int n, int width) {
        FlowGraph.Row r = rows.row(frame);
        if (r == null) return;
        ColoringRules.Rule c = rows.colour(frame);
        g.setFill(c == null ? Color.WHITE : Color.web(c.background()));
        g.fillRect(0, y, width, ROW_HEIGHT);
        g.setStroke(Color.gray(0.85));
        g.setLineWidth(1);
        g.strokeLine(0, y + ROW_HEIGHT - 0.5, width, y + ROW_HEIGHT - 0.5);
        Color ink = c == null ? Color.BLACK : Color.web(c.foreground());
        g.setFill(ink);
        g.setFont(Font.font(12));
        g.setTextBaseline(VPos.CENTER);
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText(Integer.toString(frame), 6, y + ROW_HEIGHT / 2);
        g.fillText(String.format(Locale.ROOT, "%.9f", r.relativeNanos() / 1e9), PNG_NO + 6, y + ROW_HEIGHT / 2);
        g.fillText(r.comment(), width - PNG_COMMENT + 6, y + ROW_HEIGHT / 2);
        g.save();
        g.translate(PNG_NO + PNG_TIME, y + 1);
        LadderCell.paint(g, rows.nodes, r, n, c == null ? null : c.foreground());
        g.restore();
    }

    /** Frames whose hosts are learned before the window shows its rows (the rest are learned while it shows them). */
    static final int FIRST_PASS = 20_000;

    /**
     * The frames to draw, in capture order (the packet list may be sorted): the displayed frames or all, narrowed to
     * the selected packet's flow and its peer when asked, and to the RoCE frames ({@link FlowGraph#selects}, as
     * {@code dissect -z flow,roce,...}) when asked. Runs off the JavaFX thread.
     */
    static int[] frames(GuiContext ctx, AnalysisSession s, Choices choices) {
        FrameIndex index = ctx.capture().index();
        int[] frames = choices.limitToFilter() ? ctx.view().toArray() : io.metaroce.gui.FrameView.all(index.size()).toArray();
        if (choices.selectedFlow() && ctx.selectedFrame() > 0) {
            String id = FlowChoice.flowOf(index, s, ctx.selectedFrame());
            FlowSummary f = null;
            for (FlowSummary x : s.flows()) if (x.id().equals(id)) f = x;
            if (f != null) {
                int[][] both = FlowChoice.frames(ctx, f);
                int[] flow = new int[both[0].length + both[1].length];
                System.arraycopy(both[0], 0, flow, 0, both[0].length);
                System.arraycopy(both[1], 0, flow, both[0].length, both[1].length);
                Arrays.sort(flow);
                int[] shown = frames.clone();
                Arrays.sort(shown);
                int n = 0;
                for (int fr : flow) if (Arrays.binarySearch(shown, fr) >= 0) flow[n++] = fr;
                frames = Arrays.copyOf(flow, n);
            }
        }
        Arrays.sort(frames);
        if (choices.type() != FlowGraph.Type.ANY) {
            // A dissection per frame (no names made): cheaper than the node pass that follows.
            Dissector dissector = new Dissector(new DissectorConfig(s.settings().rocePorts(), false));
            Dissection d = new Dissection();
            int n = 0;
            for (int f : frames) {
                index.dissect(f, dissector, d);
                if (FlowGraph.selects(choices.type(), d)) frames[n++] = f;
            }
            frames = Arrays.copyOf(frames, n);
        }
        return frames;
    }

    /** The frames and all their nodes in one pass (the benchmark's and the tests' way; the window learns in steps). */
    static Ladder ladder(GuiContext ctx, AnalysisSession s, Choices choices) {
        Learner l = new Learner(ctx.capture().index(), s, frames(ctx, s, choices), choices.mode());
        while (!l.done()) l.learn(Integer.MAX_VALUE);
        return new Ladder(l.frames, l.nodes);
    }

    /** Learns the node columns of a set of frames in frame order, a step at a time, on one thread. */
    static final class Learner {
        final int[] frames;
        final FlowGraph.Nodes nodes = new FlowGraph.Nodes();
        private final FrameIndex index;
        private final Dissector dissector;
        private final Dissection d = new Dissection();
        private final FlowGraph.Mode mode;
        /** Standard mode names a sender by its QP, which the analysis pairs (null in network mode). */
        private final AnalysisFrameFields analysis;
        private int next;

        Learner(FrameIndex index, AnalysisSession s, int[] frames, FlowGraph.Mode mode) {
            this.index = index;
            this.frames = frames;
            this.mode = mode;
            this.dissector = new Dissector(new DissectorConfig(s.settings().rocePorts(), false));
            this.analysis = mode == FlowGraph.Mode.STANDARD ? s.frameFields() : null;
        }

        /** Learns the nodes of up to n more frames (their names as {@code dissect -z flow} makes them in this mode). */
        void learn(int n) {
            int end = (int) Math.min(frames.length, (long) next + n);
            for (; next < end; next++) {
                index.dissect(frames[next], dissector, d);
                long src = analysis == null ? -1 : FlowGraph.sourceQp(d, analysis);
                nodes.learn(frames[next], FlowGraph.from(mode, d, src), FlowGraph.to(mode, d));
            }
        }

        boolean done() { return next >= frames.length; }

        FlowGraph.Nodes snapshot() { return nodes.copy(); }
    }

    /** The ladder column's header (the node names) and width. */
    private static void showNodes(TableColumn<Integer, Integer> ladder, FlowGraph.Nodes nodes) {
        ladder.setGraphic(header(nodes));
        ladder.setPrefWidth(Math.max(1, nodes.ordered().size()) * NODE_WIDTH + 4);
    }

    /** The table's items: the frame numbers, boxed only when a visible row asks for one. */
    private static ObservableList<Integer> frames(int[] frames) {
        return FXCollections.observableList(new AbstractList<Integer>() {
            @Override
            public Integer get(int i) { return frames[i]; }

            @Override
            public int size() { return frames.length; }
        });
    }

    /** The node names centred over their columns, as the ladder column's header. */
    private static Canvas header(FlowGraph.Nodes nodes) {
        List<String> names = nodes.ordered();
        Canvas c = new Canvas(Math.max(1, names.size()) * NODE_WIDTH, 20);
        GraphicsContext g = c.getGraphicsContext2D();
        g.setFont(Font.font(null, javafx.scene.text.FontWeight.BOLD, 12));
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.CENTER);
        for (int i = 0; i < names.size(); i++) g.fillText(names.get(i), i * NODE_WIDTH + NODE_WIDTH / 2, 10, NODE_WIDTH - 8);
        return c;
    }

    /**
     * The decoded rows the table shows, a few at a time, on the JavaFX thread, each with the coloring rule it matches:
     * the packet list's rules ({@link GuiContext#coloringRules()}) matched on the frame's fields as the packet list
     * matches them (a {@link FrameDecoder}, then {@link ColoringRules#match}), so a user's own rules colour it too.
     */
    static final class Rows {
        private OpenCapture capture;
        private FrameDecoder decoder;
        private AnalysisSession session;
        private ColoringRules rules;
        private FlowGraph.Mode mode = FlowGraph.Mode.NETWORK;
        /** Replaced (never changed) when more hosts are learned; read and set on the JavaFX thread only. */
        FlowGraph.Nodes nodes = new FlowGraph.Nodes();
        /** A decoded row and the index of the first enabled rule it matches (-1 none). */
        private record Shown(FlowGraph.Row row, int rule) { }
        private final LinkedHashMap<Integer, Shown> cache = new LinkedHashMap<>(CACHE * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, Shown> e) { return size() > CACHE; }
        };

        /**
         * The capture, its finished analysis and the nodes of the frames shown, named in this mode, coloured by the
         * current rules.
         */
        void use(GuiContext ctx, FlowGraph.Nodes nodes, FlowGraph.Mode mode) {
            this.mode = mode;
            this.capture = ctx.capture();
            AnalysisSession s = ctx.analysis();
            this.session = s != null && s.state() == AnalysisSession.State.FINISHED ? s : null;
            this.decoder = new FrameDecoder(capture.index(), session);
            this.nodes = nodes;
            this.rules = ctx.coloringRules();
            cache.clear();
        }

        /** New rules: the rows are decoded again as they show (the rule a row matched is an index into the old rules). */
        void recolour(ColoringRules r) {
            rules = r;
            cache.clear();
        }

        private Shown shown(int frame) {
            if (decoder == null) return null;
            Shown r = cache.get(frame);
            if (r == null) {
                Dissection d = decoder.decode(frame);
                FlowGraph.Row row = FlowGraph.row(mode, d, decoder.analysis());
                int rule = rules == null ? -1 : rules.match(decoder.fields(), capture, frame, session);
                r = new Shown(row, rule);
                cache.put(frame, r);
            }
            return r;
        }

        FlowGraph.Row row(int frame) {
            Shown r = shown(frame);
            return r == null ? null : r.row();
        }

        /** The first enabled coloring rule the frame matches, or null (the row keeps the table's colours). */
        ColoringRules.Rule colour(int frame) {
            Shown r = shown(frame);
            return r == null || r.rule() < 0 ? null : rules.rules().get(r.rule());
        }
    }

    /** One row's ladder: the node lines, the arrow with its label above and the QP numbers at its ends. */
    static final class LadderCell extends TableCell<Integer, Integer> {
        private final Rows rows;
        private final Canvas canvas = new Canvas();

        LadderCell(Rows rows) {
            this.rows = rows;
            setPadding(Insets.EMPTY);
        }

        @Override
        protected void updateItem(Integer frame, boolean empty) {
            super.updateItem(frame, empty);
            FlowGraph.Row r = empty || frame == null ? null : rows.row(frame);
            if (r == null) {
                setGraphic(null);
                return;
            }
            int n = Math.max(1, rows.nodes.ordered().size());
            canvas.setWidth(n * NODE_WIDTH);
            canvas.setHeight(ROW_HEIGHT - 2);
            ColoringRules.Rule c = rows.colour(frame);
            draw(canvas.getGraphicsContext2D(), rows, r, n, c == null ? null : c.foreground());
            setGraphic(canvas);
        }

        /** fg: the row's coloring rule's text colour ("#rrggbb"), null for black. */
        static void draw(GraphicsContext g, Rows rows, FlowGraph.Row r, int n, String fg) {
            g.clearRect(0, 0, n * NODE_WIDTH, ROW_HEIGHT - 2);
            paint(g, rows.nodes, r, n, fg);
        }

        /** The ladder of a row over what is drawn already (the cell clears first; Export...'s picture has the row's colour). */
        static void paint(GraphicsContext g, FlowGraph.Nodes nodes, FlowGraph.Row r, int n, String fg) {
            double h = ROW_HEIGHT - 2;
            g.setStroke(Color.gray(0.6));
            g.setLineWidth(1);
            for (int i = 0; i < n; i++) {
                double x = Math.floor(i * NODE_WIDTH + NODE_WIDTH / 2) + 0.5;
                g.strokeLine(x, 0, x, h);
            }
            int from = nodes.column(r.from()), to = nodes.column(r.to());
            double x1 = from * NODE_WIDTH + NODE_WIDTH / 2, x2 = to * NODE_WIDTH + NODE_WIDTH / 2, y = 19.5;
            Color ink = fg == null ? Color.BLACK : Color.web(fg);
            if (from == to) x2 = x1 + NODE_WIDTH / 2;   // a frame to its own host: a short stub to the right
            g.setStroke(ink);
            g.setFill(ink);
            g.setLineWidth(1.5);
            g.strokeLine(x1, y, x2, y);
            double dir = Math.signum(x2 - x1);
            g.fillPolygon(new double[] {x2, x2 - dir * 8, x2 - dir * 8}, new double[] {y, y - 4, y + 4}, 3);
            g.setFont(Font.font(11));
            g.setTextBaseline(VPos.BOTTOM);
            g.setTextAlign(TextAlignment.CENTER);
            double span = Math.max(NODE_WIDTH / 2, Math.abs(x2 - x1)) - 8;
            g.fillText(r.label(), (x1 + x2) / 2, y - 2, span);
            g.setTextBaseline(VPos.TOP);
            double left = Math.min(x1, x2), right = Math.max(x1, x2);
            String atLeft = qp(x1 <= x2 ? r.fromQp() : r.toQp()), atRight = qp(x1 <= x2 ? r.toQp() : r.fromQp());
            g.setTextAlign(TextAlignment.LEFT);
            g.fillText(atLeft, left + 3, y + 2);
            g.setTextAlign(TextAlignment.RIGHT);
            g.fillText(atRight, right - 3, y + 2);
        }

        private static String qp(long qp) { return qp < 0 ? "" : FlowGraph.qp(qp); }
    }
}
