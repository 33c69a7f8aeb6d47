package io.metaroce.analysis;

import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import java.util.function.Function;

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

        /**
         * What the running analysis decided so far about a frame (the session records verdicts), read between two
         * batches: a GUI's live packet list. Later frames may still change it (spurious, CE without CNP); the
         * analysis of the saved capture has the final word. Null when the analysis has not started, records no
         * verdicts, or holds its lock for more than 200 ms.
         */
        public FrameVerdict verdictOf(long frame) {
            return locked(e -> e.verdicts() == null ? null : e.verdicts().verdict(frame));
        }

        /**
         * Attaches the {@code analysis.*} fields decided so far to a frame dissected again ({@link #verdictOf}'s
         * terms; the live list's coloring rules read them). Returns false when it could not.
         */
        public boolean attach(Dissection d) {
            Boolean done = locked(e -> {
                if (e.verdicts() == null) return false;
                if (fields == null) fields = new AnalysisFrameFields(e);
                fields.attach(d);
                return true;
            });
            return done != null && done;
        }

        private AnalysisFrameFields fields; // guarded by lock: one for every reader, each reads under the lock

        private <T> T locked(Function<AnalysisEngine, T> read) {
            try {
                if (!lock.tryLock(200, java.util.concurrent.TimeUnit.MILLISECONDS)) return null;
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                return null;
            }
            try {
                return engine == null ? null : read.apply(engine);
            } finally {
                lock.unlock();
            }
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
