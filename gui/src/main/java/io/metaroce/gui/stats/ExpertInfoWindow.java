package io.metaroce.gui.stats;

import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.protocol.Severity;
import io.metaroce.validate.FileResult;
import io.metaroce.validate.FileValidator;
import io.metaroce.validate.ValidateSettings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableRow;
import javafx.scene.control.TreeTableView;
import javafx.scene.layout.BorderPane;

/**
 * Statistics > Expert Info: the analysis events and validate's findings in a tree by severity, group and rule with
 * their counts; a double-click on an item selects its frame in the packet list. validate runs its own pass over
 * the file in the background when the window opens (its findings are not part of the analysis).
 */
public final class ExpertInfoWindow implements GuiWindow {
    /** Items listed under one rule at most: a million retransmissions stay countable without a million rows. */
    static final int MAX_ITEMS = 2000;

    /** One line of the tree: a level (severity, group, rule) with its count, or an item with its frame. */
    public record Line(String summary, String group, long count, long frame, String flow, String message) {}

    @Override
    public Place place() { return Place.STATISTICS; }

    @Override
    public String title() { return "Expert Info"; }

    @Override
    public void open(GuiContext ctx) {
        TreeTableView<Line> tree = new TreeTableView<>();
        tree.setId("expert-tree");
        tree.setShowRoot(false);
        tree.getColumns().add(column("Summary", Line::summary, 400));
        tree.getColumns().add(column("Group", Line::group, 110));
        tree.getColumns().add(column("Count", l -> l.count() < 0 ? null : l.count(), 70));
        tree.getColumns().add(column("Frame", l -> l.frame() <= 0 ? null : l.frame(), 70));
        tree.getColumns().add(column("Flow", Line::flow, 220));
        tree.getColumns().add(column("Message", Line::message, 420));
        Label status = new Label();
        status.setId("expert-status");
        status.setPadding(new Insets(4, 8, 4, 8));
        tree.setRowFactory(t -> {
            TreeTableRow<Line> row = new TreeTableRow<>();
            row.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_CLICKED, e -> {
                if (e.getClickCount() == 2 && row.getItem() != null) Windows.select(ctx, row.getItem().frame(), status);
            });
            return row;
        });
        BorderPane root = new BorderPane(tree);
        javafx.scene.layout.HBox bar = new javafx.scene.layout.HBox(8, TableCopy.button(tree, status), status);
        bar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        bar.setPadding(new Insets(4, 8, 4, 8));
        status.setPadding(Insets.EMPTY);
        root.setBottom(bar);
        javafx.stage.Stage st = Windows.show(ctx, "expert-info", "Expert Info", root, 1300, 560);
        var file = ctx.capture().file();
        // The Comment group follows Edit > Packet Comments at once (the rest waits for the analysis and validate).
        // Until then the tree has no root (only the comments, when there are any): the root's arrival means "done".
        ExpertModel[] shown = {null};
        javafx.beans.value.ChangeListener<Number> edits = (o, a, b) -> {
            if (shown[0] != null) tree.setRoot(withComments(tree(shown[0]), ctx));
            else if (ctx.commentedFrames().length > 0) tree.setRoot(withComments(new TreeItem<>(new Line("", "", 0, 0, null, null)), ctx));
        };
        edits.changed(null, 0, 0);
        ctx.commentsProperty().addListener(edits);
        st.setOnHidden(e -> ctx.commentsProperty().removeListener(edits));
        Windows.afterEachAnalysis(ctx, status, s -> {
            FileResult v = FileValidator.validate(file,
                    // The ports Decode As set (as the commands' -d): the rules check what the packet list decodes.
                    new ValidateSettings.Builder().ports(s.settings().rocePorts()).build(), false, null);
            return new Object[] {ExpertModel.of(s.events(), v.error() == null ? v : null), v.error()};
        }, r -> {
            ExpertModel m = (ExpertModel) r[0];
            shown[0] = m;
            tree.setRoot(withComments(tree(m), ctx));
            status.setText(m.total() + " items: " + m.count(Severity.ERROR) + " errors, " + m.count(Severity.WARN)
                    + " warnings, " + m.count(Severity.NOTE) + " notes" + (r[1] == null ? "" : "; validate failed: " + r[1])
                    + "  (double-click an item to select its frame)");
        });
    }

    static TreeItem<Line> tree(ExpertModel m) {
        TreeItem<Line> root = new TreeItem<>(new Line("", "", m.total(), 0, null, null));
        for (ExpertModel.SeverityNode s : m.severities()) {
            TreeItem<Line> si = new TreeItem<>(new Line(label(s.severity()), "", s.count(), 0, null, null));
            si.setExpanded(true);
            for (ExpertModel.GroupNode g : s.groups()) {
                TreeItem<Line> gi = new TreeItem<>(new Line(g.group(), g.group(), g.count(), 0, null, null));
                gi.setExpanded(true);
                for (ExpertModel.RuleNode r : g.rules()) {
                    TreeItem<Line> ri = new TreeItem<>(new Line(r.rule() + ": " + r.summary(), g.group(), r.count(),
                            r.entries().isEmpty() ? 0 : r.entries().getFirst().frame(), null, null));
                    int n = 0;
                    for (ExpertEntry e : r.entries()) {
                        if (n++ == MAX_ITEMS) {
                            ri.getChildren().add(new TreeItem<>(new Line("... " + (r.entries().size() - MAX_ITEMS)
                                    + " more: filter the packet list to see them", g.group(), -1, 0, null, null)));
                            break;
                        }
                        ri.getChildren().add(new TreeItem<>(new Line(e.summary(), g.group(), -1, e.frame(), e.flow(), e.message())));
                    }
                    gi.getChildren().add(ri);
                }
                si.getChildren().add(gi);
            }
            root.getChildren().add(si);
        }
        return root;
    }

    /**
     * Adds Wireshark's "Comment" severity group to root: every packet comment of the capture as edited, with its frame
     * (none: root as it was).
     */
    public static TreeItem<Line> withComments(TreeItem<Line> root, GuiContext ctx) {
        int[] frames = ctx.commentedFrames();
        if (frames.length == 0) return root;
        TreeItem<Line> group = new TreeItem<>(new Line("Comment", "comment", 0, 0, null, null));
        group.setExpanded(true);
        int n = 0;
        for (int f : frames)
            for (String c : ctx.comments(f)) {
                n++;
                group.getChildren().add(new TreeItem<>(new Line(c, "comment", -1, f, null, c)));
            }
        group.setValue(new Line("Comment", "comment", n, frames[0], null, null));
        root.getChildren().add(group);
        return root;
    }

    private static String label(Severity s) {
        return switch (s) {
            case ERROR -> "Error";
            case WARN -> "Warning";
            case NOTE -> "Note";
        };
    }

    private static <T> TreeTableColumn<Line, T> column(String name, java.util.function.Function<Line, T> f, double w) {
        TreeTableColumn<Line, T> c = new TreeTableColumn<>(name);
        c.setPrefWidth(w);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue().getValue() == null ? null : f.apply(cd.getValue().getValue())));
        return c;
    }
}
