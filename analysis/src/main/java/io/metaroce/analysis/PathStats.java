package io.metaroce.analysis;

/** Per (flow, path_id) health (§12): packets, losses attributed to the path, CE marks, RTT, probes. */
final class PathStats {
    final int id;
    long packets, bytes, firstSends, retransmissionsOn, lost, lostInferred, ceMarks, mrCnps;
    final Latency rtt = new Latency();
    // Probes sent on this path (by the flow's sender) and their replies.
    long probes, probesAnswered, probesUnanswered;
    int consecutiveUnanswered;
    long lastProbeSeq = -1, lastProbeTx, lastProbeTime, lastProbeFrame;
    boolean lastProbeAnswered = true;
    long lastProbeTick;
    boolean down;
    String downReason;
    long downFrame, lastLossFrame, lastLossTime;

    PathStats(int id) { this.id = id; }

    double lossRate() { return firstSends + retransmissionsOn == 0 ? 0 : (double) lost / (firstSends + retransmissionsOn); }
}
