package io.metaroce.analysis;

import io.metaroce.dissector.Addresses;

/**
 * Key of a QP flow (§12): source address, destination address, destination QP. Addresses are held as two
 * longs (IPv4 in the low 32 bits with hi = 0 and {@code v6} false) so that lookups allocate nothing: the
 * engine keeps one mutable probe key and only copies it when a new flow is created (as does every consumer that
 * keys its own per-flow state by the engine's flows: {@link #set} a probe, {@link #copy} it to store).
 */
public final class FlowKey {
    boolean v6;
    long srcHi, srcLo, dstHi, dstLo;
    int qp;

    public FlowKey() {}

    FlowKey(boolean v6, long srcHi, long srcLo, long dstHi, long dstLo, int qp) {
        set(v6, srcHi, srcLo, dstHi, dstLo, qp);
    }

    public FlowKey set(boolean v6, long srcHi, long srcLo, long dstHi, long dstLo, int qp) {
        this.v6 = v6;
        this.srcHi = srcHi;
        this.srcLo = srcLo;
        this.dstHi = dstHi;
        this.dstLo = dstLo;
        this.qp = qp;
        return this;
    }

    public FlowKey copy() { return new FlowKey(v6, srcHi, srcLo, dstHi, dstLo, qp); }

    /** The two hosts of this flow, any QP (qp -1): the key under which host-pair state is kept. */
    public FlowKey hosts() { return new FlowKey(v6, srcHi, srcLo, dstHi, dstLo, -1); }

    /** The two hosts of the opposite direction, any QP (qp -1). */
    public FlowKey reverseHosts() { return reverse(-1); }

    /** The key of the opposite direction towards QP {@code peerQp}. */
    FlowKey reverse(int peerQp) { return new FlowKey(v6, dstHi, dstLo, srcHi, srcLo, peerQp); }

    public boolean ipv6() { return v6; }

    public int destQp() { return qp; }

    public String src() { return v6 ? v6Text(srcHi, srcLo) : Addresses.ipv4((int) srcLo); }

    public String dst() { return v6 ? v6Text(dstHi, dstLo) : Addresses.ipv4((int) dstLo); }

    /** {@code "<src ip>><dst ip>/0x<dest_qp, 6 lowercase hex digits>"}. */
    public String id() { return id(src(), dst(), qp); }

    /**
     * The flow id of a direction given as in {@link FrameFacts} (IPv4 in the low 32 bits, hi 0): the one
     * formatting of flow ids, used wherever one is printed or looked up.
     */
    public static String id(boolean v6, long srcHi, long srcLo, long dstHi, long dstLo, int qp) {
        return id(v6 ? v6Text(srcHi, srcLo) : Addresses.ipv4((int) srcLo), v6 ? v6Text(dstHi, dstLo) : Addresses.ipv4((int) dstLo), qp);
    }

    static String id(String src, String dst, int qp) {
        StringBuilder b = new StringBuilder(src.length() + dst.length() + 10);
        b.append(src).append('>').append(dst).append("/0x");
        String h = Integer.toHexString(qp & 0xFFFFFF);
        for (int i = h.length(); i < 6; i++) b.append('0');
        return b.append(h).toString();
    }

    boolean sameSrc(long hi, long lo) { return srcHi == hi && srcLo == lo; }

    boolean sameDst(long hi, long lo) { return dstHi == hi && dstLo == lo; }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlowKey k && k.qp == qp && k.srcLo == srcLo && k.dstLo == dstLo && k.srcHi == srcHi
                && k.dstHi == dstHi && k.v6 == v6;
    }

    @Override
    public int hashCode() {
        long h = srcLo * 0x9E3779B97F4A7C15L + dstLo * 0xC2B2AE3D27D4EB4FL + srcHi * 31 + dstHi * 17 + qp * 0x165667B1L;
        h ^= h >>> 29;
        return (int) (h ^ (h >>> 32)) ^ (v6 ? 1 : 0);
    }

    @Override
    public String toString() { return id(); }

    // ------------------------------------------------------------------ address helpers

    static String v6Text(long hi, long lo) {
        byte[] a = new byte[16];
        for (int i = 0; i < 8; i++) {
            a[i] = (byte) (hi >>> (56 - 8 * i));
            a[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return Addresses.ipv6(a);
    }

    /** Text of an address given as 16 bytes (IPv4-mapped addresses print dotted, as flow ids do for IPv4). */
    static String addressText(long hi, long lo) {
        if (hi == 0 && (lo >>> 32) == 0xFFFFL) return Addresses.ipv4((int) lo);
        return v6Text(hi, lo);
    }

    static long hi(byte[] a16) {
        long v = 0;
        for (int i = 0; i < 8; i++) v = (v << 8) | (a16[i] & 0xFF);
        return v;
    }

    static long lo(byte[] a16) {
        long v = 0;
        for (int i = 8; i < 16; i++) v = (v << 8) | (a16[i] & 0xFF);
        return v;
    }
}
