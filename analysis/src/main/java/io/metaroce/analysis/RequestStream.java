package io.metaroce.analysis;

import io.metaroce.protocol.OpcodeDef;
import java.util.HashMap;

/**
 * The request stream of a flow (the PSNs it sends): PSN tracking over the flow's {@link SeqWindow}, gaps,
 * out-of-order and late originals, retransmissions (with their cause from {@link RetransmissionCauses} and,
 * where the tap shows it, whether they were spurious), READ reservations, messages, and the responder's
 * expected PSN as far as the tap shows it. Not thread-safe.
 */
final class RequestStream {
    static final int MAX_WINDOW = StreamLimits.MAX_WINDOW;
    /** A PSN further than this ahead of the stream starts a new stream (QPN reused), not a gap. */
    static final long MAX_JUMP = StreamLimits.NEW_STREAM_JUMP;
    static final int MAX_OPEN_MESSAGES = 4096;
    /** PSNs of history kept for a flow whose acknowledgements are not in the capture. */
    static final int UNACKED_HISTORY = 4096;

    private final AnalysisSettings settings;
    private final VerdictSink sink;
    private final RetransmissionCauses causes;
    private final RetransmissionVerdicts verdicts;
    private final UnseenAcks unseen;
    private final Congestion congestion;
    private final MetaRoceControl control;
    /** The training steps (analyze's "Steps"), or null. */
    Steps steps;
    /** Whether the open messages are kept (off: {@link AnalysisEngine#withoutStatistics}). */
    boolean statistics = true;

    RequestStream(AnalysisSettings settings, VerdictSink sink, RetransmissionCauses causes, RetransmissionVerdicts verdicts,
                  UnseenAcks unseen, Congestion congestion, MetaRoceControl control) {
        this.settings = settings;
        this.sink = sink;
        this.causes = causes;
        this.verdicts = verdicts;
        this.unseen = unseen;
        this.congestion = congestion;
        this.control = control;
    }

    /**
     * Capture duplicates (§11 f): the same bytes (but TTL/ECN/IP checksum) as the flow's previous frame, sooner
     * than any sender could react (a retransmission needs at least a round trip or a timer), within 1 ms.
     * Remembers f as the flow's previous frame.
     */
    boolean isDuplicate(Flow fl, FrameFacts f) {
        boolean dup = f.fingerprint == fl.lastFp && f.timeNs - fl.lastFpTime <= duplicateThreshold(fl);
        fl.lastFp = f.fingerprint;
        fl.lastFpTime = f.timeNs;
        return dup;
    }

    private long duplicateThreshold(Flow fl) {
        return StreamLimits.duplicateThreshold(settings,
                fl.rttEstimate(fl.peer != null ? fl.peer.rttEstimate(settings.minRttNs()) : settings.minRttNs()));
    }

    private void startStream(Flow fl, long psn) {
        SeqWindow w = fl.window(MAX_WINDOW);
        long u = Psn.ORIGIN + (psn & Psn.MASK);
        long origin = u;
        if (fl.startPsn >= 0) {
            long s = Psn.unwrap(u, fl.startPsn);
            if (s <= u && u - s < MAX_JUMP) origin = s;
        }
        fl.started = true;
        fl.origin = origin;
        fl.maxU = origin - 1;
        fl.highestSeenU = origin - 1;
        fl.cumU = origin;
        fl.ePsnU = origin;
        fl.sndUnaU = origin;
        fl.softEnd = Long.MIN_VALUE;
        fl.oosSince = 0;
        fl.epi = fl.prevEpi = null;
        if (fl.recovery != null) fl.recovery.nakU = fl.recovery.wasteToU = Long.MIN_VALUE;
        w.start(origin);
        fl.msgs.clear();
    }

    /** Drops the flow's sequence state (an idle flow); its counters stay. */
    void release(Flow fl) {
        verdicts.release(fl);
        fl.w = null;
        fl.started = false;
        fl.msgs.clear();
        fl.epi = fl.prevEpi = null;
    }

