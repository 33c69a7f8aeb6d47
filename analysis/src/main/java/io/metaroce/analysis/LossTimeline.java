package io.metaroce.analysis;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The capture's losses over time, for the operator's question "one burst, or steady loss?" (operator-needs #8: a
 * link flap, a switch reboot or a failover loses packets of many QPs at one moment; a bad link or optics lose them
 * all along; congestion drops come with CE marks and CNPs). Counts per time bin: frames, retransmissions (timeouts
 * among them), NAKs, RNR NAKs, PSNs missing from the capture, CE marks and CNPs; then the loss pattern from where the
 * retransmissions and NAKs fall. Drawn as one sparkline per count in {@code analyze}'s text, numbers in its JSON.
 *
 * <p>Memory is fixed whatever the capture's length: {@link #BINS} bins whose width, a power of two nanoseconds, doubles
 * (each pair of bins merged) whenever a frame falls after the last one. Fed on the analysis thread, in capture order:
 * {@link #frame} per frame, {@link #event} per analysis event.
 */
public final class LossTimeline implements AnalysisEngine.EventListener {
    /** Bins kept; the text draws at most {@link #COLUMNS} of them (pairs merged once more when more are in use). */
    static final int BINS = 128;
    static final int COLUMNS = 64;
    /** The counts, in {@link #series}' order. */
    public static final String[] NAMES = {"frames", "retransmissions", "timeouts", "naks", "rnr_naks", "psn_gaps",
            "ce_marks", "cnps"};
    public static final int FRAMES = 0, RETX = 1, TIMEOUTS = 2, NAKS = 3, RNR = 4, GAPS = 5, CE = 6, CNPS = 7;
    private static final String[] LABELS = {"Frames", "Retransmissions", "  of which timeouts", "NAKs (sequence error)",
            "RNR NAKs", "PSNs missing", "CE marks", "CNPs"};
    /** Fewer losses than this make no pattern (one NAK is "a burst" of one). */
    static final long MIN_LOSSES_FOR_PATTERN = 5;

    private final long[][] series = new long[NAMES.length][BINS];
    /** Time of bin 0's start (the first frame's); -1 before the first frame. */
    private long startNs = -1;
    /** log2 of a bin's width in ns. */
    private int shift;

    /** A frame at t (every frame, RoCE or not). */
    public void frame(long t) {
        series[FRAMES][bin(t)]++;
    }

    /** Where an analysis event counts: a row of {@link #NAMES} at a time, by an amount. */
    public interface Counts {
        void add(int row, long timeNs, long amount);
    }

    /**
     * The rows an event counts in (a spurious resend is no loss; a timeout counts as a retransmission too): the one
     * rule for these bins and for anything that bins the same events otherwise (the GUI's finer timeline).
     */
    public static void count(AnalysisEvent e, Counts to) {
        // instanceof rather than a pattern switch: the switch's bootstrap spins a class at run time on first use.
        if (e instanceof AnalysisEvent.Retransmission r) {
            if (r.spurious() == FrameVerdict.Spurious.YES) return;
            to.add(RETX, r.timeNs(), 1);
            if (r.cause() == Cause.TIMEOUT) to.add(TIMEOUTS, r.timeNs(), 1);
        } else if (e instanceof AnalysisEvent.Nak n) {
            to.add(n.rnr() ? RNR : NAKS, n.timeNs(), 1);
        } else if (e instanceof AnalysisEvent.PsnGap g) {
            to.add(GAPS, g.timeNs(), Math.max(0, g.missing()));
        } else if (e instanceof AnalysisEvent.CeMark c) {
            to.add(CE, c.timeNs(), 1);
        } else if (e instanceof AnalysisEvent.Cnp c) {
            to.add(CNPS, c.timeNs(), 1);
        }
    }

    /** These bins as {@link #count}'s target (a nested class, not a lambda: nothing spun at run time). */
    private final Counts counts = new Counts() {
        @Override
        public void add(int row, long timeNs, long amount) {
            series[row][bin(timeNs)] += amount;
        }
    };

    @Override
    public void event(AnalysisEvent e) {
        count(e, counts);
    }

    /** The bin of time t, widening the bins while t lies past the last; a time before the first frame's is bin 0. */
    private int bin(long t) {
        if (startNs < 0) startNs = t;
        long d = t - startNs;
        if (d <= 0) return 0;
        while ((d >>> shift) >= BINS) fold();
        return (int) (d >>> shift);
    }

    /** Doubles the bins' width: bin i becomes bins 2i and 2i+1. */
    private void fold() {
        for (long[] s : series) {
            for (int i = 0; i < BINS / 2; i++) s[i] = s[2 * i] + s[2 * i + 1];
            java.util.Arrays.fill(s, BINS / 2, BINS, 0);
        }
        shift++;
    }

    /** Bins in use: up to the last that counts anything. */
    private int used() {
        int n = 0;
        for (long[] s : series) for (int i = n; i < BINS; i++) if (s[i] != 0) n = i + 1;
        return n;
    }

    private static long total(long[] s) {
        long t = 0;
        for (long v : s) t += v;
        return t;
    }

    /** What the loss pattern is: none, few, burst, spread or intermittent, with its numbers. */
    record Pattern(String kind, int from, int to, long inRun, long losses, int lossBins, int busyBins,
                   int congestedLossBins) {}

    /**
     * The loss pattern over bins [0, n) of width 2^shift: losses are retransmissions and NAKs (what the sender resent
     * or the receiver reported missing; PSNs missing from the capture may be the capture's own losses). A burst: the
     * shortest run of bins holding 80 % of them spans at most a tenth of the bins with traffic (two at least, of ten
     * or more); spread: losses in half the bins with traffic or more (eight such bins at least).
     */
    static Pattern pattern(long[][] s, int n) {
        long[] loss = new long[n];
        long losses = 0;
        int lossBins = 0, busy = 0, congested = 0;
        for (int i = 0; i < n; i++) {
            loss[i] = s[RETX][i] + s[NAKS][i];
            losses += loss[i];
            if (loss[i] > 0) {
                lossBins++;
                if (s[CE][i] + s[CNPS][i] > 0) congested++;
            }
            if (s[FRAMES][i] > 0) busy++;
        }
        if (losses == 0) return new Pattern("none", -1, -1, 0, 0, 0, busy, 0);
        if (losses < MIN_LOSSES_FOR_PATTERN) return new Pattern("few", -1, -1, 0, losses, lossBins, busy, congested);
        // The shortest window of bins holding 80 % of the losses (two pointers over the bins).
        long need = (losses * 8 + 9) / 10, sum = 0;
        int bestFrom = 0, bestTo = n - 1, lo = 0;
        for (int hi = 0; hi < n; hi++) {
            sum += loss[hi];
            while (sum - loss[lo] >= need && lo < hi) sum -= loss[lo++];
            if (sum >= need && hi - lo < bestTo - bestFrom) {
                bestFrom = lo;
                bestTo = hi;
            }
        }
        long in = 0;
        for (int i = bestFrom; i <= bestTo; i++) in += loss[i];
        int width = bestTo - bestFrom + 1;
        // Against the columns with traffic, not all of them: two short runs of traffic an hour apart leave most
        // columns empty, and a loss in one of them is no burst of the capture.
        if (busy >= 10 && width <= Math.max(2, busy / 10)) {
            return new Pattern("burst", bestFrom, bestTo, in, losses, lossBins, busy, congested);
        }
        if (busy >= 8 && lossBins * 2 >= busy) return new Pattern("spread", -1, -1, 0, losses, lossBins, busy, congested);
        return new Pattern("intermittent", -1, -1, 0, losses, lossBins, busy, congested);
    }

    /**
     * The bins in use as at most {@link #COLUMNS} columns (pairs merged while more), what the text draws and the JSON
     * holds; the pattern is judged on them.
     */
    private record Columns(long[][] counts, int n, int shift) {
        long width() { return 1L << shift; }
    }

    private Columns columns() {
        int n = used(), merge = 1, shown = n;
        while (shown > COLUMNS) {
            merge *= 2;
            shown = (n + merge - 1) / merge;
        }
        long[][] cols = new long[NAMES.length][shown];
        for (int k = 0; k < NAMES.length; k++) for (int i = 0; i < n; i++) cols[k][i / merge] += series[k][i];
        return new Columns(cols, shown, shift + Integer.numberOfTrailingZeros(merge));
    }

    /** The JSON object {@code loss_timeline} of {@code analyze -T json}: the columns the text draws, as numbers. */
    public Map<String, Object> toJsonMap() {
        Columns c = columns();
        int n = c.n(), colShift = c.shift();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("first_ns", startNs < 0 ? null : startNs);
        m.put("bin_ns", c.width());
        m.put("bins", n);
        Map<String, Object> s = new LinkedHashMap<>();
        for (int k = 0; k < NAMES.length; k++) {
            java.util.List<Long> v = new java.util.ArrayList<>(n);
            for (int i = 0; i < n; i++) v.add(c.counts()[k][i]);
            s.put(NAMES[k], v);
        }
        m.put("series", s);
        Pattern p = pattern(c.counts(), n);
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("kind", p.kind());
        pm.put("losses", p.losses());
        pm.put("bins_with_losses", p.lossBins());
        pm.put("bins_with_traffic", p.busyBins());
        pm.put("bins_with_losses_and_ce_or_cnp", p.congestedLossBins());
        if (p.from() >= 0) {
            pm.put("burst_start_s", ((long) p.from() << colShift) / 1e9);
            pm.put("burst_end_s", ((long) (p.to() + 1) << colShift) / 1e9);
            pm.put("burst_losses", p.inRun());
        }
        m.put("pattern", pm);
        return m;
    }

    /** Block characters from low to high; a bin with no count is blank, one with any count at least the lowest. */
    private static final char[] LEVELS = {'\u2581', '\u2582', '\u2583', '\u2584', '\u2585', '\u2586', '\u2587', '\u2588'};

    /** The text section of {@code analyze}: a sparkline per count (those with any), then the loss pattern. */
    public void appendText(Appendable out) throws IOException {
        // After the tables' closing rule, closed by one of its own, as the tables are.
        out.append("Loss timeline\n");
        Columns c = columns();
        int shown = c.n();
        if (shown == 0) {
            out.append("(no frames)\n").append(Reports.RULE);
            return;
        }
        long[][] cols = c.counts();
        long width = c.width();
        out.append(String.format(Locale.ROOT, "%d columns of %s from the first frame (0 s) to %s s; each column's mark is "
                + "its count against the row's largest (blank: none)%n", shown, duration(width), seconds(shown * width)));
        for (int k = 0; k < NAMES.length; k++) {
            long t = total(cols[k]);
            if (t == 0 && k != FRAMES && k != RETX) continue;
            long max = 0;
            for (long v : cols[k]) max = Math.max(max, v);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-22s |", LABELS[k]));
            for (long v : cols[k]) {
                line.append(v == 0 ? ' ' : LEVELS[(int) Math.min(LEVELS.length - 1, (v * LEVELS.length - 1) / max)]);
            }
            line.append(String.format(Locale.ROOT, "| %d (peak %d)", t, max));
            out.append(line).append('\n');
        }
        Pattern p = pattern(cols, shown);
        out.append("Loss pattern: ");
        switch (p.kind()) {
            case "none" -> {
                long gaps = total(cols[GAPS]);
                out.append("no retransmission or NAK in the capture");
                if (gaps > 0) out.append(String.format(Locale.ROOT, "; its %d missing PSNs were neither resent nor NAKed "
                        + "(lost by the capture, resent after it ended, or traffic nobody resends: UC, UD; see Capture integrity)", gaps));
                out.append('\n');
            }
            case "few" -> out.append(String.format(Locale.ROOT, "%d retransmission(s) and NAK(s), too few for a pattern%n",
                    p.losses()));
            case "burst" -> out.append(String.format(Locale.ROOT,
                    "one burst, %s-%s s: %d of the %d retransmissions and NAKs (%.0f%%) in %d of %d columns. A link flap, "
                            + "a switch reboot or a failover looks like this; a bad link loses all along%n",
                    seconds((long) p.from() * width), seconds((long) (p.to() + 1) * width), p.inRun(), p.losses(),
                    100.0 * p.inRun() / p.losses(), p.to() - p.from() + 1, shown));
            case "spread" -> out.append(String.format(Locale.ROOT,
                    "spread over the capture: retransmissions or NAKs in %d of the %d columns with traffic (%d in all). "
                            + "A steady loss rate looks like a bad link (optics, FEC), a lossy path or persistent "
                            + "congestion%n", p.lossBins(), p.busyBins(), p.losses()));
            default -> out.append(String.format(Locale.ROOT,
                    "intermittent: retransmissions or NAKs in %d of the %d columns with traffic (%d in all)%n",
                    p.lossBins(), p.busyBins(), p.losses()));
        }
        if (p.lossBins() > 0 && p.losses() >= MIN_LOSSES_FOR_PATTERN) {
            out.append(String.format(Locale.ROOT, "CE marks or CNPs in %d of the %d columns with losses%s%n",
                    p.congestedLossBins(), p.lossBins(), p.congestedLossBins() * 2 > p.lossBins()
                            ? ": the losses come with congestion (drops at a full queue rather than a bad link)" : ""));
        }
        out.append(Reports.RULE);
    }

    private static String seconds(long ns) { return Reports.seconds(ns); }

    /** A column's width for people: ns, us, ms or s, three significant digits. */
    private static String duration(long ns) {
        if (ns < 1_000) return ns + " ns";
        if (ns < 1_000_000) return String.format(Locale.ROOT, "%.3g us", ns / 1e3);
        if (ns < 1_000_000_000) return String.format(Locale.ROOT, "%.3g ms", ns / 1e6);
        return String.format(Locale.ROOT, "%.3g s", ns / 1e9);
    }
}
