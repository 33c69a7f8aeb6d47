package io.metaroce.gui.stats;

import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.LossTimeline;
import io.metaroce.analysis.diagnosis.Diagnoser;
import io.metaroce.analysis.diagnosis.Diagnosis;
import io.metaroce.capture.CaptureException;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What {@code metaroce analyze} concludes about a capture, for the Diagnosis window: the diagnosis and the loss
 * timeline, computed by a pass of their own over the file exactly as analyze computes them (a {@link Diagnoser} that
 * hands frame times to a {@link LossTimeline}, the events to the timeline), so the window shows what analyze prints,
 * also the diagnoses it learns later, without knowing them. The GUI's own analysis is left alone: it keeps no
 * diagnosis state, and opening a capture costs nothing more for it.
 *
 * <p>The timeline is also binned finer than analyze's 64 columns ({@link #FINE_BINS} bins over the capture's time
 * span), so a wide window draws more detail: the frames from the frame index, the events as they come. The counts
 * follow {@link LossTimeline#count}'s rules; a test holds the totals equal to analyze's.
 */
public final class DiagnosisRun {
    /** The timeline's rows, in analyze's order and JSON names ({@code loss_timeline.series}). */
    public static final String[] SERIES = LossTimeline.NAMES;
    /** The rows' labels, as analyze's text section. */
    public static final String[] LABELS = {"Frames", "Retransmissions", "of which timeouts", "NAKs (sequence error)",
            "RNR NAKs", "PSNs missing", "CE marks", "CNPs"};
    /** Fine bins over the capture's time span: a power of two, so that columns merge whole pairs of them. */
    public static final int FINE_BINS = 2048;

    /** Diagnosis id ({@code qp-retry-exhausted}) -> its MR-DIAG rule, from the spec's rule table (as validate). */
    private static final Map<String, RuleDef> RULES;

    static {
        Map<String, RuleDef> m = new LinkedHashMap<>();
        for (RuleDef r : Spec.RULES) {
            int colon = r.text().indexOf(':');
            if (r.diagnosis() && colon > 0) m.put(r.text().substring(0, colon), r);
        }
        RULES = Collections.unmodifiableMap(m);
    }

    private final Diagnosis diagnosis;
    private final Map<String, Object> timeline;
    private final String pattern;
    private final long firstNs, binNs;
    private final long[][] fine;
    private final int[] firstFrame;
    private final Map<String, Object> congestionLoop, flowControl;
    private final String loopNotes;
    private final PauseTargets pauseTargets;
    private final Map<String, Object> recovery;
    private final Map<String, long[]> recoveryExamples;
    private final boolean metaRoce;

    private DiagnosisRun(Diagnosis diagnosis, Map<String, Object> timeline, String pattern, long firstNs, long binNs,
                         long[][] fine, int[] firstFrame, Map<String, Object> congestionLoop, Map<String, Object> flowControl, String loopNotes,
                         PauseTargets pauseTargets, Map<String, Object> recovery, Map<String, long[]> recoveryExamples,
                         boolean metaRoce) {
        this.diagnosis = diagnosis;
        this.timeline = timeline;
        this.pattern = pattern;
        this.firstNs = firstNs;
        this.binNs = binNs;
        this.fine = fine;
        this.firstFrame = firstFrame;
        this.congestionLoop = congestionLoop;
        this.flowControl = flowControl;
        this.loopNotes = loopNotes;
        this.pauseTargets = pauseTargets;
        this.recovery = recovery;
        this.recoveryExamples = recoveryExamples;
        this.metaRoce = metaRoce;
    }

    /**
     * Runs the pass over file, whose frame index is index (call it off the UI thread). started receives the session
     * before it runs, so that the caller can cancel it (a closed window).
     */
    public static DiagnosisRun of(Path file, FrameIndex index, AnalysisSettings settings, Consumer<AnalysisSession> started)
            throws CaptureException {
        int n = index.size();
        long first = n == 0 ? 0 : index.timeNanos(1), last = first;
        for (int f = 1; f <= n; f++) last = Math.max(last, index.timeNanos(f));
        // The bins span first..last exactly, as analyze's timeline spans the bins it uses.
        long bin = Math.max(1, (last - first) / FINE_BINS + 1);
        long[][] fine = new long[SERIES.length][FINE_BINS];
        int[] firstFrame = new int[FINE_BINS];
        for (int f = 1; f <= n; f++) {
            int b = bin(index.timeNanos(f), first, bin);
            fine[LossTimeline.FRAMES][b]++;
            if (firstFrame[b] == 0) firstFrame[b] = f;
        }
        LossTimeline t = new LossTimeline();
        // Wired as analyze's (AnalyzeOutput): the PAUSE/PFC frames and the congestion loop give their findings too.
        Diagnoser d = new Diagnoser(null).withTimeline(t)
                .withFlowControl(settings.linkSpeedGbps(), Diagnoser.DEFAULT_PFC_WATCHDOG_NS);
        AnalysisSession s = new AnalysisSession(settings, AnalysisSession.Options.RESULTS)
                .onEvent(e -> {
                    t.event(e);
                    count(fine, e, first, bin);
                }).onFrame(d);
        if (started != null) started.accept(s);
        AnalysisResult r = s.run(file);
        Diagnosis dg = d.congestionLoop(r.congestionLoop()).steps(r.steps()).recovery(r.recovery()).finish();
        StringBuilder text = new StringBuilder(), loop = new StringBuilder();
        try {
            t.appendText(text);
            r.appendCongestionLoop(loop);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Which flows each pause source stops: a pass over the index only when the capture has PAUSE/PFC frames.
        PauseTargets targets = PauseTargets.of(index, settings.rocePorts(), PauseTargets.senders(r.flowControl()), null);
        boolean metaRoce = false;
        for (var f : r.flows()) metaRoce |= "metaroce".equals(f.transport());
        return new DiagnosisRun(dg, t.toJsonMap(), patternOf(text.toString()), first, bin, fine, firstFrame,
                r.congestionLoop(), r.flowControl(), notesOf(loop.toString()), targets, r.recovery(), examples(r), metaRoce);
    }

    /**
     * Per sender of the recovery rows, the first NAK it answered wrongly of each kind and its first resend: {nak,
     * resend} per kind (AnalysisResult.RECOVERY_*, the index), 0 for none.
     */
    private static Map<String, long[]> examples(AnalysisResult r) {
        Map<String, long[]> m = new LinkedHashMap<>();
        if (r.recovery() == null) return m;
        for (Object o : (java.util.List<?>) r.recovery().get("senders")) {
            String sender = String.valueOf(((Map<?, ?>) o).get("sender"));
            long[] kinds = new long[2 * RECOVERY_KINDS.length];
            boolean any = false;
            for (int kind : RECOVERY_KINDS) {
                long[] e = r.recoveryExample(sender, kind);
                if (e == null) continue;
                kinds[2 * kind] = e[0];
                kinds[2 * kind + 1] = e[1];
                any = true;
            }
            if (any) m.put(sender, kinds);
        }
        return m;
    }

    /** The kinds of wrong answer the Recovery tab can go to, in its menu's order (each also the index of its example). */
    static final int[] RECOVERY_KINDS = {AnalysisResult.RECOVERY_EARLIER, AnalysisResult.RECOVERY_LATER, AnalysisResult.RECOVERY_NOT_ANSWERED};

    /** A finer bin for each loss event, by the rule analyze's timeline counts it with ({@link LossTimeline#count}). */
    private static void count(long[][] fine, AnalysisEvent e, long first, long bin) {
        LossTimeline.count(e, (row, timeNs, amount) -> fine[row][bin(timeNs, first, bin)] += amount);
    }

    /** A time before the first frame's is bin 0, as in analyze's timeline. */
    private static int bin(long t, long first, long bin) {
        return t <= first ? 0 : (int) Math.min(FINE_BINS - 1, (t - first) / bin);
    }

    /**
     * The lines under the table of analyze's "Congestion loop" section: the CNPs it could not attribute and what each
     * verdict shown means, in analyze's words.
     */
    static String notesOf(String section) {
        StringBuilder b = new StringBuilder();
        for (String line : section.split("\n")) {
            boolean verdict = false;
            for (String v : new String[] {"working ", "no-cnp ", "cnp-ignored ", "cnp-only ", "unknown "}) verdict |= line.startsWith(v);
            if (verdict || line.contains("not attributed to a data flow")) {
                if (!b.isEmpty()) b.append('\n');
                b.append(line);
            }
        }
        return b.toString();
    }

    /** The "Loss pattern: ..." lines of analyze's text section (up to its closing rule). */
    static String patternOf(String section) {
        int at = section.indexOf("Loss pattern:");
        if (at < 0) return "";
        StringBuilder b = new StringBuilder();
        for (String line : section.substring(at).split("\n")) {
            if (line.startsWith("====")) break;
            if (!b.isEmpty()) b.append('\n');
            b.append(line);
        }
        return b.toString();
    }

    public Diagnosis diagnosis() { return diagnosis; }

    /** analyze's {@code congestion_loop} JSON object (the rows of its "Congestion loop" section), or null without CE marks or CNPs. */
    public Map<String, Object> congestionLoop() { return congestionLoop; }

    /** The notes under analyze's congestion-loop table: unattributed CNPs and the meaning of each verdict shown ("" for none). */
    public String congestionLoopNotes() { return loopNotes; }

    /** analyze's {@code flow_control} JSON object (its "Flow control" section), or null without PAUSE/PFC frames. */
    public Map<String, Object> flowControl() { return flowControl; }

    /** analyze's {@code recovery} JSON object (its "Recovery behaviour" section), or null without NAK sequence errors and timeout go-backs. */
    public Map<String, Object> recovery() { return recovery; }

    /**
     * The first NAK a recovery row's sender answered wrongly (a resend from before or after its PSN, or none before the
     * timer) and the first resend after it: {nak frame, resend frame, kind (AnalysisResult.RECOVERY_*)}; null for none.
     */
    public long[] recoveryExample(String sender) {
        long[] best = null;
        for (int kind : RECOVERY_KINDS) {
            long[] e = recoveryExample(sender, kind);
            if (e != null && (best == null || e[0] < best[0])) best = e;
        }
        return best;
    }

    /** The first NAK the sender answered wrongly in that way and its first resend: {nak, resend, kind}; null for none. */
    public long[] recoveryExample(String sender, int kind) {
        long[] k = recoveryExamples.get(sender);
        return k == null || k[2 * kind] == 0 ? null : new long[] {k[2 * kind], k[2 * kind + 1], kind};
    }

    /** Whether the capture has MetaRoCE flows (selective repeat: the recovery behaviour does not judge them). */
    public boolean hasMetaRoce() { return metaRoce; }

    /** The flows the capture's PAUSE/PFC sources stop (the frames sent to each source on its class). */
    public PauseTargets pauseTargets() { return pauseTargets; }

    /** analyze's {@code loss_timeline} JSON object (its 64 columns at most, the pattern). */
    public Map<String, Object> timeline() { return timeline; }

    /** analyze's loss pattern line(s), e.g. "Loss pattern: one burst, ...". */
    public String pattern() { return pattern; }

    /** The first frame's time: where the finer bins start (0 for no frames). */
    public long firstNs() { return firstNs; }

    /** The width of a finer bin in ns. */
    public long binNs() { return binNs; }

    /** The counts of row k in n columns ({@link #FINE_BINS} divisible by n): each the sum of its finer bins. */
    public long[] columns(int k, int n) {
        long[] c = new long[n];
        int per = FINE_BINS / n;
        for (int i = 0; i < FINE_BINS; i++) c[i / per] += fine[k][i];
        return c;
    }

    /** The total of row k. */
    public long total(int k) {
        long t = 0;
        for (long v : fine[k]) t += v;
        return t;
    }

    /** The first frame in column c of n (by capture order), 0 when the column holds none. */
    public int firstFrameIn(int c, int n) {
        int per = FINE_BINS / n, best = 0;
        for (int i = c * per; i < (c + 1) * per; i++) if (firstFrame[i] != 0 && (best == 0 || firstFrame[i] < best)) best = firstFrame[i];
        return best;
    }

    /** The MR-DIAG rule that reports a diagnosis in validate, or null when the spec has none for it. */
    public static String ruleId(String diagnosis) {
        RuleDef r = RULES.get(diagnosis);
        return r == null ? null : r.id();
    }

    /** The severity validate gives a diagnosis (its MR-DIAG rule's; a warning when the spec has no rule for it). */
    public static Severity severity(String diagnosis) {
        RuleDef r = RULES.get(diagnosis);
        return r == null ? Severity.WARN : r.severity();
    }
}