    /** A frame the stateful analysis does not judge still advances its stream (§11 d). */
    void advanceOnly(Flow fl, FrameFacts f) {
        if (!fl.started) startStream(fl, f.psn);
        long u = Psn.unwrap(fl.maxU, f.psn);
        if (u > fl.maxU && u - fl.maxU < MAX_JUMP) {
            SeqWindow w = fl.w;
            if (w.ensure(u, keepFrom(fl, u))) {
                for (long p = fl.maxU + 1; p < u; p++) if (p >= w.base) w.set(p, SeqWindow.GAP);
                w.copy(u, f.number, f.timeNs, f.pathId, f.txTs, f.fingerprint);
            }
            fl.maxU = u;
            fl.highestSeenU = Math.max(fl.highestSeenU, u);
        }
    }

    /** A request (SEND, WRITE, READ Request, atomic, or UD datagram) of flow fl. */
    void request(Flow fl, FrameFacts f) {
        OpcodeDef op = f.opcode;
        fl.dataPackets++;
        fl.payloadBytes += f.payloadLength;
        // Only flows with CE marks or CNPs measure their rate (every other flow: this null check).
        if (fl.loop != null) fl.loop.data(f.timeNs, f.number, f.payloadLength);
        boolean ce = f.ecn == 3;
        int kind = f.opcodeKinds();
        if ((kind & OpcodeKinds.UD) != 0) {
            fl.ud = true;
            if (f.destQp != 1) fl.messages++; // QP 1 carries CM MADs, not application messages
            if (f.hasDeth) fl.addSrcQp(f.dethSrcQp);
            fl.uniquePayloadBytes += f.payloadLength;
            if (ce) congestion.ceMark(fl, f, 0);
            return;
        }
        boolean meta = f.tver == 1;
        if (meta) {
            fl.spray |= f.spray;
            PathStats ps = fl.path(f.pathId);
            ps.packets++;
            ps.bytes += f.origLen;
        }
        if (!fl.started) {
            startStream(fl, f.psn);
            control.adoptGrant(fl);
        }
        SeqWindow w = fl.w;
        boolean isRead = (kind & OpcodeKinds.READ) != 0;
        boolean first = op.segment() == OpcodeDef.Segment.FIRST || op.segment() == OpcodeDef.Segment.MIDDLE;
        if (first && f.payloadLength > 0 && !f.truncated && fl.pmtuLearned < f.payloadLength) fl.pmtuLearned = f.payloadLength;
        long u = Psn.unwrap(fl.maxU, f.psn);

        if (u > fl.maxU) {
            long gapFrom = fl.maxU + 1;
            if (fl.softEnd >= gapFrom && u <= fl.softEnd + 1) {
                // PSNs a READ of unknown PMTU reserved.
                if (w.ensure(u, keepFrom(fl, u))) {
                    for (long p = Math.max(gapFrom, w.base); p < u; p++) {
                        w.set(p, SeqWindow.RESERVED);
                        int i = w.idx(p);
                        w.firstFrame[i] = fl.lastReadFrame;
                    }
                }
                gapFrom = u;
            }
            fl.softEnd = Long.MIN_VALUE;
            long gap = u - gapFrom;
            if (gap >= MAX_JUMP) {
                // Not the same stream any more (QP reused, or a capture far apart): start over.
                startStream(fl, f.psn);
                u = Psn.unwrap(fl.maxU, f.psn);
                gapFrom = u;
                gap = 0;
            }
            if (!w.ensure(u, keepFrom(fl, u))) return;
            if (gap > 0) gap(fl, f, gapFrom, u);
            if (meta && f.rtx) {
                // A retransmission whose earlier copies the capture never showed.
                retransmission(fl, f, u);
            } else if (!meta && gap == 0 && causes.insideResendRun(fl, f, u)) {
                // A go-back-N run continuing past the highest PSN the tap saw: first copies lost before the tap.
                retransmission(fl, f, u);
            } else {
                newPsn(fl, f, u, isRead);
            }
            if (u > fl.highestSeenU) fl.highestSeenU = u;
            if (u > fl.maxU) fl.maxU = u;
            if (isRead) reserve(fl, f, u);
            else if ((kind & OpcodeKinds.ATOMIC) != 0 && w.contains(u)) w.kind[w.idx(u)] = SeqWindow.KIND_RESPONDED;
            if (fl.credit) control.creditCheck(fl, f);
        } else if (u >= w.base) {
            int i = w.idx(u);
            int st = w.state[i];
            if ((st & (SeqWindow.SEEN | SeqWindow.RESERVED)) == 0 && (st & SeqWindow.UNSEEN_ACKED) != 0
                    && !(meta && f.rtx) && f.timeNs - w.lastTime[i] <= AnalysisEngine.CAPTURE_REORDER_NS) {
                // The first copy, captured just after the acknowledgement that covers it: not a retransmission.
                ackedBeforeCaptured(fl, f, u, i);
            } else if (meta && !f.rtx && (st & SeqWindow.SEEN) != 0 && (st & SeqWindow.ORIGINAL) == 0) {
                // The original (rtx = 0) arriving after its retransmission overtook it on another path.
                lateOriginal(fl, f, u);
            } else if ((st & (SeqWindow.SEEN | SeqWindow.RESERVED)) != 0) {
                retransmission(fl, f, u);
                if (isRead) reserve(fl, f, u);
            } else if (!meta || f.rtx) {
                // MetaRoCE says so (rtx); a RoCEv2 sender never sends its PSNs out of order on its one path,
                // so a PSN filling a gap is the resend of a packet lost before the tap.
                retransmission(fl, f, u);
            } else {
                outOfOrder(fl, f, u);
            }
        } else {
            // Below the window: an old PSN sent again.
            retransmission(fl, f, u);
        }
        if (ce) congestion.ceMark(fl, f, meta ? f.pathId : 0);
    }

