package io.metaroce.analysis;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Shortcuts over {@link AnalysisSession} for one-shot callers, and the tap resolution shared by the analysis
 * and the validator.
 */
public final class Analyzer {
    static final int PRESCAN_FRAMES = 20_000;

    private Analyzer() {}

    /**
     * Analyzes a capture file (an {@link AnalysisSession} without progress or cancellation).
     *
     * @param recordVerdicts keep per-frame verdicts (see {@link AnalysisSession.Options#verdicts})
     * @param listener receives events in frame order, or null
     */
    public static AnalysisResult analyze(Path file, AnalysisSettings settings, boolean recordVerdicts,
                                         AnalysisEngine.EventListener listener) throws CaptureException {
        return analyze(file, settings, recordVerdicts, listener, null);
    }

    /**
     * As {@link #analyze(Path, AnalysisSettings, boolean, AnalysisEngine.EventListener)}, reporting progress.
     *
     * @param progress receives (bytes read, file size) every few thousand frames, on the reading thread; or null
     */
    public static AnalysisResult analyze(Path file, AnalysisSettings settings, boolean recordVerdicts,
                                         AnalysisEngine.EventListener listener, Progress progress) throws CaptureException {
        AnalysisSession s = new AnalysisSession(settings, new AnalysisSession.Options(recordVerdicts, false, false));
        if (listener != null) s.onEvent(listener);
        if (progress != null) s.onProgress((position, total, frames) -> progress.progress(position, total));
        return s.run(file);
    }

    /** Progress of a pass over a file: bytes read of the file's size. */
    public interface Progress {
        void progress(long bytesRead, long fileSize);
    }

    /** The per-frame field provider for a capture file (runs the analysis pass, recording verdicts). */
    public static AnalysisFrameFields frameFields(Path file, AnalysisSettings settings) throws CaptureException {
        AnalysisSession s = new AnalysisSession(settings, new AnalysisSession.Options(true, false, false));
        s.run(file);
        return s.frameFields();
    }

    /**
     * Resolves {@code --tap auto} from the first RoCE frames of a capture (spec §11): the address in every frame,
     * else for a single host pair the host whose packets carry an initial TTL, else a mirror. Shared by the
     * analysis and the validator, so both always judge a capture from the same tap.
     */
    public static TapChoice resolveTap(Path file, DissectorConfig dc) throws CaptureException {
        Ahead a = ahead;
        if (a != null && a.file.equals(file) && a.ports.equals(dc.roceUdpPorts()) && a.checkIcrc == dc.checkIcrc()) {
            ahead = null;
            boolean interrupted = false;
            while (true) {
                try {
                    a.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
            if (a.choice != null) return a.choice;
        }
        return resolveTapNow(file, dc);
    }

    /**
     * Starts {@link #resolveTap} of this file with these ports on a thread of its own, for the first {@code
     * resolveTap} of the same file, ports and ICRC setting to take (it waits for it), and then opens the file
     * ahead for the pass ({@link CaptureFiles#prefetch}). For {@code metaroce validate FILE}: its rules keep state
     * between the pass's two threads, so its frames cannot be held back while the tap is resolved (as analyze's
     * are, {@link TapHold}), and the pre-read of up to {@value #PRESCAN_FRAMES} frames ran on the main thread
     * before the pass, with the second core idle; started by the command line's first step, it runs while picocli
     * sets up. Only a head start: a failure leaves the work to {@code resolveTap}, which reports it, and a pass
     * with other ports (--decode-as) or another file resolves its own.
     */
    public static void resolveTapAhead(Path file, java.util.Set<Integer> ports, boolean checkIcrc) {
        Ahead a = new Ahead(file, ports, checkIcrc);
        ahead = a;
        a.start();
    }

    /** The resolution {@link #resolveTapAhead} started, until a {@link #resolveTap} takes it. */
    private static volatile Ahead ahead;

    /** True while a resolution started ahead waits to be taken (for tests). */
    static boolean aheadPending() { return ahead != null; }

    private static final class Ahead extends Thread {
        final Path file;
        final java.util.Set<Integer> ports;
        final boolean checkIcrc;
        /** The resolved tap; null when the file could not be read. Read after join(). */
        TapChoice choice;

        Ahead(Path file, java.util.Set<Integer> ports, boolean checkIcrc) {
            super("metaroce-tap-ahead");
            setDaemon(true);
            this.file = file;
            this.ports = ports;
            this.checkIcrc = checkIcrc;
        }

        @Override
        public void run() {
            try {
                choice = resolveTapNow(file, new DissectorConfig(ports, checkIcrc));
                // The pre-read closed its source: the pass opens the file again, so open it ahead for that open.
                CaptureFiles.prefetch(file);
            } catch (CaptureException | RuntimeException e) {
                // Left to resolveTap, which reports it.
            }
        }
    }

    private static TapChoice resolveTapNow(Path file, DissectorConfig dc) throws CaptureException {
        TapResolver r = new TapResolver();
        Dissector dis = new Dissector(dc.withPorts(dc.roceUdpPorts()));
        Dissection d = new Dissection();
        FrameFacts f = new FrameFacts();
        FastFacts fast = new FastFacts(dc);
        try (PacketSource src = CaptureFiles.open(file)) {
            while (r.frames() < PRESCAN_FRAMES && !r.decided() && src.next()) prescan(src, dis, d, fast, f, r);
        }
        return r.resolve();
    }

    /**
     * One frame of the pre-read. Its own method, not the loop's body: the loop is one call of 20,000 frames, so
     * without on-stack replacement (the launcher's {@code validate}) its body, six calls on the source per frame,
     * ran interpreted to the end; a method called per frame is compiled within a few hundred frames. The common
     * frame takes {@link FastFacts} (the same facts, FastFactsTest), as the pass that follows does: the pre-read
     * then warms the pass's own decoder instead of compiling the dissector for a few thousand frames.
     */
    private static void prescan(PacketSource src, Dissector dis, Dissection d, FastFacts fast, FrameFacts f, TapResolver r) {
        MemorySegment data = src.data();
        if (!fast.fill(f, data, src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength())) {
            dis.dissect(data, src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(), d);
            f.from(d);
        }
        r.add(f);
    }
}
