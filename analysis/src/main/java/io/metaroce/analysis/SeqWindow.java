package io.metaroce.analysis;

import java.util.Arrays;

/**
 * Per-PSN state of one request stream over a sliding window of unwrapped PSNs [base, base + capacity):
 * whether a copy was captured, covered by an acknowledgement, reserved by a READ, received by the responder
 * (as far as the tap shows), the first and latest copy, and a pending retransmission cause. Struct of arrays,
 * grown by doubling up to a cap; the oldest slots are dropped when the window must slide (§11 e: memory
 * proportional to the reorder window, not to the capture).
 */
final class SeqWindow implements RequestWindow {
    static final int SEEN = 1, RESERVED = 2, COVERED = 4, RECEIVED = 8, RESP_SEEN = 16, GAP = 32, ORIGINAL = 64,
            UNSEEN_ACKED = (byte) 128;
    /**
     * The window behaves as one of at least this many PSNs: it never slides before holding that many, and
     * judges by this capacity. It starts physically at {@link #FIRST} slots (the 16 PSNs kept below the origin
     * and a few more) and grows to this size on demand, so that the many flows that send a packet or two (a
     * scan, a flood of QPs) cost half as much.
     */
    static final int INITIAL = 64;
    private static final int FIRST = 32;
    /** A PSN completes with its acknowledgement (normal) or only with its response (READ, atomic). */
    static final byte KIND_ACKED = 0, KIND_RESPONDED = 1;
    final int maxCapacity;

    private int cap, mask;
    long base = Long.MIN_VALUE;
    /** Highest slot in use (inclusive), or base - 1. */
    long top;

    byte[] state;
    byte[] cause;        // pending cause code (Cause ordinal + 1), 0 = none
    byte[] copies;       // captured copies, saturating
    byte[] respCause;    // cause carried by responses to the latest request copy (READ replay, atomic), 0 none
    byte[] ackReq;       // latest copy had ack_req
    byte[] kind;         // KIND_*: what completes this PSN at the requester
    int[] path;          // path of the latest copy
    int[] txTs;          // tx_timestamp of the latest copy
    int[] msg;           // index of the message slot, -1 none
    int[] episode;       // recovery episode id of the latest retransmission
    int[] lossPath;      // a network loss was counted for this PSN: the inferred path, -2 without path, -1 none
    long[] firstFrame, firstTime, lastFrame, lastTime;
    long[] signalTime;   // time of the pending cause signal, or of the arrival that showed this PSN missing
    long[] fingerprint;
    long[] respFrame;    // first captured response with this PSN
    /** A consumer's columns riding on this window (the validator's first-copy facts), or null. */
    private PsnColumns cols;
    private long origin;
    private int generation;

    SeqWindow(int maxCapacity) {
        this.maxCapacity = Integer.highestOneBit(Math.max(INITIAL, maxCapacity));
        alloc(FIRST);
    }

    private void alloc(int c) {
        cap = c;
        mask = c - 1;
        state = new byte[c];
        cause = new byte[c];
        copies = new byte[c];
        respCause = new byte[c];
        ackReq = new byte[c];
        kind = new byte[c];
        path = new int[c];
        txTs = new int[c];
        msg = new int[c];
        episode = new int[c];
        lossPath = new int[c];
        firstFrame = new long[c];
        firstTime = new long[c];
        lastFrame = new long[c];
        lastTime = new long[c];
        signalTime = new long[c];
        fingerprint = new long[c];
        respFrame = new long[c];
        Arrays.fill(msg, -1);
        Arrays.fill(lossPath, -1);
    }

    boolean started() { return base != Long.MIN_VALUE; }

    /** The capacity the window judges by (at least {@link #INITIAL}, also while physically smaller). */
    int capacity() { return Math.max(cap, INITIAL); }

    void start(long u) {
        origin = u;
        generation++;
        base = u - Math.min(16, capacity() / 4);
        top = base - 1;
        for (long p = base; p < u; p++) clear(idx(p));
    }

    int idx(long u) { return (int) (u & mask); }

    @Override
    public boolean contains(long u) { return u >= base && u <= top; }

