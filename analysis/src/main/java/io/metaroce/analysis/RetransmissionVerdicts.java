package io.metaroce.analysis;

import java.util.ArrayDeque;

/**
 * The verdicts a retransmission waits for. At the sender's tap (and a mirror) whether a copy was spurious
 * shows only in the acknowledgement that follows: such copies stay pending on their flow until decided. For
 * MetaRoCE at the sender's tap, whether the copy a retransmission replaced was lost (and on which path) shows
 * in the SACKs that follow: those copies are kept as loss suspects. Not thread-safe.
 */
final class RetransmissionVerdicts {
    private final AnalysisSettings settings;
    private final VerdictSink sink;
    private final MetaRoceControl control;

    RetransmissionVerdicts(AnalysisSettings settings, VerdictSink sink, MetaRoceControl control) {
        this.settings = settings;
        this.sink = sink;
        this.control = control;
    }

    /**
     * The verdict of a pending retransmission superseded or given up on without an acknowledgement: at the
     * sender's tap not spurious (its next copy shows the first was not enough), at a mirror unknown (null):
     * nothing shows whether the receiver had the PSN.
     */
    static Boolean undecided(Flow fl) { return fl.view == View.MIRROR ? null : Boolean.FALSE; }

    /**
     * Decides a retransmission seen at the sender's tap or a mirror once its PSN is acknowledged (or given up
     * on). spurious null: unknown, the frame keeps no spurious verdict.
     */
    void decide(Flow fl, Flow.PendingRetx p, Boolean spurious) {
        sink.spuriousDecided(fl, p, spurious);
        // The receiver had the PSN: the copy this one replaced was not lost. (RoCEv2 resends everything after
        // a loss, go-back-N: a needed resend shows no loss of its own, the NAK names the lost PSN; a MetaRoCE
        // copy that was needed is judged lost or not by the SACKs that follow, see resolveSuspects.)
        if (Boolean.TRUE.equals(spurious) && p.suspect != null) p.suspect[0] = Long.MIN_VALUE;
    }

    /** Decides p and the older copies of its PSN still pending behind it. */
    void decideChain(Flow fl, Flow.PendingRetx p, Boolean spurious) {
        for (; p != null; p = p.older) decide(fl, p, spurious);
    }

    /** Gives up on a flow's pending retransmissions (its state is released). */
    void release(Flow fl) {
        if (fl.pendingRetx != null) {
            for (Flow.PendingRetx p : fl.pendingRetx.values()) decideChain(fl, p, undecided(fl));
            fl.pendingRetx = null;
        }
    }

    /** The end of the pass: what is still pending stays undecided (a mirror's become unknown). */
    void finish(Flow fl) {
        if (fl.pendingRetx == null) return;
        for (Flow.PendingRetx p : fl.pendingRetx.values()) {
            if (fl.view == View.MIRROR) {
                decideChain(fl, p, null);
                continue;
            }
            for (; p != null; p = p.older) sink.spuriousUndecidedAtEnd(p);
        }
        fl.pendingRetx = null;
    }

    /**
     * MetaRoCE at the sender's tap: the copy a retransmission replaces is lost unless the receiver says it
     * arrived. A SACK echoing it (it triggers one whenever it arrives out of order or as a duplicate) clears it;
     * a SACK triggered by a later transmission on the same FIFO path confirms the loss, on that path.
     * Returns the suspect {PSN, tx_timestamp, path, time, frame}.
     */
    long[] lostSuspect(Flow fl, long u, int tx, int path, long time, long frame) {
        if (fl.suspects == null) fl.suspects = new ArrayDeque<>();
        if (fl.suspects.size() >= 4096) fl.suspects.poll();
        long[] sp = {u, tx & 0xFFFFFFFFL, path, time, frame};
        fl.suspects.add(sp);
        return sp;
    }

    /** A SACK triggered by PSN trig (unwrapped) at the sender's tap decides the suspects it can. */
    void resolveSuspects(Flow fl, FrameFacts f, long trig) {
        if (fl.suspects == null || fl.suspects.isEmpty()) return;
        int echo = (int) f.sackEcho;
        // A copy on a path that went silent is never overtaken on its own path: after twice the slowest round
        // trip of the flow without an echo, it is lost too.
        long patience = 2 * fl.maxPathRtt(settings.minRttNs());
        for (var it = fl.suspects.iterator(); it.hasNext(); ) {
            long[] sp = it.next();
            if (sp[0] == Long.MIN_VALUE || (sp[0] == trig && (int) sp[1] == echo)) {
                it.remove(); // it arrived
            } else if ((sp[2] == f.sackEchoPath && echo - (int) sp[1] > 0) || echo - (int) sp[1] > patience) {
                it.remove();
                fl.networkLosses++;
                PathStats ps = fl.path((int) sp[2]);
                ps.lost++;
                ps.lastLossFrame = sp[4];
                ps.lastLossTime = sp[3];
                control.checkPathLoss(fl, ps, sp[4], sp[3]);
            }
        }
    }
}
