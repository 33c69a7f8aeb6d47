package io.metaroce.gui.graph;

import static io.metaroce.gui.graph.PsnGraphBenchmark.frameLatency;
import static io.metaroce.gui.graph.PsnGraphBenchmark.fx;
import static io.metaroce.gui.graph.PsnGraphBenchmark.report;
import static io.metaroce.gui.graph.PsnGraphBenchmark.waitFor;

import io.metaroce.gui.GuiContext;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import javafx.application.Platform;
import javafx.scene.input.MouseEvent;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Benchmark (not a test) of Graphs > Congestion Loop on the flow it opens first (the most CNPs): the window opened
 * from the menu until the graph is painted (cold, then warm), a full-range redraw, a 1 ms view, wheel zoom steps, pan
 * steps at 1 ms and hover moves (each names another bucket; since the thirty-first session only the hover layer
 * changes, the canvas is not redrawn; the events' x and y are scene coordinates, so the mouse is a chooser bar's
 * height above the y aimed at, still in the plot). Timed as {@link PsnGraphBenchmark}
 * times (action on the FX thread to the third pulse after it; FX-thread CPU of the action, render-thread CPU).
 * The figures in docs/benchmarks.md ("Thirtieth session: GUI") come from a 1 M-frame incast:
 * <pre>
 *   metaroce simulate --scenario rocev2-ecn-cnp --frames 1000000 --out /tmp/cc-1m.pcap
 *   xvfb-run -a -s "-screen 0 1600x1000x24" java -Dprism.order=sw -Djavafx.animation.fullspeed=true \
 *       -cp (gui test and main class path) io.metaroce.gui.graph.CongestionGraphBenchmark /tmp/cc-1m.pcap 20
 * </pre>
 */
public final class CongestionGraphBenchmark {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private CongestionGraphBenchmark() { }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        CountDownLatch started = new CountDownLatch(1);
        io.metaroce.gui.RenderingSetup.beforeToolkitStart();
        Platform.startup(started::countDown);
        started.await();
        GuiContext ctx = fx(() -> {
            GuiContext c = new GuiContext(new Stage());
            new io.metaroce.gui.MainWindow(c).show();
            return c;
        });
        long t0 = System.nanoTime();
        Platform.runLater(() -> ctx.open(file));
        waitFor(() -> ctx.analysisDone().isDone() ? ctx.analysis() : null);
        System.out.printf("open + analysis: %.2f s (%d frames)%n", (System.nanoTime() - t0) / 1e9, ctx.capture().frames());
        CongestionGraph graph = null;
        for (String pass : new String[] {"cold", "warm"}) {
            long a = System.nanoTime();
            CongestionGraph g = fx(() -> CongestionLoopWindow.open(ctx, null));
            waitFor(() -> g.series() == null ? null : g);
            long built = System.nanoTime() - a;
            long painted = frameLatency(() -> { });
            System.out.printf("menu -> graph (%s): series %.0f ms, painted %.0f ms%n", pass, built / 1e6, (built + painted) / 1e6);
            if (graph != null) fx(() -> {
                for (Window w : Window.getWindows().toArray(new Window[0])) {
                    if (w.getScene() != null && w.getScene().getRoot().getId() != null
                            && w.getScene().getRoot().getId().equals("cc-graph-window") && w != g.getScene().getWindow()) ((Stage) w).close();
                }
                return null;
            });
            graph = g;
        }
        CongestionGraph gr = graph;
        CongestionSeries s = gr.series();
        System.out.printf("flow %s: %,d rate buckets of %d ns, %,d pace points, %,d CE marks, %,d CNPs, %d paused runs; plot %.0f x %.0f px%n",
                s.flowId(), s.rate().size(), s.bucketNs(), s.pace().size(), s.ce().size(), s.cnp().size(), s.paused().size(),
                fx(gr::plotWidth), fx(gr::plotHeight));
        steps(steps, "full-range redraw", gr::resetView);
        Viewport full = fx(gr::viewport);
        double mid = (full.x0() + full.x1()) / 2;
        Viewport ms = new Viewport(mid - 500_000, mid + 500_000, full.y0(), full.y1(), full.width(), full.height());
        steps(steps, "1 ms view", () -> gr.setViewport(ms));
        fx(() -> { gr.resetView(); return null; });
        steps(steps, "zoom step (x 0.7, wheel)", () -> {
            Viewport v = gr.viewport();
            gr.setViewport(v.zoomX(0.7, v.width() / 2));
        });
        fx(() -> { gr.setViewport(ms); return null; });
        steps(steps, "pan step (40 px at 1 ms)", () -> gr.setViewport(gr.viewport().pan(-40, 0)));
        fx(() -> { gr.resetView(); return null; });
        double y = fx(() -> gr.paneY(s.maxRate() / 2.0));
        int[] k = {0};
        steps(steps, "hover move (full range)", () -> {
            double x = CongestionGraph.LEFT + 20 + (k[0]++ * 37) % (gr.plotWidth() - 40);
            gr.getChildrenUnmodifiable().getFirst().fireEvent(PsnGraphBenchmark.mouse(MouseEvent.MOUSE_MOVED, x, y));
        });
        Platform.exit();
        System.exit(0);
    }

    private static void steps(int n, String what, Runnable action) throws InterruptedException {
        long[] wall = new long[n], cpu = new long[n];
        for (int i = 0; i < n; i++) {
            int k = i;
            wall[i] = frameLatency(() -> {
                long a = CPU.getCurrentThreadCpuTime();
                action.run();
                cpu[k] = CPU.getCurrentThreadCpuTime() - a;
            });
        }
        report(what, wall, cpu);
    }
}