    /** Makes room for PSN u (>= base), sliding or growing; returns false if u is below the window. */
    boolean ensure(long u, long keepFrom) {
        if (u < base) return false;
        if (u <= top) return true;
        // Physically smaller than INITIAL: grow where a window of INITIAL slots would still have room.
        while (u - base >= cap && cap < INITIAL) grow();
        if (u - base >= cap) {
            // Grow while the live part [keepFrom, u] does not fit.
            while (u - Math.max(base, keepFrom) >= cap && cap < maxCapacity) grow();
            // The slots dropped below the new base need no clearing here: each is the slot of a PSN in (top, u]
            // (p + cap, or every slot when the jump is a window or more), which the loop below clears. Clearing
            // them here too cleared every new PSN's slot twice once the window slides (SeqWindow.clear was 1.2 %
            // of analyze's samples under C1 alone).
            base = Math.max(base, u - cap + 1);
            if (top < base - 1) top = base - 1;
        }
        if (u == top + 1) {
            // The common case, one new PSN: its slot cleared here, not by a call per PSN (clear is too large for
            // C1 to inline, and ensure runs for every new request PSN); validate's columns too (they took the loop
            // below and its two calls per PSN: SeqWindow.clear took 15 of the 560 ms of validate's analysis thread
            // under C1 alone on 1 M frames).
            int i = (int) (u & mask);
            state[i] = 0;
            cause[i] = 0;
            copies[i] = 0;
            respCause[i] = 0;
            ackReq[i] = 0;
            kind[i] = 0;
            msg[i] = -1;
            episode[i] = 0;
            lossPath[i] = -1;
            firstFrame[i] = 0;
            lastFrame[i] = 0;
            signalTime[i] = 0;
            respFrame[i] = 0;
            if (cols != null) cols.clear(i);
        } else {
            for (long p = top + 1; p <= u; p++) clear(idx(p));
        }
        top = u;
        return true;
    }

    /** Drops slots below {@code newBase} (they are known to be no longer needed). */
    void release(long newBase) {
        if (newBase <= base) return;
        long end = Math.min(newBase, top + 1);
        for (long p = base; p < end; p++) clear(idx(p));
        base = newBase;
        if (top < base - 1) top = base - 1;
    }

    private void grow() {
        int oldCap = cap;
        byte[] st = state, ca = cause, co = copies, rc = respCause, ar = ackReq, kd = kind;
        int[] pa = path, tx = txTs, ms = msg, ep = episode, lp = lossPath;
        long[] ff = firstFrame, ft = firstTime, lf = lastFrame, lt = lastTime, sg = signalTime, fp = fingerprint, rf = respFrame;
        alloc(oldCap * 2);
        for (long p = base; p <= top; p++) {
            int o = (int) (p & (oldCap - 1)), n = idx(p);
            state[n] = st[o]; cause[n] = ca[o]; copies[n] = co[o]; respCause[n] = rc[o]; ackReq[n] = ar[o]; kind[n] = kd[o]; path[n] = pa[o]; txTs[n] = tx[o]; msg[n] = ms[o];
            episode[n] = ep[o]; lossPath[n] = lp[o]; firstFrame[n] = ff[o]; firstTime[n] = ft[o]; lastFrame[n] = lf[o]; lastTime[n] = lt[o];
            signalTime[n] = sg[o]; fingerprint[n] = fp[o]; respFrame[n] = rf[o];
        }
        if (cols != null) cols.grow(oldCap, cap, base, top);
    }

    /** Resets slot i for a new PSN (what {@link #ensure} writes out for its common case: keep the two alike). */
    private void clear(int i) {
        state[i] = 0;
        cause[i] = 0;
        copies[i] = 0;
        respCause[i] = 0;
        ackReq[i] = 0;
        kind[i] = 0;
        msg[i] = -1;
        episode[i] = 0;
        lossPath[i] = -1;
        firstFrame[i] = 0;
        lastFrame[i] = 0;
        signalTime[i] = 0;
        respFrame[i] = 0;
        if (cols != null) cols.clear(i);
    }

    @Override public long origin() { return origin; }

    @Override public int generation() { return generation; }

    @Override public long base() { return base; }

    @Override public long top() { return top; }

    @Override public int slot(long u) { return idx(u); }

    @Override public PsnColumns columns() { return cols; }

    @Override
    public void attach(PsnColumns c) {
        c.allocate(cap);
        cols = c;
    }

    long respFrame(int i) { return respFrame[i]; }

    void setRespFrame(int i, long frame) { respFrame[i] = frame; }

    boolean has(long u, int bit) { return contains(u) && (state[idx(u)] & bit) != 0; }

    void set(long u, int bit) { state[idx(u)] |= (byte) bit; }

    void unset(long u, int bit) { state[idx(u)] &= (byte) ~bit; }

    /** Records a captured copy of PSN u. */
    void copy(long u, long frame, long time, int pathId, long tx, long fp) {
        int i = idx(u);
        if ((state[i] & SEEN) == 0 || firstFrame[i] == 0) {
            firstFrame[i] = frame;
            firstTime[i] = time;
        }
        state[i] |= SEEN;
        if (copies[i] < 127) copies[i]++;
        lastFrame[i] = frame;
        lastTime[i] = time;
        path[i] = pathId;
        txTs[i] = (int) tx;
        fingerprint[i] = fp;
    }
}
