package io.metaroce.validate;

import static io.metaroce.protocol.RuleIds.MR_CC_002;
import static io.metaroce.protocol.RuleIds.MR_RTX_005;

import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.Cause;
import io.metaroce.analysis.TapPrescan;
import io.metaroce.analysis.View;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.PacketSource;
import io.metaroce.protocol.Severity;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Validates one capture in one streaming pass, the analysis pass of {@link AnalysisSession} (its read loop,
 * its pipelining, its tap resolution): the {@link RuleEngine} rides on it as its frame stages, and the engine's
 * events give MR-RTX-005 and MR-CC-002 and the report's retransmission, NAK, CNP and CE marks. Memory is bounded
 * by the QPs, not the frames.
 */
public final class FileValidator {

    private FileValidator() {}

    /** Validates a file; never throws for a bad file (the result carries the error). progress: bytes read so far. */
    public static FileResult validate(Path file, ValidateSettings settings, boolean plots, LongConsumer progress) {
        return validate(file, settings, plots, progress, AnalysisSession.Options.RESULTS, -1);
    }

    /** As {@link #validate(Path, ValidateSettings, boolean, LongConsumer)}; pipelineFrom: see {@link AnalysisSession#pipelineFrom}. */
    static FileResult validate(Path file, ValidateSettings settings, boolean plots, LongConsumer progress,
                               AnalysisSession.Options options, long pipelineFrom) {
        return validate(file, settings, plots, progress, options, pipelineFrom, true, null);
    }

    /**
     * As above; fastFrames false dissects every frame (RuleEngine#decodedFast off), to compare the two paths;
     * taken (when not null) receives the number of frames the short cut took (and, in taken[1] if there, how many
     * ICRCs it verified in the reader's window).
     */
    static FileResult validate(Path file, ValidateSettings settings, boolean plots, LongConsumer progress,
                               AnalysisSession.Options options, long pipelineFrom, boolean fastFrames, long[] taken) {
        FileResult res = new FileResult(file);
        long t0 = System.nanoTime();
        try {
            // validate reads no flow statistics (FileResult.analysis serves the HTML report's path table): the
            // engine keeps no open messages and no latency distributions (AnalysisSession#withoutStatistics).
            AnalysisSession session = session(settings, options, progress, pipelineFrom).withoutStatistics();
            Pass pass = new Pass(settings, plots, null, session, file);
            pass.rules.fast = fastFrames;
            pass.finish(session.run(file), res);
            if (taken != null) taken[0] = pass.rules.fastTaken();
            if (taken != null && taken.length > 1) taken[1] = pass.rules.fastIcrcInWindow();
        } catch (CaptureException e) {
            res.error = e.getMessage();
        } catch (RuntimeException e) {
            res.error = file + ": internal error: " + e;
            if (System.getenv("METAROCE_DEBUG") != null) e.printStackTrace();
        }
        res.wallNanos = System.nanoTime() - t0;
        return res;
    }

    /**
     * Validates a source that is not a file (live capture: {@code validate -i}) in the same pass as a file;
     * {@code --tap auto} holds its first frames to decide ({@link TapPrescan}). Findings come with the result.
     */
    public static FileResult validate(PacketSource source, String name, ValidateSettings settings, boolean plots) {
        return validate(source, name, settings, plots, null);
    }

    /**
     * As {@link #validate(PacketSource, String, ValidateSettings, boolean)}, telling {@code live} each kept finding
     * when it is decided (on the analysis thread; the rules judged only at the end come at the end). A finding
     * may still change afterwards (downgraded for capture drops, folded repeats); the result holds its final form.
     */
    public static FileResult validate(PacketSource source, String name, ValidateSettings settings, boolean plots,
                                      Consumer<Finding> live) {
        FileResult res = new FileResult(Path.of(name));
        long t0 = System.nanoTime();
        try {
            AnalysisSession session = session(settings, AnalysisSession.Options.RESULTS, null, -1).withoutStatistics();
            Pass pass = new Pass(settings, plots, live, session, null);
            pass.finish(session.run(source, name), res);
        } catch (RuntimeException e) {
            res.error = name + ": internal error: " + e;
            if (System.getenv("METAROCE_DEBUG") != null) e.printStackTrace();
        }
        res.wallNanos = System.nanoTime() - t0;
        return res;
    }

