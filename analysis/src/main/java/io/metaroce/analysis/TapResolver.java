package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisSettings.Tap;

/**
 * Resolves {@code --tap auto} (§11: "auto infers it when one address is in every frame"). Fed the first frames
 * of a capture: the host tap is the address present in every RoCE frame. When two addresses are (a single
 * host pair), the IP TTL / hop limit decides: packets a host sends are captured before any router, so they
 * carry an initial TTL (64, 128, 255) while the peer's arrive decremented. Otherwise: mirror.
 */
final class TapResolver {
    /** The initial TTLs of common stacks (a hop count still at one of them: the packet was captured at its sender). */
    private static boolean initialTtl(int ttl) { return ttl == 32 || ttl == 64 || ttl == 128 || ttl == 255; }

    /**
     * The addresses still in every RoCE frame: at most the two of the first frame (the set only shrinks), so two
     * slots instead of a set of records. Each slot counts the TTLs of the frames its address sent; only a
     * surviving slot's counts are read, and a survivor was a candidate from the first frame on, so they are the
     * counts of every frame it sent. Per frame: a few compares, no object, and little code for the JIT (these
     * frames are the first of the pass, when the compilers have the whole analysis still to compile).
     */
    private final Candidate[] candidates = {new Candidate(), new Candidate()};
    private boolean started;
    private long frames;

    record Addr(long hi, long lo, boolean v6) {}

    /** One address that may be the tap host, and the TTLs of the frames it sent: [initial-looking, other]. */
    private static final class Candidate {
        boolean alive;
        long hi, lo;
        boolean v6;
        int initial, other;

        boolean is(long h, long l, boolean six) { return alive && lo == l && hi == h && v6 == six; }
    }

    void add(FrameFacts f) {
        if (!f.roce) return;
        frames++;
        Candidate c0 = candidates[0], c1 = candidates[1];
        if (!started) {
            // A multicast group never captures: only unicast addresses can be the host the tap sits on.
            started = true;
            take(c0, f.srcHi, f.srcLo, f.v6);
            if (!(c0.alive && c0.hi == f.dstHi && c0.lo == f.dstLo)) take(c1, f.dstHi, f.dstLo, f.v6);
        } else {
            for (Candidate c : candidates) {
                if (c.alive && !c.is(f.srcHi, f.srcLo, f.v6) && !c.is(f.dstHi, f.dstLo, f.v6)) c.alive = false;
            }
        }
        if (f.ttl >= 0) {
            Candidate s = c0.is(f.srcHi, f.srcLo, f.v6) ? c0 : c1.is(f.srcHi, f.srcLo, f.v6) ? c1 : null;
            if (s != null) {
                if (initialTtl(f.ttl)) s.initial++;
                else s.other++;
            }
        }
    }

    private static void take(Candidate c, long hi, long lo, boolean v6) {
        c.hi = hi;
        c.lo = lo;
        c.v6 = v6;
        c.alive = !multicast(new Addr(hi, lo, v6));
    }

    long frames() { return frames; }

    /**
     * True when no further frame can change {@link #resolve()}: both candidates are gone (the set only shrinks, and
     * the TTL counts are read only for a survivor), so the answer is a mirror whatever follows. A pre-read of a
     * capture with many hosts can stop here instead of reading {@link Analyzer#PRESCAN_FRAMES} RoCE frames.
     */
    boolean decided() { return started && !candidates[0].alive && !candidates[1].alive; }

    /** The resolved tap and a note saying how. */
    TapChoice resolve() {
        if (!started || frames == 0) return new TapChoice(Tap.MIRROR, "auto: no RoCE frames: mirror");
        Candidate c0 = candidates[0], c1 = candidates[1];
        if (c0.alive != c1.alive) {
            Candidate a = c0.alive ? c0 : c1;
            return new TapChoice(host(a), "auto: " + text(a) + " is in every RoCE frame");
        }
        if (c0.alive) {
            boolean i0 = c0.initial > 0 && c0.other == 0, i1 = c1.initial > 0 && c1.other == 0;
            boolean d0 = c0.other > 0 && c0.initial == 0, d1 = c1.other > 0 && c1.initial == 0;
            Candidate pick = i0 && d1 ? c0 : i1 && d0 ? c1 : null;
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

    /**
     * The host tap of a candidate, its 16 bytes made from the address itself (IPv4 as IPv4-mapped, as
     * {@link Tap#host(String)} keeps it): going through the text and {@code Tap.host} parsed it with
     * {@code InetAddress.ofLiteral}, whose first use initialises {@code InetAddress} and reads the JDK's security
     * properties file, 3-7 ms of CPU at the start of every pass that --tap auto resolves to a host.
     */
    private static Tap host(Candidate a) {
        byte[] b = new byte[16];
        if (a.v6) {
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (a.hi >>> (56 - 8 * i));
                b[8 + i] = (byte) (a.lo >>> (56 - 8 * i));
            }
        } else {
            b[10] = (byte) 0xFF;
            b[11] = (byte) 0xFF;
            for (int i = 0; i < 4; i++) b[12 + i] = (byte) (a.lo >>> (24 - 8 * i));
        }
        return new Tap(Tap.Kind.HOST, b);
    }

    private static String text(Candidate a) { return a.v6 ? FlowKey.v6Text(a.hi, a.lo) : io.metaroce.dissector.Addresses.ipv4((int) a.lo); }
}
