package io.metaroce.gui;

import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.LiveAnalyzer;
import io.metaroce.capture.ForwardingPacketSource;
import io.metaroce.capture.live.CaptureLimits;
import io.metaroce.capture.live.InterfaceCounters;
import io.metaroce.capture.live.LiveCapture;
import io.metaroce.capture.live.LiveCaptureException;
import io.metaroce.capture.live.LiveFileWriter;
import io.metaroce.capture.live.LivePacketSource;
import io.metaroce.capture.live.LiveSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * One live capture of the GUI, on the path of {@code analyze -i}: an {@code AnalysisSession} over the live source
 * ({@link LiveAnalyzer} with a {@link LiveAnalyzer.Monitor} for the running counters and the verdicts so far),
 * each frame also written to a temporary pcapng (with its statistics blocks) that the window opens when the
 * capture ends (or to the file and ring buffer the Capture Options chose, stopping at its stop conditions as
 * {@code metaroce capture} does). The file is flushed at the end of every burst of frames (when no frame is waiting), so the live
 * packet list ({@link LiveList}) reads every frame captured so far from it; a busy link makes bursts long and the
 * flushes rare. The capture runs on its own thread; {@link #stop()} may be called from any thread.
 */
final class LiveRun {
    private final LiveCapture capture;
    /** The file being written: with a ring buffer, the current one of the ring. */
    private volatile Path file;
    /** -a filesize / files, checked after every frame written as {@code metaroce capture} does. */
    private CaptureLimits.Autostop autostop = CaptureLimits.Autostop.NONE;
    private final LiveAnalyzer.Monitor monitor = new LiveAnalyzer.Monitor();
    private final String name;
    /** The settings the capture is analyzed and shown with (the UDP ports Decode As set when it started). */
    private final AnalysisSettings settings;
    /** Frames handed to the file so far (flushed): the live packet list may show this many. */
    private volatile long flushed;

    /** Written to a temporary file (no output file chosen): closing what it captured loses it unless saved. */
    private boolean temporary;

    private LiveRun(LiveCapture capture, Path file, String name, AnalysisSettings settings) {
        this.capture = capture;
        this.file = file;
        this.name = name;
        this.settings = settings;
    }

    /**
     * Opens the interface (every start-up failure is one message: no such interface, bad filter, no permission)
     * and starts capturing and analyzing into a temporary file; see {@link #start(CaptureSettings.Plan, AnalysisSettings, Consumer, Consumer)}.
     */
    static LiveRun start(String iface, String filter, AnalysisSettings settings, Consumer<Path> ended, Consumer<String> failed) throws LiveCaptureException, IOException {
        LiveSettings s = LiveSettings.defaults(List.of(iface));
        if (filter != null && !filter.isBlank()) s = s.withFilter(filter.strip());
        return start(new CaptureSettings.Plan(s, null, LiveFileWriter.Ring.NONE, CaptureLimits.Autostop.NONE, true, false), settings, ended, failed);
    }

    /**
     * Opens the plan's interfaces and starts capturing and analyzing, writing the plan's file (its ring of files;
     * none: a temporary file) and stopping at its stop conditions as {@code metaroce capture} does; {@code ended}
     * gets the last file written, or {@code failed} an error message, on the capture's thread once the capture
     * stopped and the analysis finished.
     */
    static LiveRun start(CaptureSettings.Plan plan, AnalysisSettings settings, Consumer<Path> ended, Consumer<String> failed) throws LiveCaptureException, IOException {
        LiveCapture c = LiveCapture.open(plan.live());
        Path file = plan.output();
        if (file == null) {
            try {
                file = Files.createTempFile("metaroce-live-", ".pcapng");
            } catch (IOException e) {
                c.close();
                throw e;
            }
            file.toFile().deleteOnExit();
        }
        LiveFileWriter writer;
        try {
            writer = new LiveFileWriter(c, file, null, plan.ring(), "MetaRoCE Analyzer (GUI)", plan.pcap() && plan.output() != null);
        } catch (IOException e) {
            c.close();
            throw e;
        }
        LiveRun run = new LiveRun(c, writer.currentFile(), plan.interfaceNames(), settings);
        run.autostop = plan.stop();
        run.temporary = plan.output() == null;
        c.start();
        long nanos = plan.stop().durationNanos();
        if (nanos > 0) Thread.ofPlatform().daemon().name("metaroce-gui-live-duration").start(() -> stopAfter(c, nanos));
        Thread.ofPlatform().daemon().name("metaroce-gui-live").start(() -> run.analyze(writer, ended, failed));
        return run;
    }

    /** True when the capture goes to a temporary file rather than one the user chose (Capture Options' Output). */
    boolean temporary() { return temporary; }

    /** -a duration: stops the capture once that long has passed (or returns when it ended before). */
    private static void stopAfter(LiveCapture c, long nanos) {
        long until = System.nanoTime() + nanos;
        try {
            while (c.stopReason() == null) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    c.stop("duration");
                    return;
                }
                Thread.sleep(Math.min(100, Math.max(1, left / 1_000_000)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void analyze(LiveFileWriter writer, Consumer<Path> ended, Consumer<String> failed) {
        String error = null;
        try (LivePacketSource live = new LivePacketSource(capture)) {
            AnalysisResult r = LiveAnalyzer.analyze(new Written(live, writer, this), name, settings, true, null, monitor);
            if (r == null) error = "the analysis ended without a result";
        } catch (UncheckedIOException e) {
            error = "Cannot write the capture to " + file + ": " + e.getCause().getMessage();
        } catch (RuntimeException e) {
            error = "The live analysis failed: " + e;
        } finally {
            try {
                writer.close();
            } catch (IOException e) {
                if (error == null) error = "Cannot write the capture to " + file + ": " + e.getMessage();
            }
        }
        file = writer.currentFile();
        if (capture.error() != null) error = capture.error();
        if (error != null) failed.accept(error);
        else ended.accept(file);
    }

    /** Ends the capture (the frames still in the kernel ring are read first, so the counters add up). */
    void stop() {
        capture.stop("stopped");
    }

    String interfaceName() {
        return name;
    }

    /** The capture file being written (complete up to {@link #flushedFrames()} frames). */
    Path file() {
        return file;
    }

    long flushedFrames() {
        return flushed;
    }

    /** The running analysis: counters, and the verdicts decided so far for the live list. */
    AnalysisSettings settings() { return settings; }

    LiveAnalyzer.Monitor monitor() {
        return monitor;
    }

    /** The status-bar line: the CLI's status line (captured, and each kind of drop, exact) and what was analyzed. */
    String counters() {
        InterfaceCounters t = capture.totals();
        return String.format(Locale.ROOT, "%s: captured %d, kernel drops %d, interface drops %d, our drops %d; analyzed %d",
                name, t.delivered(), Math.max(0, t.osDropped()), Math.max(0, t.ifDropped()), t.ourDropped(), monitor.frames());
    }

    /**
     * The live source, each frame also written to the capture file before the analysis sees it; every other
     * accessor is the live source's own (no mapping, no comment: {@link LivePacketSource}'s answers).
     */
    private static final class Written extends ForwardingPacketSource {
        private final LivePacketSource s;
        private final LiveFileWriter writer;
        private final LiveRun run;

        Written(LivePacketSource s, LiveFileWriter writer, LiveRun run) {
            super(s);
            this.s = s;
            this.writer = writer;
            this.run = run;
        }

        @Override
        public boolean next() {
            if (!s.next()) return false;
            try {
                writer.write(s.packet());
                CaptureLimits.Autostop stop = run.autostop;
                if (stop.fileKB() > 0 && writer.fileBytes() >= stop.fileKB() * 1000) s.capture().stop("file size");
                if (stop.files() > 0 && writer.files().size() > stop.files()) s.capture().stop("file count");
                // One write per burst: per frame at a low rate (the list follows at once), rarely at a high one.
                if (s.endOfBurst()) {
                    writer.flush();
                    run.file = writer.currentFile();
                    run.flushed = writer.written();
                }
            } catch (IOException e) {
                s.capture().stop("error");
                throw new UncheckedIOException(e);
            }
            return true;
        }
    }
}
