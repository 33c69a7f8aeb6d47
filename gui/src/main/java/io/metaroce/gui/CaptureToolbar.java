package io.metaroce.gui;

import io.metaroce.capture.live.InterfaceList;
import io.metaroce.capture.live.LiveCaptureException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.util.Duration;

/**
 * The capture toolbar (issue 11 item 8): interface, capture filter (libpcap syntax, default the RoCEv2 port),
 * Start and Stop. A capture runs {@code analyze -i}'s pass ({@link LiveRun}); the packet list fills as frames
 * arrive ({@link LiveList}), with the verdicts decided so far; {@link #counters()}, shown in the status bar, has
 * the capture's exact counters twice a second while it runs and the final ones after. When the capture stops,
 * the frames it wrote open in the window like a file, in place of the live list. Its settings are shared with
 * Capture > Options... ({@link CaptureSettings}: several interfaces separated by commas, an output file, a ring
 * buffer, stop conditions) and the Capture menu drives it ({@link CaptureMenu}).
 */
final class CaptureToolbar extends HBox {
    private final GuiContext ctx;
    /** The next capture's settings, shared with Capture > Options... and kept in {@link #settingsFile}. */
    private final CaptureSettings settings;
    private Path settingsFile;
    /** The saved capture filters (Wireshark's cfilters), offered by {@link #savedFilters}. */
    private Path cfiltersFile;
    private final ComboBox<String> iface = new ComboBox<>();
    private final TextField filter = new TextField();
    private final MenuButton savedFilters = new MenuButton();
    private final ReadOnlyBooleanWrapper capturing = new ReadOnlyBooleanWrapper(false);
    /** Capture > Restart: the running capture stops and a new one starts with the same settings (FX thread only). */
    private boolean restartPending;
    private final Button start = new Button("Start");
    private final Button stop = new Button("Stop");
    private final Label counters = new Label();
    private final Timeline refresh = new Timeline(new KeyFrame(Duration.millis(500), e -> showCounters()));
    private LiveRun run; // FX thread only
    private LiveList list; // FX thread only

    /** A toolbar whose settings and saved capture filters are kept beside the coloring rules. */
    CaptureToolbar(GuiContext ctx, Path coloringFile) {
        super(6);
        this.ctx = ctx;
        this.settingsFile = CaptureSettings.fileBeside(coloringFile);
        this.cfiltersFile = CaptureFilters.fileBeside(coloringFile);
        this.settings = CaptureSettings.load(settingsFile);
        iface.setId("capture-interface");
        iface.setEditable(true);
        iface.setPromptText("interface");
        iface.setOnShowing(e -> listInterfaces());
        iface.getEditor().textProperty().bindBidirectional(settings.interfaces);
        filter.setId("capture-filter");
        filter.setPromptText("capture filter (libpcap)");
        filter.textProperty().bindBidirectional(settings.filter);
        CaptureFilterCheck.install(filter, settings.interfaces, null);
        HBox.setHgrow(filter, Priority.ALWAYS);
        savedFilters.setId("capture-saved-filters");
        savedFilters.setText("\u2630");
        savedFilters.setTooltip(new Tooltip("Saved capture filters (Capture > Capture Filters...)"));
        savedFilters.setOnShowing(e -> savedFilters.getItems().setAll(filterItems(settings.filter::set)));
        start.setId("capture-start");
        stop.setId("capture-stop");
        stop.setDisable(true);
        start.setOnAction(e -> startOrSay());
        stop.setOnAction(e -> stop());
        counters.setId("capture-counters");
        refresh.setCycleCount(Timeline.INDEFINITE);
        setAlignment(Pos.CENTER_LEFT);
        setPadding(new Insets(2, 8, 2, 8));
        getChildren().addAll(new Label("Capture:"), iface, savedFilters, filter, start, stop);
    }

    CaptureSettings settings() { return settings; }

    /** Keeps the settings for the next session (a capture's start, the Options dialog closed). */
    void saveSettings() {
        try {
            settings.save(settingsFile);
        } catch (IOException ex) {
            ctx.status("Cannot save the capture settings to " + settingsFile + ": " + ex.getMessage());
        }
    }

    Path cfiltersFile() { return cfiltersFile; }

    /** Another configuration profile's capture settings and saved capture filters (its folder's files). */
    void useProfileFolder(Path folder) {
        settingsFile = folder.resolve("capture");
        cfiltersFile = folder.resolve("cfilters");
        settings.setAll(CaptureSettings.load(settingsFile));
    }

    /** True while a capture runs (Capture menu: Start off, Stop and Restart on). */
    ReadOnlyBooleanProperty capturingProperty() { return capturing.getReadOnlyProperty(); }