    /**
     * The oldest PSN the window must keep when it needs room for u: everything not yet acknowledged, or, for
     * a flow whose acknowledgements the capture does not show (one direction of a mirror), a recent history.
     */
    static long keepFrom(Flow fl, long u) {
        return fl.everAcked ? fl.cumU : u - UNACKED_HISTORY;
    }

    /** PSNs a READ Request reserves for its responses (§9.2): known when the PMTU is, else a soft range. */
    private void reserve(Flow fl, FrameFacts f, long u) {
        long len = f.hasReth ? f.rethLen : 0;
        int pmtu = fl.pmtu();
        SeqWindow w = fl.w;
        if (w.contains(u)) w.kind[w.idx(u)] = SeqWindow.KIND_RESPONDED;
        fl.lastReadFrame = f.number;
        long n, nMax;
        if (pmtu > 0) {
            n = nMax = Math.max(1, (len + pmtu - 1) / pmtu);
        } else {
            n = Math.max(1, (len + 4095) / 4096);
            nMax = Math.max(1, (len + 255) / 256);
        }
        long end = u + n - 1;
        if (end > fl.maxU && end - u < MAX_WINDOW / 2 && w.ensure(end, keepFrom(fl, end))) {
            for (long p = Math.max(u + 1, w.base); p <= end; p++) {
                int i = w.idx(p);
                if ((w.state[i] & SeqWindow.SEEN) == 0) {
                    w.state[i] |= SeqWindow.RESERVED;
                    w.kind[i] = SeqWindow.KIND_RESPONDED;
                    if (w.firstFrame[i] == 0) {
                        w.firstFrame[i] = f.number;
                        w.firstTime[i] = f.timeNs;
                        w.lastTime[i] = f.timeNs;
                    }
                    w.msg[i] = w.msg[w.idx(u)];
                }
                if (fl.view != View.SENDER && (w.state[w.idx(u)] & SeqWindow.RECEIVED) != 0) w.state[i] |= SeqWindow.RECEIVED;
            }
            fl.maxU = end;
        }
        if (nMax > n) fl.softEnd = Math.max(fl.softEnd, u + nMax - 1);
        int ms = fl.msgs.slotOf(w.msg[w.idx(u)]);
        if (ms >= 0 && pmtu > 0) fl.msgs.lastU[ms] = end;
    }

