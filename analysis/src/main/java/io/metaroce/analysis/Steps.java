package io.metaroce.analysis;

import io.metaroce.protocol.OpcodeDef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Training steps: AI training traffic is periodic (every step each GPU exchanges gradients with its peers, then
 * computes), so the captured RC message activity comes in bursts separated by idle gaps. This finds the bursts,
 * decides whether they are periodic, and times each sending host's messages in each step: a peer that starts or
 * finishes its messages of every step later than the others is a straggler (a slow GPU or host), not the network.
 *
 * <p>During the pass only first copies of RC request packets reach it ({@link #data}): a compare and two stores per
 * packet, the rest at message boundaries (First/Only, Last/Only). State is bounded: at most {@value #MAX_BURSTS}
 * bursts and {@value #MAX_ENTRIES} (burst, sender) records; when either is full, the idle gap that separates bursts
 * doubles and bursts closer than it merge (so a long capture keeps a coarser view, never more memory). Hosts past
 * {@value #MAX_SENDERS} are not timed. The report ({@link #report}) is built once, after the pass.
 */
final class Steps {
    /** The idle gap (no new RC request packet) that ends a burst at first; it doubles as the lists fill. */
    static final long BASE_GAP_NS = 2_000;
    static final int MAX_BURSTS = 4096, MAX_ENTRIES = 32768, MAX_SENDERS = 256;
    /** Fewer steps than this are no pattern: four spacings at least. */
    static final int MIN_STEPS = 5;
    /** Periodic: at least this share of the step spacings within {@link #SPREAD} of their median. */
    static final double REGULAR_SHARE = 0.8, SPREAD = 0.15;
    /**
     * A training step, not a request stream paced by its application (a message every few microseconds, a keep-alive):
     * a period of 50 us or more, and in the median step four messages or more from two sending hosts or more.
     */
    static final long MIN_PERIOD_NS = 50_000;
    static final int MIN_MESSAGES = 4, MIN_SENDERS = 2;
    /** A gap that separates steps is at least this many times the largest gap kept inside a step. */
    static final double GAP_BREAK = 2.0;
    /**
     * Straggler: the host last to finish in at least this share of the steps it sent in with two other hosts or
     * more (and in {@link #STRAGGLER_MIN_STEPS} at least), by a median margin over the next latest host of at least
     * {@link #STRAGGLER_LAG} of the median step's wire time.
     */
    static final double STRAGGLER_SHARE = 0.6, STRAGGLER_LAG = 0.10;
    static final int STRAGGLER_MIN_STEPS = 4;
    /** Steps listed in the JSON report (the first ones); the figures cover all. */
    static final int LISTED_STEPS = 256;

    long gapNs = BASE_GAP_NS;
    private long lastDataNs;
    /**
     * The lists are full of bursts already well apart (steps, or coarser): merging them would merge steps, so the
     * bursts after are only counted ({@link #laterBursts}) and the report covers the capture up to there.
     */
    boolean frozen;
    long laterBursts;
    /** Bursts: start, last request packet, first record. */
    private int n;
    private long[] bStart = new long[16], bEnd = new long[16];
    private int[] bFrom = new int[16];
    /** (burst, sender) records, contiguous per burst: first message start (-1: none began in it), last message end, its frame, bytes, messages. */
    private int ne;
    private int[] eSender = new int[64], eMsgs = new int[64];
    private long[] eFirst = new long[64], eFirstFrame = new long[64], eLast = new long[64], eLastFrame = new long[64], eBytes = new long[64];
    /** Per sender: its record in the current burst (valid when at or past the burst's first record). */
    private final int[] senderEntry = new int[MAX_SENDERS];
    private final Map<String, Integer> senderIndex = new HashMap<>();
    private final List<String> senders = new ArrayList<>();

    Steps() { Arrays.fill(senderEntry, -1); }

    /** A first copy of an RC request packet (not a READ Request) of flow fl. */
    void data(Flow fl, FrameFacts f) {
        long t = f.timeNs;
        if (n == 0 || t - lastDataNs > gapNs) {
            newBurst(t);
            if (frozen) {
                if (t > lastDataNs) lastDataNs = t;
                return;
            }
        } else if (frozen) {
            if (t > lastDataNs) lastDataNs = t;
            return;
        }
        if (t > lastDataNs) lastDataNs = t;
        if (t > bEnd[n - 1]) bEnd[n - 1] = t;
        if (f.opcode.segment() != OpcodeDef.Segment.MIDDLE) boundary(fl, f, t);
    }

    private void boundary(Flow fl, FrameFacts f, long t) {
        int s = fl.stepSender;
        if (s == -1) s = fl.stepSender = senderOf(fl);
        if (s < 0) return;
        int e = entry(s);
        if (e < 0) return;
        OpcodeDef op = f.opcode;
        if (op.isFirstOrOnly()) {
            if (eFirst[e] < 0) {
                eFirst[e] = t;
                eFirstFrame[e] = f.number;
            }
            eMsgs[e]++;
            fl.stepMsgFrom = fl.uniquePayloadBytes - f.payloadLength;
        }
        if (op.isLastOrOnly()) {
            eLast[e] = t;
            eLastFrame[e] = f.number;
            eBytes[e] += fl.stepMsgFrom >= 0 ? fl.uniquePayloadBytes - fl.stepMsgFrom : f.payloadLength;
            fl.stepMsgFrom = -1;
        }
    }

    private int senderOf(Flow fl) {
        String ip = fl.key.src();
        Integer i = senderIndex.get(ip);
        if (i != null) return i;
        if (senders.size() >= MAX_SENDERS) return -2;
        senderIndex.put(ip, senders.size());
        senders.add(ip);
        return senders.size() - 1;
    }

    private void newBurst(long t) {
        if (frozen) {
            laterBursts++;
            return;
        }
        if (n == MAX_BURSTS && !coarsen()) {
            laterBursts++;
            return;
        }
        if (n == bStart.length) {
            bStart = Arrays.copyOf(bStart, n * 2);
            bEnd = Arrays.copyOf(bEnd, n * 2);
            bFrom = Arrays.copyOf(bFrom, n * 2);
        }
        bStart[n] = t;
        bEnd[n] = t;
        bFrom[n] = ne;
        n++;
    }

    private int entry(int s) {
        int e = senderEntry[s];
        if (e >= bFrom[n - 1] && e < ne) return e;
        if (ne == MAX_ENTRIES && !coarsen()) return -1;
        if (ne == eSender.length) {
            int c = ne * 2;
            eSender = Arrays.copyOf(eSender, c);
            eMsgs = Arrays.copyOf(eMsgs, c);
            eFirst = Arrays.copyOf(eFirst, c);
            eFirstFrame = Arrays.copyOf(eFirstFrame, c);
            eLast = Arrays.copyOf(eLast, c);
            eLastFrame = Arrays.copyOf(eLastFrame, c);
            eBytes = Arrays.copyOf(eBytes, c);
        }
        e = ne++;
        eSender[e] = s;
        eMsgs[e] = 0;
        eFirst[e] = -1;
        eFirstFrame[e] = -1;
        eLast[e] = -1;
        eLastFrame[e] = -1;
        eBytes[e] = 0;
        senderEntry[s] = e;
        return e;
    }

    /**
     * The lists are full: double the idle gap and merge the bursts it no longer separates, until half is free; or,
     * when the bursts are already four times the idle gap apart or more (the median gap), freeze (false).
     */
    private boolean coarsen() {
        long[] gaps = new long[n - 1];
        for (int i = 0; i + 1 < n; i++) gaps[i] = bStart[i + 1] - bEnd[i];
        if (gaps.length > 0 && quantile(gaps, 0.5) >= 4 * gapNs) {
            frozen = true;
            return false;
        }
        do {
            gapNs *= 2;
            merge(gapNs);
        } while ((n > MAX_BURSTS / 2 || ne > MAX_ENTRIES / 2) && n > 1);
        return true;
    }

    /** Merges consecutive bursts separated by at most gap, combining their records per sender. */
    private void merge(long gap) {
        int k = 0, out = 0;
        int[] at = new int[MAX_SENDERS];
        Arrays.fill(at, -1);
        int groupFrom = 0;
        for (int i = 0; i < n; i++) {
            boolean join = k > 0 && bStart[i] - bEnd[k - 1] <= gap;
            if (join) {
                if (bEnd[i] > bEnd[k - 1]) bEnd[k - 1] = bEnd[i];
            } else {
                bStart[k] = bStart[i];
                bEnd[k] = bEnd[i];
                bFrom[k] = out;
                groupFrom = out;
                k++;
            }
            int to = i + 1 < n ? bFrom[i + 1] : ne;
            for (int e = bFrom[i]; e < to; e++) {
                int s = eSender[e];
                int d = at[s];
                if (d >= groupFrom && d < out) {
                    if (eFirst[e] >= 0 && (eFirst[d] < 0 || eFirst[e] < eFirst[d])) {
                        eFirst[d] = eFirst[e];
                        eFirstFrame[d] = eFirstFrame[e];
                    }
                    if (eLast[e] > eLast[d]) {
                        eLast[d] = eLast[e];
                        eLastFrame[d] = eLastFrame[e];
                    }
                    eBytes[d] += eBytes[e];
                    eMsgs[d] += eMsgs[e];
                } else {
                    d = out++;
                    eSender[d] = s;
                    eFirst[d] = eFirst[e];
                    eFirstFrame[d] = eFirstFrame[e];
                    eLast[d] = eLast[e];
                    eLastFrame[d] = eLastFrame[e];
                    eBytes[d] = eBytes[e];
                    eMsgs[d] = eMsgs[e];
                    at[s] = d;
                }
            }
        }
        n = k;
        ne = out;
        Arrays.fill(senderEntry, -1);
        for (int e = bFrom[n - 1]; e < ne; e++) senderEntry[eSender[e]] = e;
    }

    // ------------------------------------------------------------------ the report, after the pass

    /**
     * The steps (JSON {@code steps}, text "Steps"), or null when the capture shows no periodic pattern: then the
     * reports print nothing of it.
     *
     * @param flows the flows at the end of the pass (whose trouble counters clear or accuse the network)
     */
    Map<String, Object> report(List<Flow> flows) {
        if (n < MIN_STEPS) return null;
        long[] gaps = new long[n - 1];
        for (int i = 0; i + 1 < n; i++) gaps[i] = Math.max(0, bStart[i + 1] - bEnd[i]);
        long[] desc = gaps.clone();
        Arrays.sort(desc);
        reverse(desc);
        // Candidate separations: the gaps above a clear break in their sizes (GAP_BREAK), from the most steps down;
        // the first whose step starts are periodic wins.
        long chosen = -1;
        long[] starts = null;
        for (int j = desc.length - 1; j >= MIN_STEPS - 2; j--) {
            boolean brk = j == desc.length - 1 || desc[j] >= GAP_BREAK * desc[j + 1];
            if (!brk || desc[j] <= 0) continue;
            long[] s = stepStarts(gaps, desc[j]);
            if (periodic(s) && substantial(gaps, desc[j], s.length)) {
                chosen = desc[j];
                starts = s;
                break;
            }
        }
        if (starts == null) return null;
        int k = starts.length;
        // Group the bursts into steps and the records into (step, sender) figures.
        int nSenders = senders.size();
        long[] stStart = new long[k], stEnd = new long[k], stBytes = new long[k];
        long[] stMsgs = new long[k];
        int[] stLastSender = new int[k];
        Peer[] peers = new Peer[nSenders];
        for (int s = 0; s < nSenders; s++) peers[s] = new Peer(senders.get(s));
        long[] first = new long[nSenders], firstFrame = new long[nSenders], last = new long[nSenders], lastFrame = new long[nSenders];
        long[] bytes = new long[nSenders];
        boolean[] active = new boolean[nSenders];
        int step = -1;
        for (int i = 0; i <= n; i++) {
            boolean close = i == n || i == 0 || gaps[i - 1] >= chosen;
            if (close && step >= 0) closeStep(step, stBytes, stMsgs, stLastSender, peers, first, firstFrame, last, lastFrame, bytes, active, stStart[step]);
            if (i == n) break;
            if (close) {
                step++;
                stStart[step] = bStart[i];
                Arrays.fill(active, false);
            }
            stEnd[step] = bEnd[i];
            int to = i + 1 < n ? bFrom[i + 1] : ne;
            for (int e = bFrom[i]; e < to; e++) {
                int s = eSender[e];
                stMsgs[step] += eMsgs[e];
                stBytes[step] += eBytes[e];
                if (!active[s]) {
                    active[s] = true;
                    first[s] = eFirst[e];
                    firstFrame[s] = eFirstFrame[e];
                    last[s] = eLast[e];
                    lastFrame[s] = eLastFrame[e];
                    bytes[s] = eBytes[e];
                } else {
                    if (eFirst[e] >= 0 && (first[s] < 0 || eFirst[e] < first[s])) {
                        first[s] = eFirst[e];
                        firstFrame[s] = eFirstFrame[e];
                    }
                    if (eLast[e] > last[s]) {
                        last[s] = eLast[e];
                        lastFrame[s] = eLastFrame[e];
                    }
                    bytes[s] += eBytes[e];
                }
            }
        }
        long[] period = new long[k - 1];
        for (int i = 0; i + 1 < k; i++) period[i] = stStart[i + 1] - stStart[i];
        long[] busy = new long[k];
        for (int i = 0; i < k; i++) busy[i] = stEnd[i] - stStart[i];
        long medPeriod = quantile(period, 0.5), medBusy = quantile(busy, 0.5);
        boolean[] troubled = troubled(flows, nSenders);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("steps", (long) k);
        m.put("first_step_ns", stStart[0]);
        m.put("period_ns", spread(period));
        m.put("gap_ns", chosen);
        m.put("busy_ns", spread(busy));
        m.put("busy_share", medPeriod > 0 ? Math.round(1000.0 * medBusy / medPeriod) / 1000.0 : null);
        m.put("bytes_per_step", quantile(stBytes, 0.5));
        m.put("messages_per_step", quantile(stMsgs, 0.5));
        // Only when the lists filled up with steps: the figures cover the capture up to the last step kept.
        if (laterBursts > 0) m.put("later_bursts_not_timed", laterBursts);
        List<Object> peerList = new ArrayList<>();
        Map<String, Object> straggler = null;
        for (int s = 0; s < nSenders; s++) {
            Peer p = peers[s];
            if (p.steps == 0) continue;
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("peer", p.ip);
            pm.put("steps", (long) p.steps);
            pm.put("steps_compared", (long) p.compared);
            pm.put("last_to_finish", (long) p.lastCount);
            pm.put("start_lag_ns", medMax(p.startLag));
            pm.put("finish_lag_ns", medMax(p.finishLag));
            pm.put("bytes_per_step", p.bytes.median());
            pm.put("network_trouble", troubled[s]);
            peerList.add(pm);
            Long margin = p.margin.median();
            if (straggler == null && margin != null && p.compared >= STRAGGLER_MIN_STEPS && p.lastCount >= STRAGGLER_MIN_STEPS
                    && p.lastCount >= STRAGGLER_SHARE * p.compared && margin >= STRAGGLER_LAG * medBusy && margin > 0) {
                straggler = new LinkedHashMap<>();
                straggler.put("peer", p.ip);
                straggler.put("last_to_finish", (long) p.lastCount);
                straggler.put("steps_compared", (long) p.compared);
                straggler.put("margin_ns", medMax(p.margin));
                straggler.put("finish_lag_ns", medMax(p.finishLag));
                straggler.put("start_lag_ns", medMax(p.startLag));
                straggler.put("first_step_ns", p.firstLastStepNs);
                straggler.put("network_trouble", troubled[s]);
                straggler.put("evidence_frames", p.evidence);
            }
        }
        m.put("peers", peerList);
        m.put("straggler", straggler);
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < k && i < LISTED_STEPS; i++) {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("step", (long) i + 1);
            sm.put("start_ns", stStart[i]);
            sm.put("busy_ns", busy[i]);
            sm.put("bytes", stBytes[i]);
            sm.put("messages", stMsgs[i]);
            sm.put("last_peer", stLastSender[i] < 0 ? null : senders.get(stLastSender[i]));
            list.add(sm);
        }
        m.put("list", list);
        return m;
    }

    /** One step's figures into the hosts' figures. */
    private static void closeStep(int step, long[] stBytes, long[] stMsgs, int[] stLastSender, Peer[] peers, long[] first,
                                  long[] firstFrame, long[] last, long[] lastFrame, long[] bytes, boolean[] active, long start) {
        int latest = -1, second = -1, count = 0;
        long earliestLast = Long.MAX_VALUE;
        for (int s = 0; s < peers.length; s++) {
            if (!active[s]) continue;
            Peer p = peers[s];
            p.steps++;
            p.bytes.add(bytes[s]);
            if (first[s] >= 0) p.startLag.add(first[s] - start);
            if (last[s] < 0) continue;
            count++;
            if (last[s] < earliestLast) earliestLast = last[s];
            if (latest < 0 || last[s] > last[latest]) {
                second = latest;
                latest = s;
            } else if (second < 0 || last[s] > last[second]) {
                second = s;
            }
        }
        stLastSender[step] = latest;
        if (count < 3) return;
        for (int s = 0; s < peers.length; s++) {
            if (!active[s] || last[s] < 0) continue;
            peers[s].compared++;
            peers[s].finishLag.add(last[s] - earliestLast);
        }
        Peer p = peers[latest];
        p.lastCount++;
        p.margin.add(last[latest] - last[second]);
        if (p.firstLastStepNs < 0) {
            p.firstLastStepNs = start;
            // Where it shows first: its first message of that step, after the others had begun.
            if (firstFrame[latest] >= 0) p.evidence.add(firstFrame[latest]);
        }
        if (p.evidence.size() < 8) p.evidence.add(lastFrame[latest]);
    }

    /** Hosts with retransmissions, NAKs, CNPs, CE marks or losses on a QP they send or receive on: the network may explain them. */
    private boolean[] troubled(List<Flow> flows, int nSenders) {
        boolean[] t = new boolean[nSenders];
        for (Flow f : flows) {
            long trouble = f.retransmitted + f.naks + f.rnrNaks + f.nacks + f.cnps + f.mrCnps + f.ceMarks + f.networkLosses
                    + f.captureGaps + f.timeouts;
            if (trouble == 0) continue;
            Integer a = senderIndex.get(f.key.src()), b = senderIndex.get(f.key.dst());
            if (a != null) t[a] = true;
            if (b != null) t[b] = true;
        }
        return t;
    }

    /** Step starts when gaps of at least g separate steps. */
    private long[] stepStarts(long[] gaps, long g) {
        int k = 1;
        for (long x : gaps) if (x >= g) k++;
        long[] s = new long[k];
        s[0] = bStart[0];
        int j = 1;
        for (int i = 0; i < gaps.length; i++) if (gaps[i] >= g) s[j++] = bStart[i + 1];
        return s;
    }

    /** The median step (when gaps of at least g separate k steps) has messages enough from hosts enough. */
    private boolean substantial(long[] gaps, long g, int k) {
        long[] msgs = new long[k], hosts = new long[k];
        int[] seen = new int[MAX_SENDERS];
        int step = -1;
        for (int i = 0; i < n; i++) {
            if (i == 0 || gaps[i - 1] >= g) step++;
            int to = i + 1 < n ? bFrom[i + 1] : ne;
            for (int e = bFrom[i]; e < to; e++) {
                msgs[step] += eMsgs[e];
                if (seen[eSender[e]] != step + 1) {
                    seen[eSender[e]] = step + 1;
                    hosts[step]++;
                }
            }
        }
        return quantile(msgs, 0.5) >= MIN_MESSAGES && quantile(hosts, 0.5) >= MIN_SENDERS;
    }

    /** Enough steps, and most spacings near their median. */
    static boolean periodic(long[] starts) {
        if (starts.length < MIN_STEPS) return false;
        long[] d = new long[starts.length - 1];
        for (int i = 0; i < d.length; i++) d[i] = starts[i + 1] - starts[i];
        long med = quantile(d, 0.5);
        if (med < MIN_PERIOD_NS) return false;
        int near = 0;
        for (long x : d) if (Math.abs(x - med) <= SPREAD * med) near++;
        return near >= REGULAR_SHARE * d.length;
    }

    private static void reverse(long[] a) {
        for (int i = 0, j = a.length - 1; i < j; i++, j--) {
            long t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /** Nearest-rank quantile of v (not changed), -1 when empty. */
    static long quantile(long[] v, double q) {
        if (v.length == 0) return -1;
        long[] s = v.clone();
        Arrays.sort(s);
        return s[(int) Math.max(0, Math.ceil(q * s.length) - 1)];
    }

    private static Map<String, Object> spread(long[] v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", quantile(v, 0.5));
        m.put("p10", quantile(v, 0.1));
        m.put("p90", quantile(v, 0.9));
        m.put("min", quantile(v, 0));
        m.put("max", quantile(v, 1));
        return m;
    }

    private static Map<String, Object> medMax(Longs l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", l.median());
        m.put("max", l.max());
        return m;
    }

    /** A host's figures over the steps. */
    private static final class Peer {
        final String ip;
        int steps, compared, lastCount;
        long firstLastStepNs = -1;
        final Longs startLag = new Longs(), finishLag = new Longs(), margin = new Longs(), bytes = new Longs();
        final List<Long> evidence = new ArrayList<>();

        Peer(String ip) { this.ip = ip; }
    }

    /** A growable list of longs (one per step at most). */
    private static final class Longs {
        long[] v = new long[8];
        int n;

        void add(long x) {
            if (n == v.length) v = Arrays.copyOf(v, n * 2);
            v[n++] = x;
        }

        Long median() { return n == 0 ? null : quantile(Arrays.copyOf(v, n), 0.5); }

        Long max() { return n == 0 ? null : quantile(Arrays.copyOf(v, n), 1); }
    }

    // ------------------------------------------------------------------ text

    @SuppressWarnings("unchecked")
    static void appendText(Appendable out, Map<String, Object> st) throws IOException {
        out.append("Steps (periodic bursts of RC messages: training iterations; per sending host, when its messages of each step came)\n");
        Map<String, Object> p = (Map<String, Object>) st.get("period_ns"), b = (Map<String, Object>) st.get("busy_ns");
        out.append(String.format(Locale.ROOT, "%s steps from %s s, period %s us (p10 %s, p90 %s), wire time %s us per step "
                        + "(max %s, %.1f %% of the period), %s bytes and %s messages per step; idle gap between steps >= %s us%n",
                st.get("steps"), Reports.seconds(((Number) st.get("first_step_ns")).longValue()), us(p.get("median")), us(p.get("p10")),
                us(p.get("p90")), us(b.get("median")), us(b.get("max")),
                st.get("busy_share") instanceof Number x ? x.doubleValue() * 100 : 0.0, st.get("bytes_per_step"),
                st.get("messages_per_step"), us(st.get("gap_ns"))));
        if (st.get("later_bursts_not_timed") != null) {
            out.append("The first " + st.get("steps") + " steps only: " + st.get("later_bursts_not_timed")
                    + " later bursts were counted, not timed (bounded state)\n");
        }
        List<Object[]> rows = new ArrayList<>();
        for (Object o : (List<Object>) st.get("peers")) {
            Map<String, Object> m = (Map<String, Object>) o;
            Map<String, Object> sl = (Map<String, Object>) m.get("start_lag_ns"), fl = (Map<String, Object>) m.get("finish_lag_ns");
            rows.add(new Object[] {m.get("peer"), m.get("steps"), m.get("last_to_finish") + "/" + m.get("steps_compared"),
                    us(sl.get("median")) + " / " + us(sl.get("max")), us(fl.get("median")) + " / " + us(fl.get("max")),
                    m.get("bytes_per_step"), Boolean.TRUE.equals(m.get("network_trouble")) ? "yes" : "no"});
        }
        Reports.rows(out, new String[] {"Sender", "Steps", "Last to finish", "Start lag us med/max", "Finish lag us med/max",
                "Bytes/step", "Loss/NAK/CNP"}, rows);
        Map<String, Object> s = (Map<String, Object>) st.get("straggler");
        if (s != null) {
            Map<String, Object> mg = (Map<String, Object>) s.get("margin_ns");
            out.append(String.format(Locale.ROOT, "Straggler: %s finished last in %s of %s steps, %s us (median) after the next latest sender%s%n",
                    s.get("peer"), s.get("last_to_finish"), s.get("steps_compared"), us(mg.get("median")),
                    Boolean.TRUE.equals(s.get("network_trouble")) ? "; its QPs saw loss, NAKs or congestion" : ""));
        }
        out.append("Start lag: a sender's first message of the step after the step's first packet; finish lag: its last "
                + "message's end after the earliest sender's (steps with three senders or more)\n");
        out.append(Reports.RULE);
    }

    private static String us(Object ns) {
        return ns instanceof Number x ? String.format(Locale.ROOT, "%.3f", x.longValue() / 1e3) : "-";
    }
}
