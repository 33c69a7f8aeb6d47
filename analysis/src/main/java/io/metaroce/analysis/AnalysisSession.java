package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * One analysis pass over a capture, and what it found: the entry point for every front end (CLI, GUI, flow
 * index, live view). Build it with {@link Options} saying what to keep beyond the flow results, optionally
 * attach an event listener ({@link #onEvent}) and a progress callback ({@link #onProgress}), then call
 * {@link #run(Path)} or {@link #run(PacketSource, String)} once, on any thread. {@link #cancel()} may be called
 * from another thread; the run then ends with a {@link CancellationException}.
 *
 * <p>Threads: the run is single-use. Once {@link #state()} is {@link State#FINISHED} (a volatile write after
 * every result was built), {@link #result()}, {@link #verdictOf}, {@link #events()} and {@link #framesOf} may
 * be read from any thread, concurrently (a GUI thread while a background task ran the pass). They throw
 * {@link IllegalStateException} before that.
 */
public final class AnalysisSession {
    /** Captures from this size on are decoded on one thread and analyzed on a second (default of {@link #pipelineFrom}). */
    static volatile long pipelineMinBytes = 32L << 20;
    private static final int BATCH = 512;
    /**
     * Whether the decoding thread of a file's pass may leave {@link FastFacts#fill} to the analysis thread
     * ({@link FillSplit}): {@link #SPLIT_AUTO} per batch by how far ahead of the analysis thread it is, or always, or
     * never (tests; the system property {@code metaroce.fillSplit=auto|always|never} for A/B runs of one jar).
     */
    static volatile int fillSplit = switch (System.getProperty("metaroce.fillSplit", "auto")) {
        case "always" -> 1;
        case "never" -> 2;
        default -> 0;
    };
    static final int SPLIT_AUTO = 0, SPLIT_ALWAYS = 1, SPLIT_NEVER = 2;
    /**
     * Under {@link #SPLIT_AUTO}, a batch is deferred when at most this many filled batches wait for the analysis
     * thread: it then has time to spare; with more, it is the slower side and the decoding thread fills itself.
     * The queue then hovers around this depth, so that a stall of the decoding thread (a read(2), a page of the
     * window) does not leave the analysis thread without a batch, below what the pool lets wait (10 batches, up to
     * 4 held for return, 1 on each side). Measured (docs/benchmarks.md, helper bal, nineteenth session; the other
     * helpers' load kept off by the scheduler), medians of 5 interleaved runs of 10 M frames under -Xmx1g: base 3.37
     * and 3.72 s, depth 2 2.62, 3 2.54, 4 2.40 and 2.43, 6 2.51, every batch deferred 2.57; 1 M frames (7 runs): base
     * 0.81, 2 0.74, 4 0.73, every batch 0.79. {@code -Dmetaroce.fillSplitWaiting=N} to measure again.
     */
    static final int SPLIT_WAITING = Integer.getInteger("metaroce.fillSplitWaiting", 4);
    /** Frames between two progress reports and cancellation checks. */
    private static final int REPORT_EVERY = 4096;

    /**
     * What to keep beyond the flow results.
     *
     * @param verdicts per-frame verdicts ({@link #verdictOf}, {@link #frameFields}): a few bytes per notable frame
     * @param events the events as objects, indexed by frame ({@link #events()})
     * @param flowFrames each flow's frame numbers and file offsets ({@link #framesOf}): 2-3 bytes per frame (varint deltas)
     */
    public record Options(boolean verdicts, boolean events, boolean flowFrames) {
        /** Flow results only (what {@code metaroce analyze} needs). */
        public static final Options RESULTS = new Options(false, false, false);
        /** Everything (an interactive viewer). */
        public static final Options ALL = new Options(true, true, true);
    }

    /**
     * A consumer of every frame of the pass beside the analysis (the conformance rules of {@code validate}), in
     * two stages: one on the decoding thread before the engine sees the frame, one on the analysis thread just
     * after the engine judged it, in capture order. Between the two the frame is identified by a slot in
     * [0, {@link #FRAME_SLOTS}): whatever the consumer keeps per frame in slot k stays its own until
     * {@link #analyzed} of that slot returned (the slots recycle as the decoding thread's batches do).
     */
    public interface FrameStages {
        /** Before the first frame: the tap the pass judges from ({@code --tap auto} resolved) and how it was found. */
        default void begin(Tap tap, String how) {}

        /**
         * On the decoding thread: f holds the facts of d; the consumer may clear {@link FrameFacts#judgeable}
         * (a frame its rules found malformed is not judged by the engine either, §11 d).
         *
         * @param fcsLength the FCS bytes at the end of the frame if the capture says so, else -1 ({@link PacketSource#fcsLength})
         */
        void decoded(Dissection d, FrameFacts f, int fcsLength, int slot);

        /**
         * Whether the consumer takes the common clean frame without its dissection ({@link #decodedFast}); false:
         * every frame is dissected and goes to {@link #decoded}.
         */
        default boolean fastFrames() { return false; }

        /**
         * On the decoding thread, instead of {@link #decoded}, for a frame {@link FastFacts} accepted: f holds its
         * facts, l where its headers lie. Returns false, having changed nothing, when the consumer needs the
         * frame's {@link Dissection} after all; the frame is then dissected and goes to {@link #decoded}.
         */
        default boolean decodedFast(FastFrame l, FrameFacts f, int slot) { return false; }

        /**
         * The stages whose {@link #decoded} and {@link #decodedFast} the decoding thread calls (those two only), once
         * per pass: this by default. A consumer whose analysis-thread methods write its fields for every frame gives
         * the decoding thread an object of its own, so that the two threads do not share those cache lines.
         */
        default FrameStages decodingSide() { return this; }

        /**
         * On the analysis thread, in capture order, just before the engine sees f: work that needs no
         * {@link Dissection} moves here off the decoding thread (which is the busier one); the consumer may still
         * clear {@link FrameFacts#judgeable}. The frame's bytes are still valid: a source is pipelined only when it
         * is a file mapping, and read on one thread the frame is the current one.
         */
        default void handedOver(FrameFacts f, int slot) {}

        /**
         * On the analysis thread, in capture order, right after the engine judged f.
         *
         * @param outcome what the engine decided about f: its flow, the data flow it is about, and whether it
         *     was a capture duplicate of its flow's previous frame (§11 f), of which the engine judged nothing
         *     else. Overwritten by the next frame.
         */
        void analyzed(FrameFacts f, int slot, FrameOutcome outcome);

        /**
         * What the consumer keeps per flow the engine holds, in bytes (beyond {@link FlowBudget#ENGINE_BYTES}): the
         * pass lowers its flow bound so that both fit in the heap ({@link FlowBudget}).
         */
        default int bytesPerFlow() { return 0; }

        /**
         * On the analysis thread, as the flow bound evicts flow (its pending verdicts decided, as for an idle flow),
         * from within the engine's look at a frame, before {@link #analyzed} of that frame: the consumer lets go of
         * its state of the flow (a later packet of the same QP is a new flow, with a new {@link QpFlow#index()}).
         */
        default void evicted(QpFlow flow) {}
    }

    /**
     * Brackets each batch of frames the analysis thread feeds the engine (a live view that reads the running
     * counters from another thread, {@link LiveAnalyzer.Monitor}, locks here), and the final tally after the
     * last batch. Never called while the source waits for traffic.
     */
    public interface BatchHook {
        /** On the analysis thread, before the engine sees the batch. */
        void before();

        /**
         * On the analysis thread, after the engine saw the batch (also after a batch that failed).
         *
         * @param frames the batch's frames (0 for the final tally)
         */
        void after(int frames);
    }

    /** Slots a {@link FrameStages} consumer needs: the frames the two threads can hold at once. */
    public static final int FRAME_SLOTS = 10 * BATCH;

    /** Where a run is. */
    public enum State { NEW, RUNNING, FINISHED, CANCELLED, FAILED }

    /** Progress of a run, reported every few thousand frames from the decoding thread. */
    @FunctionalInterface
    public interface Progress {
        /**
         * @param position bytes of the source read so far (file offset of the current record)
         * @param total the source's size in bytes, -1 when unbounded (a live source)
         * @param frames frames read so far
         */
        void update(long position, long total, long frames);
    }

    private final AnalysisSettings settings;
    private final Options options;
    private AnalysisEngine.EventListener listener;
    private FrameObserver frameObserver;
    private Progress progress;
    private FrameStages stages;
    private BatchHook batchHook;
    private long pipelineFromBytes = pipelineMinBytes;
    private boolean statistics = true;
    private String tapHow = "as given";
    private volatile boolean cancelled;
    private volatile State state = State.NEW;

    // Published by the volatile write of state = FINISHED.
    private AnalysisEngine engine;
    private AnalysisResult result;
    private EventLog events = EventLog.EMPTY;
    private Map<String, FrameList> flowFrames = Map.of();

    public AnalysisSession(AnalysisSettings settings, Options options) {
        this.settings = settings;
        this.options = options;
    }

    /** Receives each event as it is decided, in frame order, on the analysis thread (a live view). */
    public AnalysisSession onEvent(AnalysisEngine.EventListener l) {
        requireNew();
        listener = l;
        return this;
    }

    /**
     * Sees the facts of every frame right after the engine analyzed it, in frame order, on the analysis thread
     * (per-QP observers such as the diagnosis). The facts object is reused: copy what you keep.
     */
    @FunctionalInterface
    public interface FrameObserver {
        void frame(FrameFacts f);
    }

    /** Attaches a {@link FrameObserver} (one per session). */
    public AnalysisSession onFrame(FrameObserver o) {
        requireNew();
        frameObserver = o;
        return this;
    }

    /** Runs a second consumer over every frame in the same pass ({@link FrameStages}). */
    public AnalysisSession onFrame(FrameStages s) {
        requireNew();
        stages = s;
        return this;
    }

    /**
     * Receives each flow the flow bound evicts ({@link AnalysisSettings#maxFlows}: a capture of more QPs than
     * that), with its result and, under {@link Options#flowFrames}, its frames, on the analysis thread: the flow
     * is in neither {@link #flows()} nor {@link #framesOf} afterwards (a later packet of the same QP starts a new
     * flow with the same id). Without a listener only its totals stay, in the capture summary.
     */
    public AnalysisSession onEviction(AnalysisEngine.EvictionListener l) {
        requireNew();
        evictionListener = l;
        return this;
    }

    private AnalysisEngine.EvictionListener evictionListener;

    /**
     * Receives each message of the request streams as it is decided ({@link RdmaMessage}), on the analysis thread:
     * {@code analyze --messages}, the GUI's Messages window.
     */
    public AnalysisSession onMessage(RdmaMessage.Listener l) {
        requireNew();
        messageListener = l;
        return this;
    }

    private RdmaMessage.Listener messageListener;

    private PacketSource.ContentSink contentSink;

    /**
     * Hands the file's bytes to sink as the pass reads them ({@link PacketSource#streamContent}), on the decoding
     * thread: a consumer of the whole file (the flow index's content hash) then reads no byte a second time.
     * Only {@link #run(Path)}; once the run returned normally the sink has seen the whole file. A run that failed
     * or was cancelled may have stopped it anywhere.
     */
    public AnalysisSession onContent(PacketSource.ContentSink sink) {
        requireNew();
        contentSink = sink;
        return this;
    }

    /** Attaches a {@link BatchHook} (one per session). */
    public AnalysisSession onBatch(BatchHook h) {
        requireNew();
        batchHook = h;
        return this;
    }

    /** The engine of a running pass, for a {@link BatchHook} that reads it between its own brackets; else null. */
    AnalysisEngine runningEngine() {
        return engine;
    }

    /**
     * Decodes and analyzes on two threads for sources of at least this many bytes (default 32 MiB; tests lower
     * it to cover that path on small captures).
     */
    public AnalysisSession pipelineFrom(long bytes) {
        requireNew();
        pipelineFromBytes = bytes;
        return this;
    }

    /**
     * Leaves out what only the flow results' statistics need: the open messages of each request stream (message
     * counts, completion) and the latency distributions of ACK round trips and message completion. For a pass
     * whose caller reads no flow statistics ({@code metaroce validate}: its findings, the pairing, the events and the
     * paths of its HTML report do not depend on them); every event and every other verdict stays the same. Ignored
     * when the pass records per-frame verdicts, which name the message a frame completed. Why: on 1 M frames of
     * rocev2-clean the message ring and the latency histogram were about 30 ms of validate's analysis thread under
     * C1 alone (Flow$Messages add/findByPsn/compact, RequestStream.message, Latency.add; perf, docs/benchmarks.md,
     * helper val, eighteenth session), work whose results validate threw away.
     */
    public AnalysisSession withoutStatistics() {
        requireNew();
        statistics = false;
        return this;
    }

    public AnalysisSession onProgress(Progress p) {
        requireNew();
        progress = p;
        return this;
    }

    /** Asks a running pass to stop (from any thread); it ends with a {@link CancellationException}. */
    public void cancel() { cancelled = true; }

    public State state() { return state; }

    public AnalysisSettings settings() { return settings; }

    /**
     * Analyzes a capture file: resolves {@code --tap auto} from its first frames, then one pass (decode on one
     * thread and analysis on another when the file is large enough for that to pay).
     *
     * @throws CancellationException when {@link #cancel()} stopped it
     */
    public AnalysisResult run(Path file) throws CaptureException {
        start();
        try {
            DissectorConfig dc = new DissectorConfig(settings.rocePorts(), settings.checkIcrc());
            AnalysisEngine e = newEngine();
            boolean preRead = false;
            if (settings.tap().kind() == Tap.Kind.AUTO) {
                // Frame stages (validate) keep per-slot state between decoding and analysis: their frames cannot
                // be held back, so the tap is resolved by a read of the first frames before the pass (below, over
                // the pass's own mapping).
                if (stages == null) tapHold = new TapHold(file, dc);
                else preRead = true;
            }
            AnalysisResult r;
            try (PacketSource src = CaptureFiles.open(file)) {
                if (contentSink != null && !src.streamContent(contentSink)) {
                    throw new IllegalStateException("the capture reader of " + file + " does not stream its content");
                }
                if (preRead) {
                    TapChoice t = Analyzer.resolveTap(src, file, dc);
                    e.setTap(t.tap(), t.how());
                    tapHow = t.how();
                }
                r = pass(src, dc, e, src.format().toString().toLowerCase(), file.toString(), false);
            }
            return done(e, r);
        } catch (RuntimeException | CaptureException | Error x) {
            failed(x);
            throw x;
        }
    }

    /**
     * Analyzes a source that is not (or not only) a file, e.g. a live capture, until it ends or the run is
     * cancelled. The caller owns and closes the source. With {@code --tap auto} the tap is resolved from the
     * first frames, which are held back until it is ({@link TapPrescan}).
     *
     * @param name what the report calls the source (file name or interface)
     */
    public AnalysisResult run(PacketSource src, String name) {
        start();
        try {
            DissectorConfig dc = new DissectorConfig(settings.rocePorts(), settings.checkIcrc());
            AnalysisResult r = pass(src, dc, newEngine(), src.format() == null ? null : src.format().toString().toLowerCase(),
                    name, settings.tap().kind() == Tap.Kind.AUTO);
            return done(engine, r);
        } catch (RuntimeException | Error x) {
            failed(x);
            throw x;
        }
    }

    /** Drops the pass's state, so that after an OutOfMemoryError the caller has room to report it. */
    private void failed(Throwable x) {
        state = x instanceof CancellationException ? State.CANCELLED : State.FAILED;
        engine = null;
        keptEvents = null;
    }

    private void start() {
        synchronized (this) {
            requireNew();
            state = State.RUNNING;
        }
    }

    private void requireNew() {
        if (state != State.NEW) throw new IllegalStateException("an AnalysisSession runs once (state " + state + ")");
    }

    private AnalysisEngine newEngine() {
        List<AnalysisEvent> kept = options.events() ? new ArrayList<>() : null;
        AnalysisEngine.EventListener live = listener;
        AnalysisEngine.EventListener l = kept == null ? live : live == null ? kept::add : ev -> {
            kept.add(ev);
            live.event(ev);
        };
        // The flow bound lowered to what the heap holds of this pass's flows (FlowBudget): validate's rule state of
        // 65,536 flows did not fit in -Xmx1g (docs/benchmarks.md, "helper guard, sixteenth session").
        int bound = FlowBudget.maxFlows(settings.maxFlows(), stages == null ? 0 : stages.bytesPerFlow());
        AnalysisEngine e = new AnalysisEngine(bound == settings.maxFlows() ? settings : settings.withMaxFlows(bound),
                options.verdicts(), l);
        if (bound < settings.maxFlows() && System.getProperty(FlowBudget.PROPERTY) == null) {
            e.boundHeapMib = Runtime.getRuntime().maxMemory() >> 20;
        }
        if (options.flowFrames()) e.recordFlowFrames();
        if (!statistics && !options.verdicts()) e.withoutStatistics();
        if (evictionListener != null) e.onEviction(evictionListener);
        if (messageListener != null) e.onMessages(messageListener);
        if (stages != null) e.onDropped(stages::evicted);
        engine = e;
        keptEvents = kept;
        return e;
    }

    private List<AnalysisEvent> keptEvents;
    /**
     * {@code --tap auto} on a file without frame stages: the first frames wait here until they resolve the tap.
     * Set before the pass, then read and cleared only by the analysis thread (the pipeline's hand-off and the join
     * at its end order the accesses).
     */
    private TapHold tapHold;

    private AnalysisResult pass(PacketSource src, DissectorConfig dc, AnalysisEngine e, String format, String name,
                                boolean autoTap) {
        MemorySegment map = src.mapping();
        long total = map == null ? -1 : map.byteSize();
        // A source that is not a file (live capture) is pipelined too: the network sets its rate, not us. Not
        // under frame stages (validate), whose handedOver reads the frame's bytes on the analysis thread: only a
        // file mapping keeps them valid after the decoder moved on.
        boolean pipeline = (map == null ? stages == null : total >= pipelineFromBytes)
                && Runtime.getRuntime().availableProcessors() > 1;
        if (autoTap) {
            // A source read once cannot be prescanned: its first frames are held until the tap is resolved.
            TapPrescan pre = TapPrescan.of(src, dc);
            e.setTap(pre.choice().tap(), pre.choice().how());
            tapHow = pre.choice().how();
            src = pre.source();
        }
        if (stages != null) stages.begin(e.tap(), tapHow);
        if (pipeline) runPipelined(src, dc, e, total);
        else runSingle(src, dc, e, total);
        if (tapHold != null) {
            tapHold.end();
            releaseHeld(e);
        }
        if (progress != null) progress.update(total >= 0 ? total : src.recordOffset(), total, e.frames);
        if (cancelled) throw new CancellationException("analysis cancelled after " + e.frames + " frames");
        CaptureStats stats = src.stats();
        AnalysisResult r;
        if (batchHook != null) batchHook.before();
        try {
            r = e.finish(stats.totalIfDropped(), stats.totalOsDropped());
        } finally {
            if (batchHook != null) batchHook.after(0);
        }
        List<String> problems = new ArrayList<>();
        for (var p : src.problems()) problems.add(p.message());
        r.source(name, format);
        r.problems(problems);
        return r;
    }

    private AnalysisResult done(AnalysisEngine e, AnalysisResult r) {
        result = r;
        if (keptEvents != null) events = new EventLog(keptEvents);
        keptEvents = null;
        if (options.flowFrames()) flowFrames = e.flowFrames();
        state = State.FINISHED;
        return r;
    }

    private void checkpoint(PacketSource src, long total, long frames) {
        if (cancelled) throw new CancellationException("analysis cancelled after " + frames + " frames");
        heapFull();
        if (progress != null) progress.update(src.recordOffset(), total, frames);
    }

    /**
     * Ends the pass with an {@link OutOfMemoryError} when the heap stays full ({@link HeapWatch}): asked once per
     * batch on each thread, so that a heap kept just short of its limit ends the run in a bounded number of full
     * collections instead of thrashing for minutes.
     */
    private static void heapFull() {
        OutOfMemoryError oom = HeapWatch.get().failure();
        if (oom != null) throw oom;
    }

    /**
     * The decoder's short cut for the common frame ({@link FastFacts}), or null where every frame needs its full
     * dissection: frame stages that read the {@link Dissection} of every frame (not {@link FrameStages#fastFrames}).
     */
    private FastFacts fastFacts(DissectorConfig dc) {
        return stages == null || stages.fastFrames() ? new FastFacts(dc) : null;
    }

    private void runSingle(PacketSource src, DissectorConfig dc, AnalysisEngine engine, long total) {
        Dissector dis = new Dissector(dc);
        io.metaroce.dissector.Dissection d = new io.metaroce.dissector.Dissection();
        FrameFacts f = new FrameFacts();
        FastFacts fast = fastFacts(dc);
        long n = 0;
        while (src.next()) {
            decode(src, dis, fast, d, f, stages == null ? null : stages.decodingSide(), 0);
            if (batchHook == null) {
                f = feedOrHold(engine, f);
            } else {
                batchHook.before();
                try {
                    f = feedOrHold(engine, f);
                } finally {
                    batchHook.after(1);
                }
            }
            if (++n % REPORT_EVERY == 0) checkpoint(src, total, n);
        }
    }

    /**
     * Decode on this thread, analysis on a second one; batches of FrameFacts are recycled between them. A failure
     * of either thread ends both at once and is rethrown here ({@link TwoThreadPipeline}).
     */
    private void runPipelined(PacketSource src, DissectorConfig dc, AnalysisEngine engine, long total) {
        List<FillSplit.Batch> pool = new ArrayList<>();
        // Frame stages name a frame by its slot: batch i of the pool holds slots [i*BATCH, (i+1)*BATCH).
        FrameStages st = stages;
        // The decoding thread's calls go to the stages' decoding side (FrameStages#decodingSide).
        FrameStages dst = st == null ? null : st.decodingSide();
        Dissector dis = new Dissector(dc);
        io.metaroce.dissector.Dissection d = new io.metaroce.dissector.Dissection();
        FastFacts fast = fastFacts(dc);
        int splitMode = fillSplit;
        FillSplit split = splitMode != SPLIT_NEVER && FillSplit.applies(src, fast, st, dc) ? new FillSplit(src.mapping(), dc) : null;
        for (int i = 0; i < FRAME_SLOTS / BATCH; i++) pool.add(new FillSplit.Batch(BATCH, i * BATCH, split != null));
        long[] frames = {0};
        // A file never pauses (endOfBurst is false): not asked per frame, a call each under C1 alone.
        boolean live = src.mapping() == null;
        TwoThreadPipeline<FillSplit.Batch> pipe = new TwoThreadPipeline<>(pool, "metaroce-analysis");
        pipe.run(slot -> {
            FillSplit.Batch bt = slot.items;
            // Deferred when the analysis thread would otherwise soon wait (FillSplit): the batches ahead of it
            // are few, and the frames it had to read from the mapping rare.
            boolean defer = split != null && (splitMode == SPLIT_ALWAYS
                    || pipe.waiting() <= SPLIT_WAITING && !split.tooManyFromMapping());
            FillSplit sp = defer ? split : null;
            bt.deferred = defer ? 1 : 0;
            int base = bt.base;
            int n = 0;
            boolean more = true;
            while (n < BATCH) {
                int r = decodeChunk(src, dis, fast, d, bt, sp, n, Math.min(n + CHUNK, BATCH), dst, base, live);
                n = r & CHUNK_INDEX;
                if ((r & CHUNK_END) != 0) {
                    more = false;
                    break;
                }
                if ((r & CHUNK_BURST) != 0) break;
            }
            slot.size = n;
            frames[0] += n;
            heapFull();
            if (more && cancelled) throw new CancellationException("analysis cancelled after " + frames[0] + " frames");
            if (progress != null && (frames[0] & (REPORT_EVERY - 1)) < n) progress.update(src.recordOffset(), total, frames[0]);
            return more;
        }, slot -> {
            heapFull();
            FillSplit.Batch bt = slot.items;
            FrameFacts[] b = bt.facts;
            int base = bt.base;
            boolean fill = bt.deferred != 0;
            // The held frames of --tap auto leave the batch whole: filled first (the engine never sees them unfilled).
            if (fill && tapHold != null) {
                split.fill(bt, 0, slot.size);
                fill = false;
            }
            BatchHook hook = batchHook;
            if (hook == null) {
                for (int k = tapHold == null ? 0 : hold(engine, b, slot.size); k < slot.size; k += CHUNK) {
                    int to = Math.min(k + CHUNK, slot.size);
                    if (fill) split.fill(bt, k, to);
                    feedChunk(engine, b, k, to, base);
                }
                return;
            }
            hook.before();
            try {
                for (int k = tapHold == null ? 0 : hold(engine, b, slot.size); k < slot.size; k += CHUNK) {
                    int to = Math.min(k + CHUNK, slot.size);
                    if (fill) split.fill(bt, k, to);
                    feedChunk(engine, b, k, to, base);
                }
            } finally {
                hook.after(slot.size);
            }
        });
    }

    /**
     * Frames a batch's two loops hand to one call of {@link #decodeChunk} or {@link #feedChunk}. Each lambda runs once
     * per batch, so its loop stayed interpreted until the lambda was compiled: under the launcher's thresholds for
     * analyze (C1 alone, {@code CompileThresholdScaling=4}) after 400 batches, about 200,000 frames of an interpreted
     * loop body on each thread. A method called for every 16 frames is compiled after a few thousand frames; only the
     * lambda's loop over the chunks (32 turns a batch) stays interpreted until then.
     */
    private static final int CHUNK = 16;
    /** What {@link #decodeChunk} returns: the index after the last frame decoded, and why it stopped before its end. */
    private static final int CHUNK_INDEX = 0xFFFF, CHUNK_END = 1 << 16, CHUNK_BURST = 1 << 17;

    /**
     * Decodes frames into b[n, to) on the decoding thread (see {@link #CHUNK}); returns the index after the last frame
     * decoded, with {@link #CHUNK_END} when the source has no more frames, {@link #CHUNK_BURST} when a live source's
     * burst ended. split: not null when this batch's frames are deferred to the analysis thread ({@link FillSplit}).
     */
    private static int decodeChunk(PacketSource src, Dissector dis, FastFacts fast, io.metaroce.dissector.Dissection d,
                                   FillSplit.Batch bt, FillSplit split, int n, int to, FrameStages st, int base,
                                   boolean live) {
        FrameFacts[] b = bt.facts;
        while (n < to) {
            if (!src.next()) return n | CHUNK_END;
            // A deferred batch (split not null): the frame's head copied for the analysis thread's fill if it can be.
            if (split == null || !split.defer(src, bt, n)) decode(src, dis, fast, d, b[n], st, base + n);
            n++;
            // A live source hands over what it has when no frame is waiting, so events come as they happen.
            if (live && src.endOfBurst()) return n | CHUNK_BURST;
        }
        return n;
    }

    /**
     * Frames [from, to) of a batch through the engine, on the analysis thread (see {@link #CHUNK}); base: the slot of
     * b[0], or -1 for frames that have none (held for the tap).
     */
    private void feedChunk(AnalysisEngine engine, FrameFacts[] b, int from, int to, int base) {
        for (int k = from; k < to; k++) feed(engine, b[k], base < 0 ? -1 : base + k);
    }

    /**
     * One frame of a batch on the decoding thread. A method of its own, not the batch loop's body: the loop runs once
     * per batch of {@link #BATCH} frames, so without on-stack replacement (the launcher's {@code validate}) its body
     * ran interpreted, six calls on the source per frame, until the whole lambda was compiled after about a hundred
     * batches; a method called per frame is compiled within a few hundred frames, and only the call stays interpreted.
     * The common clean frame takes {@link FastFacts} (when {@code fast} is not null) and, under frame stages, their
     * {@link FrameStages#decodedFast} unless they decline it; every other frame the full dissection.
     */
    private static void decode(PacketSource src, Dissector dis, FastFacts fast, io.metaroce.dissector.Dissection d,
                               FrameFacts f, FrameStages st, int slot) {
        if (fast != null && fast.fill(f, src) && (st == null || st.decodedFast(fast, f, slot))) {
            f.fileOffset = src.recordOffset();
            return;
        }
        dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                src.fcsLength(), d);
        f.from(d);
        f.fileOffset = src.recordOffset();
        if (st != null) st.decoded(d, f, src.fcsLength(), slot);
    }

    /** --tap auto on a file: sets the tap resolved from the held first frames, then feeds them (analysis thread). */
    private void releaseHeld(AnalysisEngine engine) {
        TapHold h = tapHold;
        tapHold = null;
        engine.setTap(h.choice().tap(), h.choice().how());
        tapHow = h.choice().how();
        // The held frames (up to Analyzer.PRESCAN_FRAMES) in chunks, for the reason of CHUNK: this loop runs once.
        FrameFacts[] held = h.drain().toArray(new FrameFacts[0]);
        for (int k = 0; k < held.length; k += CHUNK) {
            // Up to 20,000 frames between two batches: in a heap too small for their flows, as many full collections.
            heapFull();
            feedChunk(engine, held, k, Math.min(k + CHUNK, held.length), -1);
        }
    }

    /**
     * {@code --tap auto} on a file: holds the batch's frames from the first until the tap is resolved, giving each
     * held frame's slot a fresh facts object ({@link TapHold} keeps the object instead of copying its fields).
     * Apart from {@link #feed}, so that the engine's code never sees a held frame: compiled while frames were
     * held, it would be thrown away and compiled again once they no longer are.
     *
     * @return the first frame of the batch not held (size when all were)
     */
    private int hold(AnalysisEngine engine, FrameFacts[] batch, int size) {
        for (int k = 0; k < size; k++) {
            FrameFacts f = batch[k];
            batch[k] = new FrameFacts();
            tapHold.add(f);
            if (tapHold.resolved()) {
                releaseHeld(engine);
                return k + 1;
            }
        }
        return size;
    }

    /** One frame, one thread: held or fed; returns the facts object to fill next (a fresh one when f was held). */
    private FrameFacts feedOrHold(AnalysisEngine engine, FrameFacts f) {
        if (tapHold == null) {
            feed(engine, f, 0);
            return f;
        }
        tapHold.add(f);
        if (tapHold.resolved()) releaseHeld(engine);
        return new FrameFacts();
    }

    /**
     * One frame through the engine, then the validate stages (if any) and the frame observer (if any), on the
     * analysis thread in capture order.
     */
    private void feed(AnalysisEngine engine, FrameFacts f, int slot) {
        if (stages == null) {
            engine.accept(f);
        } else {
            stages.handedOver(f, slot);
            engine.accept(f);
            stages.analyzed(f, slot, engine.outcome());
        }
        if (frameObserver != null) frameObserver.frame(f);
    }

    // ------------------------------------------------------------------ results (after the run)

    private void requireFinished() {
        if (state != State.FINISHED) throw new IllegalStateException("the analysis is not finished (state " + state + ")");
    }

    /** The capture summary and the flow results. */
    public AnalysisResult result() {
        requireFinished();
        return result;
    }

    /** The flow results, in order of each flow's first packet. */
    public List<FlowSummary> flows() { return result().flows(); }

    /** The result of one flow, or null. */
    public FlowSummary flow(String id) { return result().flow(id); }

    /**
     * What the analysis decided about a frame ({@link Options#verdicts} must be on). Acknowledgement coverage
     * ({@code analysis.acked_by_frame}) needs the frame's flow and PSN: use {@link #frameFields()}.
     */
    public FrameVerdict verdictOf(long frame) {
        requireFinished();
        if (engine.verdicts() == null) throw new IllegalStateException("verdicts were not recorded (Options.verdicts)");
        return engine.verdicts().verdict(frame);
    }

    /**
     * Bytes the per-frame verdicts hold in memory (the verdict store's arrays; 0 without {@link Options#verdicts}):
     * for a front end that keeps a session open and budgets its memory per frame.
     */
    public long verdictBytes() {
        requireFinished();
        return engine.verdicts() == null ? 0 : engine.verdicts().memoryBytes();
    }

    /** The events of the pass, indexed by frame (empty unless {@link Options#events} is on). */
    public EventLog events() {
        requireFinished();
        return events;
    }

    /** The frames of a flow (empty unless {@link Options#flowFrames} is on, or for an unknown flow). */
    public FrameList framesOf(String flowId) {
        requireFinished();
        return flowFrames.getOrDefault(flowId, FrameList.EMPTY);
    }

    /** The engine after the pass (same-package tests). */
    AnalysisEngine engine() {
        requireFinished();
        return engine;
    }

    /**
     * A provider of the {@code analysis.*} fields for frames dissected again ({@link Options#verdicts} must be
     * on). One per thread: each keeps scratch state.
     */
    public AnalysisFrameFields frameFields() {
        requireFinished();
        return new AnalysisFrameFields(engine);
    }
}