    /** The first copy of PSN u, the highest so far (or filling its place in order). */
    private void newPsn(Flow fl, FrameFacts f, long u, boolean isRead) {
        SeqWindow w = fl.w;
        int i = w.idx(u);
        firstCopy(fl, f, u, i);
        fl.lastNewFrame = f.number;
        fl.lastNewTime = f.timeNs;
        // Also without statistics: validate's straggler diagnosis needs the steps.
        if (steps != null && !isRead) steps.data(fl, f);
        message(fl, f, u, isRead);
        receiverArrival(fl, f, u, i);
    }

    /** Records the first copy of u in slot i; a PSN that was missing showed up (reordering, not loss). */
    private void firstCopy(Flow fl, FrameFacts f, long u, int i) {
        SeqWindow w = fl.w;
        boolean wasGap = (w.state[i] & SeqWindow.GAP) != 0;
        w.copy(u, f.number, f.timeNs, f.pathId, f.txTs, f.fingerprint);
        w.state[i] |= SeqWindow.ORIGINAL;
        w.state[i] &= ~SeqWindow.GAP;
        fl.uniquePayloadBytes += f.payloadLength;
        if (f.tver == 1) fl.path(f.pathId).firstSends++;
    }

    private void message(Flow fl, FrameFacts f, long u, boolean isRead) {
        // Without statistics no message is opened: every PSN's message stays -1 (SeqWindow), so that the look-ups
        // by it (READ reservations, completion on acknowledgement) find none.
        if (!statistics) return;
        OpcodeDef op = f.opcode;
        Flow.Messages m = fl.msgs;
        SeqWindow w = fl.w;
        int slot;
        if (f.tver == 1) {
            slot = m.findById(f.msgId);
            if (slot < 0) {
                int pmtu = fl.pmtu();
                long fU = op.isFirstOrOnly() ? u : pmtu > 0 ? u - f.msgOffset / pmtu : u;
                int ord = m.add(f.msgId, fU, f.timeNs, f.number, isRead);
                slot = m.slotOf(ord);
                fl.messages++;
            } else if (op.isFirstOrOnly() || u < m.firstU[slot]) {
                m.firstU[slot] = u;
            }
            if (f.timeNs < m.firstTime[slot]) m.firstTime[slot] = f.timeNs;
        } else if (op.isFirstOrOnly()) {
            int ord = m.add(m.seq++, u, f.timeNs, f.number, isRead);
            slot = m.slotOf(ord);
            fl.messages++;
        } else {
            slot = m.findByPsn(u);
            if (slot < 0) return;
        }
        if (op.isLastOrOnly() && !isRead) m.lastU[slot] = u;
        w.msg[w.idx(u)] = m.ordOfSlot(slot);
        if ((w.state[w.idx(u)] & SeqWindow.COVERED) != 0) m.covered[slot]++;
        m.compact(MAX_OPEN_MESSAGES);
    }

    /** Message slot ms of fl completed with the current frame (its last PSN acknowledged). */
    void completeMessage(Flow fl, FrameFacts f, int ms) {
        Flow.Messages m = fl.msgs;
        m.done[ms] = true;
        sink.messageComplete(fl, m.msgId[ms], f.timeNs - m.firstTime[ms]);
    }

    private void gap(Flow fl, FrameFacts f, long from, long u) {
        SeqWindow w = fl.w;
        for (long p = Math.max(from, w.base); p < u; p++) {
            int i = w.idx(p);
            w.state[i] |= SeqWindow.GAP;
            w.signalTime[i] = f.timeNs;
            if (fl.view == View.SENDER) {
                // A sender never skips a PSN (MR-SEQ-001): what its own tap lacks, the capture lost.
                w.state[i] |= SeqWindow.UNSEEN_ACKED;
                w.state[i] &= ~SeqWindow.GAP;
            }
        }
        if (fl.oosSince == 0 && fl.view != View.SENDER) fl.oosSince = f.timeNs;
        sink.psnGap(fl, f, from, u - from);
    }

