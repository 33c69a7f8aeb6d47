package io.metaroce.analysis;

import io.metaroce.protocol.OpcodeDef;
import java.util.Arrays;

/**
 * What the responder says about a request stream: READ responses and atomic acknowledgements, AETH ACKs,
 * NAKs and RNR NAKs, and the coverage of PSNs by acknowledgements (cumulative, or one PSN for MetaRoCE's
 * selective ones): acked-by and ACK round trip, message completion, pending spurious verdicts decided, PSNs
 * acknowledged that the capture never showed, and the window sliding past what is done. Not thread-safe.
 */
final class Acknowledgements {
    private final AnalysisSettings settings;
    private final VerdictSink sink;
    private final FlowTable flows;
    private final RequestStream stream;
    private final RetransmissionCauses causes;
    private final RetransmissionVerdicts verdicts;
    private final UnseenAcks unseen;
    /** Whether the ACK round trips are collected (off: {@link AnalysisEngine#withoutStatistics}). */
    boolean statistics = true;
    /** The cumulative acknowledgement being applied shows the responder held the retransmitted PSNs it covers. */
    private boolean coverDupAck;

    Acknowledgements(AnalysisSettings settings, VerdictSink sink, FlowTable flows, RequestStream stream,
                     RetransmissionCauses causes, RetransmissionVerdicts verdicts, UnseenAcks unseen) {
        this.settings = settings;
        this.sink = sink;
        this.flows = flows;
        this.stream = stream;
        this.causes = causes;
        this.verdicts = verdicts;
        this.unseen = unseen;
    }

    /** A READ response or atomic acknowledgement on flow g (about the request flow g's peer sends). */
    void response(Flow g, FrameFacts f) {
        OpcodeDef op = f.opcode;
        boolean read = (f.opcodeKinds() & OpcodeKinds.READ) != 0;
        g.dataPackets++;
        g.payloadBytes += f.payloadLength;
        if (read) {
            g.readResponses++;
            if (op.segment() == OpcodeDef.Segment.FIRST || op.segment() == OpcodeDef.Segment.MIDDLE) {
                if (f.payloadLength > 0 && !f.truncated && g.pmtuLearned < f.payloadLength) g.pmtuLearned = f.payloadLength;
            }
        }
        Flow fl = flows.about(g, f.psn, true);
        if (fl == null) {
            g.unattributedControl++;
            return;
        }
        if (!fl.started) return;
        if (read && g.pmtuLearned > fl.pmtuLearned) fl.pmtuLearned = g.pmtuLearned;
        SeqWindow w = fl.w;
        long u = Psn.unwrap(fl.maxU, f.psn);
        if (w.contains(u)) {
            int i = w.idx(u);
            boolean repeat = (w.state[i] & SeqWindow.RESP_SEEN) != 0;
            byte rc = w.respCause[i];
            if (rc != 0 || repeat) {
                // Answers a request copy the responder already had (READ replay) or a retransmitted atomic: the
                // responder repeats itself because the request was re-issued; only the request is a
                // retransmission (§12), so this is counted apart.
                sink.repeatedResponse(g, fl, f, w.lastFrame[i], repeat ? w.respFrame(i) : 0);
                w.respCause[i] = 0;
            }
            if (!repeat) w.setRespFrame(i, f.number);
            w.state[i] |= SeqWindow.RESP_SEEN;
            if (read && op.isLastOrOnly()) {
                int ms = fl.msgs.slotOf(w.msg[i]);
                if (ms >= 0 && fl.msgs.lastU[ms] == Long.MIN_VALUE) fl.msgs.lastU[ms] = u;
                if (fl.softEnd > u && u >= fl.maxU) fl.softEnd = Long.MIN_VALUE;
            }
        }
        if (f.tver == 1) {
            // MetaRoCE acknowledges selectively: a READ response or ATOMIC Ack covers its own PSN only.
            unseen.inFrame = 0;
            if (u <= fl.maxU) coverOne(fl, f, u);
            if (unseen.inFrame > 0) unseen.report(fl, f);
        } else {
            // RoCEv2: a response with PSN q shows the responder executed every request PSN up to q.
            cover(fl, f, u + 1, true);
        }
    }

