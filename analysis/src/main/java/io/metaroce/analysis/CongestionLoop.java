package io.metaroce.analysis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The congestion loop of one QP flow (operator-needs P6: does CE -> CNP -> rate cut happen, and how fast?): the CE
 * marks the notification point answers with CNPs, the delay and spacing of those CNPs, and the flow's data rate in a
 * window before each CNP against the same window after it. Made for a flow at its first CE mark or CNP
 * ({@link Flow#loop}); every other flow keeps null there, so its data frames pay one null check and nothing else.
 *
 * <p>The rate is kept in {@link #SLOTS} buckets of an eighth of the window each (a ring): a CNP's "before" is the
 * eight buckets before the CNP's own, its "after" the eight after it, so both are one window long, to an eighth of a
 * window, whatever the frame rate. A CNP is measured only when the history covers its whole "before" window and the
 * flow sent data after its "after" window ended (a flow that simply finished sending made no cut).
 */
final class CongestionLoop {
    private static final int SLOTS = 32, HALF = 8;

    private final long bucketNs;
    private final long[] ring = new long[SLOTS];
    /** Bucket of the latest data frame or CNP; the first bucket whose bytes the ring holds whole. */
    private long current = Long.MIN_VALUE, historyFrom;
    /**
     * Where the current bucket ends (ns), its ring slot, and the first bucket at which a waiting CNP's after window has
     * passed (Long.MAX_VALUE when none waits): a data frame inside the current bucket with no CNP to decide, the
     * common case, adds its bytes without a division (a CE-heavy capture feeds every data frame here; the division
     * and the modulo per frame were most of this class's cost there).
     */
    private long nextBucketNs = Long.MIN_VALUE, completeAt = Long.MAX_VALUE;
    private int slot;
    /**
     * The pace of the last {@link #PACKETS} data packets: time and bytes per ns since the packet before. A DCQCN
     * reaction point is a pacer: once it cut, no two packets leave closer than their size at the new rate, even when
     * the window or the application, not the pacer, decides how many bytes a window holds (the simulator's senders
     * at a sender tap: the bytes in 50 us hardly change while the gap between packets doubles at every CNP). 64 are
     * enough for a median and keep the state of a flow with CE marks or CNPs near 1.5 KB (an incast of many QPs).
     */
    private static final int PACKETS = 64;
    /** pace()'s scratch, one per thread (engines may run in parallel); a subclass, not a lambda, for the AOT cache. */
    private static final ThreadLocal<double[]> SCRATCH = new ThreadLocal<>() {
        @Override
        protected double[] initialValue() {
            return new double[PACKETS];
        }
    };
    private final long[] packetNs = new long[PACKETS];
    private final double[] packetPace = new double[PACKETS];
    private int packets;
    private long lastDataNs = Long.MIN_VALUE;
    /** Pace before the first CNP measured (bytes/ns), and per measured CNP the pace after it. */
    double firstPaceBefore = -1;
    final Samples paceCuts = new Samples();
    /** The pace after each measured CNP, in bytes per ms. */
    private final Samples paceAfter = new Samples();
    /** CNPs waiting for their after window: {bucket, before bytes, after bytes or -1, CNP time, pace before bits}. */
    private final ArrayList<long[]> waiting = new ArrayList<>(2);

    /** The first CE mark each path's notification point has not answered yet (time, frame), -1 when none. */
    private long[] unansweredNs = {-1}, unansweredFrame = {0};
    /** The last CNP per path (the notification point paces per QP, MR-CNPs per QP and path). */
    private long[] lastPathCnpNs = {Long.MIN_VALUE / 4};
    private long lastCnpNs = Long.MIN_VALUE;
    private final long intervalNs;
    final Samples delays = new Samples(), intervals = new Samples(), cuts = new Samples();
    /** Evidence frames: a CE mark the CNP answered, that CNP, the first data frame after it. */
    long firstCeFrame = -1, ceFrame = -1, cnpFrame = -1, dataAfterFrame = -1, firstCeNs = -1, firstCnpNs = -1;
    boolean wantDataAfter;

    CongestionLoop(long windowNs, long intervalNs, long startNs) {
        this.intervalNs = intervalNs;
        bucketNs = Math.max(1, windowNs / HALF);
        // The bucket of the frame that made this state holds only part of its bytes: history starts after it.
        historyFrom = startNs / bucketNs + 1;
    }

    /** A data frame of the flow (payload bytes). */
    void data(long t, long frame, long bytes) {
        if (t >= nextBucketNs || current >= completeAt) {
            long b = t / bucketNs;
            if (b >= completeAt) complete(b);
            roll(b);
        }
        ring[slot] += bytes;
        if (lastDataNs != Long.MIN_VALUE && t > lastDataNs) {
            int i = packets++ % PACKETS;
            packetNs[i] = t;
            packetPace[i] = (double) bytes / (t - lastDataNs);
        }
        lastDataNs = t;
        if (wantDataAfter) {
            wantDataAfter = false;
            dataAfterFrame = frame;
        }
    }

    /** Decides the CNPs whose after window ended before bucket b: a data frame at b shows the flow still sent. */
    private void complete(long b) {
        for (int i = 0; i < waiting.size(); i++) {
            long[] w = waiting.get(i);
            if (b <= w[0] + HALF) continue;
            long after = w[2] >= 0 ? w[2] : sum(w[0] + 1, w[0] + HALF);
            cuts.add(w[1] == 0 ? 0 : Math.round(1e4 * (1 - (double) after / w[1])));
            double before = Double.longBitsToDouble(w[4]), pa = pace((w[0] + 1) * bucketNs, (w[0] + HALF + 1) * bucketNs);
            if (before > 0 && pa > 0) {
                paceCuts.add(Math.round(1e4 * (1 - pa / before)));
                paceAfter.add(Math.round(pa * 1e6));
            }
            waiting.remove(i--);
        }
        completeAt = Long.MAX_VALUE;
        for (int i = 0; i < waiting.size(); i++) completeAt = Math.min(completeAt, waiting.get(i)[0] + HALF + 1);
    }

    /** Moves the ring to bucket b, freezing the after windows that are about to leave it. */
    private void roll(long b) {
        if (b <= current) return;
        // Indexed loops over waiting: a for-each allocates an iterator per call under C1 (no escape analysis there).
        for (int i = 0; i < waiting.size(); i++) {
            long[] w = waiting.get(i);
            if (w[2] < 0 && b > w[0] + HALF) w[2] = sum(w[0] + 1, w[0] + HALF);
        }
        if (current == Long.MIN_VALUE || b - current >= SLOTS) {
            Arrays.fill(ring, 0);
        } else {
            for (long k = current + 1; k <= b; k++) ring[(int) Math.floorMod(k, SLOTS)] = 0;
        }
        current = b;
        slot = (int) Math.floorMod(b, SLOTS);
        nextBucketNs = (b + 1) * bucketNs;
    }

    /** The median pace (bytes/ns) of the kept packets in [from, to), or -1 without any. */
    private double pace(long from, long to) {
        int n = Math.min(packets, PACKETS), k = 0;
        // One scratch array per engine thread, not one per call: twice per CNP, a CE-heavy capture's fresh arrays
        // were most of its analysis' page faults.
        double[] v = SCRATCH.get();
        for (int i = 0; i < n; i++) if (packetNs[i] >= from && packetNs[i] < to) v[k++] = packetPace[i];
        if (k == 0) return -1;
        Arrays.sort(v, 0, k);
        return k % 2 == 1 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
    }

    /**
     * The cut of the pace over the whole capture in basis points: the median pace after the measured CNPs against the
     * pace before the first of them; null when none was measured. Per CNP the cut may be 0 once the pacer reached its
     * floor (DCQCN's minimum rate), so the per-CNP median alone would call a working reaction point ignored.
     */
    Long paceCut() {
        if (paceAfter.size() == 0 || firstPaceBefore <= 0) return null;
        return Math.round(1e4 * (1 - paceAfter.median() / 1e6 / firstPaceBefore));
    }

    private long sum(long from, long to) {
        long s = 0;
        for (long k = from; k <= to; k++) if (k <= current && current - k < SLOTS) s += ring[(int) Math.floorMod(k, SLOTS)];
        return s;
    }

    /** A CE-marked data frame on path p (0 for RoCEv2). */
    void ce(long t, long frame, int p) {
        if (firstCeNs < 0) {
            firstCeNs = t;
            firstCeFrame = frame;
        }
        int i = slot(p);
        if (unansweredNs[i] < 0) {
            unansweredNs[i] = t;
            unansweredFrame[i] = frame;
        }
    }

    /** A CNP for the flow (an MR-CNP names its path p; a RoCEv2 CNP answers path 0). */
    void cnp(long t, long frame, int p) {
        if (firstCnpNs < 0) firstCnpNs = t;
        int i = slot(p);
        if (unansweredNs[i] >= 0) {
            // From the first CE mark not yet answered, or from the end of the pacing interval when that mark came
            // inside it: the notification point may not answer sooner, so that wait is pacing, not delay.
            delays.add(Math.max(0, t - Math.max(unansweredNs[i], lastPathCnpNs[i] + intervalNs)));
            if (cnpFrame < 0) {
                ceFrame = unansweredFrame[i];
                cnpFrame = frame;
                wantDataAfter = true;
            }
            unansweredNs[i] = -1;
        }
        lastPathCnpNs[i] = t;
        if (lastCnpNs != Long.MIN_VALUE) intervals.add(t - lastCnpNs);
        lastCnpNs = t;
        long b = t / bucketNs;
        roll(b);
        // Measured only when the history holds the whole window before it and the flow sent in it.
        if (b - HALF >= historyFrom) {
            long before = sum(b - HALF, b - 1);
            double pb = pace((b - HALF) * bucketNs, b * bucketNs);
            if (before > 0) {
                if (firstPaceBefore < 0 && pb > 0) firstPaceBefore = pb;
                waiting.add(new long[] {b, before, -1, t, Double.doubleToRawLongBits(pb)});
                completeAt = Math.min(completeAt, b + HALF + 1);
            }
        }
        if (cnpFrame < 0 && ceFrame < 0) {
            cnpFrame = frame;
            wantDataAfter = true;
        }
    }

    private int slot(int p) {
        if (p < 0 || p > 0xFFFF) p = 0;
        if (p >= unansweredNs.length) {
            int n = Math.max(p + 1, unansweredNs.length * 2);
            int old = unansweredNs.length;
            unansweredNs = Arrays.copyOf(unansweredNs, n);
            unansweredFrame = Arrays.copyOf(unansweredFrame, n);
            lastPathCnpNs = Arrays.copyOf(lastPathCnpNs, n);
            Arrays.fill(unansweredNs, old, n, -1);
            Arrays.fill(lastPathCnpNs, old, n, Long.MIN_VALUE / 4);
        }
        return p;
    }

    // ------------------------------------------------------------------ verdict and report

    /**
     * The one-word verdict. Only a sender tap shows what the sender does: its pace (the gaps its pacer leaves between
     * packets) and its departures. At the receiver (and a mirror) a flow's arrival rate behind a saturated link is its
     * share of that link and the gaps are the link's: both stay the same when every sender cuts alike (rocev2-ecn-cnp
     * shows it: 24 to 28 packets per 50 us before and after every CNP while the senders halve their rate; the same
     * scenario with dcqcn=false looks alike), so there a drop in the bytes is a drop, and no drop proves nothing:
     * unknown, never cnp-ignored.
     */
    static String verdict(Flow fl, AnalysisSettings s, long lastNs) {
        CongestionLoop l = fl.loop;
        boolean seesReceiver = fl.view == View.RECEIVER || (fl.peer != null && fl.peer.packets > 0);
        if (fl.cnps == 0) {
            // A mark whose reaction window the capture did not see to its end had no time for its CNP (as MR-CC-002).
            boolean hadTime = l != null && l.firstCeNs >= 0 && l.firstCeNs + s.ceWindowNs() <= lastNs;
            // And CNPs were due in two pacing intervals at least: one stray mark is MR-CC-002's, not a dead notification point.
            boolean due = fl.cnpExpected >= AnalysisSettings.CC_MIN_DUE_CNPS;
            return fl.ceMarks > 0 && seesReceiver && hadTime && due ? "no-cnp" : "unknown";
        }
        boolean sender = fl.view == View.SENDER;
        Long pace = l == null || !sender ? null : l.paceCut();
        int measured = l == null ? 0 : l.paceCuts.size();
        boolean dropped = l != null && ((pace != null && pace >= s.ccMinCutBasisPoints())
                || (l.cuts.size() > 0 && l.cuts.median() >= s.ccMinCutBasisPoints()));
        if (dropped) return "working";
        if (measured >= AnalysisSettings.CC_MIN_MEASURED_CNPS && sender) return "cnp-ignored";
        return fl.ceMarks == 0 ? "cnp-only" : "unknown";
    }

    /** Where the rate is seen. */
    static String rateSeenAs(View v) {
        return v == View.SENDER ? "departure at the sender" : v == View.RECEIVER ? "arrival at the receiver" : "at a mirror";
    }

    /** The JSON object {@code congestion_loop} of {@code analyze}, or null when no flow had CE marks or CNPs. */
    static Map<String, Object> report(List<Flow> flows, AnalysisSettings s, long lastNs) {
        List<Map<String, Object>> rows = new ArrayList<>();
        long unattributed = 0;
        for (Flow fl : flows) {
            unattributed += fl.pendingCnps;
            if (fl.loop == null || fl.packets == 0) continue;
            CongestionLoop l = fl.loop;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("flow", fl.id);
            m.put("peer", fl.peer == null ? null : fl.peer.id);
            m.put("view", fl.view.name().toLowerCase(Locale.ROOT));
            m.put("ce_marks", fl.ceMarks);
            m.put("cnps_expected", fl.cnpExpected);
            m.put("cnps", fl.cnps);
            m.put("ce_to_cnp_ns", l.delays.size() == 0 ? null : l.delays.summary(true));
            m.put("cnp_interval_ns", l.intervals.size() == 0 ? null : l.intervals.summary(false));
            m.put("rate_seen_as", rateSeenAs(fl.view));
            m.put("cnps_measured", l.cuts.size());
            m.put("median_cut_pct", l.cuts.size() == 0 ? null : l.cuts.median() / 100.0);
            // The pace only at a sender tap: elsewhere the gaps are the bottleneck's, not the sender's pacer's.
            boolean sender = fl.view == View.SENDER;
            Long pc = sender ? l.paceCut() : null;
            m.put("pace_cnps_measured", sender ? l.paceCuts.size() : 0);
            m.put("pace_median_cut_pct", !sender || l.paceCuts.size() == 0 ? null : l.paceCuts.median() / 100.0);
            m.put("pace_cut_pct", pc == null ? null : pc / 100.0);
            m.put("verdict", verdict(fl, s, lastNs));
            m.put("first_ce_ns", l.firstCeNs < 0 ? null : l.firstCeNs);
            m.put("first_cnp_ns", l.firstCnpNs < 0 ? null : l.firstCnpNs);
            m.put("evidence_frames", l.evidence());
            rows.add(m);
        }
        if (rows.isEmpty() && unattributed == 0) return null;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("rate_window_ns", s.ccRateWindowNs());
        out.put("min_cut_pct", s.ccMinCutBasisPoints() / 100.0);
        out.put("unattributed_cnps", unattributed);
        out.put("flows", rows);
        return out;
    }

    private List<Long> evidence() {
        List<Long> e = new ArrayList<>(3);
        if (ceFrame >= 0) e.add(ceFrame);
        else if (firstCeFrame >= 0) e.add(firstCeFrame);
        if (cnpFrame >= 0) e.add(cnpFrame);
        if (dataAfterFrame >= 0) e.add(dataAfterFrame);
        return e;
    }

    private static final String[] MEANING = {
            "working", "CNPs follow the CE marks and the rate drops after them",
            "no-cnp", "CE marks, no CNP back: the receiver's notification point is off, or ECN is not enabled on it",
            "cnp-ignored", "CNPs reach the sender and its rate does not drop: the reaction point is off",
            "cnp-only", "CNPs without CE marks in the capture: the marks were made past the tap",
            "unknown", "the tap cannot tell (no rate drop is visible at a receiver behind a saturated link, or too few CNPs to measure)"};

    /** The text section "Congestion loop" of {@code analyze}, after the tables' closing rule and closed by one. */
    @SuppressWarnings("unchecked")
    static void appendText(Appendable out, Map<String, Object> cl) throws IOException {
        out.append("Congestion loop (per QP with CE marks or CNPs: does CE -> CNP -> rate cut happen?)\n");
        String w = us(((Number) cl.get("rate_window_ns")).longValue());
        out.append(String.format(Locale.ROOT, "Bytes cut: the flow's data bytes in %s us before each CNP against %s us after "
                + "it (median over the CNPs). Pace cut: the median gap between its packets, as a rate, in the same windows "
                + "(median per CNP / all CNPs against the pace before the first; at a sender tap only). A cut of %s%% or more is a drop%n",
                w, w, cl.get("min_cut_pct")));
        List<Object[]> rows = new ArrayList<>();
        java.util.Set<String> seen = new java.util.LinkedHashSet<>();
        for (Map<String, Object> m : (List<Map<String, Object>>) cl.get("flows")) {
            Map<String, Object> d = (Map<String, Object>) m.get("ce_to_cnp_ns"), iv = (Map<String, Object>) m.get("cnp_interval_ns");
            Object cut = m.get("median_cut_pct");
            String v = (String) m.get("verdict");
            seen.add(v);
            rows.add(new Object[] {m.get("flow"), String.valueOf(m.get("view")).substring(0, 1).toUpperCase(Locale.ROOT),
                    m.get("ce_marks"), m.get("cnps_expected"), m.get("cnps"),
                    d == null ? "-" : us(d.get("min")) + " / " + us(d.get("median")) + " / " + us(d.get("max")),
                    iv == null ? "-" : us(iv.get("min")) + " / " + us(iv.get("median")),
                    m.get("rate_seen_as"),
                    cut == null ? "-" : String.format(Locale.ROOT, "%.1f%% (%s)", ((Number) cut).doubleValue(), m.get("cnps_measured")),
                    m.get("pace_cut_pct") == null ? "-" : String.format(Locale.ROOT, "%.1f%% / %.1f%%",
                            ((Number) m.get("pace_median_cut_pct")).doubleValue(), ((Number) m.get("pace_cut_pct")).doubleValue()),
                    v});
        }
        if (!rows.isEmpty()) {
            Reports.rows(out, new String[] {"Flow", "V", "CE", "CNP exp", "CNP", "CE->CNP us min/med/max",
                    "CNP gap us min/med", "Rate seen as", "Bytes cut (CNPs)", "Pace cut med/all", "Verdict"}, rows);
        }
        long un = ((Number) cl.get("unattributed_cnps")).longValue();
        if (un > 0) out.append(un + " CNP(s) not attributed to a data flow (no data of their QP in the capture)\n");
        for (int i = 0; i < MEANING.length; i += 2) {
            if (seen.contains(MEANING[i])) out.append(String.format(Locale.ROOT, "%-11s %s%n", MEANING[i], MEANING[i + 1]));
        }
        out.append(Reports.RULE);
    }

    private static String us(Object ns) { return String.format(Locale.ROOT, "%.3f", ((Number) ns).longValue() / 1e3); }

    /**
     * A growable list of longs with min, median and max, of the first {@link #MAX} values (one per CNP at most: a
     * capture of millions of CNPs keeps 512 KB per list, not a value per CNP).
     */
    static final class Samples {
        static final int MAX = 1 << 16;
        private long[] v = new long[8];
        private int n;

        void add(long x) {
            if (n == MAX) return;
            if (n == v.length) v = Arrays.copyOf(v, n * 2);
            v[n++] = x;
        }

        int size() { return n; }

        long median() {
            long[] s = Arrays.copyOf(v, n);
            Arrays.sort(s);
            return n % 2 == 1 ? s[n / 2] : Math.floorDiv(s[n / 2 - 1] + s[n / 2], 2);
        }

        Map<String, Object> summary(boolean withMax) {
            long[] s = Arrays.copyOf(v, n);
            Arrays.sort(s);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("min", s[0]);
            m.put("median", median());
            if (withMax) m.put("max", s[n - 1]);
            m.put("count", n);
            return m;
        }
    }
}
