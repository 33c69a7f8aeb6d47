package io.metaroce.analysis;

import java.util.Arrays;

/**
 * MetaRoCE control (§12): credit grants and credit stalls, path probes and their replies, and path health
 * (a path goes down on unanswered or missing probes, or on a loss rate well above its siblings'). Not
 * thread-safe.
 */
final class MetaRoceControl {
    private final AnalysisSettings settings;
    private final VerdictSink sink;
    private final FlowTable flows;

    MetaRoceControl(AnalysisSettings settings, VerdictSink sink, FlowTable flows) {
        this.settings = settings;
        this.sink = sink;
        this.flows = flows;
    }

    /** An MR-CREDIT on flow g: the PSN up to which g's peer may send. */
    void credit(Flow g, FrameFacts f) {
        Flow fl = flows.about(g, -1, false);
        if (fl == null || !fl.started) {
            // A grant before the first request: applied when the data flow starts.
            g.pendingGrant = f.creditPsn;
            if (fl != null) fl.credit = true;
            return;
        }
        fl.credit = true;
        long granted = Psn.unwrap(fl.maxU, f.creditPsn);
        if (granted > fl.grantedU) fl.grantedU = granted;
    }

    /** An MR-CREDIT seen before the data flow started applies to it. */
    void adoptGrant(Flow fl) {
        Flow from = fl.peer;
        if (from == null) {
            for (Flow c : flows.reverseFlows(fl)) {
                if (c.pendingGrant >= 0 && c.peer == null) {
                    if (from != null) return;
                    from = c;
                }
            }
        }
        if (from == null || from.pendingGrant < 0) return;
        fl.credit = true;
        fl.grantedU = Psn.unwrap(fl.maxU + 1, from.pendingGrant);
        from.pendingGrant = -1;
    }

    /** Credit mode: a sender that used all its credit and sent nothing new for at least one RTT (§12). */
    void creditCheck(Flow fl, FrameFacts f) {
        if (fl.stallSince >= 0) {
            long stall = f.timeNs - fl.stallSince;
            if (stall >= fl.rttEstimate(settings.minRttNs())) sink.creditStall(fl, f, stall);
            fl.stallSince = -1;
        }
        if (fl.grantedU != Long.MIN_VALUE && fl.maxU + 1 >= fl.grantedU) fl.stallSince = f.timeNs;
    }

    /** An MR-PROBE (opcode 0xE4) or MR-PROBE-REPLY on flow g. */
    void probe(Flow g, FrameFacts f) {
        if (f.opcodeValue == 0xE4) {
            g.probes++;
            g.probeTick++;
            PathStats ps = g.path(f.pathId);
            if (ps.lastProbeSeq >= 0 && !ps.lastProbeAnswered) {
                ps.probesUnanswered++;
                ps.consecutiveUnanswered++;
                if (ps.consecutiveUnanswered >= 3 && g.view != View.RECEIVER) pathDown(g, ps, f, "unanswered_probes");
            }
            ps.probes++;
            ps.lastProbeSeq = f.probeSeq;
            ps.lastProbeTx = f.txTs;
            ps.lastProbeTime = f.timeNs;
            ps.lastProbeFrame = f.number;
            ps.lastProbeAnswered = false;
            ps.lastProbeTick = g.probeTick;
            if (g.view == View.RECEIVER && g.maxPath > 0) silentPaths(g, f);
        } else {
            // MR-PROBE-REPLY: it answers a probe sent the other way on the same path.
            g.probeReplies++;
            Flow prober = g.peer;
            if (prober == null || !answers(prober, f)) {
                prober = null;
                for (Flow c : flows.reverseFlows(g)) if (answers(c, f)) { prober = c; break; }
            }
            if (prober == null) return;
            PathStats ps = prober.path(f.pathId);
            ps.lastProbeAnswered = true;
            ps.probesAnswered++;
            ps.consecutiveUnanswered = 0;
            if (prober.view == View.SENDER) ps.rtt.add(f.timeNs - ps.lastProbeTime);
        }
    }

    private static boolean answers(Flow prober, FrameFacts f) {
        if (prober.paths == null || f.pathId >= prober.paths.length) return false;
        PathStats ps = prober.paths[f.pathId];
        return ps != null && ps.lastProbeSeq == f.probeSeq && !ps.lastProbeAnswered;
    }

    /** At the replier's tap a dead path shows as silence: its probes stop while the other paths' go on. */
    private void silentPaths(Flow g, FrameFacts f) {
        int active = 0;
        for (PathStats p : g.paths) if (p != null && p.probes > 0) active++;
        for (PathStats p : g.paths) {
            if (p == null || p.probes == 0 || p.down) continue;
            if (g.probeTick - p.lastProbeTick > 3L * active) pathDown(g, p, f, "probes_missing");
        }
    }

    /** The loss-rate rule: a path losing more than 1 % and over three times the median of its siblings is down. */
    void checkPathLoss(Flow fl, PathStats ps, long frame, long time) {
        if (ps.down || fl.paths == null) return;
        long sent = ps.firstSends + ps.retransmissionsOn;
        if (sent < 100 || ps.lost < 5) return; // not on a handful of samples
        double rate = ps.lossRate();
        if (rate <= 0.01) return;
        double[] others = new double[fl.paths.length];
        int n = 0;
        for (PathStats p : fl.paths) {
            if (p == null || p == ps || p.firstSends + p.retransmissionsOn < 20) continue;
            others[n++] = p.lossRate();
        }
        if (n == 0) return;
        Arrays.sort(others, 0, n);
        double median = n % 2 == 1 ? others[n / 2] : (others[n / 2 - 1] + others[n / 2]) / 2;
        if (rate > 3 * median) sink.pathDown(fl, ps, frame, time, "loss_rate", round4(rate), round4(median), null);
    }

    /** The end of the pass: the loss-rate rule once more over the whole capture (it was checked at each loss). */
    void finish(Flow fl) {
        if (fl.paths == null) return;
        for (PathStats ps : fl.paths) if (ps != null && ps.lost > 0) checkPathLoss(fl, ps, ps.lastLossFrame, ps.lastLossTime);
    }

    private static double round4(double v) { return Math.round(v * 10000) / 10000.0; }

    private void pathDown(Flow g, PathStats ps, FrameFacts f, String reason) {
        if (ps.down) return;
        sink.pathDown(g, ps, f.number, f.timeNs, reason, null, null,
                ps.consecutiveUnanswered > 0 ? ps.consecutiveUnanswered : null);
    }
}
