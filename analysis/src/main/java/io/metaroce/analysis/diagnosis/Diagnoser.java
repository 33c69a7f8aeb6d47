package io.metaroce.analysis.diagnosis;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowKey;
import io.metaroce.analysis.FrameFacts;
import io.metaroce.protocol.OpcodeDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

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
        if (!f.roce || f.opcode == null || !f.judgeable || f.destQp == 1) return;
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

    /** The engine's congestion loop (AnalysisResult#congestionLoop), or null: its verdicts become diagnoses. */
    private java.util.Map<String, Object> congestionLoop;

    /** Hands the engine's congestion loop over (after the pass, before {@link #finish()}); null for none. */
    public Diagnoser congestionLoop(java.util.Map<String, Object> loop) {
        congestionLoop = loop;
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
        findings.addAll(CongestionLoopCheck.check(congestionLoop));
        java.util.Map<String, String> ids = new java.util.LinkedHashMap<>();
        for (QpDirection d : directions) ids.put(d.id, d.peer == null ? null : d.peer.id);
        return new Diagnosis(findings, hang, TimeSplit.of(directions, lastNs), firstNs, ids, null, framesNotDiagnosed);
    }
}
