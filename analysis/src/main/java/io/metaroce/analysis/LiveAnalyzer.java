package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * One pass over a source that cannot be read twice (live capture): a shortcut over
 * {@link AnalysisSession#run(PacketSource, String)}, which analyzes frames as they arrive (events come out as
 * they are decided) and resolves {@code --tap auto} from the first frames ({@link TapPrescan}).
 */
public final class LiveAnalyzer {
    private static final int BATCH = 512;

    private LiveAnalyzer() {}

    /**
     * Analyzes {@code src} until it ends (the caller stops a live capture with Ctrl-C, -c or -a).
     *
     * @param name the source's name in the report (for example the interface names)
     */
    public static AnalysisResult analyze(PacketSource src, String name, AnalysisSettings settings, boolean recordVerdicts,
                                         AnalysisEngine.EventListener listener) {
        return analyze(src, name, settings, recordVerdicts, listener, null);
    }

    /**
     * As {@link #analyze(PacketSource, String, AnalysisSettings, boolean, AnalysisEngine.EventListener)}, letting
     * another thread read the running counters through {@code monitor} (or null).
     */
    public static AnalysisResult analyze(PacketSource src, String name, AnalysisSettings settings, boolean recordVerdicts,
                                         AnalysisEngine.EventListener listener, Monitor monitor) {
        return analyze(src, name, settings, recordVerdicts, listener, monitor, null);
    }

    /** As above, with every frame's facts also shown to {@code observer} (or null) after the engine saw them. */
    public static AnalysisResult analyze(PacketSource src, String name, AnalysisSettings settings, boolean recordVerdicts,
                                         AnalysisEngine.EventListener listener, Monitor monitor,
                                         AnalysisSession.FrameObserver observer) {
        if (monitor == null) {
            AnalysisSession s = new AnalysisSession(settings, new AnalysisSession.Options(recordVerdicts, false, false));
            if (listener != null) s.onEvent(listener);
            s.onFrame(observer);
            AnalysisResult result = s.run(src, name);
            return result;
        }
        // With a monitor: the same pass written out so the engine can be fed under the monitor's lock.
        // AnalysisSession could take this as a per-burst hook; until it does, this mirrors its pipelined path:
        // decoding on this thread, analysis on a second one (one consumer thread could not keep up with high rates).
        DissectorConfig dc = new DissectorConfig(settings.rocePorts(), settings.checkIcrc());
        AnalysisEngine engine = new AnalysisEngine(settings, recordVerdicts, listener);
        Dissector dis = new Dissector(dc);
        Dissection d = new Dissection();
        if (settings.tap().kind() == Tap.Kind.AUTO) {
            TapPrescan pre = TapPrescan.of(src, dc);
            engine.setTap(pre.choice().tap(), pre.choice().how());
            src = pre.source();
        }
        PacketSource in = src;
        monitor.engine = engine;
        List<FrameFacts[]> pool = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            FrameFacts[] b = new FrameFacts[BATCH];
            for (int k = 0; k < BATCH; k++) b[k] = new FrameFacts();
            pool.add(b);
        }
        new TwoThreadPipeline<>(pool, "metaroce-live-analysis").run(slot -> {
            FrameFacts[] b = slot.items;
            int n = 0;
            boolean more = true;
            // Each batch ends at the end of a burst: the next frame is waited for after handing this one over,
            // so events come out as they happen and the table shows the last frame even on a quiet link.
            while (n < BATCH && (more = in.next())) {
                dis.dissect(in.data(), in.frameNumber(), in.timestampNanos(), in.originalLength(), in.linkType(),
                        in.fcsLength(), d);
                b[n++].from(d);
                if (in.endOfBurst()) break;
            }
            slot.size = n;
            return more;
        }, slot -> {
            // The engine is touched only under the monitor's lock, taken per batch (never while waiting for traffic).
            monitor.lock.lock();
            try {
                for (int k = 0; k < slot.size; k++) {
                    engine.accept(slot.items[k]);
                    if (observer != null) observer.frame(slot.items[k]);
                }
                monitor.frames += slot.size;
            } finally {
                monitor.lock.unlock();
            }
        });
        AnalysisResult result;
        CaptureStats stats = src.stats();
        monitor.lock.lock();
        try {
            result = engine.finish(stats.totalIfDropped(), stats.totalOsDropped());
        } finally {
            monitor.lock.unlock();
        }
        List<String> problems = new ArrayList<>();
        for (var p : src.problems()) problems.add(p.message());
        result.source(name, src.format().toString().toLowerCase());
        result.problems(problems);
        return result;
    }

    /**
     * Safe reads of a running live analysis from another thread: {@link #snapshot()} copies the per-QP counters
     * under the lock the analysis holds while it feeds the engine.
     */
    public static final class Monitor {
        // Fair: the reader, asking once a second, gets its turn between two bursts even under full load.
        private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock(true);
        private volatile AnalysisEngine engine;
        private long frames; // guarded by lock
        private LiveSnapshot last = LiveSnapshot.EMPTY; // guarded by snapshot()'s synchronization

        /**
         * The counters now; the previous snapshot when the analysis holds the lock for more than 200 ms (an
         * output blocked on a pipe), so that the caller never hangs.
         */
        public synchronized LiveSnapshot snapshot() {
            AnalysisEngine e = engine;
            if (e == null) return last;
            try {
                if (!lock.tryLock(200, java.util.concurrent.TimeUnit.MILLISECONDS)) return last;
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                return last;
            }
            try {
                return last = LiveSnapshot.of(e, frames);
            } finally {
                lock.unlock();
            }
        }
    }
}
