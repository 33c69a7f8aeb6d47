package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.gui.GuiContext;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.stage.Stage;

/**
 * Benchmark (not a test) of the PSN graph on the biggest flow of a capture (a 1M-packet flow for the figures in
 * docs/benchmarks.md): building the series, first render, a zoom step, a pan step, and a click selecting a frame.
 * A "frame latency" runs from the action on the FX thread until the third pulse after it started (the frame showing
 * the action has then been rendered), as in the GUI spike; run with -Djavafx.animation.fullspeed=true so pulses are
 * not quantised to 60 Hz. FX-thread CPU of the action itself is reported beside the wall time.
 *
 * <p>Run under Xvfb: {@code xvfb-run -a -s "-screen 0 1600x1000x24" java -Dprism.order=sw
 * -Djavafx.animation.fullspeed=true -cp <test classpath> io.metaroce.gui.graph.PsnGraphBenchmark capture.pcap}
 */
public final class PsnGraphBenchmark {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        CountDownLatch started = new CountDownLatch(1);
        io.metaroce.gui.RenderingSetup.beforeToolkitStart();        // as GuiMain does
        Platform.startup(started::countDown);
        started.await();
        GuiContext[] c = new GuiContext[1];
        // The real main window (packet list, tree, hex), so that a click's selection costs what it costs a user.
        fx(() -> {
            c[0] = new GuiContext(new Stage());
            new io.metaroce.gui.MainWindow(c[0]).show();
            return null;
        });
        GuiContext ctx = c[0];
        long t0 = System.nanoTime();
        Platform.runLater(() -> ctx.open(file));
        AnalysisSession s = waitFor(() -> ctx.analysisDone().isDone() ? ctx.analysis() : null);
        System.out.printf("open + analysis: %.2f s (%d frames)%n", (System.nanoTime() - t0) / 1e9, ctx.capture().frames());
        FlowSummary flow = s.flows().stream().max(Comparator.comparingLong(f -> f.counters().dataPackets())).orElseThrow();
        long f0 = System.nanoTime();
        int[] own = ctx.framesMatching(FlowSeries.flowFilter(flow.id()));
        int[] peer = flow.peer() == null ? new int[0] : ctx.framesMatching(FlowSeries.flowFilter(flow.peer()));
        long b0 = System.nanoTime();
        FlowSeries series = FlowSeries.build(ctx.capture().index(), s, flow.id(), own, peer, null);
        long buildNs = System.nanoTime() - b0;
        System.out.printf("flow frames (two analysis.flow filter passes): %.0f ms%n", (b0 - f0) / 1e6);
        int markers = 0;
        for (MarkerKind k : MarkerKind.values()) markers += series.markers(k).size();
        System.out.printf("flow %s: %,d data points, %,d markers; series build %.0f ms%n", flow.id(), series.data().size(),
                markers, buildNs / 1e6);
        PsnGraph graph = fx(PsnGraph::new);
        graph.setOnSelect(ctx::select);
        Stage[] st = new Stage[1];
        long[] cpu = new long[1];
        long first = frameLatency(() -> {
            st[0] = new Stage();
            st[0].setScene(new Scene(graph, 1100, 600));
            st[0].show();
            long a = CPU.getCurrentThreadCpuTime();
            graph.setSeries(series);
            cpu[0] = CPU.getCurrentThreadCpuTime() - a;
        });
        System.out.printf("first render (window shown + series set -> rendered): %.0f ms wall, %.1f ms FX CPU in setSeries, %.1f ms render CPU%n",
                first / 1e6, cpu[0] / 1e6, RENDER.getLast() / 1e6);
        long[] full = new long[steps], fullCpu = new long[steps];
        for (int i = 0; i < steps; i++) {
            int k = i;
            full[i] = frameLatency(() -> {
                long a = CPU.getCurrentThreadCpuTime();
                graph.resetView();
                fullCpu[k] = CPU.getCurrentThreadCpuTime() - a;
            });
        }
        report("full-range redraw", full, fullCpu);
        long[] zoom = new long[steps], zoomCpu = new long[steps];
        for (int i = 0; i < steps; i++) {
            int k = i;
            zoom[i] = frameLatency(() -> {
                long a = CPU.getCurrentThreadCpuTime();
                Viewport v = graph.viewport();
                graph.setViewport(v.zoomX(0.7, v.width() / 2));
                zoomCpu[k] = CPU.getCurrentThreadCpuTime() - a;
            });
        }
        report("zoom step (x 0.7, wheel)", zoom, zoomCpu);
        fx(() -> {
            graph.resetView();
            Viewport v = graph.viewport();
            graph.setViewport(v.zoomX(0.01, v.width() / 2));
            return null;
        });
        long[] pan = new long[steps], panCpu = new long[steps];
        for (int i = 0; i < steps; i++) {
            int k = i;
            pan[i] = frameLatency(() -> {
                long a = CPU.getCurrentThreadCpuTime();
                graph.setViewport(graph.viewport().pan(-40, 0));
                panCpu[k] = CPU.getCurrentThreadCpuTime() - a;
            });
        }
        report("pan step (40 px at 1 % zoom)", pan, panCpu);
        fx(() -> {
            graph.resetView();
            return null;
        });
        // Clicks at data points spread over the full range: press and release on the canvas as a mouse does; done
        // when the context has the frame and the frame showing it (graph mark, packet list) is rendered.
        long[] click = new long[steps], clickCpu = new long[steps];
        Node canvas = fx(() -> graph.getChildrenUnmodifiable().getFirst());
        for (int i = 0; i < steps; i++) {
            int idx = (int) ((long) series.data().size() * (2 * i + 1) / (2L * steps));
            double x = fx(() -> graph.paneX(series.data().time(idx))), y = fx(() -> graph.paneY(series.data().value(idx)));
            int expect = fx(() -> graph.frameAt(x, y));
            int k = i;
            click[i] = frameLatency(() -> {
                long a = CPU.getCurrentThreadCpuTime();
                canvas.fireEvent(mouse(MouseEvent.MOUSE_PRESSED, x, y));
                canvas.fireEvent(mouse(MouseEvent.MOUSE_RELEASED, x, y));
                clickCpu[k] = CPU.getCurrentThreadCpuTime() - a;
            });
            int got = fx(ctx::selectedFrame);
            if (got != expect) throw new IllegalStateException("click selected " + got + ", expected " + expect);
        }
        report("click -> frame selected (graph + packet list)", click, clickCpu);
        Platform.exit();
        System.exit(0);
    }

    static MouseEvent mouse(javafx.event.EventType<MouseEvent> type, double x, double y) {
        return new MouseEvent(type, x, y, x, y, MouseButton.PRIMARY, 1, false, false, false, false, true, false, false,
                true, false, true, null);
    }

    /** Render-thread CPU of the frame latencies measured since the last report (software rasterisation). */
    static final java.util.List<Long> RENDER = new java.util.ArrayList<>();

    static void report(String what, long[] wall, long[] cpu) {
        long[] w = wall.clone(), c = cpu.clone();
        long[] r = RENDER.stream().skip(Math.max(0, RENDER.size() - wall.length)).mapToLong(Long::longValue).sorted().toArray();
        Arrays.sort(w);
        Arrays.sort(c);
        System.out.printf("%s: median %.0f ms wall (min %.0f, max %.0f), median %.1f ms FX CPU, %.1f ms render CPU, n=%d%n",
                what, w[w.length / 2] / 1e6, w[0] / 1e6, w[w.length - 1] / 1e6, c[c.length / 2] / 1e6,
                r.length == 0 ? 0 : r[r.length / 2] / 1e6, w.length);
    }

    static long renderCpu() {
        for (long id : CPU.getAllThreadIds()) {
            var info = CPU.getThreadInfo(id);
            if (info != null && info.getThreadName().startsWith("QuantumRenderer")) return CPU.getThreadCpuTime(id);
        }
        return 0;
    }

    /** Wall time from running action on the FX thread until the third pulse after it starts. */
    static long frameLatency(Runnable action) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        long[] t = new long[2];
        long[] r0 = {renderCpu()};
        Platform.runLater(() -> {
            t[0] = System.nanoTime();
            action.run();
            new AnimationTimer() {
                int n;

                @Override
                public void handle(long now) {
                    if (++n == 3) {
                        t[1] = System.nanoTime();
                        stop();
                        done.countDown();
                    }
                }
            }.start();
        });
        if (!done.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("no frame within 60 s");
        RENDER.add(renderCpu() - r0[0]);
        return t[1] - t[0];
    }

    static <T> T fx(Supplier<T> s) throws InterruptedException {
        Object[] r = new Object[1];
        CountDownLatch l = new CountDownLatch(1);
        Platform.runLater(() -> {
            r[0] = s.get();
            l.countDown();
        });
        l.await();
        @SuppressWarnings("unchecked")
        T t = (T) r[0];
        return t;
    }

    static <T> T waitFor(Supplier<T> s) throws InterruptedException {
        while (true) {
            T t = fx(s);
            if (t != null) return t;
            Thread.sleep(100);
        }
    }
}
