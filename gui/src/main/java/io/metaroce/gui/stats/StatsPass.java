package io.metaroce.gui.stats;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.gui.FrameDecoder;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.OpenCapture;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;

/**
 * One pass over the capture for a statistics window (Protocol Hierarchy, Conversations, Endpoints): every frame, or
 * the displayed ones ("Limit to display filter"), dissected once and fed to all the window's tables (the
 * dissector's {@code io.metaroce.dissector.stats} counters, those of {@code dissect -z}). The frames are cut into one
 * contiguous part per core, each counted by its own tables, merged at the end (the counters keep the order of first
 * appearance across parts). Runs off the JavaFX thread, says "Computing ... N %" and stops when the window closes or
 * a newer pass starts.
 */
final class StatsPass {
    /** Frames between two looks at the cancel flag and two progress reports. */
    private static final int STEP = 16_384;

    private StatsPass() { }

    /**
     * Counts the frames (1-based numbers, ascending; null: every frame of the index) into tables made by create,
     * fed by add, merged by merge. Returns null when cancelled.
     */
    static <T> T run(FrameIndex index, int[] frames, Supplier<T> create, BiConsumer<T, Dissection> add, BiConsumer<T, T> merge,
                     DoubleConsumer progress, BooleanSupplier cancelled) {
        int n = frames == null ? index.size() : frames.length;
        int parts = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), n / STEP));
        @SuppressWarnings("unchecked")
        T[] tables = (T[]) new Object[parts];
        AtomicLong done = new AtomicLong();
        Thread[] workers = new Thread[parts];
        for (int p = 0; p < parts; p++) {
            int part = p, from = (int) ((long) n * p / parts), to = (int) ((long) n * (p + 1) / parts);
            tables[p] = create.get();
            workers[p] = Thread.ofPlatform().daemon().name("metaroce-stats-" + p).start(() -> {
                // Layers only: the ICRC check changes none of them (as the Flow Graph's pass). The capture's ports
                // decoded as RoCE (Decode As) decide which UDP frames are RoCE, as in the packet list.
                Dissector dissector = new Dissector(new DissectorConfig(FrameDecoder.config(index).roceUdpPorts(), false));
                Dissection d = new Dissection();
                T t = tables[part];
                for (int i = from; i < to; i++) {
                    if ((i - from) % STEP == 0 && i > from) {
                        if (cancelled.getAsBoolean()) return;
                        progress.accept((double) done.addAndGet(STEP) / n);
                    }
                    index.dissect(frames == null ? i + 1 : frames[i], dissector, d);
                    add.accept(t, d);
                }
            });
        }
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        if (cancelled.getAsBoolean()) return null;
        for (int p = 1; p < parts; p++) merge.accept(tables[0], tables[p]);
        return tables[0];
    }

    /**
     * Opens a statistics window over a pass (Protocol Hierarchy, Conversations, Endpoints): content above, the
     * "Limit to display filter" box (id limitId), the filter it limits to and status below; the pass runs now, again
     * when the box is switched and when the main window applies another filter while it is checked.
     */
    static <T> void window(GuiContext ctx, String id, String title, Node content, double width, double height,
                           String limitId, Label status, Supplier<T> create, BiConsumer<T, Dissection> add,
                           BiConsumer<T, T> merge, Consumer<T> done) {
        CheckBox limit = new CheckBox("Limit to display filter");
        limit.setId(limitId);
        Label shown = new Label();
        HBox bar = new HBox(12, limit, shown, status);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(content);
        root.setBottom(bar);
        Stage stage = Windows.show(ctx, id, title, root, width, height);
        refill(ctx, stage, limit, shown, forWindow(ctx, stage, limit, status, create, add, merge, done));
    }

    /**
     * Runs a pass for a window: over the displayed frames (in capture order) when limit is checked, else over all;
     * the status label says the progress, then done gets the tables on the JavaFX thread. Each call cancels the one
     * before; closing the stage cancels the running one. Returns the runner to call again (a new filter, the check
     * box).
     */
    private static <T> Runnable forWindow(GuiContext ctx, Stage stage, CheckBox limit, Label status, Supplier<T> create,
                                          BiConsumer<T, Dissection> add, BiConsumer<T, T> merge, Consumer<T> done) {
        // Read by the pass's threads: a newer pass or a closed window stops it.
        java.util.concurrent.atomic.AtomicInteger generation = new java.util.concurrent.atomic.AtomicInteger();
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, e -> generation.set(-1));
        return () -> {
            OpenCapture c = ctx.capture();
            if (c == null) {
                status.setText("No capture open");
                return;
            }
            if (generation.get() < 0) return;
            int gen = generation.incrementAndGet();
            int[] frames = limit.isSelected() && !ctx.view().isAll() ? ctx.view().toArray() : null;
            if (frames != null) {
                frames = frames.clone();
                Arrays.sort(frames);   // the packet list may be sorted: count in capture order, as dissect does
            }
            if (ctx.ignoredCount() > 0) frames = withoutIgnored(frames, c.frames(), ctx.ignoredFrames());
            int[] chosen = frames;
            BooleanSupplier cancelled = () -> gen != generation.get();
            status.setText("Computing ... 0 %");
            Progress shown = new Progress(status, cancelled);
            Windows.background(() -> run(c.index(), chosen, create, add, merge, shown::report, cancelled), r -> {
                if (r == null || cancelled.getAsBoolean()) return;
                done.accept(r);
            }, status);
        };
    }

    /**
     * The frames (ascending; null: 1..all) but Edit > Ignore Packet's: Wireshark counts ignored frames in no
     * statistic (its Protocol Hierarchy, Conversations and Endpoints leave them out as the dissection does).
     */
    static int[] withoutIgnored(int[] frames, int all, java.util.BitSet ignored) {
        int n = frames == null ? all : frames.length, kept = 0;
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int f = frames == null ? i + 1 : frames[i];
            if (!ignored.get(f)) out[kept++] = f;
        }
        return Arrays.copyOf(out, kept);
    }

    /**
     * Runs fill now, again when "Limit to display filter" is switched, when the main window applies another
     * filter while it is checked, and after Decode As; shown names the filter the counts are limited to.
     */
    private static void refill(GuiContext ctx, Stage stage, CheckBox limit, Label shown, Runnable fill) {
        shown.setId(limit.getId() + "-filter");
        Runnable run = () -> {
            String applied = ctx.appliedFilterProperty().get();
            shown.setText(!limit.isSelected() ? "" : applied == null || applied.isBlank() ? "(no filter applied)" : applied);
            fill.run();
        };
        limit.setOnAction(e -> run.run());
        javafx.beans.value.ChangeListener<String> refilter = (o, a, f) -> {
            if (limit.isSelected()) run.run();
        };
        ctx.appliedFilterProperty().addListener(refilter);
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, e -> ctx.appliedFilterProperty().removeListener(refilter));
        Windows.followRedissections(ctx, shown, run);     // Decode As changed what the frames decode to
        run.run();
    }

    /** "Computing ... N %" in the status label, set at most once per pulse. */
    private static final class Progress {
        private final Label status;
        private final BooleanSupplier cancelled;
        private volatile int percent;
        private boolean queued;

        Progress(Label status, BooleanSupplier cancelled) {
            this.status = status;
            this.cancelled = cancelled;
        }

        void report(double fraction) {
            percent = (int) Math.min(99, fraction * 100);
            synchronized (this) {
                if (queued) return;
                queued = true;
            }
            Platform.runLater(() -> {
                synchronized (this) { queued = false; }
                if (!cancelled.getAsBoolean()) status.setText("Computing ... " + percent + " %");
            });
        }
    }
}