    /**
     * The rules riding on an analysis pass the caller runs itself, for a caller that needs more of the pass than
     * a {@link FileResult} (metaroce index --rules: the flow documents and their findings from one pass instead
     * of two). Configure {@link #session()} further (progress, cancel; not {@code onEvent} or {@code onFrame},
     * which the rules hold: give extra events to {@link FileValidator#inSession}), run it on the file, then
     * {@link #finish} with its result: the findings are those {@link #validate(Path, ValidateSettings, boolean,
     * LongConsumer)} gives for the file.
     */
    public static final class InSession {
        private final AnalysisSession session;
        private final Pass pass;
        private final Path file;
        private final long t0 = System.nanoTime();

        private InSession(AnalysisSession session, Pass pass, Path file) {
            this.session = session;
            this.pass = pass;
            this.file = file;
        }

        /** The pass to run (once, on {@link #file}): its settings are the validation's ({@link ValidateSettings#analysis}). */
        public AnalysisSession session() { return session; }

        /** The validation of the pass that {@link #session()} finished with this result. */
        public FileResult finish(AnalysisResult result) {
            FileResult res = new FileResult(file);
            try {
                pass.finish(result, res);
            } catch (RuntimeException e) {
                res.error = file + ": internal error: " + e;
                if (System.getenv("METAROCE_DEBUG") != null) e.printStackTrace();
            }
            res.wallNanos = System.nanoTime() - t0;
            return res;
        }
    }

    /**
     * A validation of {@code file} in a pass the caller runs ({@link InSession}).
     *
     * @param options what the pass keeps beyond the flow results (the caller's needs: the rules need none)
     * @param events also told every analysis event (the session's one event listener is the rules'), or null
     */
    public static InSession inSession(Path file, ValidateSettings settings, AnalysisSession.Options options,
                                      io.metaroce.analysis.AnalysisEngine.EventListener events) {
        AnalysisSession session = session(settings, options, null, -1);
        return new InSession(session, new Pass(settings, false, null, session, file, events), file);
    }

    /**
     * The pre-read of {@code --tap auto} that {@link #validate(Path, ValidateSettings, boolean, LongConsumer)} of file
     * with settings makes before its pass, to run on the thread that opens the file ahead ({@link
     * io.metaroce.capture.CaptureFiles#prefetch(Path, Consumer)}, from the command line's front door): the pass then
     * takes its choice ({@link io.metaroce.analysis.Analyzer#tapAhead}). With the decoder's configuration of
     * {@link #session}, so that the pass's matches it.
     */
    public static Consumer<PacketSource> tapAhead(Path file, ValidateSettings settings) {
        io.metaroce.analysis.AnalysisSettings a = passSettings(settings);
        return io.metaroce.analysis.Analyzer.tapAhead(file,
                new io.metaroce.dissector.DissectorConfig(a.rocePorts(), a.checkIcrc()));
    }

    /** The pass's settings: the decoder checks no ICRC (see {@link #session}). */
    private static io.metaroce.analysis.AnalysisSettings passSettings(ValidateSettings settings) {
        return settings.analysis.withCheckIcrc(false);
    }

    /**
     * The analysis pass the rules ride on, the tap resolved as analyze does. The decoder does not check ICRCs:
     * the rules do (MR-FRAME-001), on the analysis thread, which has the time to spare.
     */
    private static AnalysisSession session(ValidateSettings settings, AnalysisSession.Options options, LongConsumer progress,
                                           long pipelineFrom) {
        AnalysisSession s = new AnalysisSession(passSettings(settings), options);
        if (progress != null) s.onProgress((position, total, frames) -> progress.accept(position));
        if (pipelineFrom >= 0) s.pipelineFrom(pipelineFrom);
        return s;
    }

