package io.metaroce.analysis;

import java.util.Arrays;
import java.util.HashMap;

/**
 * State and results of one QP flow (one direction to one destination QP). Holds the flow's request stream
 * (the PSNs it sends) with its window, and the counters of what happened to it, including the control
 * traffic its peer sent about it (ACKs, NAKs, SACKs, NACKs, CNPs).
 */
final class Flow implements QpFlow {
    final int index;
    final FlowKey key;
    final String id;
    View view = View.MIRROR;
    Flow peer;
    String pairedBy;
    int tver = -1;
    boolean rocev1;
    String service;
    boolean ud;
    /** Dropped from the flow table (too many flows): its totals went to {@link EvictedFlows}. */
    boolean evicted;

    // Counters.
    long packets, bytes, dataPackets, payloadBytes, uniquePayloadBytes, firstNs = -1, lastNs, messages,
            messagesCompleted, retransmitted, spurious, outOfOrder, duplicates, captureGaps, networkLosses, acks, naks,
            rnrNaks, sacks, nacks, cnps, mrCnps, ceMarks, ceWithoutCnp, cnpExpected, creditStalls, unjudged,
            truncated, gapEvents, gapPsns, unattributedControl, readResponses, probes, probeReplies, responseRetx,
            pendingCnps, pendingMrCnps, nakErrors, repeatedResponses, spuriousUnknown, inferredRetx;
    final long[] byCause = new long[Cause.values().length];
    final Latency ackRtt = new Latency(), completion = new Latency(), nakGen = new Latency(), nakResp = new Latency(),
            rtxLatency = new Latency();
    long minRtt = Long.MAX_VALUE, srtt = 6_000;
    int[] srcQps = new int[0];
    int ttl = -1;

    /** Its open messages for analyze --messages ({@link MessageTracker}); null when nobody asked for them. */
    MessageTracker.Stream msgStream;

    // Request stream.
    SeqWindow w;
    boolean started, everAcked;
    long origin, maxU, highestSeenU, cumU, softEnd = Long.MIN_VALUE, ePsnU, sndUnaU;
    int startPsn = -1;
    int pmtu, pmtuLearned;
    int pathCount;
    boolean spray;
    long lastActivity;
    long lastFp = Long.MIN_VALUE, lastFpTime, lastFpFrame;
    long oosSince;          // receiver emulation: first arrival past a missing PSN (RoCEv2)
    long lastReadFrame;
    long lastRetxU = Long.MIN_VALUE, lastRetxTime, lastRetxFrame, lastNewFrame, lastNewTime, maxRetxU = Long.MIN_VALUE, runEndU, timeouts;
    Cause lastRetxCause;
    long[] pathAckedFrame;
    java.util.ArrayDeque<long[]> suspects; // MetaRoCE copies replaced by a retransmission, not yet known arrived or lost
    int[] pathMaxTx;
    boolean[] pathSeenTx;

    // Recovery episodes (RoCEv2 go-back-N after NAK / RNR NAK): the latest signalled one and the one before,
    // whose go-back may still be arriving when the next signal is seen.
    Episode epi, prevEpi;
    int episodeIds;
    /** Where the sender's resends start after a NAK or timeout (RoCEv2), made at the first of either; null before. */
    Recovery.State recovery;
    // Latest MR-NACK for response latency.
    long nackSignalTime, nackFromU, nackToU;
    boolean nackResponded;

    // Retransmissions at a sender tap waiting for the acknowledgement that decides spurious or not.
    HashMap<Long, PendingRetx> pendingRetx;

    // Messages of the request stream.
    final Messages msgs = new Messages();
    /** Steps: the sending host's index there (-1: not yet looked up), uniquePayloadBytes before the open message (-1: none). */
    int stepSender = -1;
    long stepMsgFrom = -1;

    // Paths (MetaRoCE).
    PathStats[] paths;
    int maxPath = -1;
    long probeTick;

    // Congestion.
    long lastCnpTime = Long.MIN_VALUE / 4, lastReactionTime = Long.MIN_VALUE / 4, lastExpectedCnp = Long.MIN_VALUE / 4;
    int lastCeCount = -1;
    /** The congestion loop (CE -> CNP -> rate cut), made at the flow's first CE mark or CNP; null on every other flow. */
    CongestionLoop loop;
    boolean credit;
    long grantedU = Long.MIN_VALUE;
    long stallSince = -1;
    int pendingGrant = -1;

    /** What the flow's sender announced in CM (null without a CM exchange) and the connection's path MTU. */
    CmPairing.Side announced;
    int cmPathMtu;

