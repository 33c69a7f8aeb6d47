package io.metaroce.gui;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.testfx.util.WaitForAsyncUtils;

/** Waiting for background work in GUI tests (never a fixed sleep: the condition is polled, with a generous cap). */
final class Fx {
    private Fx() { }

    static void until(String what, BooleanSupplier condition) {
        try {
            WaitForAsyncUtils.waitFor(180, TimeUnit.SECONDS, () -> {
                WaitForAsyncUtils.waitForFxEvents();
                return condition.getAsBoolean();
            });
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("timed out waiting for " + what, e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Opens a sample in the window and waits until its analysis is done. */
    static void openAndAnalyze(org.testfx.api.FxRobot robot, MainWindow w, GuiContext ctx, java.nio.file.Path file) {
        robot.interact(() -> w.open(file));
        until("analysis of " + file.getFileName(), () -> ctx.analysis() != null && !ctx.busyProperty().get());
    }
}
