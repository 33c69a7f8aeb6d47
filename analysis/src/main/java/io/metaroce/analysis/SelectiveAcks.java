package io.metaroce.analysis;

/**
 * MetaRoCE's selective acknowledgements (§12): MR-SACK (cumulative PSN plus a 64-PSN bitmap, naming the
 * arrival that triggered it) with per-path round trips and the losses the sender infers from FIFO paths, and
 * MR-NACK (a range of PSNs to resend, or receiver not ready). Not thread-safe.
 */
final class SelectiveAcks {
    private final AnalysisSettings settings;
    private final VerdictSink sink;
    private final FlowTable flows;
    private final Acknowledgements acks;
    private final RetransmissionVerdicts verdicts;
    private final UnseenAcks unseen;

    SelectiveAcks(AnalysisSettings settings, VerdictSink sink, FlowTable flows, Acknowledgements acks,
                  RetransmissionVerdicts verdicts, UnseenAcks unseen) {
        this.settings = settings;
        this.sink = sink;
        this.flows = flows;
        this.acks = acks;
        this.verdicts = verdicts;
        this.unseen = unseen;
    }

    /** An MR-SACK on flow g. */
    void sack(Flow g, FrameFacts f) {
        Flow fl = flows.about(g, f.sackCum, true);
        if (fl == null) fl = flows.about(g, f.psn, true);
        if (fl == null) {
            g.unattributedControl++;
            return;
        }
        fl.sacks++;
        if (!fl.started) return;
        SeqWindow w = fl.w;
        long minRtt = settings.minRttNs();
        long cum = Psn.unwrap(fl.maxU, f.sackCum);
        long base = Psn.unwrap(cum, f.sackBase);
        // RTT of the path the trigger took: SACK arrival minus the trigger's send (sender's tap).
        long trig = Psn.unwrap(fl.maxU, f.psn);
        if (fl.view == View.SENDER && w.contains(trig)) {
            int i = w.idx(trig);
            if ((w.state[i] & SeqWindow.SEEN) != 0 && w.txTs[i] == (int) f.sackEcho && w.path[i] == f.sackEchoPath) {
                long rtt = f.timeNs - w.lastTime[i];
                if (rtt >= 0) {
                    fl.path(f.sackEchoPath).rtt.add(rtt);
                    if (rtt < fl.minRtt) fl.minRtt = rtt;
                    if (rtt < 10_000_000) fl.srtt = (7 * fl.srtt + rtt) / 8;
                }
            }
        }
        if (fl.view == View.SENDER) verdicts.resolveSuspects(fl, f, trig);
        // A SACK names the arrival that triggered it: for a retransmitted PSN still waiting for its verdict,
        // the arrival of its earlier copy (before the new one could arrive: spurious) or of the new copy first.
        if (fl.view == View.SENDER && fl.pendingRetx != null && !fl.pendingRetx.isEmpty()) {
            Flow.PendingRetx p = fl.pendingRetx.remove(trig);
            // The triggering copy: one of the pending retransmissions, or an older copy (the original).
            Flow.PendingRetx trigger = null;
            for (Flow.PendingRetx q = p; q != null; q = q.older) if ((int) q.tx == (int) f.sackEcho) trigger = q;
            long generated = f.timeNs - fl.pathRtt(f.sackEchoPath, minRtt) / 2;
            for (Flow.PendingRetx q = p; q != null; q = q.older) {
                boolean spurious;
                if (q == trigger) spurious = false;
                else if (trigger != null && q.time < trigger.time) spurious = false;
                else spurious = generated < q.time + fl.pathRtt(q.path, minRtt) / 2;
                verdicts.decide(fl, q, spurious);
            }
        }
        if (f.sackCeCount != fl.lastCeCount) {
            if (fl.lastCeCount >= 0 && ((f.sackCeCount - fl.lastCeCount) & 0xFFFF) < 0x8000) fl.lastReactionTime = f.timeNs;
            fl.lastCeCount = f.sackCeCount;
        }
        unseen.inFrame = 0;
        acks.cover(fl, f, cum, true);
        long bm = f.sackBitmap;
        long highestSet = -1;
        if (bm != 0 && base > cum - 1) {
            int before = unseen.inFrame;
            for (int b = 0; b < 64; b++) {
                if ((bm >>> b & 1) == 0) continue;
                long u = base + b;
                if (u > fl.maxU) {
                    if (u - fl.maxU < 64 && w.ensure(u, RequestStream.keepFrom(fl, u))) fl.maxU = u;
                    else continue;
                }
                acks.coverOne(fl, f, u);
                highestSet = u;
            }
            if (unseen.inFrame > before) unseen.report(fl, f);
            if (fl.view != View.SENDER) gapsSeenByReceiver(fl, f, cum, highestSet);
        }
        if (fl.view == View.SENDER) gapsSeenBySender(fl, f);
        acks.releaseOld(fl);
    }

