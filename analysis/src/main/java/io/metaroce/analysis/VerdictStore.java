package io.metaroce.analysis;

import java.util.Arrays;

/**
 * Per-frame verdicts of the sequential pass, kept compactly for rendering later (Wireshark's "computed once,
 * rendered many times"). Only notable frames get an entry: frame number, a flag word and a few coded values
 * in a shared pool, all in primitive arrays appended in frame order. Flags of an earlier entry can still be
 * set when later frames decide them (spurious at a sender tap, CE without CNP).
 *
 * <p>Acknowledgement coverage, which concerns nearly every data frame, is not stored per data frame: one
 * record per acknowledging frame and newly covered PSN run (flow, first PSN, count) answers
 * {@code acked_by_frame} and {@code ack_rtt_ns} for any data frame by lookup.
 */
final class VerdictStore {
    // Flags.
    static final int RETX = 1, SPURIOUS = 2, OOO = 4, DUP = 8, ACK_UNSEEN = 16, CE_NO_CNP = 32, CE = 64,
            PENDING = 128, CAUSE_SHIFT = 8, CAUSE_MASK = 7 << CAUSE_SHIFT,
            INFERRED = 1 << 11, REPEAT_RESP = 1 << 12, ACK_FIRST = 1 << 13,
            /** A retransmission whose spuriousness the capture never decided (the pass ended first). */
            UNDECIDED = 1 << 14;
    // Value codes.
    static final int V_ORIGINAL = 1, V_REORDER = 2, V_GAP = 3, V_NAK_GEN = 4, V_NAK_RESP = 5, V_RTX_LAT = 6, V_MSG_ID = 7,
            V_MSG_DONE = 8, V_REQUEST = 9;
    private static final long VALUE_MASK = (1L << 56) - 1;

    private long[] frames = new long[256];
    private int[] flags = new int[256];
    private int[] valStart = new int[256];
    private short[] valCount = new short[256];
    private int size;
    private long[] pool = new long[512];
    private int poolSize;

    // The entry being built for the current frame.
    private long curFrame = -1;
    private int curFlags, curStart;

    // Acknowledgement runs.
    private long[] ackFrame = new long[256], ackTime = new long[256];
    private int[] ackFlow = new int[256], ackFrom = new int[256], ackCount = new int[256];
    private int ackSize;
    private int[] byFlow, flowStart;

    // ------------------------------------------------------------------ building (engine side)

    void begin(long frame) {
        curFrame = frame;
        curFlags = 0;
        curStart = poolSize;
    }

    void flag(int f) { curFlags |= f; }

    void cause(Cause c) { curFlags = (curFlags & ~CAUSE_MASK) | ((c.ordinal() + 1) << CAUSE_SHIFT); }

    void value(int code, long v) {
        if (poolSize == pool.length) pool = Arrays.copyOf(pool, pool.length * 2);
        pool[poolSize++] = ((long) code << 56) | (v & VALUE_MASK);
    }

    /** Closes the current frame's entry; returns its index or -1 when nothing was recorded. */
    int end() {
        if (curFrame < 0) return -1;
        int n = poolSize - curStart;
        long f = curFrame;
        curFrame = -1;
        if (curFlags == 0 && n == 0) return -1;
        if (size == frames.length) {
            int c = size * 2;
            frames = Arrays.copyOf(frames, c);
            flags = Arrays.copyOf(flags, c);
            valStart = Arrays.copyOf(valStart, c);
            valCount = Arrays.copyOf(valCount, c);
        }
        frames[size] = f;
        flags[size] = curFlags;
        valStart[size] = curStart;
        valCount[size] = (short) Math.min(n, Short.MAX_VALUE);
        return size++;
    }

    /** Sets flags on an earlier (or the current) frame's entry. */
    void setFlags(long frame, int f) {
        if (frame == curFrame) {
            curFlags |= f;
            return;
        }
        int i = find(frame);
        if (i >= 0) flags[i] |= f;
    }

    void clearFlags(long frame, int f) {
        if (frame == curFrame) {
            curFlags &= ~f;
            return;
        }
        int i = find(frame);
        if (i >= 0) flags[i] &= ~f;
    }

    void ackRun(long frame, long time, int flow, int fromPsn, int count) {
        if (count <= 0) return;
        if (ackSize > 0 && ackFrame[ackSize - 1] == frame && ackFlow[ackSize - 1] == flow
                && ((ackFrom[ackSize - 1] + ackCount[ackSize - 1]) & Psn.MASK) == fromPsn) {
            ackCount[ackSize - 1] += count;
            return;
        }
        if (ackSize == ackFrame.length) {
            int c = ackSize * 2;
            ackFrame = Arrays.copyOf(ackFrame, c);
            ackTime = Arrays.copyOf(ackTime, c);
            ackFlow = Arrays.copyOf(ackFlow, c);
            ackFrom = Arrays.copyOf(ackFrom, c);
            ackCount = Arrays.copyOf(ackCount, c);
        }
        ackFrame[ackSize] = frame;
        ackTime[ackSize] = time;
        ackFlow[ackSize] = flow;
        ackFrom[ackSize] = fromPsn;
        ackCount[ackSize] = count;
        ackSize++;
        byFlow = null;
    }

