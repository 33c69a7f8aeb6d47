package io.metaroce.gui;

import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;

/**
 * Wireshark's Capture menu, between Go and Analyze: Options... (Ctrl+K), Start and Stop (both Ctrl+E: the key starts a
 * capture when none runs and stops the running one), Restart, Capture Filters... and Refresh Interfaces (F5). It
 * drives the capture toolbar, whose settings the Options dialog shares.
 */
final class CaptureMenu {
    static final KeyCombination START_STOP = KeyCombination.keyCombination("Shortcut+E");

    private CaptureMenu() { }

    static Menu menu(GuiContext ctx, CaptureToolbar bar) {
        MenuItem options = item("Options...", "capture-menu-options", "Shortcut+K");
        options.setOnAction(e -> CaptureOptionsDialog.show(ctx, bar));
        options.disableProperty().bind(bar.capturingProperty());
        MenuItem start = item("Start", "capture-menu-start", null);
        start.setOnAction(e -> bar.startOrSay());
        start.disableProperty().bind(bar.capturingProperty());
        MenuItem stop = item("Stop", "capture-menu-stop", null);
        stop.setOnAction(e -> bar.stop());
        stop.disableProperty().bind(bar.capturingProperty().not());
        MenuItem restart = item("Restart", "capture-menu-restart", null);
        restart.setOnAction(e -> bar.restart());
        restart.disableProperty().bind(bar.capturingProperty().not());
        MenuItem filters = item("Capture Filters...", "capture-menu-filters", null);
        filters.setOnAction(e -> manageFilters(ctx, bar));
        MenuItem refresh = item("Refresh Interfaces", "capture-menu-refresh", "F5");
        refresh.setOnAction(e -> bar.refreshInterfaces());
        // One key for both, as Wireshark's. A scene runs one item per key (the last one installed, whether enabled or
        // not), so the key is taken before the accelerators see it: a filter on the window's scene starts or stops.
        start.setAccelerator(START_STOP);
        stop.setAccelerator(START_STOP);
        bar.sceneProperty().addListener((o, was, scene) -> {
            if (scene != null && was == null) scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
                if (!START_STOP.match(e)) return;
                e.consume();
                if (bar.capturingProperty().get()) bar.stop();
                else start.fire();
            });
        });
        Menu capture = new Menu("Capture", null, options, start, stop, restart, new SeparatorMenuItem(), filters,
                new SeparatorMenuItem(), refresh);
        capture.setId("menu-capture");
        return capture;
    }

    /** Capture > Capture Filters...: the saved filters' dialog (the display filters' one, with libpcap's check). */
    static javafx.scene.control.Dialog<javafx.scene.control.ButtonType> manageFilters(GuiContext ctx, CaptureToolbar bar) {
        var d = DisplayFiltersDialog.create(ctx.stage(), "Capture Filters", "cfilters", CaptureFilters.read(bar.cfiltersFile()),
                CaptureFilters.DEFAULTS, new FilterBookmarks.Bookmark("New capture filter", "udp port 4791"), CaptureFilters::check,
                list -> {
                    try {
                        CaptureFilters.write(bar.cfiltersFile(), list);
                    } catch (java.io.IOException ex) {
                        ctx.error("Cannot save the capture filters to " + bar.cfiltersFile() + ": " + ex.getMessage());
                    }
                });
        d.show();
        return d;
    }

    private static MenuItem item(String text, String id, String accelerator) {
        MenuItem mi = new MenuItem(text);
        mi.setId(id);
        if (accelerator != null) mi.setAccelerator(KeyCombination.keyCombination(accelerator));
        return mi;
    }
}
