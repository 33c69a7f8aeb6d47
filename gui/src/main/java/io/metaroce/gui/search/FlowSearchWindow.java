package io.metaroce.gui.search;

import io.metaroce.gui.GuiContext;
import io.metaroce.gui.graph.FlowSeries;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.QuerySyntaxException;
import java.io.File;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.value.ChangeListener;
import javafx.collections.transformation.SortedList;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

/**
 * Search > Flow Search: the flow index ({@code metaroce index}) searched from the GUI, as Arkime's sessions page
 * searches its sessions. The index directory, the query (the language of {@code metaroce search}: green while it
 * parses, red with the column of the error), Search / Cancel with a busy indicator, the matching flows with the
 * counters an operator sorts by, and an exact top-N facet ({@code --top FIELD --by COUNTER}; double-click a value to
 * search its flows). Double-click a flow, or "Open packets": its capture opens in the main window with the display
 * filter of that flow ({@code analysis.flow == "..."}, the QP Conversations window's "filter on this flow"); a
 * capture that moved or changed since it was indexed gets a message instead. "Extract to pcapng" writes the packets
 * of the selected flows, or of every flow the search matched, to one pcapng as {@code metaroce extract} does. The
 * Connections tab draws who talked to whom ({@link ConnectionsGraph}, {@code search --connections}); a click on a link
 * searches that pair's flows in the Flows tab. A thin view over {@link FlowSearchModel}.
 */
public final class FlowSearchWindow {
    static final String VALID = "query-valid", INVALID = "query-invalid";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final GuiContext ctx;
    private final FlowSearchModel model;
    private final Consumer<Path> openCapture;
    private final Consumer<String> error;
    private final Stage stage = new Stage();
    private final Label status = new Label();
    private final TableView<FlowHit> table = new TableView<>();
    private final TableView<FacetRow> facetTable = new TableView<>();
    /** The counter the Connections graph sizes its links by, unless the user picks another (as search --connections). */
    static final String CONNECTIONS_BY = "bytes";
    private final ConnectionsGraph graph = new ConnectionsGraph();
    private final ComboBox<String> connectionsBy = new ComboBox<>();
    /** Waits for the capture a hit opened, to filter it on the hit's flow; null when none is pending. */
    private ChangeListener<Object> pending;

    /**
     * @param store where the last index directory is remembered (the user's GUI config)
     * @param openCapture opens a capture in the main window (and remembers it in its recent files)
     * @param error shows a message to the user (a dialog)
     */
    private FlowSearchWindow(GuiContext ctx, Path store, Consumer<Path> openCapture, Consumer<String> error) {
        this.ctx = ctx;
        this.model = new FlowSearchModel(new LastIndex(store), Platform::runLater);
        this.openCapture = openCapture;
        this.error = error;
    }

    /** Opens a flow search window owned by the main window. */
    public static FlowSearchWindow show(GuiContext ctx, Path store, Consumer<Path> openCapture, Consumer<String> error) {
        FlowSearchWindow w = new FlowSearchWindow(ctx, store, openCapture, error);
        w.build();
        return w;
    }

    public FlowSearchModel model() { return model; }

    public Stage stage() { return stage; }

