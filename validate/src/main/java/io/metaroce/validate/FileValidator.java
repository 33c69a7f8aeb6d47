package io.metaroce.validate;

import io.metaroce.analysis.AnalysisEngine;
import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.analysis.Analyzer;
import io.metaroce.analysis.Cause;
import io.metaroce.analysis.FrameFacts;
import io.metaroce.analysis.TapChoice;
import io.metaroce.analysis.TapPrescan;
import io.metaroce.analysis.TwoThreadPipeline;
import io.metaroce.analysis.View;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.protocol.Severity;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Validates one capture in one streaming pass: each frame is dissected once, judged by the {@link RuleEngine}
 * and handed to the analysis engine (whose verdicts give MR-RTX-005 and MR-CC-002 and the report's
 * retransmission, NAK, CNP and CE marks). Memory is bounded by the QPs, not the frames.
 */
public final class FileValidator {

    private FileValidator() {}

    /** Validates a file; never throws for a bad file (the result carries the error). progress: bytes read so far. */
    public static FileResult validate(Path file, ValidateSettings settings, boolean plots, LongConsumer progress) {
        FileResult res = new FileResult(file);
        long t0 = System.nanoTime();
        try {
            run(file, settings, plots, progress, res);
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
     * when it is decided (on this thread; the rules judged only at the end come at the end). A finding may still
     * change afterwards (downgraded for capture drops, folded repeats); the result holds its final form.
     */
    public static FileResult validate(PacketSource source, String name, ValidateSettings settings, boolean plots,
                                      java.util.function.Consumer<Finding> live) {
        FileResult res = new FileResult(Path.of(name));
        long t0 = System.nanoTime();
        try {
            DissectorConfig dc = new DissectorConfig(settings.analysis.rocePorts(), true);
            PacketSource src = source;
            Tap tap = settings.tap();
            String how = "as given";
            if (tap.kind() == Tap.Kind.AUTO) {
                TapPrescan pre = TapPrescan.of(source, dc);
                tap = pre.choice().tap();
                how = pre.choice().how();
                src = pre.source();
            }
            run(src, dc, tap, how, settings, plots, null, res, live);
        } catch (RuntimeException e) {
            res.error = name + ": internal error: " + e;
            if (System.getenv("METAROCE_DEBUG") != null) e.printStackTrace();
        }
        res.wallNanos = System.nanoTime() - t0;
        return res;
    }

    private static void run(Path file, ValidateSettings settings, boolean plots, LongConsumer progress, FileResult res)
            throws CaptureException {
        DissectorConfig dc = new DissectorConfig(settings.analysis.rocePorts(), true);
        Tap tap = settings.tap();
        String how = "as given";
        if (tap.kind() == Tap.Kind.AUTO) {
            TapChoice g = Analyzer.resolveTap(file, dc);
            tap = g.tap();
            how = g.how();
        }
        try (PacketSource src = CaptureFiles.open(file)) {
            run(src, dc, tap, how, settings, plots, progress, res, null);
        }
    }

    /** The one pass, over any source (the file's mapping, when there is one, only decides the pipelining). */
    private static void run(PacketSource src, DissectorConfig dc, Tap tap, String how, ValidateSettings settings, boolean plots,
                            LongConsumer progress, FileResult res, java.util.function.Consumer<Finding> live) {
        RuleEngine rules = new RuleEngine(settings, tap, plots);
        if (live != null) rules.findings.listener(live);
        Bridge bridge = new Bridge(rules, plots);
        AnalysisEngine analysis = new AnalysisEngine(settings.analysis.withTap(tap), false, bridge);
        analysis.setTap(tap, how);
        {
            Dissector dis = new Dissector(dc);
            Dissection d = new Dissection();
            FrameFacts f = new FrameFacts();
            boolean pipeline = src.mapping() != null && src.mapping().byteSize() >= pipelineMinBytes
                    && Runtime.getRuntime().availableProcessors() > 1;
            if (pipeline) {
                pipelined(src, dis, d, rules, analysis, progress);
            } else {
                long n = 0;
                while (src.next()) {
                    dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    f.from(d);
                    rules.accept(d, f, src.fcsLength());
                    analysis.accept(f);
                    if (progress != null && (++n & 4095) == 0) progress.accept(src.recordOffset());
                }
            }
            if (progress != null && src.mapping() != null) progress.accept(src.mapping().byteSize());
            CaptureStats stats = src.stats();
            long drops = Math.max(0, stats.totalIfDropped()) + Math.max(0, stats.totalOsDropped());
            res.captureDrops = stats.totalIfDropped() < 0 && stats.totalOsDropped() < 0 ? -1 : drops;
            res.analysis = analysis.finish(stats.totalIfDropped(), stats.totalOsDropped());
            for (CaptureProblem p : src.problems()) res.problems.add(p.message());
            rules.finish(drops);
        }
        res.frames = rules.frames;
        res.roceFrames = rules.roceFrames;
        res.duplicates = rules.duplicates;
        res.truncated = rules.truncated;
        res.unjudged = rules.unjudged;
        res.firstNs = rules.firstNs;
        res.durationNs = rules.firstNs < 0 ? 0 : rules.lastNs - rules.firstNs;
        res.tapResolved = tap.toString();
        res.tapHow = how;
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

    /** Captures from this size on are validated on two threads (tests lower it to cover that path). */
    static volatile long pipelineMinBytes = 32L << 20;
    private static final int BATCH = 512;

    /**
     * Large captures: decoding and the per-frame rules on this thread; the stream rules and the analysis engine
     * on a second one, in capture order; batches of frame facts recycled between them (as the analyze command
     * does), so validating costs little more than analyzing.
     */
    private static void pipelined(PacketSource src, Dissector dis, Dissection d, RuleEngine rules, AnalysisEngine analysis,
                                  LongConsumer progress) {
        record Batch(FrameFacts[] facts, FrameExtra[] extras) {}
        List<Batch> pool = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            FrameFacts[] b = new FrameFacts[BATCH];
            for (int k = 0; k < BATCH; k++) b[k] = new FrameFacts();
            pool.add(new Batch(b, newExtras()));
        }
        long[] frames = {0};
        // A failure of either thread ends both at once and is rethrown here (TwoThreadPipeline).
        new TwoThreadPipeline<>(pool, "metaroce-validate-analysis").run(slot -> {
            Batch b = slot.items;
            int n = 0;
            boolean more = true;
            while (n < BATCH && (more = src.next())) {
                dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength(), d);
                FrameFacts f = b.facts()[n];
                f.from(d);
                rules.frame(d, f, src.fcsLength(), b.extras()[n]);
                n++;
            }
            slot.size = n;
            frames[0] += n;
            if (progress != null && (frames[0] & 4095) < n) progress.accept(src.recordOffset());
            return more;
        }, slot -> {
            Batch b = slot.items;
            for (int k = 0; k < slot.size; k++) {
                if (b.extras()[k].stage2) rules.stream(b.facts()[k], b.extras()[k]);
                analysis.accept(b.facts()[k]);
            }
        });
    }

    private static FrameExtra[] newExtras() {
        FrameExtra[] x = new FrameExtra[BATCH];
        for (int k = 0; k < BATCH; k++) x[k] = new FrameExtra();
        return x;
    }

    /**
     * Takes the analysis engine's verdicts: MR-RTX-005 (a RoCEv2 retransmission the engine attributes to a
     * timeout: no NAK or RNR NAK before it) and MR-CC-002 (a CE mark with no CNP, MR-CNP or larger ce_count
     * within the CE window, judged at the data receiver's tap), and the marks of the report pictures.
     */
    private static final class Bridge implements AnalysisEngine.EventListener {
        private final RuleEngine rules;
        private final boolean plots;

        Bridge(RuleEngine rules, boolean plots) {
            this.rules = rules;
            this.plots = plots;
        }

        @Override
        public void event(AnalysisEvent e) {
            FlowState fl = rules.byId.get(e.flow());
            if (e instanceof AnalysisEvent.Retransmission r && r.cause() == Cause.TIMEOUT && fl != null && fl.tver == 0) {
                Long idle = rules.idleBefore.get(e.frame());
                Long lat = r.retransmissionLatencyNs();
                String msg = "retransmission of PSN " + r.psn() + " with no NAK or RNR NAK before it (timeout)"
                        + (idle != null ? String.format("; the QP was idle %.3f us before it", idle / 1000.0) : "")
                        + (lat != null ? String.format(", %.1f us after the first copy", lat / 1000.0) : "");
                Finding x = rules.findings.add("MR-RTX-005", Severity.NOTE, e.flow(), e.frame(), e.timeNs(), msg);
                if (x != null && r.originalFrame() != null) x.also(r.originalFrame());
            }
            if (e instanceof AnalysisEvent.CeWithoutCnp c && fl != null && fl.view == View.RECEIVER) {
                rules.findings.add("MR-CC-002", Severity.NOTE, e.flow(), e.frame(), e.timeNs(), String.format(
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