    /** One validation: the rules as the session's frame stages, the engine's events as their verdict source. */
    private static final class Pass {
        final RuleEngine rules;
        final boolean plots;
        /** The MR-DIAG rules (analyze's diagnosis), null when none is enabled; the file they re-read for anchors. */
        final DiagnosisRules diagnosis;
        final Path file;
        final ValidateSettings settings;

        Pass(ValidateSettings settings, boolean plots, Consumer<Finding> live, AnalysisSession session, Path file) {
            this(settings, plots, live, session, file, null);
        }

        Pass(ValidateSettings settings, boolean plots, Consumer<Finding> live, AnalysisSession session, Path file,
             io.metaroce.analysis.AnalysisEngine.EventListener alsoEvents) {
            this.plots = plots;
            this.file = file;
            this.settings = settings;
            diagnosis = DiagnosisRules.attach(session, settings);
            rules = new RuleEngine(settings, plots);
            if (live != null) rules.findings.listener(live);
            Bridge bridge = new Bridge(rules, plots);
            rules.afterFrame(bridge::drain);
            session.onFrame(rules).onEvent(alsoEvents == null ? bridge::event : e -> {
                bridge.event(e);
                alsoEvents.event(e);
            });
        }

        void finish(AnalysisResult analysis, FileResult res) {
            rules.drainEvents();
            Map<String, Object> cap = analysis.capture();
            long ifDropped = dropped(cap, "if_dropped"), osDropped = dropped(cap, "os_dropped");
            long drops = Math.max(0, ifDropped) + Math.max(0, osDropped);
            res.captureDrops = ifDropped < 0 && osDropped < 0 ? -1 : drops;
            res.analysis = analysis;
            if (cap.get("capture_problems") instanceof List<?> l) for (Object p : l) res.problems.add(String.valueOf(p));
            // Flows the engine evicted (more QPs than its flow bound): their rule state went with them (RuleEngine).
            if (cap.get("evicted_flows") instanceof Number n) {
                res.evicted = new FileResult.Evicted(n.longValue(), ((Number) cap.get("flows")).longValue(),
                        ((Number) cap.get("flow_bound")).longValue(), io.metaroce.analysis.Reports.boundClause(cap));
            }
            if (diagnosis != null) diagnosis.report(rules.findings, file, settings, analysis.congestionLoop(), analysis.steps(),
                    analysis.recovery());
            rules.finish(drops);
            res.frames = rules.frames;
            res.roceFrames = rules.roceFrames;
            res.duplicates = rules.duplicates;
            res.truncated = rules.truncated;
            res.unjudged = rules.unjudged;
            res.firstNs = rules.firstNs;
            res.durationNs = rules.firstNs < 0 ? 0 : rules.lastNs - rules.firstNs;
            res.tapResolved = rules.tap().toString();
            res.tapHow = rules.tapHow();
            res.findings.addAll(rules.findings.list());
            for (var r : RuleCatalog.all()) res.counts.put(r.id(), rules.findings.counts(r.id()));
            res.flows = rules.flowList;
            if (plots) {
                for (Finding x : res.findings) {
                    FlowState fl = x.flow() == null ? null : rules.byId.get(x.flow());
                    if (fl != null && (fl.plot == null || fl.plot.n == 0) && fl.peer != null) fl = fl.peer;
                    if (fl != null && fl.plot != null) fl.plot.markRelative(x.timeNs(), fl.plot.yOf(x.frame()), x.severity().label(),
                            x.frame(), x.rule() + ": " + x.message());
                }
            }
            // Only the report pictures need the flows after the pass; their PSN windows never.
            for (FlowState fl : rules.flowList) fl.ring = null;
            if (!plots) res.flows = List.of();
        }

        private static long dropped(Map<String, Object> cap, String key) {
            return cap.get("capture_drops") instanceof Map<?, ?> m && m.get(key) instanceof Number n ? n.longValue() : -1;
        }
    }