    /** An AETH ACK, NAK or RNR NAK on flow g. */
    void ack(Flow g, FrameFacts f) {
        Flow fl = flows.about(g, f.psn, true);
        if (fl == null) {
            g.unattributedControl++;
            return;
        }
        if (!fl.started) return;
        long u = Psn.unwrap(fl.maxU, f.psn);
        switch (f.aethKind) {
            case 0 -> {
                fl.acks++;
                cover(fl, f, u + 1, true);
                if (fl.recovery != null) Recovery.acked(fl, f.timeNs, u);
            }
            case 1 -> {
                cover(fl, f, u, true);
                if (oldestOutstanding(fl) == u) causes.signal(fl, Cause.RNR, u, f.timeNs);
                // The responder did not accept the PSN it answered with RNR: it expects it again.
                if (fl.view != View.SENDER) fl.ePsnU = u;
                sink.rnrNak(fl, g, f);
            }
            case 3 -> {
                cover(fl, f, u, true);
                long gen = -1;
                if (f.aethCode == 0) {
                    // The requester goes back only when the NAK names its oldest outstanding PSN (a READ or
                    // atomic is outstanding until its response arrives); otherwise the NAK is stale.
                    if (oldestOutstanding(fl) == u) {
                        causes.signal(fl, Cause.NAK, u, f.timeNs);
                        Recovery.nak(fl, f, u);
                        // At the sender's tap the NAK is the evidence that PSN u was lost in the network.
                        if (fl.view == View.SENDER) fl.networkLosses++;
                    }
                    gen = nakGeneration(fl, f, u);
                    if (fl.view != View.SENDER) fl.ePsnU = u;
                }
                sink.nak(fl, g, f, gen);
            }
            default -> { }
        }
    }

    /** The requester's oldest outstanding PSN (sndUna): acknowledged PSNs, and READs/atomics answered, are done. */
    static long oldestOutstanding(Flow fl) {
        SeqWindow w = fl.w;
        if (fl.sndUnaU < w.base) fl.sndUnaU = w.base;
        while (fl.sndUnaU <= fl.maxU && w.contains(fl.sndUnaU)) {
            int i = w.idx(fl.sndUnaU);
            boolean done = w.kind[i] == SeqWindow.KIND_RESPONDED ? (w.state[i] & SeqWindow.RESP_SEEN) != 0
                    : (w.state[i] & SeqWindow.COVERED) != 0;
            if (!done) break;
            fl.sndUnaU++;
        }
        return fl.sndUnaU;
    }

    /** Time from the first packet after the gap to this NAK/NACK: at the responder's tap (or a mirror); -1 unknown. */
    long nakGeneration(Flow fl, FrameFacts f, long missingU) {
        if (fl.view == View.SENDER) return -1;
        SeqWindow w = fl.w;
        long since = 0;
        if (w.contains(missingU)) since = w.signalTime[w.idx(missingU)];
        if (since == 0 && f.tver == 0) since = fl.oosSince;
        if (since <= 0 || since > f.timeNs) return -1;
        long lat = f.timeNs - since;
        sink.nakGeneration(fl, lat);
        return lat;
    }

    /**
     * Everything before toU (exclusive) is acknowledged by the current frame: sets acked-by, ACK RTT,
     * completes messages, decides pending spurious verdicts, and flags PSNs the capture never showed.
     */
    void cover(Flow fl, FrameFacts f, long toU, boolean cumulative) {
        SeqWindow w = fl.w;
        if (toU > fl.maxU + 1) {
            long extra = toU - fl.maxU - 1;
            if (extra >= RequestStream.MAX_JUMP) return;
            // Acknowledged PSNs the capture never showed at all.
            if (w.ensure(toU - 1, RequestStream.keepFrom(fl, toU - 1))) fl.maxU = toU - 1;
            else return;
        }
        long from = Math.max(Math.max(fl.cumU, fl.origin), w.base);
        if (cumulative && toU > fl.cumU) fl.cumU = toU;
        fl.everAcked = true;
        if (from >= toU) return;
        coverDupAck = f.tver == 0 && fl.pendingRetx != null && !fl.pendingRetx.isEmpty() && dupAck(fl, f, toU);
        coverRange(fl, f, from, toU);
        coverDupAck = false;
        if (fl.view != View.SENDER && toU > fl.ePsnU && f.tver == 0) fl.ePsnU = toU;
        if (cumulative) releaseOld(fl);
    }

