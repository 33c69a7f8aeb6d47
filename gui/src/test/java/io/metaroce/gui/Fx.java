package io.metaroce.gui;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.testfx.util.WaitForAsyncUtils;

/** Waiting for background work in GUI tests (never a fixed sleep: the condition is polled, with a generous cap). */
final class Fx {
    private Fx() { }

    static void until(String what, BooleanSupplier condition) {
        until(what, condition, () -> "");
    }

    /** As until, and a timeout's message says state (read on the JavaFX thread): what the test saw instead. */
    static void until(String what, BooleanSupplier condition, java.util.function.Supplier<String> state) {
        try {
            WaitForAsyncUtils.waitFor(180, TimeUnit.SECONDS, () -> {
                WaitForAsyncUtils.waitForFxEvents();
                return condition.getAsBoolean();
            });
        } catch (java.util.concurrent.TimeoutException e) {
            String[] seen = {""};
            try {
                WaitForAsyncUtils.asyncFx(() -> seen[0] = state.get()).get(10, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                seen[0] = "(the JavaFX thread did not answer)";
            }
            throw new AssertionError("timed out waiting for " + what + (seen[0].isEmpty() ? "" : "; " + seen[0]), e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Opens a sample in the window and waits until its analysis is done. */
    static void openAndAnalyze(org.testfx.api.FxRobot robot, MainWindow w, GuiContext ctx, java.nio.file.Path file) {
        robot.interact(() -> w.open(file));
        until("analysis of " + file.getFileName(), () -> ctx.analysis() != null && !ctx.busyProperty().get());
    }
}