    /**
     * Takes the analysis engine's verdicts: MR-RTX-005 (a RoCEv2 retransmission the engine attributes to a
     * timeout: no NAK or RNR NAK before it) and MR-CC-002 (a CE mark with no CNP, MR-CNP or larger ce_count
     * within the CE window, judged at the data receiver's tap), and the marks of the report pictures.
     */
    private static final class Bridge {
        private final RuleEngine rules;
        private final boolean plots;
        /** Events of the frame being judged: the rules see them after their own stream stage of that frame. */
        private final java.util.ArrayDeque<AnalysisEvent> held = new java.util.ArrayDeque<>();

        Bridge(RuleEngine rules, boolean plots) {
            this.rules = rules;
            this.plots = plots;
        }

        void event(AnalysisEvent e) {
            held.add(e);
            rules.eventsHeld = true;
        }

        void drain() {
            AnalysisEvent e;
            while ((e = held.poll()) != null) judge(e);
        }

        private void judge(AnalysisEvent e) {
            // Only the events below concern the rules or the pictures: the flow's state (a look-up by its id string)
            // is looked up for those alone.
            boolean marks = plots && (e instanceof AnalysisEvent.Retransmission || e instanceof AnalysisEvent.Nak
                    || e instanceof AnalysisEvent.CeMark);
            if (!marks && !(e instanceof AnalysisEvent.Retransmission r0 && r0.cause() == Cause.TIMEOUT)
                    && !(e instanceof AnalysisEvent.CeWithoutCnp)) return;
            FlowState fl = rules.byId.get(e.flow());
            if (e instanceof AnalysisEvent.Retransmission r && r.cause() == Cause.TIMEOUT && fl != null && fl.tver == 0) {
                Long idle = rules.idleBefore.get(e.frame());
                Long lat = r.retransmissionLatencyNs();
                String msg = "retransmission of PSN " + r.psn() + " with no NAK or RNR NAK before it (timeout)"
                        + (idle != null ? String.format("; the QP was idle %.3f us before it", idle / 1000.0) : "")
                        + (lat != null ? String.format(", %.1f us after the first copy", lat / 1000.0) : "");
                Finding x = rules.findings.add(MR_RTX_005, Severity.NOTE, e.flow(), e.frame(), e.timeNs(), msg);
                if (x != null && r.originalFrame() != null) x.also(r.originalFrame());
            }
            if (e instanceof AnalysisEvent.CeWithoutCnp c && fl != null && fl.view == View.RECEIVER) {
                rules.findings.add(MR_CC_002, Severity.NOTE, e.flow(), e.frame(), e.timeNs(), String.format(
                        "CE-marked PSN %s not followed within %.0f us by a CNP, an MR-CNP or a larger ce_count",
                        c.psn(), rules.settings.analysis.ceWindowNs() / 1000.0));
            }
            if (!plots || fl == null || fl.plot == null) return;
            switch (e) {
                case AnalysisEvent.Retransmission r -> fl.plot.mark(e.timeNs(), y(fl, r.psn()),
                        r.spurious() == io.metaroce.analysis.FrameVerdict.Spurious.YES ? "spurious" : "retransmission", e.frame(), "retransmission of PSN " + r.psn() + " ("
                                + r.cause().label() + (r.spurious() == io.metaroce.analysis.FrameVerdict.Spurious.YES ? ", spurious" : "") + ")"
                                + (r.path() != null ? " on path " + r.path() : ""));
                case AnalysisEvent.Nak n -> fl.plot.mark(e.timeNs(), y(fl, n.psn()), "nak", e.frame(),
                        (n.kind() == AnalysisEvent.NakKind.NACK ? "MR-NACK" : n.rnr() ? "RNR NAK" : "NAK") + " PSN " + n.psn());
                case AnalysisEvent.CeMark c -> fl.plot.mark(e.timeNs(), y(fl, c.psn()), "ce", e.frame(), "CE mark on PSN "
                        + c.psn() + (c.path() != null ? " (path " + c.path() + ")" : ""));
                default -> { }
            }
        }

        private static long y(FlowState fl, int psn) {
            return fl.started ? io.metaroce.analysis.Psn.unwrap(fl.maxU, psn) : Long.MIN_VALUE;
        }
    }
}
