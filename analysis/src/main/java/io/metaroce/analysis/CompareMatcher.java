package io.metaroce.analysis;

import io.metaroce.protocol.OpcodeDef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Matches the RoCE packets of two captures of the same traffic taken at two points ({@code metaroce compare}),
 * fed in one stream merged by time (point 2's times put on point 1's clock). A packet's identity across the points
 * is (flow, PSN, opcode, fingerprint): the fingerprint is the wire ICRC (invariant by design: it covers everything
 * but the fields routers change) folded with the IP id and the UDP source port ({@link FrameFacts#fingerprint}), so
 * a retransmission, which has the same ICRC but a new IP id on the NICs we know, is a transmission of its own.
 * Where two copies share the key (a NIC that sends IP id 0), the arriving packet pairs with the other point's most
 * recent unmatched copy: a resent packet is the one that crossed, its lost original is older.
 *
 * <p>Memory grows with the flows and the matching window, not with the frames: a packet waits for its match at most
 * the window plus the largest one-way delay seen; when it leaves the window unmatched it is recorded as unmatched at
 * its point (lost between the points, or seen downstream only, once the flow's direction is known at the end). The
 * unmatched packets themselves are kept (time, PSN, path) until the report: they grow with the losses.
 */
public final class CompareMatcher {
    /** The two capture points. */
    public static final int P1 = 0, P2 = 1;
    /** Request PSNs per flow remembered as seen at both points (a power of two). */
    static final int SEEN = 4096;

    private final long windowNs;
    private final FlowKey probe = new FlowKey();
    private final Map<FlowKey, Dir> flows = new LinkedHashMap<>();
    @SuppressWarnings("unchecked")
    private final Map<PacketKey, ArrayDeque<Pending>>[] pending = new Map[] {new HashMap<>(), new HashMap<>()};
    /**
     * Per point, the packets waiting for their copy in time order: a list linked through the packets, so that a match
     * unlinks its packet at once. (A queue that kept matched packets until they reached its head kept every packet
     * behind one lost packet for the whole window: 400,000 of them on a 40 ms capture with losses.)
     */
    private final Pending[] head = new Pending[2], tail = new Pending[2];
    private final long[] waiting = new long[2];
    /** The largest |t2 - t1| of a match on the common clock: the window's extension. */
    private long maxDelayNs, minDelayNs = Long.MAX_VALUE;
    /** First and last time (common clock) and packets per point. */
    final long[] first = {Long.MAX_VALUE, Long.MAX_VALUE}, last = {Long.MIN_VALUE, Long.MIN_VALUE};
    final long[] roce = new long[2];
    private long pendingPeak;

    /** @param windowNs how long a packet waits for its copy at the other point (plus the largest delay seen) */
    public CompareMatcher(long windowNs) {
        this.windowNs = windowNs;
    }

    /** One QP flow (one direction: flow ids are directional) and what each point saw of it. */
    public static final class Dir {
        final FlowKey key;
        final String id;
        final long[] packets = new long[2];
        long matched;
        /**
         * t2 - t1 of its matches: exact min and max on each point's own clock (the offset not removed), the
         * distribution on the common clock (less the offset the merge used).
         */
        long rawMin = Long.MAX_VALUE, rawMax = Long.MIN_VALUE;
        final Histogram raw = new Histogram();
        /** Request packets that arrived at a point after both points had seen that PSN (a resend). */
        final long[] again = new long[2];
        final Unmatched[] unmatched = {new Unmatched(), new Unmatched()};
        /**
         * The request PSNs seen at both points, the last {@link #SEEN} below the highest (a ring of bits: memory per
         * flow, not per packet; a resend of an older PSN is not counted, far beyond any sender's outstanding window).
         */
        private final long[] seen = new long[SEEN / 64];
        private int seenTop = -1;

        void markSeen(int psn) {
            if (seenTop < 0) seenTop = psn;
            int ahead = (psn - seenTop) & 0xFFFFFF;
            if (ahead != 0 && ahead < 0x800000) {
                if (ahead >= SEEN) java.util.Arrays.fill(seen, 0);
                else for (int i = 1; i <= ahead; i++) clear((seenTop + i) & 0xFFFFFF);
                seenTop = psn;
            } else if (((seenTop - psn) & 0xFFFFFF) >= SEEN) {
                return; // too old to keep
            }
            seen[(psn & (SEEN - 1)) >>> 6] |= 1L << (psn & 63);
        }

        boolean wasSeen(int psn) {
            if (seenTop < 0 || ((seenTop - psn) & 0xFFFFFF) >= SEEN) return false;
            return (seen[(psn & (SEEN - 1)) >>> 6] & (1L << (psn & 63))) != 0;
        }

        private void clear(int psn) {
            seen[(psn & (SEEN - 1)) >>> 6] &= ~(1L << (psn & 63));
        }

        /** MetaRoCE path_id -> packets per point (empty for RoCEv2). */
        final TreeMap<Integer, long[]> paths = new TreeMap<>();

        Dir(FlowKey key) {
            this.key = key;
            this.id = key.id();
        }

        public String id() { return id; }
    }

    /** The packets of one point that never matched: own clock, common clock, PSN and path, in time order. */
    static final class Unmatched {
        int n;
        long[] t = new long[8], common = new long[8];
        int[] psn = new int[8], path = new int[8];

        void add(long own, long c, int p, int pathId) {
            if (n == t.length) {
                t = java.util.Arrays.copyOf(t, n * 2);
                common = java.util.Arrays.copyOf(common, n * 2);
                psn = java.util.Arrays.copyOf(psn, n * 2);
                path = java.util.Arrays.copyOf(path, n * 2);
            }
            t[n] = own;
            common[n] = c;
            psn[n] = p;
            path[n++] = pathId;
        }
    }

    private record PacketKey(Dir dir, int psn, int opcode, long fingerprint) {}


    private static final class Pending {
        final PacketKey key;
        final long common, own;
        final int path;
        Pending prev, next;

        Pending(PacketKey key, long common, long own, int path) {
            this.key = key;
            this.common = common;
            this.own = own;
            this.path = path;
        }
    }

    /**
     * One RoCE packet at a point. Packets must come in order of {@code common} across both points (the merge).
     *
     * @param common the time on the common clock (point 1's; point 2's own time minus the clock offset)
     * @param own    the time on the point's own clock
     */
    public void packet(int point, FrameFacts f, long common, long own) {
        Dir d = dir(f);
        d.packets[point]++;
        roce[point]++;
        if (common < first[point]) first[point] = common;
        if (common > last[point]) last[point] = common;
        int path = f.mrth ? f.pathId : -1;
        if (path >= 0) d.paths.computeIfAbsent(path, k -> new long[2])[point]++;
        expire(common);
        PacketKey key = new PacketKey(d, f.psn, f.opcodeValue, f.fingerprint);
        boolean request = f.opcode != null && f.opcode.role() == OpcodeDef.Role.REQUEST && (f.opcodeKinds() & OpcodeKinds.UD) == 0;
        if (request && d.wasSeen(f.psn)) d.again[point]++;
        ArrayDeque<Pending> other = pending[1 - point].get(key);
        if (other != null) {
            Pending o = other.pollLast();
            if (other.isEmpty()) pending[1 - point].remove(key);
            unlink(1 - point, o);
            long t1 = point == P1 ? own : o.own, t2 = point == P2 ? own : o.own;
            d.matched++;
            long raw = t2 - t1;
            if (raw < d.rawMin) d.rawMin = raw;
            if (raw > d.rawMax) d.rawMax = raw;
            // The distribution on the common clock (t2 - t1 less the merge's offset): small numbers, fine buckets.
            long c = point == P2 ? common - o.common : o.common - common;
            d.raw.add(c);
            maxDelayNs = Math.max(maxDelayNs, Math.abs(c));
            minDelayNs = Math.min(minDelayNs, Math.abs(c));
            if (request) d.markSeen(f.psn);
            return;
        }
        Pending p = new Pending(key, common, own, path);
        pending[point].computeIfAbsent(key, k -> new ArrayDeque<>(2)).addLast(p);
        p.prev = tail[point];
        if (tail[point] == null) head[point] = p;
        else tail[point].next = p;
        tail[point] = p;
        waiting[point]++;
        pendingPeak = Math.max(pendingPeak, waiting[0] + waiting[1]);
    }

    private void unlink(int point, Pending p) {
        if (p.prev == null) head[point] = p.next;
        else p.prev.next = p.next;
        if (p.next == null) tail[point] = p.prev;
        else p.next.prev = p.prev;
        p.prev = p.next = null;
        waiting[point]--;
    }

    /** Ends the stream: every packet still waiting is unmatched. */
    public void end() {
        expireBefore(Long.MAX_VALUE);
    }

    private Dir dir(FrameFacts f) {
        probe.set(f.v6, f.srcHi, f.srcLo, f.dstHi, f.dstLo, f.destQp);
        Dir d = flows.get(probe);
        if (d == null) {
            FlowKey k = probe.copy();
            d = new Dir(k);
            flows.put(k, d);
        }
        return d;
    }

    private void expire(long now) {
        long limit = now - windowNs - maxDelayNs;
        if (limit > now) return; // overflow at the start of time
        expireBefore(limit);
    }

    private void expireBefore(long limit) {
        for (int p = 0; p < 2; p++) {
            Pending h;
            while ((h = head[p]) != null && h.common < limit) {
                unlink(p, h);
                ArrayDeque<Pending> same = pending[p].get(h.key);
                if (same != null) {
                    same.remove(h);
                    if (same.isEmpty()) pending[p].remove(h.key);
                }
                h.key.dir().unmatched[p].add(h.own, h.common, h.key.psn(), h.path);
            }
        }
    }

    /** Every flow seen at either point, in order of first sight. */
    public List<Dir> flows() { return new ArrayList<>(flows.values()); }

    /** The largest number of packets waiting for their match at once (the window's memory). */
    public long pendingPeak() { return pendingPeak; }

    /** The smallest |t2 - t1| of a match on the common clock (0 before any). */
    public long minDelayNs() { return minDelayNs == Long.MAX_VALUE ? 0 : minDelayNs; }

    /** The largest |t2 - t1| of a match on the common clock so far. */
    public long maxDelayNs() { return maxDelayNs; }

    /**
     * A distribution of signed nanosecond values in logarithmic buckets (exact below 256 ns, then 256 buckets per
     * power of two: within 0.4 %), so that a flow's delays take memory by their spread, not by their count.
     */
    static final class Histogram {
        final TreeMap<Long, long[]> buckets = new TreeMap<>();
        long count;

        void add(long v) {
            buckets.computeIfAbsent(bucket(v), k -> new long[1])[0]++;
            count++;
        }

        void addAll(Histogram h) {
            for (var e : h.buckets.entrySet()) buckets.computeIfAbsent(e.getKey(), k -> new long[1])[0] += e.getValue()[0];
            count += h.count;
        }

        /** The nearest-rank quantile (q in 0..1), as the value in the middle of its bucket; 0 when empty. */
        long quantile(double q) {
            if (count == 0) return 0;
            long rank = Math.max(1, (long) Math.ceil(q * count)), seenSoFar = 0;
            for (var e : buckets.entrySet()) {
                seenSoFar += e.getValue()[0];
                if (seenSoFar >= rank) return value(e.getKey());
            }
            return value(buckets.lastKey());
        }

        static long bucket(long v) {
            long m = v == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(v);
            long k;
            if (m < 256) k = m;
            else {
                int e = 63 - Long.numberOfLeadingZeros(m);
                k = (long) (e - 7) * 256 + ((m >>> (e - 8)) & 255);
            }
            return v < 0 ? -k : k;
        }

        static long value(long k) {
            long m = Math.abs(k);
            long v;
            if (m < 256) v = m;
            else {
                int e = (int) (m / 256) + 7;
                long sub = m % 256;
                long low = (256 + sub) << (e - 8);
                v = low + ((1L << (e - 8)) >> 1);
            }
            return k < 0 ? -v : v;
        }
    }
}
