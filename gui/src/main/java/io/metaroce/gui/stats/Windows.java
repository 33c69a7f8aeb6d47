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
