package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Runs the analysis over a capture file: resolves {@code --tap auto} from the first frames, then one pass
 * (decode on one thread, analysis on another when the capture is large enough for that to pay), then
 * {@link AnalysisEngine#finish} with the file's capture-drop counts.
 */
public final class Analyzer {
    static final int PRESCAN_FRAMES = 20_000;
    static final long PIPELINE_MIN_BYTES = 32L << 20;
    private static final int BATCH = 512;

    private Analyzer() {}

    /**
     * Analyzes a capture file.
     *
     * @param recordVerdicts keep per-frame verdicts for {@link AnalysisFrameFields}
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
        DissectorConfig dc = new DissectorConfig(settings.rocePorts(), settings.checkIcrc());
        AnalysisEngine engine = new AnalysisEngine(settings, recordVerdicts, listener);
        if (settings.tap().kind() == Tap.Kind.AUTO) {
            TapChoice t = resolveTap(file, dc);
            engine.setTap(t.tap(), t.how());
        }
        AnalysisResult result;
        String format;
        java.util.List<String> problems = new java.util.ArrayList<>();
        try (PacketSource src = CaptureFiles.open(file)) {
            format = src.format().toString().toLowerCase();
            boolean pipeline = src.mapping().byteSize() >= PIPELINE_MIN_BYTES && Runtime.getRuntime().availableProcessors() > 1;
            if (pipeline) runPipelined(src, dc, engine, progress);
            else runSingle(src, dc, engine, progress);
            if (progress != null) progress.progress(src.mapping().byteSize(), src.mapping().byteSize());
            CaptureStats stats = src.stats();
            result = engine.finish(stats.totalIfDropped(), stats.totalOsDropped());
            for (var p : src.problems()) problems.add(p.message());
        }
        result.source(file.toString(), format);
        result.problems(problems);
        return result;
    }

    /** The per-frame field provider for a capture file (runs the analysis pass, recording verdicts). */
    public static AnalysisFrameFields frameFields(Path file, AnalysisSettings settings) throws CaptureException {
        return new AnalysisFrameFields(analyze(file, settings, true, null).engine());
    }

    /**
     * Resolves {@code --tap auto} from the first RoCE frames of a capture (spec §11): the address in every frame,
     * else for a single host pair the host whose packets carry an initial TTL, else a mirror. Shared by the
     * analysis and the validator, so both always judge a capture from the same tap.
     */
    public static TapChoice resolveTap(Path file, DissectorConfig dc) throws CaptureException {
        TapResolver r = new TapResolver();
        Dissector dis = new Dissector(dc.withPorts(dc.roceUdpPorts()));
        Dissection d = new Dissection();
        FrameFacts f = new FrameFacts();
        try (PacketSource src = CaptureFiles.open(file)) {
            while (r.frames() < PRESCAN_FRAMES && src.next()) {
                dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength(), d);
                r.add(f.from(d));
            }
        }
        return r.resolve();
    }

    /** Progress of a pass over a file: bytes read of the file's size. */
    public interface Progress {
        void progress(long bytesRead, long fileSize);
    }

    private static void runSingle(PacketSource src, DissectorConfig dc, AnalysisEngine engine, Progress progress) {
        Dissector dis = new Dissector(dc);
        Dissection d = new Dissection();
        FrameFacts f = new FrameFacts();
        long n = 0, size = src.mapping().byteSize();
        while (src.next()) {
            dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                    src.fcsLength(), d);
            engine.accept(f.from(d));
            if (progress != null && (++n & 4095) == 0) progress.progress(src.recordOffset(), size);
        }
    }

    /** Decode on this thread, analysis on a second one; batches of FrameFacts are recycled between them. */
    private static void runPipelined(PacketSource src, DissectorConfig dc, AnalysisEngine engine, Progress progress) {
        BlockingQueue<FrameFacts[]> full = new ArrayBlockingQueue<>(8), empty = new ArrayBlockingQueue<>(10);
        for (int i = 0; i < 10; i++) {
            FrameFacts[] b = new FrameFacts[BATCH + 1];
            for (int k = 0; k <= BATCH; k++) b[k] = new FrameFacts();
            empty.add(b);
        }
        Throwable[] failure = new Throwable[1];
        Thread analysis = Thread.ofPlatform().name("metaroce-analysis").start(() -> {
            try {
                while (true) {
                    FrameFacts[] b = full.take();
                    int n = (int) b[BATCH].number;
                    for (int k = 0; k < n; k++) engine.accept(b[k]);
                    empty.put(b);
                    if (n < BATCH) return;
                }
            } catch (Throwable t) {
                failure[0] = t;
                empty.clear();
                empty.add(new FrameFacts[0]);
            }
        });
        Dissector dis = new Dissector(dc);
        Dissection d = new Dissection();
        try {
            boolean more = true;
            while (more) {
                FrameFacts[] b = empty.take();
                if (b.length == 0) break;
                int n = 0;
                while (n < BATCH && (more = src.next())) {
                    dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    b[n++].from(d);
                }
                b[BATCH].number = n;
                full.put(b);
                if (progress != null && (b[0].number & 4095) < BATCH) progress.progress(src.recordOffset(), src.mapping().byteSize());
                if (n < BATCH) more = false;
            }
            analysis.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            analysis.interrupt();
        }
        if (failure[0] instanceof RuntimeException re) throw re;
        if (failure[0] instanceof Error er) throw er;
        if (failure[0] != null) throw new IllegalStateException(failure[0]);
    }
}
