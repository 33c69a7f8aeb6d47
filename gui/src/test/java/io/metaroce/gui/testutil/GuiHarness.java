package io.metaroce.gui.testutil;

import io.metaroce.gui.GuiContext;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** Opening a sample in a GuiContext and waiting for background work in TestFX tests (polled, never a fixed sleep). */
public final class GuiHarness {
    private GuiHarness() {}

    public static void until(String what, BooleanSupplier condition) {
        try {
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> {
                WaitForAsyncUtils.waitForFxEvents();
                return condition.getAsBoolean();
            });
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("timed out waiting for " + what, e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Opens a bundled sample the way the main window does and waits for its analysis. */
    public static void open(FxRobot robot, GuiContext ctx, String scenario) {
        robot.interact(() -> ctx.open(Sample.path(scenario)));
        until("analysis of " + scenario, () -> ctx.analysis() != null && ctx.capture() != null);
    }

    /** Closes every window but the primary stage, so the next test's lookups cannot find an old window's nodes. */
    public static void closeWindows(FxRobot robot) {
        robot.interact(() -> {
            for (javafx.stage.Window w : new java.util.ArrayList<>(javafx.stage.Window.getWindows()))
                if (w instanceof javafx.stage.Stage st && st.getOwner() != null) st.close();
        });
    }

    /**
     * One wheel notch over a node at (x, y) in its coordinates. Fired at the node: Monocle's headless robot
     * delivers no wheel events.
     */
    public static void wheel(FxRobot robot, Node target, double x, double y, double deltaY) {
        robot.interact(() -> {
            Point2D sc = target.localToScene(x, y), scr = target.localToScreen(x, y);
            javafx.event.Event.fireEvent(target, new javafx.scene.input.ScrollEvent(javafx.scene.input.ScrollEvent.SCROLL,
                    x, y, scr.getX(), scr.getY(), false, false, false, false, false, false, 0, deltaY, 0, deltaY,
                    javafx.scene.input.ScrollEvent.HorizontalTextScrollUnits.NONE, 0,
                    javafx.scene.input.ScrollEvent.VerticalTextScrollUnits.NONE, 0, 0, null));
        });
    }

    /** Screen point of a position in a node's own coordinates (what robot.clickOn takes). */
    public static Point2D screen(Node n, double x, double y) {
        return n.localToScreen(x, y);
    }
}
