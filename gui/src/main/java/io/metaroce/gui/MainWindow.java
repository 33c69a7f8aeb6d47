package io.metaroce.gui;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextInputDialog;
import javafx.scene.control.ToggleGroup;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

/**
 * The main window, laid out like Wireshark's: menus, the display filter bar, a banner for a damaged capture, then
 * the packet list, the field tree and the bytes one above the other, and a status bar with the load or filter
 * progress and its Cancel button. Holds no state of its own beyond the widgets: everything is in the
 * {@link GuiContext}.
 */
public final class MainWindow {
    private final GuiContext ctx;
    private final Stage stage;
    private final PacketTable packets;
    private final FrameDetail detail;
    private final FilterBar filterBar;
    private final FindBar findBar;
    private final Label banner = new Label();
    private final RecentFiles recent;
    private final Menu recentMenu = new Menu("Open Recent");
    private final Menu statistics = new Menu("Statistics");
    private final Menu graphs = new Menu("Graphs");
    /** Edit > Configuration Profiles: the folder every store's file is in (the current profile's). */
    private final Profiles profiles;
    /** The current profile's preferences file (Edit > Preferences' values that have no file of their own). */
    private Preferences preferences;
    private final javafx.beans.property.StringProperty profileName = new javafx.beans.property.SimpleStringProperty();
    private final SplitPane panes;
    private final CaptureToolbar captureBar;
    private final EditActions edit;
    private final ColumnActions columns;
    /** Where Flow Search remembers the index directory searched last (beside the recent files). */
    private final Path flowIndexStore;
    /** View: the bars and panes shown, the zoom, the field tree's subtrees, Reload. */
    private final ViewMenu viewMenu;
    private final NameResolution nameResolution;
    /** File > Save, Save As and the unsaved-changes prompt; Edit > Packet Comments. */
    private final CaptureSaving saving;
    private final PacketCommentsMenu commentsMenu;
    /** Go: Back/Forward, linked packets, next packet (in conversation), retransmissions, expert items. */
    private GoMenu goMenu;

    public MainWindow(GuiContext ctx) { this(ctx, null); }

    /** A window in that configuration profile ({@code gui -C}, checked), or in the one used last when null. */
    public MainWindow(GuiContext ctx, String profile) { this(ctx, ColoringRules.defaultFile(), RecentFiles.defaultStore(), profile); }

    MainWindow(GuiContext ctx, Path coloringFile, Path recentStore) { this(ctx, coloringFile, recentStore, null); }

