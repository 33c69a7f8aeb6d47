package io.metaroce.analysis.diagnosis;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowControl;
import io.metaroce.analysis.FlowKey;
import io.metaroce.analysis.FrameFacts;
import io.metaroce.dissector.Addresses;
import io.metaroce.protocol.OpcodeDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Watches every frame of an analysis pass ({@link AnalysisSession#onFrame}) and keeps per QP direction what the
 * diagnosis needs ({@link QpDirection}); {@link #finish()} turns it into a {@link Diagnosis}. With an
 * {@code at} time the hang snapshot is taken at that capture time instead of the end.
 */
public final class Diagnoser implements AnalysisSession.FrameObserver {
    /** Pairing attempts per unpaired response direction (acknowledgements of requests the capture never showed). */
    private static final int PAIR_TRIES = 64;

    private final HashMap<Key, QpDirection> byKey = new HashMap<>();
    final List<QpDirection> directions = new ArrayList<>();
    private final HashMap<QpDirection, int[]> pairTries = new HashMap<>();
    /** Requester directions by (source, destination): the candidates an acknowledgement is paired with. */
    private final HashMap<HostPair, List<QpDirection>> requesters = new HashMap<>();

    /** equals and hashCode written out: a record's generated ones are method handles spun at run time on first
     * use (about 12 classes the AOT cache does not hold), paid at start by every capture with a request. */
    private record HostPair(long sHi, long sLo, long dHi, long dLo) {
        @Override
        public boolean equals(Object o) {
            return o instanceof HostPair p && p.sHi == sHi && p.sLo == sLo && p.dHi == dHi && p.dLo == dLo;
        }

        @Override
        public int hashCode() {
            return ((Long.hashCode(sHi) * 31 + Long.hashCode(sLo)) * 31 + Long.hashCode(dHi)) * 31 + Long.hashCode(dLo);
        }
    }
    private final Key probe = new Key();
    /** The path MTU each CM REQ negotiated, against what the QPs use. */
    private final CmMtuCheck cmMtu = new CmMtuCheck();
    private static final int RECENT = 64;
    /** Directions seen lately, by a hash of their key (never removed from byKey, so never stale). */
    private final QpDirection[] recent = new QpDirection[RECENT];
    /** Snapshot time after the first frame, resolved to {@link #atNs} at the first frame. */
    private final Long atAfterFirstNs;
    private Long atNs;
    private HangSnapshot snapshot;
    long firstNs = -1, lastNs;

    /** @param atAfterFirstNs hang snapshot time in ns after the first frame, null for the end of the capture */
    public Diagnoser(Long atAfterFirstNs) {
        this(atAfterFirstNs, io.metaroce.analysis.FlowBudget.maxDirections(DEFAULT_MAX_DIRECTIONS, BYTES_PER_DIRECTION));
    }

    /**
     * What a direction costs: its {@link QpDirection} (472 bytes) and PSN ring (256 slots of two ints and two longs),
     * its maps; 7.6 KB by a class histogram of validate of 100,000 single-packet QPs at the bound (16,384 directions).
     */
    static final int BYTES_PER_DIRECTION = 7_600;

    /**
     * @param maxDirections QP directions diagnosed at most: state is a few KB per direction (the PSN ring), so a
     *     capture of a million QPs would not fit a 1 GB heap; frames of directions beyond it are counted instead
     */
    public Diagnoser(Long atAfterFirstNs, int maxDirections) {
        this.atAfterFirstNs = atAfterFirstNs;
        this.maxDirections = maxDirections;
    }

    public Diagnoser() { this(null); }

    /** Where every frame's time also goes (analyze's loss timeline), or null (validate's diagnoser: no timeline). */
    private io.metaroce.analysis.LossTimeline timeline;

    /**
     * Hands every frame's time to t as well; set before the run. Here rather than in an observer of its own beside the
     * diagnoser's: composing the two in a lambda cost analyze's analysis thread a call per frame more under C1 (perf,
     * 1 M frames: the lambda 4.0-4.5 ms of its own); validate's diagnoser, which has no timeline, pays a null check.
     */
    public Diagnoser withTimeline(io.metaroce.analysis.LossTimeline t) {
        timeline = t;
        return this;
    }

    /**
     * 16,384 QP directions (about 100 MB of diagnosis state at most): far more than one host's QPs, and what a
     * 1 GB heap affords beside the engine's bounded flow table.
     */
    public static final int DEFAULT_MAX_DIRECTIONS = 1 << 14;
    private final int maxDirections;
    private long framesNotDiagnosed;

    /** Mutable lookup key: the flow key's numbers (no string per frame). */
    private static final class Key {
        long sHi, sLo, dHi, dLo;
        int qp;
        boolean v6;

        Key set(FrameFacts f) {
            v6 = f.v6;
            sHi = f.srcHi;
            sLo = f.srcLo;
            dHi = f.dstHi;
            dLo = f.dstLo;
            qp = f.destQp;
            return this;
        }

        Key copy() {
            Key k = new Key();
            k.v6 = v6;
            k.sHi = sHi;
            k.sLo = sLo;
            k.dHi = dHi;
            k.dLo = dLo;
            k.qp = qp;
            return k;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.qp == qp && k.sLo == sLo && k.dLo == dLo && k.sHi == sHi && k.dHi == dHi && k.v6 == v6;
        }

        @Override
        public int hashCode() {
            long h = sLo * 0x9E3779B97F4A7C15L ^ dLo * 0xC2B2AE3D27D4EB4FL ^ sHi * 31 ^ dHi * 17 ^ qp * 0x165667B1L;
            return (int) (h ^ (h >>> 32)) ^ (v6 ? 1 : 0);
        }
    }

    /**
     * A PFC watchdog's default detection time: SONiC's pfcwd and Junos' PFC watchdog (two polls of 100 ms) both declare
     * a storm when a queue stayed paused 200 ms; a class paused longer without a break is {@code pfc-pause-storm}.
     */
    public static final long DEFAULT_PFC_WATCHDOG_NS = 200_000_000L;
    /** A class paused for this share of the capture or more, without a storm, is {@code pfc-pause-heavy}. */
    static final double PFC_HEAVY_SHARE = 0.20;
    /**
     * A paused port still finishes what is on the wire when the XOFF comes (802.1Qbb bounds that delay to a few frames
     * of the largest size plus the cable): requests seen this long after a storm's first XOFF were sent before it. 10 us
     * covers a 9 KB frame at 10 Gb/s. Found on the simulated storm (rocev2-pfc-storm), where the frames on the receiver's
     * cable at the XOFF arrive up to 0.4 us after it.
     */
    static final long PFC_RESPONSE_NS = 10_000;
    /** Flows named per storm at most (the rest counted). */
    private static final int STALLED_NAMED = 16;

    /** The tapped link's speed in Gb/s (0: unknown, pauses then timed at 400 Gb/s) and the watchdog detection time. */
    private double linkSpeedGbps;
    private long pfcWatchdogNs = DEFAULT_PFC_WATCHDOG_NS;
    /** The PAUSE/PFC frames' runs; made at the first such frame, so a capture without one pays nothing. */
    private FlowControl pauses;
    /** Per storm of {@link #pauses} (same index): the QP directions it stalled, and how many there were. */
    private final List<List<String>> stalled = new ArrayList<>();
    private final List<long[]> stalledCount = new ArrayList<>();

    /**
     * The tapped link's speed (0: unknown) and the PFC watchdog's detection time the pause diagnoses judge by; set
     * before the run (defaults: unknown, {@link #DEFAULT_PFC_WATCHDOG_NS}).
     */
    public Diagnoser withFlowControl(double linkSpeedGbps, long pfcWatchdogNs) {
        this.linkSpeedGbps = linkSpeedGbps;
        this.pfcWatchdogNs = pfcWatchdogNs;
        return this;
    }

    /**
     * One PAUSE/PFC frame (rare: never a RoCE frame's path). A storm that this frame shows (a run past the detection
     * time) is judged now, while the QPs' last requests are those before it: the ones on its priority with requests
     * outstanding that sent no request since the pause began are the QPs it stalled.
     */
    private void pause(FrameFacts f) {
        if (pauses == null) pauses = new FlowControl(linkSpeedGbps > 0 ? 512 / linkSpeedGbps : 0, pfcWatchdogNs);
        pauses.accept(f);
        stormsSeen();
    }

    private void stormsSeen() {
        List<long[]> storms = pauses.storms();
        while (stalled.size() < storms.size()) {
            long[] st = storms.get(stalled.size());
            int cls = (int) st[FlowControl.S_CLASS];
            List<String> ids = new ArrayList<>();
            long n = 0;
            for (QpDirection d : directions) {
                if (!d.requester() || d.outstanding() == 0 || d.lastRequestNs >= st[FlowControl.S_START] + PFC_RESPONSE_NS) continue;
                // An 802.3x PAUSE stops the whole link; a PFC class only the frames of its priority.
                if (cls != FlowControl.LINK && !d.dataOnPriority(cls)) continue;
                if (n++ < STALLED_NAMED) ids.add(d.id);
            }
            stalled.add(ids);
            stalledCount.add(new long[] {n});
        }
    }

    @Override
    public void frame(FrameFacts f) {
        if (timeline != null) timeline.frame(f.timeNs);
        if (firstNs < 0) {
            firstNs = f.timeNs;
            if (atAfterFirstNs != null) atNs = firstNs + atAfterFirstNs;
        }
        lastNs = Math.max(lastNs, f.timeNs);
        if (atNs != null && snapshot == null && f.timeNs > atNs) snapshot = HangSnapshot.take(directions, atNs);
        if (f.cm != FrameFacts.CM_NONE) cmMtu.cm(f);
        if (!f.roce || f.opcode == null || !f.judgeable || f.destQp == 1) {
            if (f.macc != FrameFacts.MACC_NONE) pause(f);
            return;
        }
        // Consecutive frames come from a handful of directions: a small direct-mapped cache of them spares most
        // frames the map look-up (hash, key compare) on the per-frame path.
        int slot = (f.destQp ^ (int) f.srcLo ^ (int) (f.dstLo >>> 3)) & (RECENT - 1);
        QpDirection d = recent[slot];
        // Whether d is f's direction, written out: a method for it was too large for C1 to inline.
        if (d == null || !(f.destQp == d.destQp && f.srcLo == d.srcLo && f.dstLo == d.dstLo && f.srcHi == d.srcHi
                && f.dstHi == d.dstHi && f.v6 == d.v6)) d = byKey.get(probe.set(f));
        if (d != null) recent[slot] = d;
        if (d == null) {
            if (directions.size() >= maxDirections) {
                framesNotDiagnosed++;
                return;
            }
            d = new QpDirection(FlowKey.id(f.v6, f.srcHi, f.srcLo, f.dstHi, f.dstLo, f.destQp), f);
            byKey.put(probe.copy(), d);
            directions.add(d);
            recent[slot] = d;
        }
        d.seen(f);
        OpcodeDef.Role role = f.opcode.role();
        if (role == OpcodeDef.Role.REQUEST && !d.ud) {
            if (!d.anyRequest) requesters.computeIfAbsent(new HostPair(d.srcHi, d.srcLo, d.dstHi, d.dstLo), k -> new ArrayList<>(2)).add(d);
            d.request(f);
        } else if (role == OpcodeDef.Role.ACK || (role == OpcodeDef.Role.RESPONSE && f.hasAeth)) {
            QpDirection r = requesterOf(d, f);
            if (r != null) r.answer(f, role == OpcodeDef.Role.ACK);
        } else if (role == OpcodeDef.Role.RESPONSE) {
            QpDirection r = requesterOf(d, f);
            if (r != null) {
                r.answers++;
                r.lastAnswerNs = f.timeNs;
                r.lastAnswerFrame = f.number;
            }
        } else if (f.opcodeValue == 0x81 && d.peer != null) {
            d.peer.cnpsBack++;
        }
    }

    /** The requester direction an acknowledgement or response on d answers: d's pair, found by PSN if not yet. */
    private QpDirection requesterOf(QpDirection d, FrameFacts f) {
        if (d.peer != null) return d.peer;
        int[] tries = pairTries.computeIfAbsent(d, k -> new int[1]);
        if (tries[0]++ >= PAIR_TRIES) return null;
        QpDirection best = null;
        int bestDist = Integer.MAX_VALUE;
        for (QpDirection c : requesters.getOrDefault(new HostPair(d.dstHi, d.dstLo, d.srcHi, d.srcLo), List.of())) {
            if (c.peer != null || c == d) continue;
            int ahead = QpDirection.diff(c.highestPsn, f.psn), behind = QpDirection.diff(f.psn, c.firstPsn);
            if (ahead < -1 || behind < -1) continue;
            if (ahead < bestDist) {
                bestDist = ahead;
                best = c;
            }
        }
        if (best != null) {
            best.peer = d;
            d.peer = best;
            pairTries.remove(d);
        }
        return best;
    }

    /**
     * pfc-pause-storm: a class paused without a break for the watchdog's detection time or longer; pfc-pause-heavy: a
     * class paused for {@link #PFC_HEAVY_SHARE} of the capture or more without a storm (a slow receiver, not a stuck
     * one). Without the link speed pauses are timed at 400 Gb/s, the shortest a quantum can be: what is found then is
     * there at any slower speed too.
     */
    private void pauseFindings(List<Finding> findings) {
        pauses.close();
        stormsSeen();
        boolean atLeast = linkSpeedGbps <= 0;
        String bound = atLeast ? "at least " : "";
        java.util.Set<Long> stormy = new java.util.HashSet<>();
        List<long[]> storms = pauses.storms();
        for (int i = 0; i < storms.size(); i++) {
            long[] st = storms.get(i);
            long src = st[FlowControl.S_SRC];
            int cls = (int) st[FlowControl.S_CLASS];
            stormy.add(src * 16 + cls);
            long start = st[FlowControl.S_START], end = st[FlowControl.S_END];
            // A pause still on at the last frame counts up to the last frame only.
            long length = Math.min(end, Math.max(lastNs, start)) - start;
            long n = stalledCount.get(i)[0];
            String who = pauseSubject(src, cls);
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("source", src < 0 ? null : Addresses.mac(src));
            d.put("class", cls == FlowControl.LINK ? "link" : (Object) (long) cls);
            d.put("paused_ns", length);
            d.put("paused_lower_bound", atLeast);
            d.put("until_end_of_capture", end >= lastNs);
            d.put("watchdog_ns", pfcWatchdogNs);
            d.put("xoff_frames", st[FlowControl.S_XOFF]);
            d.put("stalled_flows", stalled.get(i));
            d.put("stalled_flow_count", n);
            List<Long> ev = new ArrayList<>(List.of(st[FlowControl.S_FIRST_FRAME]));
            if (st[FlowControl.S_LAST_FRAME] != ev.getFirst()) ev.add(st[FlowControl.S_LAST_FRAME]);
            String stalls = n == 0 ? "" : "; " + n + " QP(s) on it sent nothing since, requests outstanding: "
                    + String.join(", ", stalled.get(i)) + (n > stalled.get(i).size() ? ", ..." : "");
            findings.add(new Finding("pfc-pause-storm", who, "pfc_storm", start,
                    String.format(Locale.ROOT, "%s paused for %s%.1f ms without a break by %s%s: a PFC storm "
                                    + "(a receiver that stopped taking frames); a switch watchdog (%.0f ms) would have dropped it%s",
                            cls == FlowControl.LINK ? "the link (802.3x PAUSE)" : "priority " + cls, bound,
                            length / 1e6, d.get("source"), end >= lastNs ? ", still at the end of the capture" : "",
                            pfcWatchdogNs / 1e6, stalls), ev, d));
        }
        long span = lastNs - firstNs;
        if (span <= 0) return;
        for (long[] c : pauses.paused(lastNs)) {
            if (stormy.contains(c[0] * 16 + c[1]) || (double) c[2] / span < PFC_HEAVY_SHARE) continue;
            int cls = (int) c[1];
            List<String> on = new ArrayList<>();
            for (QpDirection d : directions) {
                if (d.requester() && (cls == FlowControl.LINK || d.dataOnPriority(cls))) on.add(d.id);
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("source", c[0] < 0 ? null : Addresses.mac(c[0]));
            d.put("class", cls == FlowControl.LINK ? "link" : (Object) (long) cls);
            d.put("paused_ns", c[2]);
            d.put("paused_share", Math.round(10_000.0 * c[2] / span) / 10_000.0);
            d.put("paused_lower_bound", atLeast);
            d.put("threshold_share", PFC_HEAVY_SHARE);
            d.put("frames", c[4]);
            d.put("flows_on_priority", on.size() > STALLED_NAMED ? on.subList(0, STALLED_NAMED) : on);
            d.put("flow_count_on_priority", on.size());
            findings.add(new Finding("pfc-pause-heavy", pauseSubject(c[0], cls), "pfc_heavy", null,
                    String.format(Locale.ROOT, "%s paused %s%.1f %% of the capture by %s, never for the watchdog's %.0f ms "
                                    + "at once: a slow receiver holding back its senders%s",
                            cls == FlowControl.LINK ? "the link (802.3x PAUSE)" : "priority " + cls, bound,
                            100.0 * c[2] / span, d.get("source"), pfcWatchdogNs / 1e6,
                            on.isEmpty() ? "" : " (" + on.size() + " QP(s) send on it)"), List.of(c[3]), d));
        }
    }

    /** A pause finding's subject: the sender's MAC and its class ("02:00:00:00:00:01 priority 3", "... link"). */
    private static String pauseSubject(long src, int cls) {
        return (src < 0 ? "?" : Addresses.mac(src))
                + (cls == FlowControl.LINK ? " link" : " priority " + cls);
    }

    /** The engine's congestion loop (AnalysisResult#congestionLoop), or null: its verdicts become diagnoses. */
    private Map<String, Object> congestionLoop;

    /** Hands the engine's congestion loop over (after the pass, before {@link #finish()}); null for none. */
    public Diagnoser congestionLoop(Map<String, Object> loop) {
        congestionLoop = loop;
        return this;
    }

    /** The engine's training steps (AnalysisResult#steps), or null: a straggler becomes a diagnosis. */
    private Map<String, Object> steps;

    /** Hands the engine's steps over (after the pass, before {@link #finish()}); null for none. */
    public Diagnoser steps(Map<String, Object> s) {
        steps = s;
        return this;
    }

    /** The engine's recovery behaviour (AnalysisResult#recovery), or null: a sender resending wrongly becomes a diagnosis. */
    private Map<String, Object> recovery;

    /** Hands the engine's recovery behaviour over (after the pass, before {@link #finish()}); null for none. */
    public Diagnoser recovery(Map<String, Object> r) {
        recovery = r;
        return this;
    }

    /** The diagnosis of everything seen. */
    public Diagnosis finish() {
        HangSnapshot hang = snapshot != null ? snapshot : HangSnapshot.take(directions, atNs != null ? atNs : lastNs);
        List<Finding> findings = new ArrayList<>();
        findings.addAll(QpFailures.diagnose(directions, lastNs));
        findings.addAll(QosAudit.audit(directions));
        findings.addAll(EntropyAudit.audit(directions));
        findings.addAll(MtuCheck.check(directions));
        findings.addAll(AddressCheck.check(directions));
        findings.addAll(cmMtu.check(directions));
        findings.addAll(RailCheck.check(directions));
        findings.addAll(SourceChange.check(directions));
        if (pauses != null) pauseFindings(findings);
        findings.addAll(CongestionLoopCheck.check(congestionLoop));
        findings.addAll(StepCheck.check(steps));
        findings.addAll(RecoveryCheck.check(recovery));
        java.util.Map<String, String> ids = new java.util.LinkedHashMap<>();
        for (QpDirection d : directions) ids.put(d.id, d.peer == null ? null : d.peer.id);
        return new Diagnosis(findings, hang, TimeSplit.of(directions, lastNs), firstNs, ids, null, framesNotDiagnosed);
    }
}
