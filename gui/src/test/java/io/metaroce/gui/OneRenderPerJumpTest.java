package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.javafx.perf.PerformanceTracker;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.shape.Rectangle;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * A jump to a frame (packet list scrolled and selected, field tree and bytes of the new frame) is painted in ONE
 * render of the window. Without {@link OneRenderPerChange} the cells the layout pass makes invalidate CSS after
 * the pulse's CSS pass and JavaFX runs a second pulse, which software rendering paints as the whole window: two
 * renders per jump. Counted with the scene's PerformanceTracker (called once per frame rendered).
 */
class OneRenderPerJumpTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void aJumpIsOneRender(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        AtomicInteger renders = new AtomicInteger();
        robot.interact(() -> {
            PerformanceTracker.getSceneTracker(stage.getScene()).setOnRenderedFrameTask(renders::incrementAndGet);
            table(robot).requestFocus();        // no caret blinking in the filter bar
        });
        int[] jumps = {180, 3, 120, 40, 190, 7};
        for (int f : jumps) {
            settle();
            renders.set(0);
            robot.interact(() -> ctx.select(f));
            settle();
            assertEquals(f, window.detail().shownFrame());
            assertEquals(1, renders.get(), "renders for the jump to frame " + f);
        }
    }

    /**
     * And that render draws region backgrounds directly, never through Prism's region image cache, which in the
     * software pipeline cost about four fifths of the render thread's CPU per jump (RenderingSetup): the cache
     * (one per screen, created on the first cached draw) stays empty however many rows, trees and panes were drawn.
     */
    @Test
    void aJumpDrawsNoRegionBackgroundFromTheImageCache(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        for (int f : new int[] {150, 2, 90}) {
            robot.interact(() -> ctx.select(f));
            settle();
            assertEquals(f, window.detail().shownFrame());
        }
        Field caches = Class.forName("com.sun.javafx.sg.prism.NGRegion").getDeclaredField("imageCacheMap");
        caches.setAccessible(true);
        Map<?, ?>[] perScreen = {null};
        robot.interact(() -> {
            try {
                perScreen[0] = new HashMap<>((Map<?, ?>) caches.get(null));
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        });
        assertEquals(Map.of(), perScreen[0], "region image caches");
    }

    /** Waits for six pulses, then for the render thread to finish what they gave it (a snapshot queues behind it). */
    private static void settle() throws InterruptedException {
        CountDownLatch pulses = new CountDownLatch(6);
        Platform.runLater(() -> new AnimationTimer() {
            @Override
            public void handle(long now) {
                pulses.countDown();
                if (pulses.getCount() == 0) stop();
            }
        }.start());
        if (!pulses.await(60, TimeUnit.SECONDS)) throw new AssertionError("no pulses");
        CountDownLatch rendered = new CountDownLatch(1);
        Platform.runLater(() -> {
            new Rectangle(1, 1).snapshot(null, null);
            rendered.countDown();
        });
        if (!rendered.await(60, TimeUnit.SECONDS)) throw new AssertionError("render thread stuck");
    }
}
