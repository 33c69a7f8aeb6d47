package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** --tap auto: the rule "the address in every RoCE frame" must never pick a multicast group as the capturing host. */
class TapResolverTest {
    private static FrameFacts frame(long srcHi, long srcLo, long dstHi, long dstLo, boolean v6) {
        FrameFacts f = new FrameFacts();
        f.roce = true;
        f.v6 = v6;
        f.srcHi = srcHi;
        f.srcLo = srcLo;
        f.dstHi = dstHi;
        f.dstLo = dstLo;
        f.ttl = -1;
        return f;
    }

    @Test
    void aMulticastGroupInEveryFrameIsNotTheHost() {
        // m3_ib2.pcap's GRH frames: one host's UD datagrams to an IPoIB multicast GID (ff12:401b::...)
        TapResolver r = new TapResolver();
        long host = 0xfe80000000000000L, hostLo = 0x0002c90300a1b2c3L, mcast = 0xff12401bffff0000L;
        for (int i = 0; i < 3; i++) r.add(frame(host, hostLo, mcast, 0xffffffffL, true));
        TapChoice c = r.resolve();
        assertEquals("host:fe80::2:c903:a1:b2c3", c.tap().toString(), c.how());
    }

    /**
     * The host tap is made from the address's bytes (no text and InetAddress parse): the same tap, bytes and text,
     * as {@code --tap host:IP} gives for IPv4, IPv6 and an IPv4-mapped IPv6 address.
     */
    @Test
    void theResolvedHostIsTheTapOfItsAddressText() {
        long[][] hosts = {{0, 0x0A000001L, 0}, {0, 0xC0A8FF0EL, 0}, {0xfe80000000000000L, 0x0002c90300a1b2c3L, 1},
                {0x20010db800000000L, 1, 1}, {0, 0x0000FFFF0A000102L, 1}};
        String[] text = {"10.0.0.1", "192.168.255.14", "fe80::2:c903:a1:b2c3", "2001:db8::1", "10.0.1.2"};
        for (int i = 0; i < hosts.length; i++) {
            long[] h = hosts[i];
            boolean v6 = h[2] == 1;
            TapResolver r = new TapResolver();
            r.add(frame(h[0], h[1], h[0], h[1] + 7, v6));
            r.add(frame(h[0], h[1] + 9, h[0], h[1], v6));
            AnalysisSettings.Tap got = r.resolve().tap(), want = AnalysisSettings.Tap.host(text[i]);
            assertEquals(want, got, text[i]);
            assertEquals("host:" + text[i], got.toString());
        }
    }

    @Test
    void multicastIsNeverACandidateButUnicastIs() {
        assertTrue(TapResolver.multicast(new TapResolver.Addr(0xff12401bffff0000L, 0, true)));
        assertTrue(TapResolver.multicast(new TapResolver.Addr(0, 0xE0000001L, false)));   // 224.0.0.1
        assertTrue(TapResolver.multicast(new TapResolver.Addr(0, 0xEFFFFFFFL, false)));   // 239.255.255.255
        assertFalse(TapResolver.multicast(new TapResolver.Addr(0, 0x0A000001L, false)));  // 10.0.0.1
        assertFalse(TapResolver.multicast(new TapResolver.Addr(0xfe80000000000000L, 1, true)));
    }

    /**
     * The two candidate slots decide exactly as the rule's plain statement: the set of addresses in every RoCE
     * frame so far, and the TTLs each source address sent with (the set-and-map form this class had before).
     * Random sequences over a small pool (so that addresses repeat, pairs reverse, multicast groups and
     * non-RoCE frames come in, and sets shrink to 0, 1 or 2 at any point), every prefix compared.
     */
    @Test
    void twoSlotsDecideAsTheSetOfAddressesInEveryFrame() {
        long[][] pool = {{0, 0x0A000001L}, {0, 0x0A000002L}, {0, 0x0A000003L}, {0, 0xE0000001L},
                {0xfe80000000000000L, 1}, {0xff12401bffff0000L, 0}};
        int[] ttls = {-1, 64, 63, 128, 255, 1, 32};
        Random rnd = new Random(20261202);
        int decisions = 0;
        Set<String> outcomes = new HashSet<>();
        for (int seq = 0; seq < 3000; seq++) {
            TapResolver r = new TapResolver();
            Reference ref = new Reference();
            int frames = 1 + rnd.nextInt(12);
            // Mostly one pair (or its reverse), sometimes any address: keeps both candidates alive often enough.
            long[] a = pool[rnd.nextInt(pool.length)], b = pool[rnd.nextInt(pool.length)];
            for (int i = 0; i < frames; i++) {
                long[] s = rnd.nextInt(8) == 0 ? pool[rnd.nextInt(pool.length)] : rnd.nextBoolean() ? a : b;
                long[] d = rnd.nextInt(8) == 0 ? pool[rnd.nextInt(pool.length)] : s == a ? b : a;
                FrameFacts f = frame(s[0], s[1], d[0], d[1], s[0] != 0 || d[0] != 0);
                f.roce = rnd.nextInt(10) != 0;
                f.ttl = ttls[rnd.nextInt(ttls.length)];
                r.add(f);
                ref.add(f);
                TapChoice got = r.resolve(), want = ref.resolve();
                assertEquals(want.tap().toString() + " / " + want.how(), got.tap().toString() + " / " + got.how(),
                        "sequence " + seq + " after frame " + i);
                outcomes.add(want.how().replaceAll("[0-9a-f.:]+ (is|sends)", "X $1"));
                decisions++;
            }
        }
        // Every branch of the rule was taken, so the comparison covered each of them.
        assertEquals(5, outcomes.size(), outcomes.toString());
        assertTrue(decisions > 10_000);
    }