    Flow(int index, FlowKey key) {
        this.index = index;
        this.key = key;
        this.id = key.id();
    }

    @Override public int index() { return index; }

    @Override public String id() { return id; }

    @Override public FlowKey key() { return key; }

    @Override public View view() { return view; }

    @Override public QpFlow peer() { return peer; }

    @Override public CmPairing.Side announced() { return announced; }

    @Override public int cmPathMtu() { return cmPathMtu; }

    @Override public RequestWindow requests() { return w; }

    SeqWindow window(int maxCapacity) {
        if (w == null) w = new SeqWindow(maxCapacity);
        return w;
    }

    PathStats path(int p) {
        if (p < 0 || p > 0xFFFF) p = 0;
        if (paths == null) paths = new PathStats[Math.max(4, p + 1)];
        if (p >= paths.length) paths = Arrays.copyOf(paths, Math.max(p + 1, paths.length * 2));
        PathStats s = paths[p];
        if (s == null) {
            s = paths[p] = new PathStats(p);
            if (p > maxPath) maxPath = p;
        }
        return s;
    }

    void addSrcQp(int qp) {
        for (int q : srcQps) if (q == qp) return;
        if (srcQps.length >= 256) return;
        srcQps = Arrays.copyOf(srcQps, srcQps.length + 1);
        srcQps[srcQps.length - 1] = qp;
    }

    /** The PMTU in effect: configured or from CM, else learned from full-size packets, else 0. */
    int pmtu() {
        if (pmtu > 0) return pmtu;
        if (pmtuLearned > 0) return pmtuLearned;
        if (peer != null && peer.pmtu > 0) return peer.pmtu;
        if (peer != null && peer.pmtuLearned > 0) return peer.pmtuLearned;
        return 0;
    }

    long rttEstimate(long fallback) { return minRtt == Long.MAX_VALUE ? fallback : minRtt; }

    /** The largest of the paths' smallest round trips (the slowest path), at least the flow's; else fallback. */
    long maxPathRtt(long fallback) {
        long r = minRtt == Long.MAX_VALUE ? fallback : minRtt;
        if (paths != null) for (PathStats p : paths) if (p != null && p.rtt.count() > 0) r = Math.max(r, p.rtt.min());
        return r;
    }

    /** The smallest round trip seen on a path (its own samples), else on the flow, else fallback. */
    long pathRtt(int path, long fallback) {
        if (paths != null && path >= 0 && path < paths.length && paths[path] != null && paths[path].rtt.count() > 0)
            return paths[path].rtt.min();
        return minRtt == Long.MAX_VALUE ? fallback : minRtt;
    }

    /** The path of missing PSN u from round-robin spraying: u's nearest captured neighbours a < u < b. */
    int inferPath(long u, long a) {
        int n = pathCount > 0 ? pathCount : maxPath + 1;
        if (n <= 1) return 0;
        long b = u + 1;
        while (b <= highestSeenU && b < u + 16 && (w.state[w.idx(b)] & SeqWindow.SEEN) == 0) b++;
        if (b > highestSeenU || b >= u + 16) return -1;
        int ia = w.idx(a), ib = w.idx(b);
        if (w.copies[ia] != 1 || w.copies[ib] != 1) return -1;
        int pa = w.path[ia], pb = w.path[ib];
        if (Math.floorMod(pb - pa, n) != Math.floorMod(b - a, n)) return -1;
        return (int) Math.floorMod(pa + (u - a), (long) n);
    }

    /**
     * A mirror sees the whole flow when it is not sprayed (one ECMP path), or when every path of the flow has
     * shown packets; otherwise PSNs it never showed may have taken a path it does not mirror.
     */
    boolean mirrorSeesAllPaths() {
        if (tver != 1) return true;
        int n = pathCount > 0 ? pathCount : maxPath + 1;
        if (paths == null || n > paths.length) return n <= 1;
        for (int p = 0; p < n; p++) if (paths[p] == null || paths[p].packets == 0) return false;
        return true;
    }

    String transport() { return tver == 1 ? "metaroce" : rocev1 ? "rocev1" : tver == 0 ? "rocev2" : null; }

    /** A go-back-N recovery: from the signalled PSN up to what had been sent when it began. */
    static final class Episode {
        final int id;
        final Cause cause;
        final long signalTime;
        /** The signalled PSN; lowered to where the sender went back when it resent acknowledged PSNs (Recovery). */
        long fromU;
        long startTime, endU = Long.MAX_VALUE;
        boolean responded;