    /**
     * Sender's tap: paths are FIFO, so once a SACK acknowledged a later transmission on the same path, a copy
     * still unacknowledged is lost and the sender resends it (cause sack).
     */
    private static void gapsSeenBySender(Flow fl, FrameFacts f) {
        if (fl.pathAckedFrame == null) return;
        SeqWindow w = fl.w;
        long[] acked = fl.pathAckedFrame;
        for (long u = Math.max(fl.cumU, w.base); u <= fl.maxU; u++) {
            int i = w.idx(u);
            int st = w.state[i];
            if ((st & (SeqWindow.COVERED | SeqWindow.RESERVED)) != 0 || (st & SeqWindow.SEEN) == 0 || w.cause[i] != 0) continue;
            int path = w.path[i];
            if (path < acked.length && acked[path] > w.lastFrame[i]) {
                w.cause[i] = (byte) (Cause.SACK.ordinal() + 1);
                w.signalTime[i] = f.timeNs;
            }
        }
    }

    /**
     * Receiver's tap (or mirror): the sender infers a loss (cause sack) once a SACK acknowledged a later
     * transmission on the same (FIFO) path. A missing PSN's path is inferred from the round-robin spraying of
     * its neighbours; a PSN qualifies when a transmission sent after it (sender clock, tx_timestamp) on that
     * path was reported received (when the path cannot be inferred: on every path that carries traffic).
     */
    private static void gapsSeenByReceiver(Flow fl, FrameFacts f, long cum, long highestSet) {
        SeqWindow w = fl.w;
        if (fl.pathMaxTx == null) return;
        for (long u = Math.max(cum, w.base); u <= fl.maxU; u++) {
            int i = w.idx(u);
            int st = w.state[i];
            if ((st & SeqWindow.COVERED) != 0 || w.cause[i] != 0) continue;
            int path, tx;
            if ((st & SeqWindow.SEEN) != 0) {
                // Arrived but not reported yet (beyond the SACK bitmap): the sender cannot know.
                path = w.path[i];
                tx = w.txTs[i];
            } else {
                if (u >= highestSet) continue;
                long a = u - 1;
                while (a >= w.base && a > u - 16 && (w.state[w.idx(a)] & SeqWindow.SEEN) == 0) a--;
                if (a < w.base || a <= u - 16) continue;
                tx = w.txTs[w.idx(a)];
                path = fl.inferPath(u, a);
            }
            boolean eligible;
            if (path >= 0) {
                eligible = path < fl.pathMaxTx.length && fl.pathSeenTx[path] && fl.pathMaxTx[path] - tx > 0;
            } else {
                eligible = true;
                for (int p = 0; p < fl.pathMaxTx.length; p++) {
                    if (fl.pathSeenTx[p] && fl.pathMaxTx[p] - tx <= 0) eligible = false;
                }
            }
            if (eligible) {
                w.cause[i] = (byte) (Cause.SACK.ordinal() + 1);
                if (w.signalTime[i] == 0) w.signalTime[i] = f.timeNs;
            }
        }
    }

    /** An MR-NACK on flow g. */
    void nack(Flow g, FrameFacts f) {
        Flow fl = flows.about(g, f.nackFirst, true);
        if (fl == null) {
            g.unattributedControl++;
            return;
        }
        fl.nacks++;
        boolean rnr = f.nackReason == 0x11;
        boolean retransmit = f.nackReason == 0x00 || f.nackReason == 0x10 || rnr;
        long gen = -1;
        if (fl.started) {
            SeqWindow w = fl.w;
            long first = Psn.unwrap(fl.maxU, f.nackFirst);
            int count = Math.max(1, f.nackCount);
            if (rnr) fl.rnrNaks++;
            gen = acks.nakGeneration(fl, f, first);
            if (retransmit) {
                Cause c = rnr ? Cause.RNR : Cause.NACK;
                long recent = Math.max(2_000, fl.srtt / 2);
                for (long u = Math.max(first, w.base); u < first + count && u <= fl.maxU; u++) {
                    int i = w.idx(u);
                    if ((w.state[i] & SeqWindow.COVERED) != 0) continue;
                    // The sender keeps the cause of a retransmission it already queued, and ignores a NACK
                    // for a copy it sent very recently (visible at its own tap only).
                    if (w.cause[i] != 0) continue;
                    if (fl.view == View.SENDER && (w.state[i] & SeqWindow.SEEN) != 0 && f.timeNs - w.lastTime[i] <= recent) continue;
                    w.cause[i] = (byte) (c.ordinal() + 1);
                }
                fl.nackSignalTime = f.timeNs;
                fl.nackFromU = first;
                fl.nackToU = first + count;
                fl.nackResponded = false;
            }
        }
        sink.nack(fl, g, f, rnr, gen);
    }
}
