package io.metaroce.gui.stats;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.dissector.stats.StatsTree;
import io.metaroce.dissector.stats.StatsTrees;
import io.metaroce.filter.FilterException;
import io.metaroce.gui.FrameDecoder;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.OpenCapture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

/**
 * Wireshark's stats tree windows: Statistics > Packet Lengths, IPv4 Statistics and IPv6 Statistics (All Addresses,
 * Source and Destination Addresses, Destinations and Ports, IP Protocol Types) and our RoCE Operations. One window
 * class for all: the tree of a {@link StatsTrees} kind in a tree table with Wireshark's columns (Topic / Item, Count,
 * Average, Min Val, Max Val, Rate (ms), Percent, Burst Rate, Burst Start), the cells as {@code dissect -z NAME,tree}
 * prints them. A display filter field with Apply counts only the frames it matches (Wireshark's); Copy copies the
 * rows, Save As writes tshark's text, CSV or YAML. The pass reads the frames in capture order on one thread (the
 * bursts need the order), shows its progress, stops when the window closes, and runs again after Decode As / Reload.
 */
public final class StatsTreeWindow {
    private final StatsTrees.Kind kind;

    public StatsTreeWindow(StatsTrees.Kind kind) { this.kind = kind; }

    /**
     * The Statistics menu's entries (one line in MainWindow): Packet Lengths, the IPv4 and IPv6 Statistics submenus
     * (each entry named by the last part of its tree's title: All Addresses, ...), and RoCE Operations, the only
     * tree of its group, in the menu itself under a name that says what it counts.
     */
    public static List<MenuItem> menuItems(GuiContext ctx) {
        return List.of(item(ctx, StatsTrees.Kind.PLEN, "Packet Lengths"),
                submenu(ctx, "IPv4 Statistics", "menu-ipv4-statistics", StatsTrees.Kind.IP_HOSTS, StatsTrees.Kind.IP_SRCDST,
                        StatsTrees.Kind.DESTS, StatsTrees.Kind.PTYPE),
                submenu(ctx, "IPv6 Statistics", "menu-ipv6-statistics", StatsTrees.Kind.IPV6_HOSTS, StatsTrees.Kind.IPV6_SRCDST,
                        StatsTrees.Kind.IPV6_DESTS),
                item(ctx, StatsTrees.Kind.ROCE_OPS, "RoCE Operations"));
    }

    private static Menu submenu(GuiContext ctx, String name, String id, StatsTrees.Kind... kinds) {
        Menu m = new Menu(name);
        m.setId(id);
        for (StatsTrees.Kind k : kinds) m.getItems().add(item(ctx, k, k.title().substring(k.title().lastIndexOf('/') + 1)));
        return m;
    }

    private static MenuItem item(GuiContext ctx, StatsTrees.Kind kind, String label) {
        MenuItem mi = new MenuItem(label);
        mi.setId("menu-stattree-" + kind.abbr());
        mi.disableProperty().bind(ctx.captureProperty().isNull());
        mi.setOnAction(e -> new StatsTreeWindow(kind).open(ctx));
        return mi;
    }

    /** A row: a node's name and its columns as tshark prints them. */
    public record Row(String name, String[] values) {
        public String value(int i) { return values[i]; }
    }