    /** The saved capture filters as menu items that hand their filter to use (the toolbar's button, the Options dialog). */
    List<MenuItem> filterItems(java.util.function.Consumer<String> use) {
        List<MenuItem> items = new ArrayList<>();
        for (FilterBookmarks.Bookmark b : CaptureFilters.read(cfiltersFile)) {
            MenuItem mi = new MenuItem(b.name() + ": " + b.filter());
            mi.setMnemonicParsing(false);
            mi.setOnAction(e -> use.accept(b.filter()));
            items.add(mi);
        }
        return items;
    }

    /** Capture > Restart: stops the running capture and, once it ended, starts a new one with the same settings. */
    void restart() {
        if (run == null || !capturing.get()) return;
        restartPending = true;
        stop();
    }

    /** Capture > Refresh Interfaces (F5): lists the interfaces libpcap sees again. */
    void refreshInterfaces() {
        listInterfaces();
    }

    /** The drop counters of the current or last capture, for the status bar. */
    Label counters() {
        return counters;
    }

    private void listInterfaces() {
        try {
            var names = InterfaceList.all().stream().map(InterfaceList.Entry::name).toList();
            String typed = iface.getEditor().getText();
            iface.getItems().setAll(names);
            iface.getEditor().setText(typed);
        } catch (LiveCaptureException ex) {
            ctx.error(ex.getMessage());
        }
    }

    /**
     * Start (the toolbar's button, Capture > Start, Ctrl+E): Wireshark's question first when the open capture has
     * unsaved changes (its packets or comments), then the capture, or the message that says why not.
     */
    void startOrSay() {
        if (mayReplaceOpenCapture()) startAndSay();
    }

    /** False when the open capture has unsaved changes and the user chose Cancel (a running capture: nothing to ask). */
    boolean mayReplaceOpenCapture() {
        return capturing.get() || ctx.mayDiscard("starting a new capture");
    }

    private void startAndSay() {
        String why = start();
        if (why != null) ctx.error(why);
    }

    /**
     * Starts a capture with the settings (toolbar, Capture Options); null when it runs, else the one message that
     * says why not (a bad setting in the CLI's words, no such interface, a bad filter, no permission).
     */
    String start() {
        if (capturing.get()) return "A capture is running: stop it first.";
        CaptureSettings.Plan plan;
        try {
            plan = settings.plan();
        } catch (IllegalArgumentException ex) {
            return ex.getMessage();
        }
        saveSettings();
        try {
            run = LiveRun.start(plan, ctx.settings(), file -> Platform.runLater(() -> ended(file)),
                    message -> Platform.runLater(() -> failed(message)));
        } catch (LiveCaptureException ex) {
            return ex.getMessage() + (ex.kind() == LiveCaptureException.Kind.PERMISSION
                    ? "; run as root or grant the capability: sudo setcap cap_net_raw=eip " + javaCommand() : "");
        } catch (IOException ex) {
            return "Cannot create the capture file: " + ex.getMessage();
        }
        list = LiveList.start(ctx, run, plan.realTime());
        ctx.status("Capturing on " + plan.interfaceNames() + (plan.output() == null ? "" : " to " + plan.output()) + " ...");
        running(true);
        refresh.play();
        showCounters();
        return null;
    }

    void stop() {
        if (run != null) run.stop();
        stop.setDisable(true);
    }

    private void ended(Path file) {
        boolean shown = ctx.showsLive(run.monitor());
        finish();
        if (restarted()) return;
        if (shown) ctx.openCaptured(file);   // unless another file was opened meanwhile
    }

    private void failed(String message) {
        boolean shown = ctx.showsLive(run.monitor());
        finish();
        restartPending = false;
        ctx.status("Capture on " + run.interfaceName() + " ended");
        ctx.error(message);
        if (shown && run.flushedFrames() > 0) ctx.openCaptured(run.file());    // what was captured before the failure
    }

    private void finish() {
        if (list != null) list.stop();
        refresh.stop();
        showCounters(); // the final figures, after the kernel ring was drained
        running(false);
    }

    /** After Restart: the capture that ended is dropped (as Wireshark's) and a new one starts. */
    private boolean restarted() {
        if (!restartPending) return false;
        restartPending = false;
        startAndSay();     // no question: Restart drops the capture that ended, as Wireshark's
        return true;
    }

    private void running(boolean on) {
        capturing.set(on);
        start.setDisable(on);
        stop.setDisable(!on);
        iface.setDisable(on);
        filter.setDisable(on);
    }

    private void showCounters() {
        if (run != null) counters.setText(run.counters());
    }

    private static String javaCommand() {
        return ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
    }
}
