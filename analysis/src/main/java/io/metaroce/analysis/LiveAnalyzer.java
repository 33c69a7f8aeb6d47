package io.metaroce.analysis;

import io.metaroce.capture.PacketSource;

/**
 * One pass over a source that cannot be read twice (live capture): a shortcut over
 * {@link AnalysisSession#run(PacketSource, String)}, which analyzes frames as they arrive (events come out as
 * they are decided) and resolves {@code --tap auto} from the first frames ({@link TapPrescan}).
 */
public final class LiveAnalyzer {
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
        AnalysisSession s = new AnalysisSession(settings, new AnalysisSession.Options(recordVerdicts, false, false));
        if (listener != null) s.onEvent(listener);
        s.onFrame(observer);
        if (monitor != null) s.onBatch(monitor.watch(s));
        return s.run(src, name);
    }

    /**
     * Safe reads of a running live analysis from another thread: {@link #snapshot()} copies the per-QP counters
     * under the lock the analysis holds while it feeds the engine.
     */
    public static final class Monitor {
        // Fair: the reader, asking once a second, gets its turn between two bursts even under full load.
        private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock(true);
        private boolean watching;
        private AnalysisEngine engine; // guarded by lock: taken from the session on the analysis thread
        private long frames; // guarded by lock
        private volatile long analyzed; // frames, readable without the lock
        private LiveSnapshot last = LiveSnapshot.EMPTY; // guarded by snapshot()'s synchronization

        /**
         * The hook that binds this monitor to the session it watches (once, before the session runs): the engine
         * is touched only under this monitor's lock, taken per batch (never while waiting for traffic).
         */
        AnalysisSession.BatchHook watch(AnalysisSession session) {
            if (watching) throw new IllegalStateException("a Monitor watches one analysis");
            watching = true;
            return new AnalysisSession.BatchHook() {
                @Override
                public void before() {
                    lock.lock();
                    if (engine == null) engine = session.runningEngine();
                }

                @Override
                public void after(int batch) {
                    frames += batch;
                    analyzed = frames;
                    lock.unlock();
                }
            };
        }

        /** Frames analyzed so far, without waiting for the analysis (a status bar's refresh). */
        public long frames() {
            return analyzed;
        }

        /**
         * The counters now; the previous snapshot when the analysis holds the lock for more than 200 ms (an
         * output blocked on a pipe), so that the caller never hangs.
         */
        public synchronized LiveSnapshot snapshot() {
            try {
                if (!lock.tryLock(200, java.util.concurrent.TimeUnit.MILLISECONDS)) return last;
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                return last;
            }
            try {
                return engine == null ? last : (last = LiveSnapshot.of(engine, frames));
            } finally {
                lock.unlock();
            }
        }
    }
}