    /**
     * RoCEv2 at the sender's tap: whether this cumulative acknowledgement shows the responder already held the
     * retransmitted PSNs it covers. The responder accepts in order, so an ACK generated before one of those
     * copies could have arrived (sooner than a round trip after it was sent), or one covering PSNs not resent
     * yet, means every covered PSN was there before its new copy.
     */
    private boolean dupAck(Flow fl, FrameFacts f, long toU) {
        // Three quarters of the smallest round trip seen: the ACK of a copy never comes back sooner, jitter aside.
        long rtt = fl.rttEstimate(settings.minRttNs()) * 3 / 4;
        boolean any = false;
        for (Flow.PendingRetx p : fl.pendingRetx.values()) {
            if (p.u >= toU) continue;
            any = true;
            if (f.timeNs - p.time < rtt) return true;
        }
        return any && fl.maxRetxU != Long.MIN_VALUE && toU - 1 > fl.maxRetxU && toU - 1 <= fl.runEndU;
    }

    /**
     * MetaRoCE at the sender's tap: whether the acknowledgement that first covered a retransmitted PSN was
     * generated before that copy could reach the receiver. An MR-SACK names its trigger (PSN, echo_timestamp,
     * echo_path_id): if that is an earlier copy of the same PSN, or a packet that reached the receiver before
     * this copy (send time plus half its path's round trip), the receiver already had the PSN.
     */
    private boolean coveredBeforeArrival(Flow fl, Flow.PendingRetx p, FrameFacts f) {
        long minRtt = settings.minRttNs();
        long rtt2 = fl.pathRtt(p.path, minRtt);
        if (f.hasSack) {
            SeqWindow w = fl.w;
            long trig = Psn.unwrap(fl.maxU, f.psn);
            if (trig == p.u) return (int) f.sackEcho != (int) p.tx;
            if (w.contains(trig)) {
                int k = w.idx(trig);
                if ((w.state[k] & SeqWindow.SEEN) != 0 && w.txTs[k] == (int) f.sackEcho) {
                    long ty = w.lastTime[k];
                    return ty + fl.pathRtt(w.path[k], minRtt) / 2 < p.time + rtt2 / 2;
                }
            }
        }
        return f.timeNs - p.time < rtt2;
    }

    private void coverRange(Flow fl, FrameFacts f, long from, long to) {
        SeqWindow w = fl.w;
        long runStart = -1;
        unseen.inFrame = 0;
        for (long u = from; u < to; u++) {
            int i = w.idx(u);
            int st = w.state[i];
            if ((st & SeqWindow.COVERED) != 0) {
                if (runStart >= 0) {
                    sink.ackRun(fl, f, runStart, u);
                    runStart = -1;
                }
                continue;
            }
            w.state[i] = (byte) (st | SeqWindow.COVERED | SeqWindow.RECEIVED);
            if ((st & (SeqWindow.SEEN | SeqWindow.RESERVED)) != 0) {
                if (runStart < 0) runStart = u;
                coveredPsn(fl, f, u, i, st);
            } else {
                if (runStart >= 0) {
                    sink.ackRun(fl, f, runStart, u);
                    runStart = -1;
                }
                if ((st & SeqWindow.UNSEEN_ACKED) == 0) coveredUnseen(w, f, u, i);
            }
        }
        if (runStart >= 0) sink.ackRun(fl, f, runStart, to);
        if (unseen.inFrame > 0) unseen.report(fl, f);
    }

    /** PSN u (slot i), acknowledged by the current frame, was never captured: the acknowledgement stands in. */
    private void coveredUnseen(SeqWindow w, FrameFacts f, long u, int i) {
        w.state[i] |= SeqWindow.UNSEEN_ACKED;
        w.state[i] &= ~SeqWindow.GAP;
        w.lastFrame[i] = f.number; // the acknowledgement, until a copy appears
        w.lastTime[i] = f.timeNs;
        unseen.note(u);
    }

