package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisSettings.Tap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Resolves {@code --tap auto} (§11: "auto infers it when one address is in every frame"). Fed the first frames
 * of a capture: the host tap is the address present in every RoCE frame. When two addresses are (a single
 * host pair), the IP TTL / hop limit decides: packets a host sends are captured before any router, so they
 * carry an initial TTL (64, 128, 255) while the peer's arrive decremented. Otherwise: mirror.
 */
final class TapResolver {
    /** The initial TTLs of common stacks (a hop count still at one of them: the packet was captured at its sender). */
    private static boolean initialTtl(int ttl) { return ttl == 32 || ttl == 64 || ttl == 128 || ttl == 255; }
    private Set<Addr> common;
    private final Map<Addr, int[]> ttls = new HashMap<>(); // [initial-looking, other]
    private long frames;

    record Addr(long hi, long lo, boolean v6) {
        // Written out: a record's generated equals and hashCode go through invokedynamic method handles, which
        // the JIT compiles at length for these few thousand calls per capture.
        @Override
        public boolean equals(Object o) {
            return o instanceof Addr a && a.lo == lo && a.hi == hi && a.v6 == v6;
        }

        @Override
        public int hashCode() {
            long h = lo * 0x9E3779B97F4A7C15L ^ hi * 31;
            return (int) (h ^ (h >>> 32)) ^ (v6 ? 1 : 0);
        }
    }

    void add(FrameFacts f) {
        if (!f.roce) return;
        frames++;
        Addr s = new Addr(f.srcHi, f.srcLo, f.v6), d = new Addr(f.dstHi, f.dstLo, f.v6);
        if (common == null) {
            // A multicast group never captures: only unicast addresses can be the host the tap sits on.
            common = new HashSet<>();
            if (!multicast(s)) common.add(s);
            if (!multicast(d)) common.add(d);
        } else if (!common.isEmpty()) {
            for (var it = common.iterator(); it.hasNext(); ) {
                Addr a = it.next();
                if (!a.equals(s) && !a.equals(d)) it.remove();
            }
        }
        if (f.ttl >= 0) {
            int[] t = ttls.get(s);
            if (t == null) ttls.put(s, t = new int[2]);
            t[initialTtl(f.ttl) ? 0 : 1]++;
        }
    }

    long frames() { return frames; }

    /** The resolved tap and a note saying how. */
    TapChoice resolve() {
        if (common == null || frames == 0) return new TapChoice(Tap.MIRROR, "auto: no RoCE frames: mirror");
        if (common.size() == 1) {
            Addr a = common.iterator().next();
            return new TapChoice(host(a), "auto: " + text(a) + " is in every RoCE frame");
        }
        if (common.size() == 2) {
            Addr[] two = common.toArray(new Addr[0]);
            int[] t0 = ttls.getOrDefault(two[0], new int[2]), t1 = ttls.getOrDefault(two[1], new int[2]);
            boolean i0 = t0[0] > 0 && t0[1] == 0, i1 = t1[0] > 0 && t1[1] == 0;
            boolean d0 = t0[1] > 0 && t0[0] == 0, d1 = t1[1] > 0 && t1[0] == 0;
            Addr pick = i0 && d1 ? two[0] : i1 && d0 ? two[1] : null;
            if (pick != null) {
                return new TapChoice(host(pick), "auto: single host pair; " + text(pick)
                        + " sends with an initial TTL, its peer's arrive decremented");
            }
            return new TapChoice(Tap.MIRROR, "auto: single host pair and the TTLs do not tell which host captured; "
                    + "judged as a mirror (give --tap host:IP)");
        }
        return new TapChoice(Tap.MIRROR, "auto: no address is in every RoCE frame: mirror");
    }

    /** IPv6 ff00::/8 or IPv4 224.0.0.0/4 (IPv4-mapped GIDs are keyed as IPv4). */
    static boolean multicast(Addr a) {
        return a.v6 ? (a.hi >>> 56) == 0xFF : ((int) a.lo >>> 28) == 0xE;
    }

    private static Tap host(Addr a) { return Tap.host(text(a)); }

    private static String text(Addr a) { return a.v6 ? FlowKey.v6Text(a.hi, a.lo) : io.metaroce.dissector.Addresses.ipv4((int) a.lo); }
}
