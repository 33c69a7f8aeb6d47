package io.metaroce.validate;

import java.util.Arrays;

/**
 * Per-PSN facts of one request stream over a sliding window of unwrapped PSNs [base, base + capacity): what
 * the first copy of each PSN carried (for the ordered message checks and for comparing retransmissions), and
 * when acknowledgements covered it. Grows by doubling up to {@link #MAX}; beyond that it slides, so memory is
 * bounded per live QP whatever the capture length.
 */
final class PsnRing {
    static final int MAX = io.metaroce.analysis.StreamLimits.MAX_WINDOW;
    static final byte SEEN = 1, RESERVED = 2, RTX0 = 4, UNJUDGED = 8, SKIP = 16, TRUNC = 32, COVERED = 64;

    long base;
    private int mask;
    byte[] st;
    byte[] op;
    int[] payload, rethLen, readBack;
    long[] msgId, msgOff, rethVa, frame, time, coverTime, coverFrame;
    /** The first copy's bytes (a slice of the capture mapping, valid while the capture is open) and offsets in it. */
    java.lang.foreign.MemorySegment[] seg;
    int[] extOff, payOff, endOff;
    byte[] pad;

    PsnRing(long base) {
        this.base = base;
        alloc(256);
    }

    private void alloc(int cap) {
        mask = cap - 1;
        st = new byte[cap];
        op = new byte[cap];
        payload = new int[cap];
        rethLen = new int[cap];
        readBack = new int[cap];
        msgId = new long[cap];
        msgOff = new long[cap];
        rethVa = new long[cap];
        seg = new java.lang.foreign.MemorySegment[cap];
        extOff = new int[cap];
        payOff = new int[cap];
        endOff = new int[cap];
        pad = new byte[cap];
        frame = new long[cap];
        time = new long[cap];
        coverTime = new long[cap];
        coverFrame = new long[cap];
    }

    int capacity() { return mask + 1; }

    boolean contains(long u) { return u >= base && u < base + capacity(); }

    int idx(long u) { return (int) (u & mask); }

    /**
     * Makes room for u. Returns false when u is below the window. When the window has to slide, PSNs below the
     * new base are forgotten; the caller learns the new base from {@link #base}.
     */
    boolean ensure(long u) {
        if (u < base) return false;
        if (u < base + capacity()) return true;
        long need = u - base + 1;
        if (need <= MAX) {
            int cap = capacity();
            while (cap < need) cap <<= 1;
            grow(cap);
            return true;
        }
        long newBase = u - MAX + 1;
        for (long p = base; p < Math.min(newBase, base + capacity()); p++) clear(idx(p));
        base = newBase;
        if (capacity() < MAX) grow(MAX);
        return true;
    }

    /** Forgets PSNs below nb (acknowledged and judged). */
    void release(long nb) {
        if (nb <= base) return;
        for (long p = base; p < Math.min(nb, base + capacity()); p++) clear(idx(p));
        base = nb;
    }

    private void clear(int i) {
        st[i] = 0;
        seg[i] = null;
        coverTime[i] = 0;
        coverFrame[i] = 0;
        frame[i] = 0;
    }

    private void grow(int cap) {
        int oldCap = capacity();
        byte[] st0 = st, op0 = op;
        int[] pl0 = payload, rl0 = rethLen, rb0 = readBack;
        long[] mi0 = msgId, mo0 = msgOff, rv0 = rethVa, fr0 = frame, tm0 = time, ct0 = coverTime, cf0 = coverFrame;
        java.lang.foreign.MemorySegment[] sg0 = seg;
        int[] eo0 = extOff, po0 = payOff, en0 = endOff;
        byte[] pd0 = pad;
        int oldMask = oldCap - 1;
        alloc(cap);
        for (long u = base; u < base + oldCap; u++) {
            int o = (int) (u & oldMask), n = idx(u);
            st[n] = st0[o];
            op[n] = op0[o];
            payload[n] = pl0[o];
            rethLen[n] = rl0[o];
            readBack[n] = rb0[o];
            msgId[n] = mi0[o];
            msgOff[n] = mo0[o];
            rethVa[n] = rv0[o];
            seg[n] = sg0[o];
            extOff[n] = eo0[o];
            payOff[n] = po0[o];
            endOff[n] = en0[o];
            pad[n] = pd0[o];
            frame[n] = fr0[o];
            time[n] = tm0[o];
            coverTime[n] = ct0[o];
            coverFrame[n] = cf0[o];
        }
    }

    long memoryBytes() { return (long) capacity() * (1 + 1 + 4 * 6 + 8 * 9 + 1); }

    @Override
    public String toString() { return "PsnRing[" + base + "+" + capacity() + "]" + Arrays.toString(new int[0]); }
}