    public void open(GuiContext ctx) {
        TreeTableView<Row> table = new TreeTableView<>();
        table.setId("stattree-table");
        table.setShowRoot(false);
        table.setColumnResizePolicy(TreeTableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TreeTableColumn<Row, String> name = new TreeTableColumn<>(StatsTree.COLUMNS.get(0));
        name.setPrefWidth(260);
        name.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue().getValue().name()));
        table.getColumns().add(name);
        for (int i = 1; i < StatsTree.COLUMNS.size(); i++) {
            int col = i - 1;
            TreeTableColumn<Row, String> c = new TreeTableColumn<>(StatsTree.COLUMNS.get(i));
            c.setPrefWidth(90);
            c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue().getValue().value(col)));
            table.getColumns().add(c);
        }
        table.setTreeColumn(name);

        Label status = new Label();
        status.setId("stattree-status");
        TextField filter = new TextField();
        filter.setId("stattree-filter");
        filter.setPromptText("Display filter (empty: every frame)");
        HBox.setHgrow(filter, Priority.ALWAYS);
        Button apply = new Button("Apply");
        apply.setId("stattree-apply");
        HBox top = new HBox(8, new Label("Display filter:"), filter, apply);
        top.setAlignment(Pos.CENTER_LEFT);
        top.setPadding(new Insets(6, 8, 6, 8));

        StatsTree[] shown = new StatsTree[1];
        Button save = new Button("Save As...");
        save.setId("stattree-save");
        HBox bottom = new HBox(8, TableCopy.button(table, status), save, status);
        bottom.setAlignment(Pos.CENTER_LEFT);
        bottom.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(table);
        root.setTop(top);
        root.setBottom(bottom);
        String title = kind.title().replace("/", ": ");
        Stage stage = Windows.show(ctx, "stattree-" + kind.abbr(), title, root, 1150, 520);
        save.setOnAction(e -> {
            if (shown[0] == null) return;
            FileChooser fc = new FileChooser();
            fc.setTitle("Save " + title);
            fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Plain text (tshark's layout)", "*.txt"),
                    new FileChooser.ExtensionFilter("CSV", "*.csv"), new FileChooser.ExtensionFilter("YAML", "*.yaml", "*.yml"));
            fc.setInitialFileName(kind.abbr() + ".txt");
            java.io.File f = fc.showSaveDialog(stage);
            if (f == null) return;
            try {
                save(f.toPath(), shown[0], table);
                status.setText("Saved " + f.getName());
            } catch (IOException x) {
                status.setText("Not saved: " + x.getMessage());
            }
        });

        AtomicInteger generation = new AtomicInteger();
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, e -> generation.set(-1));
        Runnable run = () -> {
            OpenCapture c = ctx.capture();
            if (c == null) {
                status.setText("No capture open");
                return;
            }
            if (generation.get() < 0) return;
            String text = filter.getText() == null ? "" : filter.getText().strip();
            try {
                GuiContext.compile(text);
            } catch (FilterException x) {
                status.setText("Bad display filter: " + x.getMessage());
                return;
            }
            int gen = generation.incrementAndGet();
            BooleanSupplier cancelled = () -> gen != generation.get();
            status.setText("Computing ... 0 %");
            java.util.BitSet ignored = ctx.ignoredCount() == 0 ? null : ctx.ignoredFrames();     // counted in no statistic
            Windows.background(() -> {
                try {
                    int[] frames = text.isEmpty() ? null : ctx.framesMatching(text);
                    if (ignored != null) frames = StatsPass.withoutIgnored(frames, c.frames(), ignored);
                    return count(c.index(), frames, kind, fraction -> Platform.runLater(() -> {
                        if (!cancelled.getAsBoolean()) status.setText("Computing ... " + (int) (fraction * 100) + " %");
                    }), cancelled);
                } catch (FilterException x) {
                    throw new IllegalArgumentException(x.getMessage());
                }
            }, t -> {
                if (t == null || cancelled.getAsBoolean()) return;
                shown[0] = t.tree();
                table.setRoot(rows(t.tree()));
                status.setText(frames(t.tree()) + " frames counted" + (text.isEmpty() ? "" : " (filter: " + text + ")"));
            }, status);
        };
        apply.setOnAction(e -> run.run());
        filter.setOnAction(e -> run.run());
        Windows.followRedissections(ctx, status, run);   // Decode As / Reload: count again
        run.run();
    }

    /** The frames the tree counted: its first top node's count (every tree ticks it once per tap). */
    private static long frames(StatsTree t) {
        return t.tops().isEmpty() ? 0 : t.tops().getFirst().count();
    }

    /**
     * Counts the frames (1-based numbers, ascending; null: all) into a new tree of the kind, in capture order, on the
     * calling thread; null when cancelled. The capture's ports decoded as RoCE (Decode As) decide which UDP frames
     * are RoCE, as in the packet list.
     */
    static StatsTrees count(FrameIndex index, int[] frames, StatsTrees.Kind kind, java.util.function.DoubleConsumer progress,
                            BooleanSupplier cancelled) {
        StatsTrees trees = new StatsTrees(kind);
        Dissector dissector = new Dissector(new DissectorConfig(FrameDecoder.config(index).roceUdpPorts(), false));
        Dissection d = new Dissection();
        int n = frames == null ? index.size() : frames.length;
        for (int i = 0; i < n; i++) {
            if (i % 16_384 == 0 && i > 0) {
                if (cancelled.getAsBoolean()) return null;
                progress.accept((double) i / n);
            }
            index.dissect(frames == null ? i + 1 : frames[i], dissector, d);
            trees.add(d);
        }
        return cancelled.getAsBoolean() ? null : trees;
    }

    /** The tree's rows, sorted as tshark prints them, expanded. */
    static TreeItem<Row> rows(StatsTree t) {
        TreeItem<Row> root = new TreeItem<>(new Row("", new String[8]));
        add(t, root, t.tops());
        return root;
    }

    private static void add(StatsTree t, TreeItem<Row> parent, List<StatsTree.Node> nodes) {
        for (StatsTree.Node n : StatsTree.sorted(nodes)) {
            TreeItem<Row> item = new TreeItem<>(new Row(n.name(), t.values(n)));
            item.setExpanded(true);
            parent.getChildren().add(item);
            add(t, item, n.children());
        }
    }

    /** Save As: tshark's text for .txt (and any other name), else the rows as CSV (.csv) or YAML (.yaml, .yml). */
    static void save(Path file, StatsTree tree, TreeTableView<Row> table) throws IOException {
        String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        String text;
        if (name.endsWith(".csv")) text = TableCopy.csv(TableCopy.grid(table));
        else if (name.endsWith(".yaml") || name.endsWith(".yml")) text = TableCopy.yaml(TableCopy.grid(table));
        else text = tree.text();
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Every row's name and values, depth first (for tests). */
    static List<Row> flatten(TreeItem<Row> root) {
        List<Row> out = new ArrayList<>();
        for (TreeItem<Row> c : root.getChildren()) {
            out.add(c.getValue());
            out.addAll(flatten(c));
        }
        return out;
    }
}