    // ------------------------------------------------------------------ reading (provider side)

    public int size() { return size; }

    public int ackRuns() { return ackSize; }

    /** Bytes the arrays hold (their capacity), including the per-flow order of the acknowledgement runs once built. */
    public long memoryBytes() {
        int[] order = byFlow, starts = flowStart;
        return (long) frames.length * (8 + 4 + 4 + 2) + pool.length * 8L + (long) ackFrame.length * (8 + 8 + 4 + 4 + 4)
                + (order == null || starts == null ? 0 : order.length * 4L + starts.length * 4L);
    }

    /** Entry index of a frame, or -1. */
    public int find(long frame) {
        int i = Arrays.binarySearch(frames, 0, size, frame);
        return i >= 0 ? i : -1;
    }

    public long frameAt(int i) { return frames[i]; }

    public int flagsAt(int i) { return flags[i]; }

    /** The cause recorded on entry i, or null. */
    public Cause causeAt(int i) {
        int c = (flags[i] & CAUSE_MASK) >>> CAUSE_SHIFT;
        return c == 0 ? null : Cause.values()[c - 1];
    }

    public int valueCount(int i) { return valCount[i]; }

    public int valueCode(int i, int k) { return (int) (pool[valStart[i] + k] >>> 56); }

    public long valueAt(int i, int k) { return pool[valStart[i] + k] & VALUE_MASK; }

    /** First value with this code on entry i, or -1. */
    public long value(int i, int code) {
        for (int k = 0; k < valCount[i]; k++) if (valueCode(i, k) == code) return valueAt(i, k);
        return -1;
    }

    /** The typed verdict of a frame (every flag false and every value null when none was stored). */
    public FrameVerdict verdict(long frame) {
        int i = find(frame);
        if (i < 0) return FrameVerdict.none(frame);
        int fl = flags[i];
        boolean retx = (fl & RETX) != 0;
        int open = PENDING | UNDECIDED;
        FrameVerdict.Spurious sp = !retx || (fl & (SPURIOUS | open)) == 0 ? FrameVerdict.Spurious.NO
                : (fl & open) != 0 ? FrameVerdict.Spurious.UNDECIDED : FrameVerdict.Spurious.YES;
        return new FrameVerdict(frame, retx, retx ? causeAt(i) : null, sp, retx && (fl & INFERRED) != 0,
                (fl & REPEAT_RESP) != 0, (fl & ACK_FIRST) != 0, (fl & OOO) != 0, (fl & DUP) != 0, (fl & ACK_UNSEEN) != 0,
                (fl & CE) != 0, (fl & CE_NO_CNP) != 0, boxed(i, V_ORIGINAL), boxed(i, V_REQUEST), boxed(i, V_REORDER),
                boxed(i, V_GAP), boxed(i, V_NAK_GEN), boxed(i, V_NAK_RESP), boxed(i, V_RTX_LAT), boxed(i, V_MSG_ID),
                boxed(i, V_MSG_DONE));
    }

    private Long boxed(int i, int code) {
        for (int k = 0; k < valCount[i]; k++) if (valueCode(i, k) == code) return valueAt(i, k);
        return null;
    }

    /**
     * The acknowledgement run that first covered {@code psn} of flow {@code flow} after frame {@code frame}:
     * returns its index (see {@link #ackFrameAt}, {@link #ackTimeAt}) or -1.
     */
    public int ackedBy(int flow, int psn, long frame) {
        if (byFlow == null) index();
        if (flow < 0 || flow + 1 >= flowStart.length) return -1;
        int lo = flowStart[flow], hi = flowStart[flow + 1];
        // First run of this flow after the frame.
        int a = lo, b = hi;
        while (a < b) {
            int m = (a + b) >>> 1;
            if (ackFrame[byFlow[m]] <= frame) a = m + 1;
            else b = m;
        }
        for (int k = a, n = 0; k < hi && n < 100_000; k++, n++) {
            int r = byFlow[k];
            if (((psn - ackFrom[r]) & Psn.MASK) < ackCount[r]) return r;
        }
        return -1;
    }

    public long ackFrameAt(int r) { return ackFrame[r]; }

    public long ackTimeAt(int r) { return ackTime[r]; }

    private synchronized void index() {
        if (byFlow != null) return;
        int flows = 0;
        for (int i = 0; i < ackSize; i++) flows = Math.max(flows, ackFlow[i] + 1);
        int[] start = new int[flows + 1];
        for (int i = 0; i < ackSize; i++) start[ackFlow[i] + 1]++;
        for (int f = 0; f < flows; f++) start[f + 1] += start[f];
        int[] pos = Arrays.copyOf(start, flows + 1);
        int[] order = new int[ackSize];
        for (int i = 0; i < ackSize; i++) order[pos[ackFlow[i]]++] = i;
        flowStart = start;
        byFlow = order;
    }
}