        Episode(int id, Cause cause, long fromU, long signalTime) {
            this.id = id;
            this.cause = cause;
            this.fromU = fromU;
            this.signalTime = signalTime;
        }

        boolean covers(long u) { return u >= fromU && u <= endU; }
    }

    /** A retransmission seen at the sender's tap whose spuriousness waits for the acknowledgement. */
    static final class PendingRetx {
        final long frame, time, u, tx;
        final int path, prevPath;
        final PendingEvent event;
        /** An older copy of the same PSN still pending (several retransmissions in flight). */
        PendingRetx older;
        /** The loss suspicion of the copy this one replaced (MetaRoCE), cleared if this one proves spurious. */
        long[] suspect;

        PendingRetx(long frame, long time, long u, int path, int prevPath, PendingEvent event, long tx) {
            this.tx = tx;
            this.frame = frame;
            this.time = time;
            this.u = u;
            this.path = path;
            this.prevPath = prevPath;
            this.event = event;
        }
    }

    /**
     * Open messages of the request stream, oldest first: a ring of primitive columns addressed by message
     * ordinal (monotonic), so the PSN window can refer to a message by an int that stays valid while it is open.
     */
    static final class Messages {
        int head, size;
        long headOrd;
        // Allocated with the first message (a flow that only acknowledges never opens one).
        long[] msgId = NO_LONGS, firstU = NO_LONGS, lastU = NO_LONGS, firstTime = NO_LONGS, firstFrame = NO_LONGS;
        int[] covered = NO_INTS;
        boolean[] read = NO_BOOLEANS, done = NO_BOOLEANS;
        long seq; // message numbers for RoCEv2 streams (no msg_id on the wire)

        private int slot(int k) { return (head + k) & (msgId.length - 1); }

        /** Slot of the open message with this ordinal, or -1. */
        int slotOf(int ord) {
            int k = ord - (int) headOrd;
            return k >= 0 && k < size ? slot(k) : -1;
        }

        int ordOfSlot(int s) { return (int) (headOrd + ((s - head) & (msgId.length - 1))); }

        /** Opens a message; returns its ordinal. */
        int add(long id, long fU, long t, long frame, boolean isRead) {
            if (size == msgId.length) grow();
            int s = slot(size++);
            msgId[s] = id;
            firstU[s] = fU;
            lastU[s] = Long.MIN_VALUE;
            firstTime[s] = t;
            firstFrame[s] = frame;
            covered[s] = 0;
            read[s] = isRead;
            done[s] = false;
            return (int) (headOrd + size - 1);
        }

        /** Slot of the open message with this id (newest first), or -1. */
        int findById(long id) {
            for (int k = size - 1, n = 0; k >= 0 && n < 256; k--, n++) {
                int s = slot(k);
                if (!done[s] && msgId[s] == id) return s;
            }
            return -1;
        }

        /** Slot of the newest open message that starts at or before u and may contain it, or -1. */
        int findByPsn(long u) {
            for (int k = size - 1, n = 0; k >= 0 && n < 256; k--, n++) {
                int s = slot(k);
                if (done[s]) continue;
                if (firstU[s] <= u && (lastU[s] == Long.MIN_VALUE || lastU[s] >= u)) return s;
                if (firstU[s] <= u) return -1;
            }
            return -1;
        }

        int slotAt(int k) { return slot(k); }

        /** Pops completed messages at the head, and the oldest ones beyond max. */
        void compact(int max) {
            while (size > 0 && (done[head] || size > max)) {
                head = (head + 1) & (msgId.length - 1);
                headOrd++;
                size--;
            }
        }

        void clear() {
            headOrd += size;
            size = 0;
        }

        private static final long[] NO_LONGS = {};
        private static final int[] NO_INTS = {};
        private static final boolean[] NO_BOOLEANS = {};

        private void grow() {
            int n = Math.max(2, msgId.length * 2);
            long[] a = new long[n], b = new long[n], c = new long[n], d = new long[n], e = new long[n];
            int[] f = new int[n];
            boolean[] g = new boolean[n], h = new boolean[n];
            for (int k = 0; k < size; k++) {
                int s = slot(k);
                a[k] = msgId[s]; b[k] = firstU[s]; c[k] = lastU[s]; d[k] = firstTime[s]; e[k] = firstFrame[s];
                f[k] = covered[s]; g[k] = read[s]; h[k] = done[s];
            }
            msgId = a; firstU = b; lastU = c; firstTime = d; firstFrame = e; covered = f; read = g; done = h;
            head = 0;
        }
    }
}
