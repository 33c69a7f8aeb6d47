package io.metaroce.gui;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FrameIndex;
import java.util.List;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.util.Duration;

/**
 * Fills the packet list while a capture runs, as Wireshark's "update list of packets in real time" does: every
 * {@link #TICK} the frames the capture flushed to its file since the last refresh are indexed off the UI thread
 * (a {@link FrameIndex} over a fresh mapping of the file, which is complete up to the last flush) and handed to
 * {@link GuiContext#showLive} in one step, so rows arrive in batches, never one pulse per packet. The index is
 * rebuilt from the start of the file (about 0.3 s of CPU per million frames): to keep that from eating the
 * capture's CPU, the next rebuild waits at least three times as long as the last one took.
 */
final class LiveList {
    static final Duration TICK = Duration.millis(100);
    private final GuiContext ctx;
    private final LiveRun run;
    private final Timeline timeline;
    // FX thread only.
    private boolean building, stopped;
    private long notBefore;
    private int shown;
    private long analyzed;

    private LiveList(GuiContext ctx, LiveRun run) {
        this.ctx = ctx;
        this.run = run;
        timeline = new Timeline(new KeyFrame(TICK, e -> tick()));
        timeline.setCycleCount(Timeline.INDEFINITE);
    }

    /**
     * Starts refreshing the list of ctx from run's file; the list empties first (a new capture). Without realTime
     * (Capture Options: "Update list of packets in real time" off, or a ring buffer, whose file changes under the
     * list) the list stays empty until the capture ends and its file opens.
     */
    static LiveList start(GuiContext ctx, LiveRun run, boolean realTime) {
        LiveList l = new LiveList(ctx, run);
        ctx.startLive(run.monitor(), run.temporary());
        if (realTime) l.timeline.play();
        return l;
    }

    /** Stops refreshing (the capture ended: the saved file opens in its place). */
    void stop() {
        stopped = true;
        timeline.stop();
    }

    private void tick() {
        if (building || stopped || System.nanoTime() < notBefore) return;
        if (!ctx.showsLive(run.monitor())) {     // another file was opened meanwhile
            stop();
            return;
        }
        long judged = run.monitor().frames();
        if (run.flushedFrames() <= shown) {
            // The file is written before the analysis sees a frame: rows shown early get their verdicts now.
            if (judged > analyzed) {
                analyzed = judged;
                ctx.liveVerdictsChanged();
            }
            return;
        }
        analyzed = judged;
        building = true;
        Thread.ofPlatform().daemon().name("metaroce-gui-live-index").start(this::index);
    }

    private void index() {
        long t0 = System.nanoTime();
        OpenCapture oc = null;
        PacketSource src = null;
        try {
            src = CaptureFiles.open(run.file());
            // The file ends in the middle of a block the writer has not flushed yet: the reader stops before it.
            FrameIndex index = FrameIndex.build(src);
            FrameDecoder.decodeAs(index, run.settings().rocePorts());
            oc = new OpenCapture(run.file(), src, index, List.of(), false);
        } catch (CaptureException | RuntimeException e) {
            if (src != null) src.close();   // not readable yet (nothing flushed): the next tick tries again
        }
        long cost = System.nanoTime() - t0;
        OpenCapture got = oc;
        Platform.runLater(() -> {
            building = false;
            notBefore = System.nanoTime() + 3 * cost;
            if (got == null) return;
            if (stopped || got.frames() <= shown || !ctx.showsLive(run.monitor())) {
                got.close();
                return;
            }
            shown = got.frames();
            ctx.showLive(got);
        });
    }
}