    /**
     * A pre-read may stop once {@link TapResolver#decided()}: from that frame on, whatever follows, the rule's plain
     * statement (the reference) gives the answer it gave there. Random sequences as above, longer, every later
     * prefix compared; a decided() that said true while one address was still in every frame fails here.
     */
    @Test
    void aDecidedResolverKeepsItsAnswerWhateverFollows() {
        long[][] pool = {{0, 0x0A000001L}, {0, 0x0A000002L}, {0, 0x0A000003L}, {0, 0xE0000001L},
                {0xfe80000000000000L, 1}, {0xff12401bffff0000L, 0}};
        int[] ttls = {-1, 64, 63, 128, 255};
        Random rnd = new Random(20261203);
        int decidedEarly = 0, checked = 0;
        for (int seq = 0; seq < 3000; seq++) {
            TapResolver r = new TapResolver();
            Reference ref = new Reference();
            String atDecision = null;
            long[] a = pool[rnd.nextInt(pool.length)], b = pool[rnd.nextInt(pool.length)];
            int frames = 1 + rnd.nextInt(30);
            for (int i = 0; i < frames; i++) {
                long[] s = rnd.nextInt(6) == 0 ? pool[rnd.nextInt(pool.length)] : rnd.nextBoolean() ? a : b;
                long[] d = rnd.nextInt(6) == 0 ? pool[rnd.nextInt(pool.length)] : s == a ? b : a;
                FrameFacts f = frame(s[0], s[1], d[0], d[1], s[0] != 0 || d[0] != 0);
                f.roce = rnd.nextInt(10) != 0;
                f.ttl = ttls[rnd.nextInt(ttls.length)];
                r.add(f);
                ref.add(f);
                TapChoice want = ref.resolve();
                String now = want.tap() + " / " + want.how();
                if (atDecision != null) {
                    assertEquals(atDecision, now, "sequence " + seq + " changed its answer after decided(), at frame " + i);
                    checked++;
                } else if (r.decided()) {
                    atDecision = now;
                    assertEquals(AnalysisSettings.Tap.MIRROR, want.tap(), "sequence " + seq + " at frame " + i);
                    if (i < frames - 1) decidedEarly++;
                }
            }
        }
        assertTrue(decidedEarly > 300, "decided before the end in " + decidedEarly + " sequences");
        assertTrue(checked > 3000, checked + " frames after a decision");
        // One address in every frame so far: not decided, however many frames came.
        TapResolver one = new TapResolver();
        for (int i = 0; i < 100; i++) one.add(frame(0, 0x0A000001L, 0, 0x0A000002L + i, false));
        assertFalse(one.decided());
        one.add(frame(0, 0x0A000003L, 0, 0x0A000004L, false));
        assertTrue(one.decided());
    }

    /** The rule as first written: a set of addresses, pruned per frame, and a TTL count per source address. */
    private static final class Reference {
        private Set<List<Long>> common;
        private final Map<List<Long>, int[]> ttl = new HashMap<>();
        private long frames;

        void add(FrameFacts f) {
            if (!f.roce) return;
            frames++;
            List<Long> s = List.of(f.srcHi, f.srcLo, f.v6 ? 1L : 0L), d = List.of(f.dstHi, f.dstLo, f.v6 ? 1L : 0L);
            if (common == null) {
                common = new HashSet<>();
                if (!multicast(s)) common.add(s);
                if (!multicast(d)) common.add(d);
            } else {
                common.removeIf(x -> !x.equals(s) && !x.equals(d));
            }
            if (f.ttl >= 0) {
                boolean initial = f.ttl == 32 || f.ttl == 64 || f.ttl == 128 || f.ttl == 255;
                ttl.computeIfAbsent(s, k -> new int[2])[initial ? 0 : 1]++;
            }
        }

        private static boolean multicast(List<Long> a) {
            return TapResolver.multicast(new TapResolver.Addr(a.get(0), a.get(1), a.get(2) == 1));
        }

        TapChoice resolve() {
            // The notes are the production ones; only which address and which branch are the reference's.
            if (common == null || frames == 0) return new TapChoice(AnalysisSettings.Tap.MIRROR, "auto: no RoCE frames: mirror");
            if (common.size() == 1) {
                List<Long> a = common.iterator().next();
                return new TapChoice(AnalysisSettings.Tap.host(text(a)), "auto: " + text(a) + " is in every RoCE frame");
            }
            if (common.size() == 2) {
                @SuppressWarnings("unchecked")
                List<Long>[] two = common.toArray(new List[0]);
                int[] t0 = ttl.getOrDefault(two[0], new int[2]), t1 = ttl.getOrDefault(two[1], new int[2]);
                boolean i0 = t0[0] > 0 && t0[1] == 0, i1 = t1[0] > 0 && t1[1] == 0;
                boolean d0 = t0[1] > 0 && t0[0] == 0, d1 = t1[1] > 0 && t1[0] == 0;
                List<Long> pick = i0 && d1 ? two[0] : i1 && d0 ? two[1] : null;
                if (pick != null) {
                    return new TapChoice(AnalysisSettings.Tap.host(text(pick)), "auto: single host pair; " + text(pick)
                            + " sends with an initial TTL, its peer's arrive decremented");
                }
                return new TapChoice(AnalysisSettings.Tap.MIRROR, "auto: single host pair and the TTLs do not tell which host captured; "
                        + "judged as a mirror (give --tap host:IP)");
            }
            return new TapChoice(AnalysisSettings.Tap.MIRROR, "auto: no address is in every RoCE frame: mirror");
        }

        private static String text(List<Long> a) {
            return a.get(2) == 1 ? FlowKey.v6Text(a.get(0), a.get(1)) : io.metaroce.dissector.Addresses.ipv4((int) (long) a.get(1));
        }
    }
}
