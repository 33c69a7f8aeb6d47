package io.metaroce.gui;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.QpFollow;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.gui.stats.Windows;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

/**
 * Analyze > Follow > RoCE QP Stream (and the packet list's Follow >), as Wireshark's Follow dialog: the selected
 * packet's QP connection ({@link QpFollow}: the same streams and numbers as {@code dissect -z follow,roce}), node 0's
 * payload in red and node 1's in blue, shown as ASCII, Hex Dump, C Arrays, Raw or YAML, one direction or both, another
 * stream by number, Find, "Filter Out This Stream", "Save as...", "Back" and "Close". Opening it applies the stream's
 * filter in the main window (Wireshark does); Back restores the filter before. A click on a block selects its packet.
 * The capture is read off the JavaFX thread.
 */
public final class FollowStreamDialog {
    /** Blocks drawn as text nodes at most (the text of the rest is still saved and searched). */
    static final int MAX_SHOWN_BLOCKS = 5_000;
    private static final Color NODE0 = Color.rgb(0x99, 0x00, 0x00), NODE1 = Color.rgb(0x00, 0x00, 0x99);
    private static final List<String> MODES = List.of("ASCII", "Hex Dump", "C Arrays", "Raw", "YAML");
    private static final QpFollow.Mode[] MODE_OF = {QpFollow.Mode.ASCII, QpFollow.Mode.HEX, QpFollow.Mode.C_ARRAYS,
            QpFollow.Mode.RAW, QpFollow.Mode.YAML};

    private final GuiContext ctx;
    private final String filterBefore;
    private final TextFlow flow = new TextFlow();
    private final ComboBox<String> showAs = new ComboBox<>();
    private final ComboBox<String> direction = new ComboBox<>();
    private final Spinner<Integer> streamSpinner = new Spinner<>(0, 0, 0);
    private final TextField find = new TextField();
    private final Label status = new Label();
    private final Label header = new Label();
    private QpFollow shown;
    private String text = "";
    private int findFrom;
    private boolean updating;
    private Stage stage;

    private FollowStreamDialog(GuiContext ctx) {
        this.ctx = ctx;
        this.filterBefore = ctx.appliedFilterProperty().get() == null ? "" : ctx.appliedFilterProperty().get();
    }

    /** Follow > RoCE QP Stream (Ctrl+Alt+Shift+R: Wireshark's T is TCP, U is UDP), for the Analyze menu. */
    public static Menu menu(GuiContext ctx, String idPrefix) {
        MenuItem qp = new MenuItem("RoCE QP Stream");
        qp.setId(idPrefix + "follow-roce");
        if (idPrefix.isEmpty()) qp.setAccelerator(KeyCombination.keyCombination("Shortcut+Alt+Shift+R"));
        qp.setOnAction(e -> show(ctx));
        Menu m = new Menu("Follow", null, qp);
        m.setId(idPrefix + "menu-follow");
        return m;
    }

    /** Opens the dialog on the selected packet's stream (or says there is none in the status bar). */
    public static void show(GuiContext ctx) {
        OpenCapture c = ctx.capture();
        AnalysisSession s = ctx.analysis();
        int frame = ctx.selectedFrame();
        if (c == null || frame <= 0) {
            ctx.status("Follow RoCE QP Stream: select a RoCE packet first");
            return;
        }
        FollowStreamDialog d = new FollowStreamDialog(ctx);
        d.open(frame);
    }

