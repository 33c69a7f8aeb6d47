package io.metaroce.analysis;

import io.metaroce.protocol.OpcodeDef;

/**
 * Why a PSN was sent again (§12): the signal that preceded it (a NAK, RNR NAK, MR-NACK or SACK noted on the
 * PSN, or the go-back-N recovery episode a NAK started), else a timeout; how long the sender took to react to
 * the signal; and RoCEv2 resend runs whose first copies the tap never saw. Stateless: the episodes live on the
 * flow.
 */
final class RetransmissionCauses {
    /** Copies a sender queues at once leave back to back: within this of each other (a 4 KB frame at 40 Gb/s). */
    static final long BACK_TO_BACK_NS = 1_000;

    /** A NAK or RNR NAK naming fromU at time: a go-back-N recovery episode begins (when the sender reacts). */
    void signal(Flow fl, Cause c, long fromU, long time) {
        if (fl.epi != null && fl.epi.startTime != 0) fl.prevEpi = fl.epi;
        fl.epi = new Flow.Episode(++fl.episodeIds, c, fromU, time);
    }

    /** The cause of a retransmission of u (window slot i, -1 outside the window) at time now. */
    Cause cause(Flow fl, long u, int i, long now) {
        SeqWindow w = fl.w;
        if (i >= 0 && w.cause[i] != 0) {
            Cause c = Cause.values()[w.cause[i] - 1];
            w.cause[i] = 0;
            return c;
        }
        Flow.Episode e = activeEpisode(fl, u, now);
        if (e != null && e.covers(u) && (i < 0 || w.episode[i] != e.id)) {
            // Part of the go-back-N run the signal started (each PSN once per run).
            if (i >= 0) w.episode[i] = e.id;
            return e.cause;
        }
        return Cause.TIMEOUT;
    }

    /**
     * The episode a retransmission of u belongs to: the latest signalled one once its go-back began (the first
     * resend of the signalled PSN), else the one before (copies still arriving from the previous run).
     */
    private static Flow.Episode activeEpisode(Flow fl, long u, long now) {
        Flow.Episode e = fl.epi;
        if (e == null) return null;
        if (e.startTime == 0) {
            // The reaction is a go-back to the signalled PSN: copies before its resend (still in flight from an
            // earlier run, or sent before the signal reached the sender) belong to the previous episode.
            if (u != e.fromU) return fl.prevEpi;
            e.startTime = now;
            e.endU = fl.maxU;
        }
        return e;
    }

    /**
     * A timer episode: the sender's timer fires once and resends one or more PSNs back to back. Counted as one
     * timeout (RoCEv2: a go-back run; MetaRoCE: the PSNs one timer expiry queued).
     */
    void timeout(Flow fl, FrameFacts f, long u) {
        // RoCEv2: a go-back run climbs with nothing new sent in between; a timer run after new data is the next expiry.
        boolean sameRun = fl.lastRetxCause == Cause.TIMEOUT && fl.lastRetxU != Long.MIN_VALUE
                && (f.tver == 1 ? f.timeNs - fl.lastRetxTime <= BACK_TO_BACK_NS
                        : u > fl.lastRetxU && fl.lastNewFrame < fl.lastRetxFrame);
        if (!sameRun) fl.timeouts++;
    }

    /** The time from the NAK, RNR NAK or MR-NACK to the sender's first resend it caused, or -1. */
    long nakResponse(Flow fl, FrameFacts f, long u, Cause cause) {
        if (fl.view == View.RECEIVER) return -1;
        long lat = -1;
        Flow.Episode e = fl.epi;
        if ((cause == Cause.NAK || cause == Cause.RNR) && e != null && e.cause == cause && e.startTime == f.timeNs && !e.responded) {
            e.responded = true;
            lat = f.timeNs - e.signalTime;
        } else if ((cause == Cause.NACK || cause == Cause.RNR) && !fl.nackResponded && u >= fl.nackFromU && u < fl.nackToU) {
            fl.nackResponded = true;
            lat = f.timeNs - fl.nackSignalTime;
        }
        return lat;
    }

    /**
     * RoCEv2 at a tap other than the sender's: whether PSN u, beyond the highest PSN seen, is part of a go-back-N
     * resend run whose first copies were lost before the tap. Evidence, all required: the run was started by a
     * NAK or RNR NAK and has begun; the flow's previous request resent u - 1 with nothing new since; u continues
     * that message (middle or last packet); and the sender had stopped sending new PSNs before that signal (the
     * last first copy the tap saw is older than it). A sender that was still sending when the signal came goes
     * back, resends up to where it was and then continues with new PSNs, which must not count.
     */
    boolean insideResendRun(Flow fl, FrameFacts f, long u) {
        if (fl.view == View.SENDER || fl.lastRetxU != u - 1 || fl.lastRetxFrame <= fl.lastNewFrame) return false;
        OpcodeDef.Segment seg = f.opcode.segment();
        if (seg != OpcodeDef.Segment.MIDDLE && seg != OpcodeDef.Segment.LAST) return false;
        Flow.Episode e = fl.epi;
        if (e == null || e.startTime == 0 || fl.lastRetxCause != e.cause) return false;
        if (fl.lastNewFrame == 0 || fl.lastNewTime >= e.signalTime) return false;
        // The sender had sent u before going back: the run reaches it.
        if (e.endU < u) e.endU = u;
        return true;
    }
}
