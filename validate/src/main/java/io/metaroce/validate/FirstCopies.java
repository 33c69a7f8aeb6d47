package io.metaroce.validate;

import io.metaroce.analysis.PsnColumns;
import io.metaroce.analysis.RequestWindow;

/**
 * What the rules need per PSN of a request stream and the analysis engine does not keep: what the first copy
 * carried (for the ordered message checks MR-SEQ-002..005 and for comparing retransmissions, MR-RTX-002/003),
 * when a SACK or cumulative acknowledgement covered it (MR-RTX-004), and the rules' own marks. Columns of the
 * engine's window ({@link RequestWindow}), which decides what is held: there is one PSN window per stream, its
 * size, sliding and release are the engine's, and a slot is cleared when the engine takes it for a new PSN.
 */
final class FirstCopies extends PsnColumns {
    /** Rule marks of a slot: a copy was recorded, reserved by a READ, a copy with rtx = 0 was seen, ... */
    static final byte SEEN = 1, RESERVED = 2, RTX0 = 4, UNJUDGED = 8, SKIP = 16, TRUNC = 32, COVERED = 64;

    /** The engine's window these columns ride on. */
    final RequestWindow w;
    byte[] st, op, pad;
    int[] payload, rethLen, readBack, extOff, payOff, endOff;
    long[] msgId, msgOff, rethVa, frame, time, coverTime, coverFrame;
    /**
     * The first copy's bytes (the capture mapping or a slice of it, valid while the capture is open) and where the
     * frame starts in it (the offsets above are the frame's). An Object[], read back through a cast: a store into a
     * MemorySegment[] (an interface's array) is a type check that C2 compiled for the segment class the AOT
     * training's capture had, then undid (three traps, RuleEngine.request compiled twice) on a mapped capture.
     */
    Object[] seg;
    long[] segAt;

    private FirstCopies(RequestWindow w) { this.w = w; }

    /** The columns on the engine's window w, attached on first use. */
    static FirstCopies of(RequestWindow w) {
        if (w.columns() instanceof FirstCopies c) return c;
        FirstCopies c = new FirstCopies(w);
        w.attach(c);
        return c;
    }

    boolean contains(long u) { return w.contains(u); }

    int idx(long u) { return w.slot(u); }

    long base() { return w.base(); }

    @Override
    protected void allocate(int cap) {
        st = new byte[cap];
        op = new byte[cap];
        pad = new byte[cap];
        payload = new int[cap];
        rethLen = new int[cap];
        readBack = new int[cap];
        extOff = new int[cap];
        payOff = new int[cap];
        endOff = new int[cap];
        msgId = new long[cap];
        msgOff = new long[cap];
        rethVa = new long[cap];
        frame = new long[cap];
        time = new long[cap];
        coverTime = new long[cap];
        coverFrame = new long[cap];
        seg = new Object[cap];
        segAt = new long[cap];
    }

    @Override
    protected void grow(int oldCap, int cap, long from, long to) {
        byte[] st0 = st, op0 = op, pd0 = pad;
        int[] pl0 = payload, rl0 = rethLen, rb0 = readBack, eo0 = extOff, po0 = payOff, en0 = endOff;
        long[] mi0 = msgId, mo0 = msgOff, rv0 = rethVa, fr0 = frame, tm0 = time, ct0 = coverTime, cf0 = coverFrame;
        Object[] sg0 = seg;
        long[] sa0 = segAt;
        allocate(cap);
        for (long u = from; u <= to; u++) {
            int o = (int) (u & (oldCap - 1)), n = (int) (u & (cap - 1));
            st[n] = st0[o];
            op[n] = op0[o];
            pad[n] = pd0[o];
            payload[n] = pl0[o];
            rethLen[n] = rl0[o];
            readBack[n] = rb0[o];
            extOff[n] = eo0[o];
            payOff[n] = po0[o];
            endOff[n] = en0[o];
            msgId[n] = mi0[o];
            msgOff[n] = mo0[o];
            rethVa[n] = rv0[o];
            frame[n] = fr0[o];
            time[n] = tm0[o];
            coverTime[n] = ct0[o];
            coverFrame[n] = cf0[o];
            seg[n] = sg0[o];
            segAt[n] = sa0[o];
        }
    }

    @Override
    protected void clear(int i) {
        st[i] = 0;
        seg[i] = null;
        coverTime[i] = 0;
        coverFrame[i] = 0;
        frame[i] = 0;
    }
}
