package io.metaroce.gui.stats;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.gui.GuiContext;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * What the statistics and graph windows share: a stage owned by the main window, and the rule that file work
 * runs off the JavaFX thread (the analysis may still be running when a window opens: it fills when it is done).
 */
public final class Windows {
    private Windows() {}

    /** A new window owned by the main window, showing root, with an id tests look it up by. */
    public static Stage show(GuiContext ctx, String id, String title, Parent root, double w, double h) {
        Stage st = new Stage();
        if (ctx.stage() != null) st.initOwner(ctx.stage());
        String file = ctx.capture() == null ? "" : " - " + ctx.capture().file().getFileName();
        st.setTitle(title + file);
        root.setId(id);
        st.setScene(new Scene(root, w, h));
        st.show();
        return st;
    }

    /**
     * Runs work on a background thread once the analysis is done, then done on the JavaFX thread; a failure or a
     * cancelled analysis is shown in the status label instead.
     */
    public static <T> void afterAnalysis(GuiContext ctx, Label status, java.util.function.Function<AnalysisSession, T> work,
                                         Consumer<T> done) {
        whenAnalyzed(ctx, status, work, done);
    }

    /**
     * As {@link #afterAnalysis}, and again each time Analyze > Decode As dissects the capture again while the window
     * is open ({@link #followRedissections}): for windows whose work and done read the capture through ctx (not an
     * {@code OpenCapture} kept from when they opened, closed by then) and whose done replaces what it showed.
     */
    public static <T> void afterEachAnalysis(GuiContext ctx, Label status, java.util.function.Function<AnalysisSession, T> work,
                                             Consumer<T> done) {
        whenAnalyzed(ctx, status, work, latest(ctx, done));
        followRedissections(ctx, status, () -> whenAnalyzed(ctx, status, work, latest(ctx, done)));
    }

    /**
     * done, for the analysis running now only: after Decode As or Reload a slow pass over the analysis before may
     * end after the one over the new analysis; its result (of a closed capture) must not replace the new one.
     */
    private static <T> Consumer<T> latest(GuiContext ctx, Consumer<T> done) {
        var analysis = ctx.analysisDone();
        return r -> {
            if (ctx.analysisDone() == analysis) done.accept(r);
        };
    }

    /**
     * Runs again after Analyze > Decode As dissected the capture again ({@link GuiContext#redissectionsProperty()}),
     * while the window holding status is open: Wireshark retaps its open statistics dialogs then. Another file
     * opened does not: the window keeps showing the file it was opened on, as Wireshark's.
     */
    public static void followRedissections(GuiContext ctx, Label status, Runnable again) {
        javafx.beans.value.ChangeListener<Number> redissected = new javafx.beans.value.ChangeListener<>() {
            @Override
            public void changed(javafx.beans.value.ObservableValue<? extends Number> o, Number a, Number b) {
                javafx.stage.Window w = status.getScene() == null ? null : status.getScene().getWindow();
                if (w == null || !w.isShowing()) {
                    ctx.redissectionsProperty().removeListener(this);
                    return;
                }
                again.run();
            }
        };
        ctx.redissectionsProperty().addListener(redissected);
        // Let go of a closed window at once (it would otherwise stay reachable until the next Decode As).
        status.sceneProperty().flatMap(javafx.scene.Scene::windowProperty).subscribe(w -> {
            if (w != null) w.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN,
                    e -> ctx.redissectionsProperty().removeListener(redissected));
        });
    }

    private static <T> void whenAnalyzed(GuiContext ctx, Label status, java.util.function.Function<AnalysisSession, T> work,
                                         Consumer<T> done) {
        status.setText(ctx.analysis() == null ? "Waiting for the analysis ..." : "Computing ...");
        ctx.analysisDone().whenComplete((s, x) -> {
            if (x != null || s == null) {
                Platform.runLater(() -> status.setText(x instanceof CancellationException || x instanceof CompletionException
                        ? "The analysis did not finish: nothing to show" : "No analysis: " + x));
                return;
            }
            background(() -> work.apply(s), done, status);
        });
    }

    /** Runs work off the JavaFX thread and hands its result to done on it; errors go to the status label. */
    public static <T> void background(Supplier<T> work, Consumer<T> done, Label status) {
        Thread.ofPlatform().daemon().name("metaroce-gui-stats").start(() -> {
            try {
                T r = work.get();
                Platform.runLater(() -> done.accept(r));
            } catch (RuntimeException e) {
                Platform.runLater(() -> status.setText("Failed: " + e.getMessage()));
            }
        });
    }

    /** Selects a frame in the packet list, or says why it cannot (hidden by the display filter). */
    public static void select(GuiContext ctx, long frame, Label status) {
        if (frame <= 0) return;
        if (ctx.select((int) frame)) status.setText("Frame " + frame + " selected");
        else status.setText("Frame " + frame + " is hidden by the display filter");
    }
}