    /** @param defaultColoringFile the Default profile's coloring rules: their folder is the configuration folder */
    MainWindow(GuiContext ctx, Path defaultColoringFile, Path recentStore, String profile) {
        this.ctx = ctx;
        this.stage = ctx.stage();
        this.profiles = new Profiles(defaultColoringFile.toAbsolutePath().getParent());
        profiles.start(profile != null ? profile : profiles.lastUsed());
        profileName.set(profiles.current());
        Path coloringFile = coloringFile();
        this.recent = new RecentFiles(recentStore);
        this.flowIndexStore = recentStore.resolveSibling("flow-index");
        ctx.setColoringRules(ColoringRules.load(coloringFile));
        // Decode As saved in an earlier session (Wireshark's decode_as_entries, beside the coloring rules).
        String decodeAsProblem = loadDecodeAs();
        if (decodeAsProblem != null) ctx.status(decodeAsProblem);
        packets = new PacketTable(ctx);
        ctx.timeFormat.bind(packets.timeFormatProperty());
        detail = new FrameDetail(ctx);
        filterBar = new FilterBar(ctx, coloringFile.resolveSibling("dfilters"));
        findBar = new FindBar(ctx, detail);
        captureBar = new CaptureToolbar(ctx, coloringFile);
        java.util.function.Consumer<String> applyFilter = f -> {
            filterBar.prepare(f);
            filterBar.apply();
        };
        detail.onFilter(applyFilter, filterBar::prepare);
        PacketListMenu.install(packets.table(), ctx, applyFilter, filterBar::prepare);
        edit = new EditActions(ctx, packets, detail);
        columns = new ColumnActions(ctx, packets, detail, PacketColumns.fileBeside(coloringFile));
        ctx.filterBar(filterBar::prepare, applyFilter);

        banner.setId("banner");
        banner.setWrapText(true);
        banner.setMaxWidth(Double.MAX_VALUE);
        banner.setPadding(new Insets(4, 8, 4, 8));
        banner.setStyle("-fx-background-color: #fce94f; -fx-text-fill: #000000;");
        banner.textProperty().bind(ctx.bannerProperty());
        banner.visibleProperty().bind(ctx.bannerProperty().isNotNull());
        banner.managedProperty().bind(banner.visibleProperty());

        panes = new SplitPane(packets, detail);
        panes.setOrientation(Orientation.VERTICAL);
        panes.setDividerPositions(0.5);
        preferences = Preferences.load(profiles.file(Preferences.FILE_NAME));
        if (preferences.problem() != null) ctx.status(preferences.problem());
        applyLayout();
        viewMenu = new ViewMenu(ctx, packets, detail, panes, profiles.file("zoom"));
        nameResolution = new NameResolution(ctx, profiles.file("name-resolution"));
        bindShown(filterBar, viewMenu.filterToolbar);
        saving = new CaptureSaving(ctx);
        commentsMenu = new PacketCommentsMenu(ctx);
        VBox top = new VBox(menuBar(), captureBar, filterBar, findBar, banner);
        MenuBar bar = (MenuBar) top.getChildren().getFirst();
        bar.getMenus().add(bar.getMenus().indexOf(statistics), analyzeMenu());     // Wireshark's place: after Go
        bar.getMenus().add(bar.getMenus().indexOf(statistics) - 1, CaptureMenu.menu(ctx, captureBar));     // between Go and Analyze
        bar.getMenus().add(HelpMenu.menu(ctx, bar, this::coloringFile, recentStore, flowIndexStore));      // Wireshark's last menu
        HBox status = statusBar();
        bindShown(status, viewMenu.statusBar);
        BorderPane root = new BorderPane(panes, top, null, status, null);
        root.setOnDragOver(e -> {
            if (e.getDragboard().hasFiles()) e.acceptTransferModes(TransferMode.COPY);
            e.consume();
        });
        root.setOnDragDropped(e -> {
            List<File> files = e.getDragboard().getFiles();
            boolean ok = files != null && !files.isEmpty();
            if (ok) open(files.getFirst().toPath());
            e.setDropCompleted(ok);
            e.consume();
        });
        Scene scene = OneRenderPerChange.install(new Scene(root, 1400, 900), ctx.selectedFrameProperty(),
                ctx.viewProperty(), ctx.analysisProperty());
        stage.setScene(scene);
        viewMenu.install(scene);
        goMenu.install(scene);
        MenuItem newWindow = new MenuItem("Show Packet in New Window");
        newWindow.setId("list-packet-window");
        newWindow.setOnAction(e -> ViewMenu.packetWindow(ctx, ctx.selectedFrame()));
        packets.table().getContextMenu().getItems().addAll(newWindow, commentsMenu.menu("list-"));
        stage.setTitle("MetaRoCE Analyzer");
        ctx.captureProperty().addListener((o, a, c) -> stage.setTitle(title()));
        ctx.unsavedProperty().addListener((o, a, b) -> stage.setTitle(title()));    // Wireshark's "*" while unsaved
        stage.setOnCloseRequest(e -> {
            if (!saving.confirm("quitting")) e.consume();
        });
    }

    public void show() { stage.show(); }

    private String title() {
        OpenCapture c = ctx.capture();
        return c == null ? "MetaRoCE Analyzer" : (ctx.hasUnsavedChanges() ? "*" : "") + c.file().getFileName() + " - MetaRoCE Analyzer";
    }

    CaptureSaving saving() { return saving; }

    PacketCommentsMenu commentsMenu() { return commentsMenu; }

    PacketTable packets() { return packets; }

    FrameDetail detail() { return detail; }

    FilterBar filterBar() { return filterBar; }

