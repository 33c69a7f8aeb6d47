package io.metaroce.analysis.diagnosis;

import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * "Why did this QP die?" (issue 15, item 1): per requester direction, from its resends and what came back.
 *
 * <ul>
 * <li>never answered: the first PSN resent and nothing ever came back (addressing, GID, routing);</li>
 * <li>a QP that resent its oldest unacknowledged PSN at least twice after the last answer died; why is decided
 *     across QPs: <b>link down</b> when every peer of the local host fell silent before its first resend (and it
 *     has dead QPs to two peers or more), <b>peer stopped</b> when every QP of that peer fell silent, else
 *     <b>retry exhaustion</b> (the peer still answers other QPs: loss on this QP's path). It gave up when it
 *     sent nothing for two resend intervals before the capture ended; otherwise it is still retrying;</li>
 * <li>recovered: NAK sequence errors (loss with later packets arriving), timeouts (tail loss), RNR NAKs.</li>
 * </ul>
 * The resend interval gives the local ACK timeout exponent t (4.096 us x 2^t), the resend count the retries.
 */
final class QpFailures {
    private QpFailures() {}

    static final long TIMEOUT_UNIT_NS = 4096;

    static List<Finding> diagnose(List<QpDirection> all, long endNs) {
        List<Finding> out = new ArrayList<>();
        for (QpDirection r : all) {
            // RoCEv2 go-back-N only: MetaRoCE resends selectively by SACK and has its own path health.
            if (!r.acknowledged()) continue;
            Finding f = death(r, all, endNs);
            if (f != null) {
                out.add(f);
                continue;
            }
            out.addAll(recovered(r));
        }
        return out;
    }

    /** The interval between resends of the run's PSN (or from its first copy to the first resend). */
    static long interval(QpDirection r) {
        if (r.runBursts >= 2) return r.runMinGap;
        return r.runOriginalNs >= 0 ? r.runFirstNs - r.runOriginalNs : -1;
    }

    static Integer exponent(long intervalNs) {
        if (intervalNs <= 0) return null;
        return (int) Math.max(0, Math.round(Math.log((double) intervalNs / TIMEOUT_UNIT_NS) / Math.log(2)));
    }

    private static Finding death(QpDirection r, List<QpDirection> all, long endNs) {
        if (r.runBursts == 0 || r.outstanding() == 0) return null;
        boolean neverAnswered = r.answers == 0 && r.runPsn == r.firstPsn;
        // The answer that triggered the first resend (a NAK) may carry the same timestamp as the resend.
        boolean silentRetries = r.runBursts >= 2 && r.lastAnswerNs >= 0 && r.lastAnswerNs <= r.runFirstNs;
        if (!neverAnswered && !silentRetries) return null;
        long interval = interval(r);
        // A NIC gives up one timeout after its last retry: silence for two intervals means it did.
        boolean gaveUp = interval > 0 && endNs - r.lastRequestNs > 2 * interval;
        long started = r.runOriginalNs >= 0 ? r.runOriginalNs : r.runFirstNs;
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("psn", r.runPsn);
        d.put("retries", r.runTimeouts);
        d.put("resend_bursts", r.runBursts);
        d.put("resend_interval_ns", interval > 0 ? interval : null);
        Integer t = exponent(interval);
        d.put("local_ack_timeout", t);
        d.put("gave_up", gaveUp);
        d.put("last_answer_frame", r.lastAnswerNs >= 0 ? r.lastAnswerFrame : null);
        d.put("last_request_frame", r.lastRequestFrame);
        d.put("outstanding_psns", r.outstanding());
        List<Long> ev = evidence(r);
        String timer = t == null ? "" : String.format(" every %.1f us (local_ack_timeout %d: 4.096 us x 2^%d)", interval / 1e3, t, t);
        String end = gaveUp ? " then silence (retry count exceeded)" : ", still retrying when the capture ends";
        if (neverAnswered) {
            return new Finding("qp-never-answered", r.id, "never_answered", r.firstRequestNs,
                    "the first request (PSN " + r.firstPsn + ") was never answered: resent " + r.runBursts + " times" + timer
                            + end + "; check the GID index, addresses and routing",
                    ev, d);
        }
        String cause, rule, why;
        QpDirection silentPort = linkDown(r, all);
        if (silentPort != null) {
            cause = "link_down";
            rule = "qp-link-down";
            long lastRx = lastReceived(r.srcHi, r.srcLo, all);
            d.put("last_frame_received_ns", lastRx);
            d.put("peers_silent", peersOf(r, all));
            why = "every peer of " + r.src + " fell silent at the same instant (link down)";
        } else if (peerStopped(r, all)) {
            cause = "peer_stopped";
            rule = "qp-peer-stopped";
            why = "the peer " + r.dst + " stopped answering on every QP while requests still went out";
        } else if (r.maxAckedLen > 0 && r.runOriginalLen > r.maxAckedLen) {
            // Smaller packets of this QP got through, the first larger one never does: the path MTU the QP uses
            // is above what a link carries (an MTU black hole), not random loss.
            cause = "mtu_blackhole";
            rule = "qp-mtu-blackhole";
            d.put("lost_frame_bytes", r.runOriginalLen);
            d.put("largest_acked_frame_bytes", r.maxAckedLen);
            why = "the lost packet is a " + r.runOriginalLen + "-byte frame while frames up to " + r.maxAckedLen
                    + " bytes were acknowledged: a link on the path drops frames this long (path MTU above the link MTU)";
        } else {
            cause = gaveUp ? "retry_exhausted" : "retrying";
            rule = gaveUp ? "qp-retry-exhausted" : "qp-retrying";
            why = "the peer " + r.dst + " still answers other QPs: this QP's packets or answers are lost on its path";
        }
        return new Finding(rule, r.id, cause, started,
                "PSN " + r.runPsn + " resent " + r.runBursts + " times (" + r.runTimeouts + " ACK timeouts)" + timer + end + "; " + why, ev, d);
    }

    private static List<Long> evidence(QpDirection r) {
        List<Long> ev = new ArrayList<>();
        if (r.lastAnswerNs >= 0) ev.add(r.lastAnswerFrame);
        for (int i = 0; i < r.runEvidenceCount; i++) if (!ev.contains(r.runEvidence[i])) ev.add(r.runEvidence[i]);
        ev.sort(null);
        return ev;
    }

    /** Last frame addressed to the host (hi, lo). */
    static long lastReceived(long hi, long lo, List<QpDirection> all) {
        long t = -1;
        for (QpDirection d : all) if (d.dstHi == hi && d.dstLo == lo) t = Math.max(t, d.lastNs);
        return t;
    }

    /**
     * Link down: the local host has QPs that died (silent resends) to two peers or more, and nothing reached it
     * from anyone after the earliest of their first resends.
     */
    private static QpDirection linkDown(QpDirection r, List<QpDirection> all) {
        long earliest = Long.MAX_VALUE;
        java.util.Set<String> peers = new java.util.HashSet<>();
        for (QpDirection d : all) {
            if (d.srcHi != r.srcHi || d.srcLo != r.srcLo || !d.acknowledged()) continue;
            if (d.runBursts >= 2 && d.lastAnswerNs >= 0 && d.lastAnswerNs <= d.runFirstNs && d.outstanding() > 0) {
                peers.add(d.dst);
                earliest = Math.min(earliest, d.runFirstNs);
            }
        }
        if (peers.size() < 2) return null;
        return lastReceived(r.srcHi, r.srcLo, all) < earliest ? r : null;
    }

    private static List<String> peersOf(QpDirection r, List<QpDirection> all) {
        java.util.TreeSet<String> s = new java.util.TreeSet<>();
        for (QpDirection d : all) if (d.dstHi == r.srcHi && d.dstLo == r.srcLo) s.add(d.src);
        return new ArrayList<>(s);
    }

    /**
     * Every direction from the peer (to anyone) ended before this QP's first resend, while another host still
     * reached the local host a resend interval after the peer's last frame (else a link down or this QP's path
     * could be it just as well).
     */
    private static boolean peerStopped(QpDirection r, List<QpDirection> all) {
        long peerLast = -1;
        for (QpDirection d : all) {
            if (d.srcHi != r.dstHi || d.srcLo != r.dstLo) continue;
            if (d.lastNs >= r.runFirstNs) return false;
            peerLast = Math.max(peerLast, d.lastNs);
        }
        long margin = Math.max(0, interval(r));
        for (QpDirection d : all) {
            boolean fromPeer = d.srcHi == r.dstHi && d.srcLo == r.dstLo;
            if (!fromPeer && d.dstHi == r.srcHi && d.dstLo == r.srcLo && d.lastNs > peerLast + margin) return true;
        }
        return false;
    }

    private static List<Finding> recovered(QpDirection r) {
        List<Finding> out = new ArrayList<>();
        if (r.naks > 0) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("naks", r.naks);
            d.put("resent_packets", r.resends);
            out.add(new Finding("qp-loss-nak", r.id, "loss_recovered_by_nak", r.firstNakNs,
                    r.naks + " NAK sequence errors (packets lost while later ones arrived), recovered by go-back resends",
                    List.of(r.firstNakFrame), d));
        }
        if (r.timeoutBursts > 0 && r.resends > 0) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("timeouts", r.timeoutBursts);
            long iv = interval(r);
            d.put("resend_interval_ns", iv > 0 ? iv : null);
            d.put("local_ack_timeout", exponent(iv));
            out.add(new Finding("qp-tail-loss-timeout", r.id, "tail_loss_recovered_by_timeout", r.runOriginalNs >= 0 ? r.runOriginalNs : r.runFirstNs,
                    r.timeoutBursts + " ACK timeouts (the last packets of a burst or their ACKs were lost), recovered",
                    evidence(r), d));
        }
        if (r.rnrNaks > 0) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("rnr_naks", r.rnrNaks);
            d.put("rnr_timer_code", r.rnrTimerCode);
            var v = r.rnrTimerCode >= 0 ? Spec.ENUM_RNR_TIMER.of(r.rnrTimerCode) : null;
            d.put("rnr_timer_ns", v == null ? null : v.number());
            out.add(new Finding("qp-rnr", r.id, "receiver_not_ready", r.firstRnrNs,
                    r.rnrNaks + " RNR NAKs: the receiver had no receive buffer posted" + (v == null ? "" : " (RNR timer " + v.number() / 1e6 + " ms)"),
                    List.of(r.firstRnrFrame), d));
        }
        return out;
    }
}