    private void outOfOrder(Flow fl, FrameFacts f, long u) {
        int i = fl.w.idx(u);
        long dist = fl.highestSeenU - u;
        firstCopy(fl, f, u, i);
        message(fl, f, u, (f.opcodeKinds() & OpcodeKinds.READ) != 0);
        receiverArrival(fl, f, u, i);
        sink.outOfOrder(fl, f, dist, f.tver == 1 ? f.pathId : null, null);
    }

    /**
     * The first copy of PSN u, captured within {@link AnalysisEngine#CAPTURE_REORDER_NS} after the
     * acknowledgement that covered it (capture reordering of the two directions): the original, not capture
     * loss. A note event.
     */
    private void ackedBeforeCaptured(Flow fl, FrameFacts f, long u, int i) {
        SeqWindow w = fl.w;
        long ackFrame = w.lastFrame[i], lead = f.timeNs - w.lastTime[i];
        w.copy(u, f.number, f.timeNs, f.pathId, f.txTs, f.fingerprint);
        w.state[i] |= SeqWindow.ORIGINAL;
        w.state[i] &= ~SeqWindow.UNSEEN_ACKED;
        fl.lastNewFrame = f.number;
        fl.lastNewTime = f.timeNs;
        fl.uniquePayloadBytes += f.payloadLength;
        if (f.tver == 1) fl.path(f.pathId).firstSends++;
        if (fl.view != View.MIRROR || fl.mirrorSeesAllPaths()) fl.captureGaps--;
        message(fl, f, u, (f.opcodeKinds() & OpcodeKinds.READ) != 0);
        int ms = fl.msgs.slotOf(w.msg[i]);
        Flow.Messages m = fl.msgs;
        if (ms >= 0 && !m.done[ms] && m.lastU[ms] != Long.MIN_VALUE && m.covered[ms] >= m.lastU[ms] - m.firstU[ms] + 1) {
            completeMessage(fl, f, ms);
        }
        if ((f.opcodeKinds() & OpcodeKinds.READ) != 0) reserve(fl, f, u);
        unseen.appeared(ackFrame);
        sink.ackBeforeRequest(fl, f, ackFrame, lead);
    }

    /**
     * MetaRoCE: the first copy of a PSN (rtx = 0) captured after a retransmission of it, which took a faster
     * path. Not a retransmission: an original arriving out of order.
     */
    private void lateOriginal(Flow fl, FrameFacts f, long u) {
        SeqWindow w = fl.w;
        int i = w.idx(u);
        long dist = fl.highestSeenU - u;
        w.state[i] |= SeqWindow.ORIGINAL | SeqWindow.RECEIVED;
        if (w.lossPath[i] != -1) {
            // Its retransmission was taken for the recovery of a loss: the original was only late.
            fl.networkLosses--;
            if (w.lossPath[i] >= 0) fl.path(w.lossPath[i]).lostInferred--;
            w.lossPath[i] = -1;
        }
        fl.path(f.pathId).firstSends++;
        sink.outOfOrder(fl, f, dist, f.pathId, w.lastFrame[i]);
    }