    private void open(int frame) {
        showAs.getItems().setAll(MODES);
        showAs.getSelectionModel().select(0);
        showAs.setId("follow-show-as");
        direction.setId("follow-direction");
        streamSpinner.setId("follow-stream");
        streamSpinner.setEditable(true);
        streamSpinner.setPrefWidth(90);
        find.setId("follow-find");
        find.setPromptText("Find");
        status.setId("follow-status");
        header.setId("follow-header");
        flow.setId("follow-text");
        flow.setPadding(new Insets(4));
        ScrollPane scroll = new ScrollPane(flow);
        scroll.setFitToWidth(true);
        scroll.setId("follow-scroll");
        Button findNext = button("Find Next", "follow-find-next", e -> findNext());
        find.setOnAction(e -> findNext());
        Button filterOut = button("Filter Out This Stream", "follow-filter-out", e -> {
            if (shown == null || shown.filter() == null) return;
            ctx.filterFromWindow("!(" + shown.filter() + ")", true);
            stage.close();
        });
        Button save = button("Save as...", "follow-save", e -> save());
        Button back = button("Back", "follow-back", e -> {
            ctx.filterFromWindow(filterBefore, true);
            stage.close();
        });
        Button close = button("Close", "follow-close", e -> stage.close());
        showAs.valueProperty().addListener((o, a, b) -> render());
        direction.valueProperty().addListener((o, a, b) -> render());
        streamSpinner.valueProperty().addListener((o, a, b) -> {
            if (!updating && b != null && shown != null && b != shown.stream()) load(b, null);
        });
        HBox controls = new HBox(8, new Label("Show data as"), showAs, direction, new Label("Stream"), streamSpinner);
        controls.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(find, Priority.ALWAYS);
        HBox findRow = new HBox(8, new Label("Find:"), find, findNext);
        findRow.setAlignment(Pos.CENTER_LEFT);
        HBox buttons = new HBox(8, filterOut, save, back, close);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        VBox bottom = new VBox(6, status, controls, findRow, buttons);
        bottom.setPadding(new Insets(6));
        BorderPane root = new BorderPane(scroll, header, null, bottom, null);
        BorderPane.setMargin(header, new Insets(4, 6, 0, 6));
        stage = Windows.show(ctx, "follow-dialog", "Follow RoCE QP Stream", root, 900, 640);
        // The selected packet's flow id names its stream: the same pass then numbers every stream.
        String flowId = flowIdOf(frame);
        if (flowId == null) {
            status.setText(ctx.analysis() == null ? "Waiting for the analysis ..." : "Frame " + frame + " is no RoCE QP packet");
            if (ctx.analysis() == null) ctx.analysisDone().thenRun(() -> javafx.application.Platform.runLater(() -> {
                String id = flowIdOf(frame);
                if (id != null) load(-1, id);
                else status.setText("Frame " + frame + " is no RoCE QP packet");
            }));
            return;
        }
        load(-1, flowId);
    }

    private String flowIdOf(int frame) {
        AnalysisSession s = ctx.analysis();
        OpenCapture c = ctx.capture();
        if (s == null || c == null || s.state() != AnalysisSession.State.FINISHED) return null;
        FrameDecoder dec = new FrameDecoder(c.index(), s);
        String[] ids = dec.analysis().flowIds(dec.decode(frame));
        return ids == null ? null : ids[0];
    }

    /** Reads the capture for stream (or flowId's stream) off the JavaFX thread, then shows it and applies its filter. */
    private void load(int stream, String flowId) {
        OpenCapture c = ctx.capture();
        AnalysisSession s = ctx.analysis();
        if (c == null || s == null) return;
        status.setText("Reading the stream ...");
        Windows.background(() -> collect(c, s, stream, flowId), f -> {
            shown = f;
            updating = true;
            ((javafx.scene.control.SpinnerValueFactory.IntegerSpinnerValueFactory) streamSpinner.getValueFactory())
                    .setMax(Math.max(0, f.streams() - 1));
            streamSpinner.getValueFactory().setValue(Math.max(0, f.stream()));
            updating = false;
            long a = f.bytes(0), b = f.bytes(1);
            String n0 = f.node(0), n1 = f.node(1);
            direction.getItems().setAll("Entire conversation (" + (a + b) + " bytes)", n0 + " \u2192 " + n1 + " (" + a + " bytes)",
                    n1 + " \u2192 " + n0 + " (" + b + " bytes)");
            direction.getSelectionModel().select(0);
            header.setText("Stream " + f.stream() + ": " + n0 + " \u2194 " + n1 + "   " + f.frames().size() + " packets, "
                    + f.blocks().size() + " with payload" + (f.leftOut() > 0 ? "; the first " + (QpFollow.MAX_BYTES >> 20)
                    + " MiB shown" : ""));
            render();
            if (f.filter() != null) ctx.filterFromWindow(f.filter(), true);     // Wireshark filters the main window to the stream
            status.setText(f.filter() == null ? "No stream " + stream : "Filter: " + f.filter());
        }, status);
    }

    /** One pass over the capture's frames in order, dissected as the packet list does (Decode As included). */
    static QpFollow collect(OpenCapture c, AnalysisSession s, int stream, String flowId) {
        AnalysisFrameFields fields = s.frameFields();
        QpFollow.Collector col = new QpFollow.Collector(fields, stream, flowId);
        Dissector dissector = new Dissector(FrameDecoder.config(c.index()));
        Dissection d = new Dissection();
        for (int i = 1; i <= c.frames(); i++) col.frame(c.index().dissect(i, dissector, d));
        return col.result();
    }

