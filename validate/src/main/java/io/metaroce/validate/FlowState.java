package io.metaroce.validate;

import io.metaroce.analysis.CmPairing;
import io.metaroce.analysis.QpFlow;
import io.metaroce.analysis.View;
import java.util.ArrayDeque;
import java.util.HashMap;

/** What the validator keeps per QP flow (one direction to one destination QP, spec §12). */
final class FlowState {
    /** The analysis engine's flow this rule state belongs to (one flow table, one pairing: the engine's). */
    final QpFlow flow;
    final String id;
    final View view;
    /** The engine's pairing, as of the last time the rules looked this flow up. */
    FlowState peer;
    /** The CM announcement whose parameters the rules applied (the engine's {@link QpFlow#announced()}). */
    CmPairing.Side announced;
    boolean ud;
    /** The engine evicted its flow (the flow bound): dropped from the rules' tables. */
    boolean evicted;

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

    // Request stream: the rules' columns on the engine's window, and the engine's stream they belong to.
    FirstCopies ring;
    int generation;
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
    /** mFamily as RuleEngine numbers the spec's families (one number per string). */
    int mFamilyId;
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

    // Report data (null unless an HTML report is wanted).
    Plot plot;

    FlowState(QpFlow flow) {
        this.flow = flow;
        this.id = flow.id();
        this.view = flow.view();
    }

    void addSack(long[] s) {
        sackHist[sackCount % sackHist.length] = s;
        sackCount++;
    }

    long rtt(long configured) { return minRtt == Long.MAX_VALUE ? configured : Math.min(configured, minRtt); }
}