    FindBar findBar() { return findBar; }

    CaptureToolbar captureBar() { return captureBar; }

    EditActions edit() { return edit; }

    ColumnActions columns() { return columns; }

    Menu statisticsMenu() { return statistics; }

    Menu graphsMenu() { return graphs; }

    ViewMenu viewMenu() { return viewMenu; }

    Stage stage() { return stage; }

    GuiContext context() { return ctx; }

    // ------------------------------------------------------------------ configuration profiles, preferences

    Profiles profiles() { return profiles; }

    /** The current profile's name, for the status bar. */
    javafx.beans.property.ReadOnlyStringProperty profileNameProperty() { return profileName; }

    /** The current profile's coloring rules file. */
    private Path coloringFile() { return profiles.file("colorfilters"); }

    Preferences preferences() { return preferences; }

    /** The packet list above (or beside) the details and bytes. */
    SplitPane panes() { return panes; }

    /** Edit > Preferences' layout: applied to the window and saved in the profile; null, or why it was not saved. */
    String setPreferences(Preferences p) {
        preferences = p;
        applyLayout();
        return p.save(profiles.file(Preferences.FILE_NAME));
    }

    private void applyLayout() {
        panes.setOrientation(preferences.detailsBesideList() ? Orientation.HORIZONTAL : Orientation.VERTICAL);
    }

    /**
     * Switches to another configuration profile, as Wireshark does: every store is read again from the profile's
     * folder and applied to this window (coloring rules, saved display and capture filters, capture settings,
     * columns, layout); the capture is opened again only if the profile decodes other UDP ports as RoCE (Decode As).
     * Null, or why not (an unknown profile: nothing changes).
     */
    String useProfile(String name) {
        String why = profiles.use(name);
        if (why != null) return why;
        ctx.setColoringRules(ColoringRules.load(coloringFile()));
        filterBar.useBookmarkFile(profiles.file("dfilters"));
        captureBar.useProfileFolder(profiles.folder());
        viewMenu.useZoomFile(profiles.file("zoom"));
        nameResolution.useStore(profiles.file("name-resolution"));
        String problem = columns.useFile(profiles.file("columns"));
        preferences = Preferences.load(profiles.file(Preferences.FILE_NAME));
        if (preferences.problem() != null) problem = preferences.problem();
        applyLayout();
        String decodeAsProblem = loadDecodeAs();
        if (decodeAsProblem != null) problem = decodeAsProblem;
        profileName.set(profiles.current());
        ctx.status(problem != null ? problem : "Configuration profile " + profiles.current());
        return null;
    }

    /**
     * The current profile's Decode As ports (its decode_as_entries), decoded from now on (the open capture is opened
     * again only when they differ); why the file could not be read, or null. At start-up and at a profile switch.
     */
    private String loadDecodeAs() {
        ctx.setDecodeAsFile(profiles.file(DecodeAsEntries.FILE_NAME));
        DecodeAsEntries saved = DecodeAsEntries.load(ctx.decodeAsFile());
        ctx.setProtocolsOff(EnabledProtocolsDialog.load(profiles.file(EnabledProtocolsDialog.FILE_NAME)));     // Analyze > Enabled Protocols
        ctx.decodeAs(saved.ports());
        return saved.problem();
    }

    NameResolution nameResolution() { return nameResolution; }

    /** A bar shown or hidden by a View item; hidden, it takes no space. */
    private static void bindShown(javafx.scene.Node n, javafx.beans.property.BooleanProperty shown) {
        n.visibleProperty().bind(shown);
        n.managedProperty().bind(shown);
    }

    /** Opens a file and remembers it in the recent files. */
    void open(Path file) {
        open(file, "");
    }

    /** Opens file, then shows only its packets that match filter (a display filter that compiles; empty: all). */
    void open(Path file, String filter) {
        if (!saving.confirm("opening another file")) return;
        recent.add(file);
        refreshRecent();
        ctx.open(file, filter);
    }

    // ------------------------------------------------------------------ menus

