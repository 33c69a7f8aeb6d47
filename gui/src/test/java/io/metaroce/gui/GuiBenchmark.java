package io.metaroce.gui;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.control.TableRow;
import javafx.stage.Stage;

/**
 * Whole-process GUI timings on a big capture (not a test: the figures go to docs/benchmarks.md). Run under a
 * display (Xvfb) with software rendering:
 * <pre>
 *   metaroce simulate --scenario rocev2-clean --frames 1000000 --out /tmp/1m.pcap
 *   java -Dprism.order=sw -cp (gui test and main class path) io.metaroce.gui.GuiBenchmark /tmp/1m.pcap
 * </pre>
 * Measures: open to the first painted packet list, to the finished analysis, heap per frame with the capture open,
 * jump to a random frame + select + tree + bytes painted (first and median of 20), and display filters over every
 * frame to the painted result.
 */
public final class GuiBenchmark {
    private static GuiContext ctx;
    private static MainWindow window;

    private GuiBenchmark() { }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        CountDownLatch up = new CountDownLatch(1);
        Platform.startup(() -> {
            Stage s = new Stage();
            ctx = new GuiContext(s);
            ctx.setErrorSink(m -> System.err.println("error: " + m));
            window = new MainWindow(ctx);
            s.setWidth(1600);
            s.setHeight(1000);
            window.show();
            up.countDown();
        });
        up.await();
        waitPulses(5);
        long heap0 = heap();
        long t0 = System.nanoTime();
        fx(() -> window.open(file));
        // First paint: the table shows rows, and two more frames were rendered after that.
        while (true) {
            boolean[] shown = {false};
            fx(() -> shown[0] = ctx.capture() != null && window.packets().table().lookupAll(".table-row-cell").stream()
                    .anyMatch(n -> ((TableRow<?>) n).getItem() != null));
            if (shown[0]) break;
            Thread.sleep(5);
        }
        waitPulses(2);
        long firstPaint = System.nanoTime() - t0;
        while (true) {
            boolean[] done = {false};
            fx(() -> done[0] = ctx.analysis() != null);
            if (done[0]) break;
            Thread.sleep(10);
        }
        long analyzed = System.nanoTime() - t0;
        int frames = ctx.capture().frames();
        long heap1 = heap();
        System.out.printf("frames %d%nopen -> first painted packet list: %d ms%nopen -> analysis done: %d ms%n", frames,
                firstPaint / 1_000_000, analyzed / 1_000_000);
        System.out.printf("heap with the capture open and analyzed: %.1f B/frame (%d MB)%n", (heap1 - heap0) / (double) frames,
                (heap1 - heap0) >> 20);

        SplittableRandom rnd = new SplittableRandom(1);
        long[] jumps = new long[21];
        for (int i = 0; i < jumps.length; i++) {
            int f = 1 + rnd.nextInt(frames);
            long a = System.nanoTime();
            fx(() -> ctx.select(f));
            waitPulses(2);
            jumps[i] = System.nanoTime() - a;
            if (window.detail().shownFrame() != f) throw new IllegalStateException("frame " + f + " not shown");
        }
        Arrays.sort(jumps, 1, jumps.length);
        System.out.printf("jump + select + tree + bytes, painted: first %d ms, median of 20 %d ms, max %d ms%n",
                jumps[0] / 1_000_000, jumps[11] / 1_000_000, jumps[20] / 1_000_000);

        for (String filter : new String[] {"bth.psn < 1000", "analysis.retransmission", "ip.src == 10.0.0.1 && bth.opcode == rc_rdma_write_middle"}) {
            for (int round = 0; round < 2; round++) {
                long a = System.nanoTime();
                fx(() -> ctx.applyFilter(filter));
                while (true) {
                    boolean[] busy = {true};
                    fx(() -> busy[0] = ctx.busyProperty().get() || !ctx.appliedFilterProperty().get().equals(filter));
                    if (!busy[0]) break;
                    Thread.sleep(2);
                }
                waitPulses(2);
                long ms = (System.nanoTime() - a) / 1_000_000;
                int[] n = {0};
                fx(() -> n[0] = ctx.view().size());
                System.out.printf("filter '%s' on %d frames -> %d shown, painted: %d ms%n", filter, frames, n[0], ms);
                fx(() -> ctx.applyFilter(""));
                waitPulses(2);
            }
        }
        System.out.printf("load average %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Platform.exit();
        System.exit(0);
    }

    private static long heap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    private static void fx(Runnable r) throws InterruptedException {
        CountDownLatch l = new CountDownLatch(1);
        Platform.runLater(() -> {
            try {
                r.run();
            } finally {
                l.countDown();
            }
        });
        if (!l.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("FX thread stuck");
    }

    /** Waits until n more pulses (frames) have been processed, so that what was changed is painted. */
    private static void waitPulses(int n) throws InterruptedException {
        CountDownLatch l = new CountDownLatch(n);
        Platform.runLater(() -> new AnimationTimer() {
            @Override
            public void handle(long now) {
                l.countDown();
                if (l.getCount() == 0) stop();
            }
        }.start());
        l.await(30, TimeUnit.SECONDS);
    }
}