    private void build() {
        // index directory
        TextField dir = new TextField();
        dir.setId("search-index");
        dir.setPromptText("flow index directory (metaroce index CAPTURES --index DIR)");
        dir.setText(model.indexDirProperty().get() == null ? "" : model.indexDirProperty().get().toString());
        dir.textProperty().addListener((o, a, t) -> model.indexDirProperty().set(t.isBlank() ? null : Path.of(t.strip())));
        HBox.setHgrow(dir, Priority.ALWAYS);
        Button choose = new Button("Choose...");
        choose.setId("search-choose");
        choose.setOnAction(e -> {
            DirectoryChooser dc = new DirectoryChooser();
            dc.setTitle("Flow index directory");
            Path cur = model.indexDirProperty().get();
            if (cur != null && cur.toFile().isDirectory()) dc.setInitialDirectory(cur.toFile());
            File f = dc.showDialog(stage);
            if (f != null) dir.setText(f.getPath());
        });
        HBox indexRow = row(new Label("Index:"), dir, choose);

        // query
        ComboBox<String> query = new ComboBox<>(model.history());
        query.setEditable(true);
        query.setId("search-query");
        query.setPromptText("naks:[1 TO *] AND src:10.0.0.0/24   (empty: every flow)");
        query.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(query, Priority.ALWAYS);
        query.getEditor().textProperty().bindBidirectional(model.queryProperty());
        Label queryError = new Label();
        queryError.setId("search-error");
        queryError.setStyle("-fx-text-fill: #a40000;");
        model.queryErrorProperty().addListener((o, a, e) -> showQueryState(query, queryError, e));
        // The error stays null from one valid query to the next (a pasted or recalled query, a facet drill-down),
        // so the text is watched too; the model's own listener has already checked it (registered first).
        model.queryProperty().addListener((o, a, t) -> showQueryState(query, queryError, model.queryErrorProperty().get()));
        Button search = new Button("Search");
        search.setId("search-run");
        search.setDefaultButton(true);
        // The query becomes the box's value before the search adds it to the history (the drop-down's items): a
        // combo box whose items change shows its value again, and would otherwise empty the field.
        search.setOnAction(e -> {
            query.setValue(model.queryProperty().get());
            model.search();
        });
        query.setOnAction(e -> {
            if (query.getValue() != null && !query.getValue().equals(model.queryProperty().get())) model.queryProperty().set(query.getValue());
        });
        Button cancel = new Button("Cancel");
        cancel.setId("search-cancel");
        cancel.visibleProperty().bind(model.runningProperty());
        cancel.setOnAction(e -> model.cancel());
        ProgressIndicator busy = new ProgressIndicator();
        busy.setId("search-busy");
        busy.setPrefSize(18, 18);
        busy.visibleProperty().bind(model.runningProperty());
        search.disableProperty().bind(model.runningProperty());
        HBox queryRow = row(new Label("Query:"), query, search, cancel, busy);

        // facet
        ComboBox<String> group = new ComboBox<>();
        group.getItems().setAll(FlowSearchModel.GROUPS);
        group.setValue(FlowSchema.DEST_QP);
        group.setId("search-top");
        ComboBox<String> counter = new ComboBox<>();
        counter.getItems().setAll(FlowSearchModel.COUNTERS);
        counter.setValue("naks");
        counter.setId("search-by");
        Button top = new Button("Show top");
        top.setId("search-show-top");
        top.disableProperty().bind(model.runningProperty());
        top.setOnAction(e -> {
            query.setValue(model.queryProperty().get());
            model.top(group.getValue(), counter.getValue());
        });
        HBox facetRow = row(new Label("Top"), group, new Label("by"), counter, top, queryError);

        // results
        table.setId("search-results");
        table.setPlaceholder(new Label("No flows: choose the index, type a query, Search"));
        table.getColumns().add(col("Capture", FlowHit::captureName, null, 170));
        table.getColumns().add(col("Flow", FlowHit::flow, null, 200));
        table.getColumns().add(col("Source", FlowHit::src, null, 95));
        table.getColumns().add(col("Destination", FlowHit::dst, null, 95));
        table.getColumns().add(col("Dest QP", FlowHit::destQpHex, null, 85));
        table.getColumns().add(col("Packets", FlowHit::packets, "packets", 65));
        table.getColumns().add(col("Retx", FlowHit::retransmissions, "retransmitted_packets", 50));
        table.getColumns().add(col("NAKs", FlowHit::naks, "naks", 50));
        table.getColumns().add(col("CE", FlowHit::ceMarks, "ce_marks", 50));
        table.getColumns().add(col("CNPs", FlowHit::cnps, "cnps", 50));
        table.getColumns().add(col("Rules", h -> h.rulesBroken() == 0 ? "" : h.rulesBroken() + ": " + String.join(" ", h.rules()), null, 150));
        table.getColumns().add(col("First", h -> time(h.firstNs()), FlowSchema.FIRST, 205));
        table.getColumns().add(col("Last", h -> time(h.lastNs()), FlowSchema.LAST, 205));
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);   // several flows to extract
        SortedList<FlowHit> sorted = new SortedList<>(model.hits());
        sorted.comparatorProperty().bind(table.comparatorProperty());
        table.setItems(sorted);
        // The table sorts the flows it shows; when more matched than it shows, the index is asked for the top ones.
        table.getSortOrder().addListener((javafx.collections.ListChangeListener<TableColumn<FlowHit, ?>>) c -> sortInIndex());
        table.setRowFactory(t -> {
            TableRow<FlowHit> row = new TableRow<>();
            // A filter, not a handler: the row's cells see the click first.
            row.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_CLICKED, e -> {
                if (e.getClickCount() == 2 && row.getItem() != null) openPackets(row.getItem());
            });
            row.itemProperty().addListener((o, a, h) -> row.setTooltip(h == null ? null : new Tooltip(h.capturePath())));
            return row;
        });

        facetTable.setId("search-facet");
        facetTable.setPlaceholder(new Label("Top values: pick a field and a counter, Show top"));
        facetTable.getColumns().add(facetCol("Value", FacetRow::key, 170));
        facetTable.getColumns().add(facetCol("Sum", FacetRow::sum, 70));
        facetTable.getColumns().add(facetCol("Flows", FacetRow::flows, 55));
        facetTable.setItems(model.facet());
        facetTable.setRowFactory(t -> {
            TableRow<FacetRow> row = new TableRow<>();
            row.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_CLICKED, e -> {
                if (e.getClickCount() == 2 && row.getItem() != null) drillDown(row.getItem());
            });
            return row;
        });
        SplitPane flowsPane = new SplitPane(table, facetTable);
        flowsPane.setOrientation(Orientation.HORIZONTAL);
        flowsPane.setDividerPositions(0.78);
        Tab flowsTab = new Tab("Flows", flowsPane);
        flowsTab.setId("search-tab-flows");
        flowsTab.setClosable(false);
        Tab connectionsTab = connectionsTab(query);
        TabPane center = new TabPane(flowsTab, connectionsTab);
        center.setId("search-tabs");
        // A link clicked: its pair's flows in the Flows tab.
        graph.setOnLink(r -> {
            center.getSelectionModel().select(flowsTab);
            // The box shows its value again when the search adds to the history: not the query before the pair's.
            query.setValue(null);
            model.searchConnection(r);
        });
        // The first look at the tab draws the graph of the query as it stands, as Arkime opens its Connections.
        connectionsTab.setOnSelectionChanged(e -> {
            if (connectionsTab.isSelected() && model.connections().isEmpty() && !model.runningProperty().get()
                    && model.indexDirProperty().get() != null) model.connections(connectionsBy.getValue());
        });

        Button open = new Button("Open packets");
        open.setId("search-open");
        open.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        open.setOnAction(e -> openPackets(table.getSelectionModel().getSelectedItem()));
        status.setId("search-status");
        status.textProperty().bind(model.statusProperty());
        MenuItem selected = new MenuItem("Selected flows...");
        selected.setId("search-extract-selected");
        selected.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        selected.setOnAction(e -> chooseOutput().ifPresent(out -> extractTo(out, false)));
        MenuItem all = new MenuItem("All matching flows...");
        all.setId("search-extract-all");
        all.setOnAction(e -> chooseOutput().ifPresent(out -> extractTo(out, true)));
        MenuButton extract = new MenuButton("Extract to pcapng", null, selected, all);
        extract.setId("search-extract");
        extract.setTooltip(new Tooltip("The packets of the flows, read from their captures, in one pcapng (as metaroce extract writes it)"));
        extract.disableProperty().bind(model.runningProperty().or(javafx.beans.binding.Bindings.isEmpty(model.hits())));
        HBox bottom = row(open, extract, status);

        BorderPane root = new BorderPane(center, new VBox(indexRow, queryRow, facetRow), null, bottom, null);
        root.setId("flow-search");
        root.setUserData(this);   // the window behind the scene, for tests that drive it past its file dialogs
        stage.initOwner(ctx.stage());
        stage.setTitle("Flow Search");
        stage.setScene(new Scene(root, 1500, 600));
        stage.setOnHidden(e -> {
            model.cancel();
            stopWaiting();
        });
        stage.show();
        showQueryState(query, queryError, null);
    }

    /** The Connections tab: the counter that sizes the links, Show, what is drawn (and the cap), the graph. */
    private Tab connectionsTab(ComboBox<String> query) {
        connectionsBy.getItems().setAll(FlowSearchModel.COUNTERS);
        connectionsBy.setValue(CONNECTIONS_BY);
        connectionsBy.setId("connections-by");
        Button show = new Button("Show connections");
        show.setId("connections-run");
        show.disableProperty().bind(model.runningProperty());
        show.setOnAction(e -> {
            query.setValue(model.queryProperty().get());
            model.connections(connectionsBy.getValue());
        });
        Label note = new Label();
        note.setId("connections-note");
        note.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> {
            String n = model.connectionsNoteProperty().get();
            return n.isEmpty() ? "Senders left, receivers right; link width: the counter's sum, red: retransmitted"
                    : "Senders left, receivers right: " + n + "; red: retransmitted; click a link for its flows";
        }, model.connectionsNoteProperty()));
        model.connections().addListener((javafx.collections.ListChangeListener<ConnectionRow>) c ->
                graph.show(model.connections(), model.connectionsCounter()));
        BorderPane pane = new BorderPane(graph, row(new Label("Link width by"), connectionsBy, show, note), null, null, null);
        Tab tab = new Tab("Connections", pane);
        tab.setId("search-tab-connections");
        tab.setClosable(false);
        return tab;
    }

    /** The Connections graph (for tests: its links, a click on one). */
    public ConnectionsGraph graph() { return graph; }

    private java.util.Optional<Path> chooseOutput() {
        FileChooser fc = new FileChooser();
        fc.setTitle("Extract to pcapng");
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("pcapng", "*.pcapng"));
        fc.setInitialFileName("flows.pcapng");
        return java.util.Optional.ofNullable(fc.showSaveDialog(stage)).map(File::toPath);
    }

    /**
     * Writes the packets of the selected flows (or of every flow the shown search matched) to out, in the
     * background; the status bar says what was written and what was left out.
     */
    public void extractTo(Path out, boolean allMatching) {
        model.extract(allMatching ? null : java.util.List.copyOf(table.getSelectionModel().getSelectedItems()), out);
    }

    private static HBox row(javafx.scene.Node... nodes) {
        HBox h = new HBox(6, nodes);
        h.setAlignment(Pos.CENTER_LEFT);
        h.setPadding(new Insets(4, 8, 4, 8));
        return h;
    }

    /** Green while the query parses, red with the column of the error (empty: no colour). */
    private void showQueryState(ComboBox<String> query, Label label, QuerySyntaxException e) {
        query.getStyleClass().removeAll(VALID, INVALID);
        String text = model.queryProperty().get();
        if (text == null || text.isBlank()) {
            query.getEditor().setStyle("");
            label.setText("");
        } else if (e == null) {
            query.getStyleClass().add(VALID);
            query.getEditor().setStyle("-fx-control-inner-background: #afffaf;");
            label.setText("");
        } else {
            query.getStyleClass().add(INVALID);
            query.getEditor().setStyle("-fx-control-inner-background: #ffafaf;");
            label.setText("column " + e.column() + ": " + e.reason());
        }
    }

    /** A facet value double-clicked: the flows with that value (within the query), as a new search. */
    private void drillDown(FacetRow r) {
        String q = model.queryProperty().get();
        model.queryProperty().set(q == null || q.isBlank() || q.strip().equals("*:*") ? r.term() : "(" + q.strip() + ") AND " + r.term());
        model.search();
    }

    /** With more flows matching than shown, a sort on a counter column asks the index for the top flows by it. */
    private void sortInIndex() {
        if (table.getSortOrder().isEmpty() || model.totalProperty().get() <= model.hits().size()) return;
        TableColumn<FlowHit, ?> c = table.getSortOrder().getFirst();
        if (!(c.getUserData() instanceof String field)) return;
        FieldDef f = FlowSchema.field(field);
        if (f == null || !f.sortable()) return;
        model.search(new FlowSort(f, c.getSortType() == TableColumn.SortType.DESCENDING));
    }

    // ------------------------------------------------------------------ opening a hit's packets

    /**
     * Opens the packets of a hit in the main window: checks the capture is still the one indexed (off the JavaFX
     * thread), opens it unless it is open already, then applies the flow's display filter once it is loaded.
     */
    void openPackets(FlowHit hit) {
        if (hit == null) return;
        stopWaiting();
        model.checkCapture(hit, problem -> {
            if (problem != null) {
                error.accept("Cannot open the packets of flow " + hit.flow() + ":\n" + hit.capturePath() + " " + problem
                        + ".\nIndex it again (metaroce index) to search its current content.");
                return;
            }
            Path file = Path.of(hit.capturePath());
            String filter = FlowSeries.flowFilter(hit.flow());
            if (ctx.capture() != null && ctx.capture().file().toAbsolutePath().normalize().equals(file)) {
                filterOn(hit, filter);
                return;
            }
            pending = (o, a, c) -> {
                if (c != null && ctx.capture().file().toAbsolutePath().normalize().equals(file)) {
                    stopWaiting();
                    filterOn(hit, filter);
                }
            };
            ctx.captureProperty().addListener(pending);
            openCapture.accept(file);
        });
    }

    private void filterOn(FlowHit hit, String filter) {
        var e = ctx.applyFilter(filter);
        if (e != null) {
            error.accept("The flow filter was rejected: " + e.getMessage());
            return;
        }
        ctx.stage().toFront();
    }

    private void stopWaiting() {
        if (pending != null) ctx.captureProperty().removeListener(pending);
        pending = null;
    }

    // ------------------------------------------------------------------ cells

    private static String time(Long ns) {
        return ns == null ? "" : TIME.format(Instant.ofEpochSecond(Math.floorDiv(ns, 1_000_000_000L), Math.floorMod(ns, 1_000_000_000L)));
    }

    private static <T> TableColumn<FlowHit, T> col(String name, Function<FlowHit, T> f, String field, double w) {
        TableColumn<FlowHit, T> c = new TableColumn<>(name);
        c.setPrefWidth(w);
        c.setUserData(field);     // the schema field the index can sort by, or null
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        return c;
    }

    private static <T> TableColumn<FacetRow, T> facetCol(String name, Function<FacetRow, T> f, double w) {
        TableColumn<FacetRow, T> c = new TableColumn<>(name);
        c.setPrefWidth(w);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        return c;
    }
}
