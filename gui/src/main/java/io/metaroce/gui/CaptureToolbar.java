package io.metaroce.gui;

import io.metaroce.capture.live.InterfaceList;
import io.metaroce.capture.live.LiveCaptureException;
import io.metaroce.capture.live.LiveSettings;
import java.io.IOException;
import java.nio.file.Path;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.util.Duration;

/**
 * The capture toolbar (issue 11 item 8): interface, capture filter (libpcap syntax, default the RoCEv2 port),
 * Start and Stop. A capture runs {@code analyze -i}'s pass ({@link LiveRun}); the packet list fills as frames
 * arrive ({@link LiveList}), with the verdicts decided so far; {@link #counters()}, shown in the status bar, has
 * the capture's exact counters twice a second while it runs and the final ones after. When the capture stops,
 * the frames it wrote open in the window like a file, in place of the live list.
 */
final class CaptureToolbar extends HBox {
    private final GuiContext ctx;
    private final ComboBox<String> iface = new ComboBox<>();
    private final TextField filter = new TextField(LiveSettings.DEFAULT_FILTER);
    private final Button start = new Button("Start");
    private final Button stop = new Button("Stop");
    private final Label counters = new Label();
    private final Timeline refresh = new Timeline(new KeyFrame(Duration.millis(500), e -> showCounters()));
    private LiveRun run; // FX thread only
    private LiveList list; // FX thread only

    CaptureToolbar(GuiContext ctx) {
        super(6);
        this.ctx = ctx;
        iface.setId("capture-interface");
        iface.setEditable(true);
        iface.setPromptText("interface");
        iface.setOnShowing(e -> listInterfaces());
        filter.setId("capture-filter");
        filter.setPromptText("capture filter (libpcap)");
        HBox.setHgrow(filter, Priority.ALWAYS);
        start.setId("capture-start");
        stop.setId("capture-stop");
        stop.setDisable(true);
        start.setOnAction(e -> start());
        stop.setOnAction(e -> stop());
        counters.setId("capture-counters");
        refresh.setCycleCount(Timeline.INDEFINITE);
        setAlignment(Pos.CENTER_LEFT);
        setPadding(new Insets(2, 8, 2, 8));
        getChildren().addAll(new Label("Capture:"), iface, filter, start, stop);
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

    private void start() {
        String name = iface.getEditor().getText() == null ? "" : iface.getEditor().getText().strip();
        if (name.isEmpty()) {
            ctx.error("Choose the interface to capture on.");
            return;
        }
        try {
            run = LiveRun.start(name, filter.getText(), ctx.settings(), file -> Platform.runLater(() -> ended(file)),
                    message -> Platform.runLater(() -> failed(message)));
        } catch (LiveCaptureException ex) {
            ctx.error(ex.getMessage() + (ex.kind() == LiveCaptureException.Kind.PERMISSION
                    ? "; run as root or grant the capability: sudo setcap cap_net_raw=eip " + javaCommand() : ""));
            return;
        } catch (IOException ex) {
            ctx.error("Cannot create the capture file: " + ex.getMessage());
            return;
        }
        list = LiveList.start(ctx, run);
        ctx.status("Capturing on " + name + " ...");
        running(true);
        refresh.play();
        showCounters();
    }

    private void stop() {
        if (run != null) run.stop();
        stop.setDisable(true);
    }

    private void ended(Path file) {
        boolean shown = ctx.showsLive(run.monitor());
        finish();
        if (shown) ctx.openCaptured(file);   // unless another file was opened meanwhile
    }

    private void failed(String message) {
        boolean shown = ctx.showsLive(run.monitor());
        finish();
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

    private void running(boolean on) {
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