    private void retransmission(Flow fl, FrameFacts f, long u) {
        SeqWindow w = fl.w;
        boolean inWin = w.contains(u);
        int i = inWin ? w.idx(u) : -1;
        boolean seen = inWin && (w.state[i] & SeqWindow.SEEN) != 0;
        boolean reservedOnly = inWin && !seen && (w.state[i] & SeqWindow.RESERVED) != 0;
        long original = inWin && w.firstFrame[i] != 0 ? w.firstFrame[i] : 0;
        int prevPath = seen ? w.path[i] : -1;
        // Only flows that saw a NAK or timeout go-back (RoCEv2) pay for the recovery behaviour.
        boolean nakAnswer = fl.recovery != null && f.tver == 0 && Recovery.resend(fl, f, u);
        Cause cause = causes.cause(fl, u, i, f.timeNs);
        if (cause == Cause.TIMEOUT) {
            long before = fl.timeouts;
            causes.timeout(fl, f, u);
            if (fl.timeouts != before && f.tver == 0 && !nakAnswer) Recovery.timeout(fl, f.timeNs, u, Acknowledgements.oldestOutstanding(fl));
        } else if (cause == Cause.NAK && fl.recovery != null) {
            Recovery.nakCopy(fl);
        }
        // A go-back run starts when a retransmission goes back (or follows new data): it resends up to what
        // had been sent by then.
        if (fl.lastRetxU == Long.MIN_VALUE || u <= fl.lastRetxU || fl.lastNewFrame > fl.lastRetxFrame) {
            fl.runEndU = fl.maxU;
            fl.maxRetxU = u;
        }
        fl.lastRetxU = u;
        fl.lastRetxTime = f.timeNs;
        fl.lastRetxFrame = f.number;
        fl.lastRetxCause = cause;
        if (u > fl.maxRetxU) fl.maxRetxU = u;
        if (f.tver == 1) fl.path(f.pathId).retransmissionsOn++;
        // No earlier copy in the capture: a retransmission by inference (a gap it fills, a resend run, rtx = 1).
        boolean inferred = !seen && !reservedOnly;
        long rtxLat = (seen || reservedOnly) && w.firstTime[i] > 0 ? f.timeNs - w.firstTime[i] : VerdictSink.NO_LATENCY;
        long nakResp = causes.nakResponse(fl, f, u, cause);
        // An earlier copy of this PSN still waiting for its verdict was not enough: decide it now.
        Flow.PendingRetx older = null;
        if (fl.pendingRetx != null && !fl.pendingRetx.isEmpty()) {
            Flow.PendingRetx p = fl.pendingRetx.remove(u);
            if (p != null) {
                // MetaRoCE: several copies may be in flight at once, each decided when the receiver's answer
                // shows which arrived first. RoCEv2: a new go-back copy means the older was not enough.
                if (f.tver == 1) older = p;
                else verdicts.decideChain(fl, p, RetransmissionVerdicts.undecided(fl));
            }
        }
        // Spurious: the receiver already had the PSN. A READ or atomic sent again is answered again (its
        // responses are what was missing), so it is never spurious; whether the responder already held it
        // decides whether its responses are replays.
        int kind = f.opcodeKinds();
        boolean read = (kind & OpcodeKinds.READ) != 0, atomic = (kind & OpcodeKinds.ATOMIC) != 0;
        boolean readOrAtomic = read || atomic;
        boolean spurious = false, pending = false, responderHad = false;
        if (readOrAtomic) {
            if (inWin) {
                // At a mirror the responder's state shows only through its responses, as at the sender's tap.
                responderHad = fl.view != View.RECEIVER ? readAnswered(fl, u + 1) : (w.state[i] & SeqWindow.RECEIVED) != 0;
            }
        } else if (fl.view != View.RECEIVER) {
            // The sender's tap and a mirror need evidence the receiver had the PSN: an acknowledgement, before
            // this copy or generated before it could arrive. A mirror seeing a copy pass proves nothing.
            if (inWin && (w.state[i] & SeqWindow.COVERED) != 0) spurious = true;
            else pending = inWin;
        } else if (inWin) {
            spurious = f.tver == 1 ? (w.state[i] & SeqWindow.RECEIVED) != 0 : u < fl.ePsnU;
        }
        if (!seen && !reservedOnly && !spurious && fl.view != View.SENDER) lostBeforeTap(fl, f, u, inWin, i);
        PendingEvent e = sink.retransmission(fl, f, cause, inferred, original, rtxLat, nakResp, prevPath);
        if (spurious) sink.spurious(fl, f.number, e);
        long[] suspect = seen && !spurious && !readOrAtomic && f.tver == 1 && fl.view == View.SENDER
                ? verdicts.lostSuspect(fl, u, w.txTs[i], prevPath, f.timeNs, f.number) : null;
        if (!pending && older != null) verdicts.decideChain(fl, older, spurious);
        if (pending) {
            if (fl.pendingRetx == null) fl.pendingRetx = new HashMap<>();
            Flow.PendingRetx pr = new Flow.PendingRetx(f.number, f.timeNs, u, f.pathId, prevPath, e, f.txTs);
            pr.older = older;
            pr.suspect = suspect;
            fl.pendingRetx.put(u, pr);
            sink.retransmissionPending(e);
        }
        // Responses to this copy: a READ the responder already had is replayed, its responses are
        // retransmissions too; an atomic's acknowledgement carries the cause of the copy that caused it.
        if (inWin && read) {
            byte rc = responderHad ? (byte) (cause.ordinal() + 1) : 0;
            for (long p = u; p <= fl.maxU && w.contains(p); p++) {
                int k = w.idx(p);
                if (p > u && (w.state[k] & SeqWindow.RESERVED) == 0) break;
                w.respCause[k] = rc;
                // The request copy its responses answer (u's own slot gets it from the copy below).
                if (p > u && (w.state[k] & SeqWindow.SEEN) == 0) w.lastFrame[k] = f.number;
            }
        } else if (inWin && atomic && responderHad) {
            w.respCause[i] = (byte) (cause.ordinal() + 1);
        }
        if (inWin) {
            w.copy(u, f.number, f.timeNs, f.pathId, f.txTs, f.fingerprint);
            w.ackReq[i] = (byte) (f.ackReq ? 1 : 0);
            receiverArrival(fl, f, u, i);
            if (w.msg[i] < 0) message(fl, f, u, read);
        }
        if (u > fl.highestSeenU) fl.highestSeenU = u;
    }

