package io.metaroce.gui.stats;

import io.metaroce.dissector.stats.ProtocolHierarchy;
import io.metaroce.gui.GuiContext;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Benchmark (not a test) of Statistics > Protocol Hierarchy, Conversations and Endpoints on a large capture (the
 * figures in docs/benchmarks.md): each window's pass over every frame alone (all its tabs at once), then each window
 * from the menu action to its tables set (the status says how many rows), three times. Run under Xvfb as
 * {@code io.metaroce.gui.graph.PsnGraphBenchmark}: {@code ... io.metaroce.gui.stats.StatsWindowsBenchmark capture.pcap}.
 */
public final class StatsWindowsBenchmark {
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
        System.out.printf("open + analysis: %.2f s (%d frames)%n", (System.nanoTime() - t0) / 1e9, ctx.capture().frames());
        var index = ctx.capture().index();
        for (int run = 0; run < 3; run++) {
            long p0 = System.nanoTime();
            ProtocolHierarchy h = StatsPass.run(index, null, ProtocolHierarchy::new, ProtocolHierarchy::add, ProtocolHierarchy::merge,
                    f -> { }, () -> false);
            long p1 = System.nanoTime();
            var conv = StatsPass.run(index, null, LayerConversationsWindow::counters, LayerTabs.Counters::add,
                    LayerTabs.Counters::merge, f -> { }, () -> false);
            long p2 = System.nanoTime();
            var ends = StatsPass.run(index, null, EndpointsWindow::counters, LayerTabs.Counters::add,
                    LayerTabs.Counters::merge, f -> { }, () -> false);
            long p3 = System.nanoTime();
            int convs = 0, points = 0;
            for (var x : conv.byType) convs += x.rows().size();
            for (var x : ends.byType) points += x.rows().size();
            System.out.printf("pass %d: hierarchy %.0f ms (%d rows), conversations %.0f ms (%d), endpoints %.0f ms (%d)%n", run,
                    (p1 - p0) / 1e6, h.rows().size(), (p2 - p1) / 1e6, convs, (p3 - p2) / 1e6, points);
        }
        String[][] windows = {{"protocol-hierarchy", "#phs-status", " packets"}, {"layer-conversations", "#layer-conversations-status", " conversations"},
                {"endpoints", "#endpoints-status", " endpoints"}};
        io.metaroce.gui.GuiWindow[] open = {new ProtocolHierarchyWindow(), new LayerConversationsWindow(), new EndpointsWindow()};
        for (int run = 0; run < 3; run++) {
            for (int w = 0; w < open.length; w++) {
                int k = w;
                long w0 = System.nanoTime();
                onFx(() -> open[k].open(ctx));
                Label[] status = new Label[1];
                onFx(() -> status[0] = (Label) Window.getWindows().getLast().getScene().lookup(windows[k][1]));
                String[] text = {""};
                while (!text[0].endsWith(windows[k][2])) {
                    Thread.sleep(5);
                    onFx(() -> text[0] = status[0].getText());
                }
                System.out.printf("run %d: %s open -> tables set %.0f ms (%s)%n", run, windows[k][0], (System.nanoTime() - w0) / 1e6, text[0]);
                onFx(() -> ((Stage) status[0].getScene().getWindow()).close());
            }
        }
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.out.printf("heap used after: %d MB%n", (rt.totalMemory() - rt.freeMemory()) >> 20);
        Platform.exit();
        System.exit(0);
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
        if (!done.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("the JavaFX thread did not answer");
    }
}
