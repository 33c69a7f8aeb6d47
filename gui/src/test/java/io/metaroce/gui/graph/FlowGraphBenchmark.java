package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.gui.GuiContext;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Benchmark (not a test) of Statistics > Flow Graph on a large capture (the 1 M-frame figures in docs/benchmarks.md):
 * from the menu action to the first rows painted (the node pass over every displayed frame off the JavaFX thread,
 * then the table), a jump to 90 % of the rows until painted, and what one row not seen yet costs to decode and
 * colour. Run under Xvfb as {@link PsnGraphBenchmark}: {@code ... io.metaroce.gui.graph.FlowGraphBenchmark capture.pcap}.
 */
public final class FlowGraphBenchmark {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        CountDownLatch started = new CountDownLatch(1);
        io.metaroce.gui.RenderingSetup.beforeToolkitStart();
        Platform.startup(started::countDown);
        started.await();
        GuiContext[] c = new GuiContext[1];
        onFx(() -> {
            c[0] = new GuiContext(new Stage());
            new io.metaroce.gui.MainWindow(c[0]).show();
        });
        GuiContext ctx = c[0];
        long t0 = System.nanoTime();
        Platform.runLater(() -> ctx.open(file));
        while (!ctx.analysisDone().isDone()) Thread.sleep(20);
        AnalysisSession s = ctx.analysisDone().join();
        System.out.printf("open + analysis: %.2f s (%d frames, analysis %s)%n", (System.nanoTime() - t0) / 1e9,
                ctx.capture().frames(), s.state());
        long p0 = System.nanoTime();
        FlowGraphWindow.Ladder l = FlowGraphWindow.ladder(ctx, s, FlowGraphWindow.Choices.DEFAULT);
        System.out.printf("node pass alone (%d frames, %d hosts): %.0f ms%n", l.frames().length, l.nodes().size(),
                (System.nanoTime() - p0) / 1e6);
        // The bar's other choices: RoCE only (a dissection per frame to choose them), a node per host and QP.
        long r0 = System.nanoTime();
        int roce = FlowGraphWindow.frames(ctx, s, new FlowGraphWindow.Choices(true, false,
                io.metaroce.analysis.FlowGraph.Type.ROCE, io.metaroce.analysis.FlowGraph.Mode.NETWORK)).length;
        System.out.printf("RoCE-only frame choice (%d frames kept): %.0f ms%n", roce, (System.nanoTime() - r0) / 1e6);
        long q0 = System.nanoTime();
        FlowGraphWindow.Ladder qp = FlowGraphWindow.ladder(ctx, s, new FlowGraphWindow.Choices(true, false,
                io.metaroce.analysis.FlowGraph.Type.ANY, io.metaroce.analysis.FlowGraph.Mode.STANDARD));
        System.out.printf("node pass, standard addresses (%d nodes): %.0f ms%n", qp.nodes().size(), (System.nanoTime() - q0) / 1e6);
        rowCost(ctx, l);
        export(ctx, s, l);
        for (int run = 0; run < 3; run++) {
            long w0 = System.nanoTime();
            onFx(() -> new FlowGraphWindow().open(ctx));
            TableView<?>[] table = new TableView<?>[1];
            Label[] status = new Label[1];
            onFx(() -> {
                Window w = Window.getWindows().getLast();
                table[0] = (TableView<?>) w.getScene().lookup("#flow-graph-table");
                status[0] = (Label) w.getScene().lookup("#flow-graph-status");
            });
            while (table[0].getItems().isEmpty()) Thread.sleep(5);
            pulses(3);
            long shown = System.nanoTime() - w0;
            long j0 = System.nanoTime();
            onFx(() -> table[0].scrollTo(table[0].getItems().size() * 9 / 10));
            pulses(3);
            long jump = System.nanoTime() - j0;
            System.out.printf("run %d: open -> first rows painted %.0f ms (%s); jump to 90 %% painted %.0f ms%n", run,
                    shown / 1e6, status[0].getText(), jump / 1e6);
            onFx(() -> ((Stage) table[0].getScene().getWindow()).close());
        }
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.out.printf("heap used after: %d MB%n", (rt.totalMemory() - rt.freeMemory()) >> 20);
        Platform.exit();
        System.exit(0);
    }

    /**
     * What a row costs the first time it shows (a scroll to rows not seen yet): decoding the frame, the row's texts,
     * and matching the coloring rules on its fields, on the JavaFX thread, per row; then the same rows without the
     * rules (the matching alone is the difference). 20,000 rows spread over the capture, so none is cached; nine rounds.
     */
    private static void rowCost(GuiContext ctx, FlowGraphWindow.Ladder l) throws InterruptedException {
        int[] frames = l.frames();
        int n = Math.min(20_000, frames.length), step = Math.max(1, frames.length / n), rounds = 9;
        long[] with = new long[rounds], without = new long[rounds];
        java.util.Map<String, Integer> byRule = new java.util.TreeMap<>();
        for (int round = 0; round < rounds; round++) {
            int r = round;
            onFx(() -> {
                FlowGraphWindow.Rows rows = new FlowGraphWindow.Rows();
                rows.use(ctx, l.nodes(), io.metaroce.analysis.FlowGraph.Mode.NETWORK);
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    io.metaroce.gui.ColoringRules.Rule c = rows.colour(frames[i * step]);
                    if (r == 0) byRule.merge(c == null ? "(none)" : c.name(), 1, Integer::sum);
                }
                with[r] = System.nanoTime() - t0;
                rows.recolour(null);
                t0 = System.nanoTime();
                for (int i = 0; i < n; i++) rows.row(frames[i * step]);
                without[r] = System.nanoTime() - t0;
            });
        }
        java.util.Arrays.sort(with);
        java.util.Arrays.sort(without);
        System.out.printf("per new row (%d rows, %d rounds, median [min-max]): %.2f us [%.2f-%.2f] with the coloring rules, "
                + "%.2f us [%.2f-%.2f] without; rows by rule: %s%n", n, rounds, with[rounds / 2] / 1e3 / n, with[0] / 1e3 / n,
                with[rounds - 1] / 1e3 / n, without[rounds / 2] / 1e3 / n, without[0] / 1e3 / n, without[rounds - 1] / 1e3 / n, byRule);
    }

    /**
     * Export... of the default diagram (every frame here): as ASCII (the node pass, then a decoded row per frame written
     * to the file, off the JavaFX thread), and as PNG (the rows that fit, drawn on the JavaFX thread, then encoded).
     */
    private static void export(GuiContext ctx, AnalysisSession s, FlowGraphWindow.Ladder l) throws Exception {
        Path txt = java.nio.file.Files.createTempFile("flow-graph-export", ".txt");
        Path png = java.nio.file.Files.createTempFile("flow-graph-export", ".png");
        try {
            long a0 = System.nanoTime();
            try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(txt)) {
                FlowGraphWindow.ascii(ctx, s, io.metaroce.analysis.FlowGraph.Mode.NETWORK,
                        FlowGraphWindow.ladder(ctx, s, FlowGraphWindow.Choices.DEFAULT), w);
            }
            System.out.printf("Export... as ASCII (%d rows, %d MB): %.2f s%n", l.frames().length,
                    java.nio.file.Files.size(txt) >> 20, (System.nanoTime() - a0) / 1e9);
            java.awt.image.BufferedImage[] picture = new java.awt.image.BufferedImage[1];
            FlowGraphWindow.Picture[] p = new FlowGraphWindow.Picture[1];
            onFx(() -> p[0] = new FlowGraphWindow.Picture(ctx, io.metaroce.analysis.FlowGraph.Mode.NETWORK, l));
            // A tile per JavaFX runnable, as Export... draws them: the longest is how long the window stops responding.
            long p0 = System.nanoTime(), longest = 0;
            int tiles = 0;
            boolean[] last = new boolean[1];
            while (!last[0]) {
                long t0 = System.nanoTime();
                onFx(() -> last[0] = p[0].step());
                longest = Math.max(longest, System.nanoTime() - t0);
                tiles++;
            }
            picture[0] = p[0].out;
            long drawn = System.nanoTime() - p0;
            System.out.printf("PNG tiles: %d, longest %.0f ms%n", tiles, longest / 1e6);
            String error = FlowGraphWindow.writePng(picture[0], png);
            System.out.printf("Export... as PNG (%d x %d px, %d rows; %s): drawn on the JavaFX thread %.0f ms, encoded %.0f ms, %d KB%n",
                    picture[0].getWidth(), picture[0].getHeight(), FlowGraphWindow.rowsInPng(l.frames().length,
                            FlowGraphWindow.pngWidth(l.nodes().ordered().size())), error == null ? "ok" : error, drawn / 1e6,
                    (System.nanoTime() - p0 - drawn) / 1e6, java.nio.file.Files.size(png) >> 10);
            System.out.println("ASCII export kept at " + txt + " (compare with dissect -q -z flow,any,network)");
        } finally {
            java.nio.file.Files.deleteIfExists(png);
        }
    }

    private static void onFx(Runnable r) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        Platform.runLater(() -> {
            try {
                r.run();
            } finally {
                done.countDown();
            }
        });
        done.await(60, TimeUnit.SECONDS);
    }

    /** Waits for n pulses (the frame showing the last change has then been rendered). */
    private static void pulses(int n) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(n);
        javafx.animation.AnimationTimer[] t = new javafx.animation.AnimationTimer[1];
        Platform.runLater(() -> {
            t[0] = new javafx.animation.AnimationTimer() {
                @Override
                public void handle(long now) {
                    done.countDown();
                    if (done.getCount() == 0) stop();
                }
            };
            t[0].start();
        });
        done.await(60, TimeUnit.SECONDS);
    }
}