    private MenuBar menuBar() {
        MenuItem open = item("Open...", "Shortcut+O", e -> chooseAndOpen());
        open.setId("menu-open");
        refreshRecent();
        MenuItem export = item("Export Specified Packets...", "Shortcut+Shift+E", e -> ExportDialog.show(ctx));
        export.setId("menu-export");
        export.disableProperty().bind(ctx.captureProperty().isNull());
        MenuItem close = item("Close", "Shortcut+W", e -> {
            if (saving.confirm("closing it")) ctx.close();
        });
        MenuItem quit = item("Quit", "Shortcut+Q", e -> {
            if (saving.confirm("quitting")) stage.close();
        });
        Menu file = new Menu("File", null, open, recentMenu, new SeparatorMenuItem(), export, new SeparatorMenuItem(), close, quit);
        file.getItems().addAll(file.getItems().indexOf(export) + 1, DissectionExportDialog.fileMenuItems(ctx, packets, detail));
        file.getItems().addAll(file.getItems().indexOf(recentMenu) + 1, saving.fileMenuItems());     // Save, Save As...
        file.getItems().add(file.getItems().indexOf(recentMenu) + 1, MergeDialog.menuItem(ctx, saving::confirm));  // Wireshark's place

        goMenu = new GoMenu(ctx, detail, this::askGoTo, flowSearch());
        Menu go = goMenu.menu();

        ToggleGroup times = new ToggleGroup();
        Menu time = new Menu("Time Display Format");
        for (TimeFormat f : TimeFormat.values()) {
            RadioMenuItem r = new RadioMenuItem(f.label());
            r.setId("time-" + f.name().toLowerCase());
            r.setToggleGroup(times);
            r.setSelected(f == packets.timeFormatProperty().get());
            r.setOnAction(e -> packets.timeFormatProperty().set(f));
            time.getItems().add(r);
        }
        MenuItem coloring = new MenuItem("Coloring Rules...");
        coloring.setId("menu-coloring");
        coloring.setOnAction(e -> ColoringDialog.show(stage, ctx.coloringRules(), coloringFile(), ctx::setColoringRules));
        Menu view = viewMenu.menu(time, coloring);
        view.getItems().add(view.getItems().indexOf(time) + 1, nameResolution.menu());     // Wireshark's place: after Time Display Format
        // Wireshark's place for Resize Columns: after the zoom items (Zoom In, Zoom Out, Normal Size).
        view.getItems().add(view.getItems().indexOf(view.getItems().stream()
                .filter(i -> "view-zoom-normal".equals(i.getId())).findFirst().orElseThrow()) + 1, columns.resizeItem());

        for (GuiWindow w : GuiWindows.ALL) {
            MenuItem mi = new MenuItem(w.title());
            mi.disableProperty().bind(ctx.captureProperty().isNull());
            mi.setOnAction(e -> w.open(ctx));
            (w.place() == GuiWindow.Place.STATISTICS ? statistics : graphs).getItems().add(mi);
        }
        statistics.getItems().addAll(io.metaroce.gui.stats.StatsTreeWindow.menuItems(ctx));   // Packet Lengths, IPv4/IPv6 Statistics, ...
        statistics.getItems().add(io.metaroce.gui.stats.ServiceResponseTimeWindow.menu(ctx));   // Service Response Time > RoCE
        Menu editMenu = edit.menu();
        editMenu.getItems().addAll(1, findBar.menuItems());     // Find Packet (Ctrl+F, was Go > Find by Filter), Next, Previous
        editMenu.getItems().addAll(new SeparatorMenuItem(), commentsMenu.menu(""));
        editMenu.getItems().addAll(ProfilesDialog.editMenuItems(this));      // Configuration Profiles..., Preferences...
        return new MenuBar(file, editMenu, view, go, statistics, graphs);
    }

