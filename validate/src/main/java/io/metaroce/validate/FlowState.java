package io.metaroce.validate;

import io.metaroce.analysis.View;
import java.util.ArrayDeque;
import java.util.HashMap;

/** What the validator keeps per QP flow (one direction to one destination QP, spec §12). */
final class FlowState {
    final boolean v6;
    final long sHi, sLo, dHi, dLo;
    final int qp;
    final String id;
    final View view;
    final int index;
    FlowState peer;
    boolean ud;

    // Transport constants of the direction (MR-HDR-006, MR-PATH-*).
    int tver = -1;
    long tverFrame;
    int spray = -1;
    long sprayFrame;
    int basePort = -1;
    boolean basePortCm;
    long basePortFrame;
    int pathCount;
    int cmSpray = -1;
    boolean credit;
    int pmtu;
    String pmtuSource;
    long pmtuFrame;
    int cmStartPsn = -1;
    long packets, lastActivity;
    long minRtt = Long.MAX_VALUE;

    // Request stream.
    PsnRing ring;
    boolean started;
    long origin, maxU, softEndU = Long.MIN_VALUE, softMinU = Long.MIN_VALUE, softReadU, softReadLen, cumU;
    long lastReqTime, lastReqFrame;
    /** Responder emulation (go-back-N) at the receiver's tap: the next PSN the responder expects. */
    long ePsnU;
    // Ordered (PSN order) message state: SEQ-002..005.
    long cursorU, cursorStuckSince;
    static final int M_SYNC = 0, M_IDLE = 1, M_IN = 2;
    int mState = M_SYNC;
    long mFirstU, mFirstFrame, mRethLen, mRethVa, mSum, mMsgId, mPrevMsgId = -1, mPrevEndU = Long.MIN_VALUE;
    String mFamily;
    boolean mSprayed;
    // RoCEv2 NAK awaiting the first repeated PSN (MR-RTX-001).
    long nakU = Long.MIN_VALUE, nakCausal, nakFrame, nakFrameTime, lastRepeatU = Long.MIN_VALUE;
    // Credit grants that reached this direction's sender: [time, grantedU, frame] (MR-CC-003).
    final ArrayDeque<long[]> grants = new ArrayDeque<>();
    boolean creditSeen;
    // Gaps at a receiver or mirror tap waiting to be told from reordering: [frame, time, fromU, count].
    final ArrayDeque<long[]> gaps = new ArrayDeque<>();

    // This flow as the sender of acknowledgements and control packets about its peer's requests.
    int lastMsn = -1;
    long lastMsnFrame;
    final long[][] sackHist = new long[64][];
    int sackCount;
    long lastCnpTime = Long.MIN_VALUE / 4, lastCnpFrame;
    HashMap<Integer, long[]> mrCnp;
    final long[][] probes = new long[32][];
    int probeCount;

    // Report data (null unless an HTML report is wanted).
    Plot plot;

    FlowState(int index, boolean v6, long sHi, long sLo, long dHi, long dLo, int qp, String id, View view) {
        this.index = index;
        this.v6 = v6;
        this.sHi = sHi;
        this.sLo = sLo;
        this.dHi = dHi;
        this.dLo = dLo;
        this.qp = qp;
        this.id = id;
        this.view = view;
    }

    void addSack(long[] s) {
        sackHist[sackCount % sackHist.length] = s;
        sackCount++;
    }

    void addProbe(long[] p) {
        probes[probeCount % probes.length] = p;
        probeCount++;
    }

    long rtt(long configured) { return minRtt == Long.MAX_VALUE ? configured : Math.min(configured, minRtt); }
}