    /** The capture never showed an earlier copy of u (slot i): it was lost before the tap (R and M views). */
    private static void lostBeforeTap(Flow fl, FrameFacts f, long u, boolean inWin, int i) {
        SeqWindow w = fl.w;
        boolean lost = false;
        if (inWin && (w.state[i] & SeqWindow.GAP) != 0) {
            w.state[i] &= ~SeqWindow.GAP;
            fl.networkLosses++; // a PSN that was missing showed up as a retransmission
            lost = true;
        } else if (!inWin || (w.state[i] & SeqWindow.UNSEEN_ACKED) == 0) {
            fl.networkLosses++;
            lost = true;
        }
        if (lost && inWin && f.tver == 1) {
            // Which path lost it: inferred from the round-robin spraying of its neighbours.
            long a = u - 1;
            while (a >= w.base && a > u - 16 && (w.state[w.idx(a)] & SeqWindow.SEEN) == 0) a--;
            int p = a >= w.base && a > u - 16 ? fl.inferPath(u, a) : -1;
            if (p >= 0) fl.path(p).lostInferred++;
            w.lossPath[i] = p >= 0 ? p : -2;
        } else if (lost && inWin) {
            w.lossPath[i] = -2;
        }
    }

    /** Whether any response to the READ that reserved PSN u - 1 (at or before u - 1) was captured. */
    private static boolean readAnswered(Flow fl, long u) {
        SeqWindow w = fl.w;
        for (long p = u - 1, n = 0; p >= w.base && n < 4096; p--, n++) {
            int k = w.idx(p);
            if ((w.state[k] & SeqWindow.RESP_SEEN) != 0) return true;
            if ((w.state[k] & SeqWindow.RESERVED) == 0) {
                // The READ Request's own PSN: its response may carry it.
                return (w.state[k] & SeqWindow.SEEN) != 0 && (w.state[k] & SeqWindow.RESP_SEEN) != 0;
            }
        }
        return false;
    }

    /** Responder state as far as the tap shows (R and M views). */
    void receiverArrival(Flow fl, FrameFacts f, long u, int i) {
        SeqWindow w = fl.w;
        if (f.tver == 1) {
            w.state[i] |= SeqWindow.RECEIVED;
            return;
        }
        if (u == fl.ePsnU) {
            w.state[i] |= SeqWindow.RECEIVED;
            fl.ePsnU = u + 1;
            fl.oosSince = 0;
            // Reserved READ PSNs are consumed by the request.
            while (w.contains(fl.ePsnU) && (w.state[w.idx(fl.ePsnU)] & SeqWindow.RESERVED) != 0
                    && (w.state[w.idx(fl.ePsnU)] & SeqWindow.SEEN) == 0 && fl.ePsnU <= fl.maxU) {
                fl.ePsnU++;
            }
        } else if (u > fl.ePsnU && fl.oosSince == 0) {
            fl.oosSince = f.timeNs;
        }
    }
}