    /** Analyze, as Wireshark's: Decode As (the UDP ports decoded as RoCE). */
    private Menu analyzeMenu() {
        MenuItem decodeAs = item("Decode As...", "Shift+Shortcut+U", e -> DecodeAsDialog.show(ctx));
        decodeAs.setId("menu-decode-as");
        Menu analyze = new Menu("Analyze", null, columns.applyItem(), decodeAs);
        analyze.getItems().add(analyze.getItems().indexOf(decodeAs), EnabledProtocolsDialog.item(ctx, () -> profiles.file(EnabledProtocolsDialog.FILE_NAME)));
        analyze.getItems().add(0, item("Display Filters...", null, e -> filterBar.manage()));     // Wireshark's first item
        analyze.getItems().add(FollowStreamDialog.menu(ctx, ""));     // Follow > RoCE QP Stream, after Decode As as in Wireshark
        AnalyzeFilters.addTo(analyze, ctx, detail::selectedFilter);     // Apply/Prepare as Filter, Conversation Filter, Expert Information
        analyze.setId("menu-analyze");
        return analyze;
    }

    /** Go > Flow Search: the flow index; a hit's packets open here, through open() (recent files) and a filter. */
    private MenuItem flowSearch() {
        MenuItem mi = item("Flow Search...", "Shortcut+Shift+F", e -> io.metaroce.gui.search.FlowSearchWindow.show(ctx, flowIndexStore, this::open, ctx::error));
        mi.setId("menu-flow-search");
        return mi;
    }

    private static MenuItem item(String text, String accelerator, javafx.event.EventHandler<javafx.event.ActionEvent> h) {
        MenuItem mi = new MenuItem(text);
        if (accelerator != null) mi.setAccelerator(KeyCombination.keyCombination(accelerator));
        mi.setOnAction(h);
        return mi;
    }

    private void refreshRecent() {
        recentMenu.getItems().clear();
        for (Path p : recent.list()) {
            MenuItem mi = new MenuItem(p.toString());
            mi.setOnAction(e -> open(p));
            recentMenu.getItems().add(mi);
        }
        recentMenu.setDisable(recentMenu.getItems().isEmpty());
    }

    private void chooseAndOpen() {
        FileChooser fc = new FileChooser();
        fc.setTitle("Open Capture File");
        fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Captures (pcap, pcapng, erf, gzip-compressed or not)", "*.pcap", "*.pcapng", "*.cap", "*.erf",
                        "*.pcap.gz", "*.pcapng.gz", "*.cap.gz"),
                new FileChooser.ExtensionFilter("All files", "*"));
        File f = fc.showOpenDialog(stage);
        if (f != null) open(f.toPath());
    }

    private void askGoTo() {
        if (ctx.capture() == null) return;
        TextInputDialog d = new TextInputDialog();
        d.initOwner(stage);
        d.setTitle("Go to Packet");
        d.setHeaderText(null);
        d.setContentText("Packet number:");
        d.getEditor().setId("goto-field");
        d.showAndWait().ifPresent(s -> {
            String err = Navigation.goTo(ctx, s);
            if (err != null) ctx.error(err);
        });
    }

    // ------------------------------------------------------------------ status bar

    private HBox statusBar() {
        Label status = new Label();
        status.setId("status");
        status.textProperty().bind(ctx.statusProperty());
        ProgressBar bar = new ProgressBar();
        bar.setId("progress");
        bar.progressProperty().bind(ctx.progressProperty());
        bar.visibleProperty().bind(ctx.busyProperty());
        Button cancel = new Button("Cancel");
        cancel.setId("cancel");
        cancel.visibleProperty().bind(ctx.busyProperty());
        cancel.setOnAction(e -> ctx.cancel());
        Label selected = new Label();
        selected.setId("selected");
        selected.textProperty().bind(ctx.selectedFrameProperty().asString().map(s -> s.equals("0") ? "" : "Packet " + s));
        Label shown = new Label();
        shown.textProperty().bind(ctx.viewProperty().map(v -> ctx.capture() == null ? ""
                : "Displayed: " + v.size() + " of " + ctx.capture().frames()));
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        HBox box = new HBox(10, status, bar, cancel, captureBar.counters(), grow, selected, shown, IgnoreActions.ignoredCount(ctx),
                ProfilesDialog.statusLabel(this));
        box.setPadding(new Insets(3, 8, 3, 8));
        return box;
    }
}