    /** The current frame acknowledges PSN u alone (a selective acknowledgement). */
    void coverOne(Flow fl, FrameFacts f, long u) {
        SeqWindow w = fl.w;
        if (!w.contains(u) || u < fl.origin) return;
        int i = w.idx(u);
        int st = w.state[i];
        if ((st & SeqWindow.COVERED) != 0) return;
        fl.everAcked = true;
        w.state[i] = (byte) (st | SeqWindow.COVERED | SeqWindow.RECEIVED);
        if ((st & (SeqWindow.SEEN | SeqWindow.RESERVED)) != 0) {
            sink.ackRun(fl, f, u, u + 1);
            coveredPsn(fl, f, u, i, st);
        } else if ((st & SeqWindow.UNSEEN_ACKED) == 0) {
            coveredUnseen(w, f, u, i);
        }
    }

    private void coveredPsn(Flow fl, FrameFacts f, long u, int i, int st) {
        SeqWindow w = fl.w;
        if ((st & SeqWindow.SEEN) != 0 && w.copies[i] == 1 && fl.view != View.RECEIVER) {
            long rtt = f.timeNs - w.firstTime[i];
            if (rtt >= 0) {
                if (statistics) fl.ackRtt.add(rtt);
                if (rtt < fl.minRtt) fl.minRtt = rtt;
            }
        }
        if (fl.pendingRetx != null && !fl.pendingRetx.isEmpty()) {
            Flow.PendingRetx p = fl.pendingRetx.remove(u);
            // Acknowledged before the retransmission could have reached the receiver: it had the PSN.
            for (; p != null; p = p.older) {
                boolean spurious = f.tver == 0 ? coverDupAck : coveredBeforeArrival(fl, p, f);
                // At a mirror an acknowledgement after the copy may answer either copy: only yes is evidence.
                verdicts.decide(fl, p, spurious ? Boolean.TRUE : RetransmissionVerdicts.undecided(fl));
            }
        }
        if (fl.view != View.SENDER && fl.tver == 1 && (st & SeqWindow.SEEN) != 0) {
            int path = w.path[i];
            if (fl.pathMaxTx == null || path >= fl.pathMaxTx.length) {
                int n = Math.max(path + 1, 8);
                fl.pathMaxTx = Arrays.copyOf(fl.pathMaxTx == null ? new int[0] : fl.pathMaxTx, n);
                fl.pathSeenTx = Arrays.copyOf(fl.pathSeenTx == null ? new boolean[0] : fl.pathSeenTx, n);
            }
            if (!fl.pathSeenTx[path] || w.txTs[i] - fl.pathMaxTx[path] > 0) fl.pathMaxTx[path] = w.txTs[i];
            fl.pathSeenTx[path] = true;
        }
        if (fl.view == View.SENDER && fl.tver == 1 && (st & SeqWindow.SEEN) != 0) {
            int path = w.path[i];
            if (fl.pathAckedFrame == null || path >= fl.pathAckedFrame.length) {
                fl.pathAckedFrame = Arrays.copyOf(fl.pathAckedFrame == null ? new long[0] : fl.pathAckedFrame, Math.max(path + 1, 8));
            }
            if (w.lastFrame[i] > fl.pathAckedFrame[path]) fl.pathAckedFrame[path] = w.lastFrame[i];
        }
        int ms = fl.msgs.slotOf(w.msg[i]);
        if (ms >= 0) {
            Flow.Messages m = fl.msgs;
            m.covered[ms]++;
            if (m.lastU[ms] != Long.MIN_VALUE && m.covered[ms] >= m.lastU[ms] - m.firstU[ms] + 1 && !m.done[ms]) {
                stream.completeMessage(fl, f, ms);
            }
        }
    }

    /** Slides the window past PSNs that are acknowledged and old, bounding memory by what is in flight. */
    void releaseOld(Flow fl) {
        SeqWindow w = fl.w;
        long keep = fl.cumU - 256;
        if (keep > w.base && w.top - w.base > w.capacity() / 2) w.release(Math.min(keep, fl.cumU));
    }
}