    /** The chosen mode and direction as coloured blocks; each block's text node selects its packet when clicked. */
    private void render() {
        if (shown == null) return;
        QpFollow.Mode mode = MODE_OF[Math.max(0, showAs.getSelectionModel().getSelectedIndex())];
        int only = direction.getSelectionModel().getSelectedIndex() - 1;
        findFrom = 0;
        List<Text> nodes = new java.util.ArrayList<>();
        Font mono = Font.font("Monospaced", 12);
        if (mode == QpFollow.Mode.YAML) {
            text = shown.text(mode, Math.max(-1, only), null);
            Text t = new Text(text);
            t.setFont(mono);
            nodes.add(t);
        } else {
            // The text saved and searched is the blocks' as drawn (all of them, also past the ones drawn), so that a
            // match's offset names its block.
            StringBuilder all = new StringBuilder();
            long[] pos = new long[2];
            int[] index = new int[2];
            for (QpFollow.Block k : shown.blocks()) {
                if (only >= 0 && k.node() != only) continue;
                String block = blockText(mode, k, pos[k.node()], index[k.node()]++);
                pos[k.node()] += k.data().length;
                all.append(block);
                if (nodes.size() > MAX_SHOWN_BLOCKS) continue;
                if (nodes.size() == MAX_SHOWN_BLOCKS) {
                    nodes.add(new Text("\n... (" + MAX_SHOWN_BLOCKS + " blocks shown; Save as... writes them all)\n"));
                    continue;
                }
                Text t = new Text(block);
                t.setFont(mono);
                t.setFill(k.node() == 0 ? NODE0 : NODE1);
                t.setUserData(k.frame());
                t.setOnMouseClicked(e -> Windows.select(ctx, k.frame(), status));
                nodes.add(t);
            }
            text = all.toString();
        }
        flow.getChildren().setAll(nodes);
    }

    /**
     * One block as the dialog draws it: ASCII as Wireshark's dialog shows it (the printable bytes, the colour telling
     * the direction; tshark's byte count line and node 1's tab are for its text output), the other modes as tshark's.
     */
    private static String blockText(QpFollow.Mode mode, QpFollow.Block k, long offset, int index) {
        StringBuilder b = new StringBuilder();
        if (mode != QpFollow.Mode.ASCII) {
            QpFollow.block(b, mode, k, offset, index);
            return b.toString();
        }
        for (byte x : k.data()) {
            int c = x & 0xFF;
            b.append(c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7F) ? (char) c : '.');
        }
        return b.append('\n').toString();
    }

    /** Finds the next occurrence in the text shown and selects the packet of the block that holds it. */
    private void findNext() {
        String q = find.getText();
        if (q == null || q.isEmpty() || text.isEmpty()) return;
        int at = text.indexOf(q, findFrom);
        if (at < 0) at = text.indexOf(q);
        if (at < 0) {
            status.setText("\"" + q + "\" not found");
            return;
        }
        findFrom = at + 1;
        int len = 0;
        for (javafx.scene.Node n : flow.getChildren()) {
            Text t = (Text) n;
            len += t.getText().length();
            if (len > at && t.getUserData() instanceof Long frame) {
                for (javafx.scene.Node m : flow.getChildren()) ((Text) m).setUnderline(m == t);
                Windows.select(ctx, frame, status);
                status.setText("Found \"" + q + "\" in frame " + frame);
                return;
            }
        }
        status.setText("Found \"" + q + "\"");
    }

    private void save() {
        FileChooser fc = new FileChooser();
        fc.setTitle("Save Stream Content As...");
        java.io.File f = fc.showSaveDialog(stage);
        if (f != null) status.setText(saveTo(f.toPath()));
    }

    /** Writes the text as shown (Raw: the bytes themselves, as Wireshark saves raw data); says what it did. */
    String saveTo(Path file) {
        try {
            if (MODE_OF[showAs.getSelectionModel().getSelectedIndex()] == QpFollow.Mode.RAW) {
                int only = direction.getSelectionModel().getSelectedIndex() - 1;
                try (var out = Files.newOutputStream(file)) {
                    for (QpFollow.Block k : shown.blocks()) if (only < 0 || k.node() == only) out.write(k.data());
                }
            } else Files.writeString(file, text, StandardCharsets.UTF_8);
            return "Saved to " + file;
        } catch (IOException e) {
            return "Cannot save " + file + ": " + e.getMessage();
        }
    }

    private static Button button(String label, String id, javafx.event.EventHandler<javafx.event.ActionEvent> h) {
        Button b = new Button(label);
        b.setId(id);
        b.setOnAction(h);
        return b;
    }
}
