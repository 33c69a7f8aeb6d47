package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisSettings.Tap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The QP flows of a capture: lookup and creation by (src IP, dst IP, dest_qp) without allocating on a hit,
 * the view each flow is judged from (where the tap is, §11), per-flow overrides from the settings, and the
 * pairing of the two directions of a connection (from CM, or from the PSNs replies refer to). Holds at most
 * {@link AnalysisSettings#maxFlows} flows: beyond, the least recently active are evicted ({@link #idlest},
 * {@link #remove}) and only their totals stay ({@link EvictedFlows}). Not thread-safe.
 */
final class FlowTable {
    private final AnalysisSettings settings;
    private final HashMap<FlowKey, Flow> flows = new HashMap<>();
    private final ArrayList<Flow> flowList = new ArrayList<>();
    /** Flows by (src, dst) with qp -1: the candidates for a reply's data flow. */
    private final HashMap<FlowKey, ArrayList<Flow>> byPair = new HashMap<>();
    private final FlowKey probe = new FlowKey(), pairProbe = new FlowKey();
    /** What the evicted flows added to the capture's totals. */
    private final EvictedFlows evicted = new EvictedFlows();
    private final HeapWatch heap = HeapWatch.get();
    /** Index of the next flow created: unique over the pass, also once flows were evicted. */
    private int nextIndex;

    private Tap tap;
    private boolean tapHostV6;
    private long tapHi, tapLo;

    FlowTable(AnalysisSettings settings) { this.settings = settings; }

    /** Where the capture was taken; decides the view of flows created from now on. */
    void setTap(Tap t) {
        tap = t;
        if (t.kind() == Tap.Kind.HOST) {
            tapHi = FlowKey.hi(t.host());
            tapLo = FlowKey.lo(t.host());
            tapHostV6 = !(tapHi == 0 && (tapLo >>> 32) == 0xFFFFL);
            if (!tapHostV6) tapLo &= 0xFFFFFFFFL;
        }
    }

    Tap tap() { return tap; }

    /** Every flow held, in order of creation. */
    List<Flow> all() { return flowList; }

    /** The flow with this key, or null (never seen, or evicted). */
    Flow get(FlowKey k) { return flows.get(k); }

    EvictedFlows evicted() { return evicted; }

    static final int RECENT = 64;
    /**
     * Flows seen lately, by a hash of their key; cleared when flows are evicted. Consecutive frames come from a
     * handful of flows: under C1 alone (the launcher's choice for analyze) the map look-up is a chain of calls
     * (hashCode, getNode, equals) that this direct-mapped cache spares most frames.
     */
    final Flow[] recent = new Flow[RECENT];

    /** The slot of f's flow in {@link #recent} (small enough for C1 to inline). */
    static int recentSlot(FrameFacts f) {
        return (f.destQp ^ (int) f.srcLo ^ (int) (f.dstLo >>> 3)) & (RECENT - 1);
    }

    /**
     * The flow of a frame, created on first sight. {@link AnalysisEngine#accept} tries {@link #recent} itself first
     * (this method is too large for C1 to inline).
     */
    Flow of(FrameFacts f) {
        int slot = recentSlot(f);
        Flow fl = recent[slot];
        if (fl != null) {
            FlowKey k = fl.key;
            if (k.qp == f.destQp && k.srcLo == f.srcLo && k.dstLo == f.dstLo && k.srcHi == f.srcHi && k.dstHi == f.dstHi
                    && k.v6 == f.v6) return fl;
        }
        probe.set(f.v6, f.srcHi, f.srcLo, f.dstHi, f.dstLo, f.destQp);
        fl = flows.get(probe);
        if (fl == null) fl = create(probe.copy(), f.ttl);
        recent[slot] = fl;
        return fl;
    }

    /** The flow of a direction (addresses as in {@link FrameFacts}), created on first sight. */
    Flow of(boolean v6, long sHi, long sLo, long dHi, long dLo, int qp) {
        probe.set(v6, sHi, sLo, dHi, dLo, qp);
        Flow fl = flows.get(probe);
        if (fl == null) fl = create(probe.copy(), -1);
        return fl;
    }

    private Flow create(FlowKey key, int ttl) {
        // New flows are what grows with a hostile capture (a flood of QPs): in a heap too small for them, the
        // analysis thread spends full collection after full collection inside one batch (analyze of 400,000 QPs
        // under -Xmx256m: 14 in a row between two batches), so the pass's check per batch comes too late. Once per
        // new flow, not per frame: a capture of 128 QPs asks 128 times.
        OutOfMemoryError oom = heap.failure();
        if (oom != null) throw oom;
        Flow fl = new Flow(nextIndex++, key);
        fl.ttl = ttl;
        fl.view = viewOf(key);
        flows.put(key, fl);
        flowList.add(fl);
        FlowKey pk = new FlowKey(key.v6, key.srcHi, key.srcLo, key.dstHi, key.dstLo, -1);
        byPair.computeIfAbsent(pk, k -> new ArrayList<>(2)).add(fl);
        if (!settings.pmtuOverrides().isEmpty() || !settings.pathCountOverrides().isEmpty()) {
            String idStr = key.id();
            Integer pm = override(settings.pmtuOverrides(), idStr, key.qp);
            if (pm != null) fl.pmtu = pm;
            Integer pc = override(settings.pathCountOverrides(), idStr, key.qp);
            if (pc != null) fl.pathCount = pc;
        }
        return fl;
    }

    /** Whether the table holds more flows than the settings allow. */
    boolean overBound() { return flowList.size() > settings.maxFlows(); }

    /**
     * The least recently active flows, to evict down to three quarters of the bound (so that evicting is rare:
     * amortised, a sort per quarter of the bound of new flows). The two directions of a connection share the
     * later of their activity times, so they go together.
     */
    List<Flow> idlest() {
        int n = flowList.size(), keep = settings.maxFlows() - settings.maxFlows() / 4;
        if (n <= keep) return List.of();
        long[] t = new long[n];
        for (int i = 0; i < n; i++) t[i] = activity(flowList.get(i));
        long[] sorted = t.clone();
        Arrays.sort(sorted);
        long cutoff = sorted[n - keep - 1];
        List<Flow> out = new ArrayList<>(n - keep);
        for (int i = 0; i < n; i++) if (t[i] <= cutoff) out.add(flowList.get(i));
        return out;
    }

    private static long activity(Flow f) {
        return f.peer == null ? f.lastActivity : Math.max(f.lastActivity, f.peer.lastActivity);
    }

    /** Drops these flows (their state already released), keeping their totals. */
    void remove(List<Flow> victims) {
        if (victims.isEmpty()) return;
        Arrays.fill(recent, null);
        IdentityHashMap<List<Flow>, Boolean> lists = new IdentityHashMap<>();
        for (Flow fl : victims) {
            fl.evicted = true;
            evicted.add(fl);
            flows.remove(fl.key);
            FlowKey k = fl.key;
            pairProbe.set(k.v6, k.srcHi, k.srcLo, k.dstHi, k.dstLo, -1);
            ArrayList<Flow> l = byPair.get(pairProbe);
            if (l != null) lists.put(l, Boolean.TRUE);
        }
        for (Flow fl : victims) if (fl.peer != null && !fl.peer.evicted) fl.peer.peer = null;
        for (List<Flow> l : lists.keySet()) l.removeIf(f -> f.evicted);
        byPair.values().removeIf(List::isEmpty);
        flowList.removeIf(f -> f.evicted);
    }

    private static Integer override(Map<String, Integer> m, String id, int qp) {
        if (m.isEmpty()) return null;
        Integer v = m.get(id);
        if (v == null) v = m.get(String.format("0x%06x", qp));
        return v != null ? v : m.get("*");
    }

    private View viewOf(FlowKey k) {
        if (tap.kind() != Tap.Kind.HOST) return View.MIRROR;
        if (k.v6 != tapHostV6) return View.MIRROR;
        if (k.sameSrc(tapHi, tapLo)) return View.SENDER;
        if (k.sameDst(tapHi, tapLo)) return View.RECEIVER;
        return View.MIRROR;
    }

    /** Flows from dst to src of g (the candidates for g's peer). */
    List<Flow> reverseFlows(Flow g) {
        FlowKey k = g.key;
        pairProbe.set(k.v6, k.dstHi, k.dstLo, k.srcHi, k.srcLo, -1);
        List<Flow> l = byPair.get(pairProbe);
        return l == null ? List.of() : l;
    }

    /** Makes a and b the two directions of one connection (how: "cm" or "psn"), undoing earlier pairings. */
    void pair(Flow a, Flow b, String how) {
        if (a.peer == b) return;
        if (a.peer != null) a.peer.peer = null;
        if (b.peer != null) b.peer.peer = null;
        a.peer = b;
        b.peer = a;
        a.pairedBy = b.pairedBy = how;
        // Control traffic counted before the pairing was known moves to the data flow it was about.
        moveUnattributed(a, b);
        moveUnattributed(b, a);
    }

    private static void moveUnattributed(Flow ctl, Flow data) {
        data.cnps += ctl.pendingCnps;
        data.mrCnps += ctl.pendingMrCnps;
        ctl.unattributedControl -= ctl.pendingCnps + ctl.pendingMrCnps;
        ctl.pendingCnps = ctl.pendingMrCnps = 0;
    }

    /**
     * The data flow a response or control frame on g is about: g's peer, or the reverse flow whose PSNs match
     * refPsn (then the two are paired when pairOnMatch). refPsn < 0: no PSN to match; a unique candidate is used
     * unpaired.
     */
    Flow about(Flow g, int refPsn, boolean pairOnMatch) {
        Flow fl = findAbout(g, refPsn, pairOnMatch);
        if (fl != null) lastAbout = fl;
        return fl;
    }

    /** The data flow the current frame was attributed to by {@link #about} (its last match), or null. */
    Flow lastAbout;

    private Flow findAbout(Flow g, int refPsn, boolean pairOnMatch) {
        if (g.peer != null) return g.peer;
        List<Flow> cands = reverseFlows(g);
        if (cands.isEmpty()) return null;
        if (refPsn < 0) {
            Flow only = null;
            int n = 0;
            for (Flow c : cands) if (c.peer == null && !c.ud && c.started) { only = c; n++; }
            return n == 1 ? only : null;
        }
        Flow best = null;
        long bestDist = Long.MAX_VALUE;
        boolean tie = false;
        for (Flow c : cands) {
            if (c.peer != null || c.ud || !c.started) continue;
            long u = Psn.unwrap(c.maxU, refPsn);
            if (u < c.origin - StreamLimits.PAIRING_BEHIND || u > c.maxU + StreamLimits.PAIRING_SLACK) continue;
            long dist = c.maxU - u;
            if (dist < bestDist) {
                best = c;
                bestDist = dist;
                tie = false;
            } else if (dist == bestDist) {
                tie = true;
            }
        }
        if (best == null || tie) return null;
        if (pairOnMatch) pair(g, best, "psn");
        return best;
    }
}
