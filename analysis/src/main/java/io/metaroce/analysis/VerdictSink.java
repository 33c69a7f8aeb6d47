package io.metaroce.analysis;

import java.util.ArrayDeque;

/**
 * Where every decision of the analysis goes. One call per decision updates the flow's counters, the stored
 * per-frame verdict (when verdicts are recorded) and the event stream (when someone listens), so that the
 * three can never disagree and no decision is written down by hand in three places.
 *
 * <p>It also owns the event queue: events leave in frame order, once decided (a retransmission waiting for the
 * acknowledgement that shows whether it was spurious holds the events behind it, at most
 * {@link AnalysisEngine#MAX_HOLD_NS} of capture time). Not thread-safe.
 */
final class VerdictSink {
    private final VerdictStore store;
    private final AnalysisEngine.EventListener listener;
    private final ArrayDeque<PendingEvent> queue = new ArrayDeque<>();
    /** A latency that is not known. */
    static final long NO_LATENCY = Long.MIN_VALUE;
    /** Capture duplicates over all flows. */
    long duplicates;

    VerdictSink(VerdictStore store, AnalysisEngine.EventListener listener) {
        this.store = store;
        this.listener = listener;
    }

    /** The verdict store (null when not recording). */
    VerdictStore store() { return store; }

    void beginFrame(long frame) {
        if (store != null) store.begin(frame);
    }

    void endFrame() {
        if (store != null) store.end();
    }

    // ------------------------------------------------------------------ request stream

    /** A capture duplicate (§11 f) of the flow's previous frame. */
    void duplicate(Flow fl, FrameFacts f, long originalFrame) {
        fl.duplicates++;
        duplicates++;
        if (store != null) {
            store.flag(VerdictStore.DUP);
            store.value(VerdictStore.V_ORIGINAL, originalFrame);
        }
        if (listener != null) emit(new AnalysisEvent.Duplicate(f.number, f.timeNs, fl.id, f.psn, originalFrame));
    }

    /** n PSNs from fromU skipped: capture loss at the sender's tap, else not known yet. */
    void psnGap(Flow fl, FrameFacts f, long fromU, long n) {
        boolean capture = fl.view == View.SENDER;
        fl.gapEvents++;
        fl.gapPsns += n;
        if (capture) fl.captureGaps += n;
        if (store != null) store.value(VerdictStore.V_GAP, n);
        if (listener != null) {
            emit(new AnalysisEvent.PsnGap(f.number, f.timeNs, fl.id, f.psn, Psn.wrap(fromU), n,
                    capture ? AnalysisEvent.Loss.CAPTURE : AnalysisEvent.Loss.UNKNOWN));
        }
    }

    /**
     * A first copy behind a higher PSN, dist PSNs back. path: its MetaRoCE path (null for RoCEv2);
     * overtakenBy: the retransmission that overtook it, when one did.
     */
    void outOfOrder(Flow fl, FrameFacts f, long dist, Integer path, Long overtakenBy) {
        fl.outOfOrder++;
        if (store != null) {
            store.flag(VerdictStore.OOO);
            store.value(VerdictStore.V_REORDER, dist);
        }
        if (listener != null) emit(new AnalysisEvent.OutOfOrder(f.number, f.timeNs, fl.id, f.psn, dist, path, overtakenBy));
    }

    /** The first copy of a PSN captured just after the acknowledgement ackFrame that covered it (a note). */
    void ackBeforeRequest(Flow fl, FrameFacts f, long ackFrame, long lead) {
        if (store != null) store.flag(VerdictStore.ACK_FIRST);
        if (listener != null) emit(new AnalysisEvent.AckBeforeRequest(f.number, f.timeNs, fl.id, f.psn, ackFrame, lead));
    }

    /**
     * A retransmission (§12) of the current frame. original: the first copy's frame (0: not captured); rtxLat:
     * time since the first copy ({@link #NO_LATENCY} when unknown; negative when the capture's clock went
     * back: kept in the statistics, not in the event); nakResp: NAK response latency, negative when unknown. Returns its queued event (null when nobody listens), whose spurious
     * verdict may still change.
     */
    PendingEvent retransmission(Flow fl, FrameFacts f, Cause cause, boolean inferred, long original, long rtxLat,
                                long nakResp, int prevPath) {
        fl.retransmitted++;
        fl.byCause[cause.ordinal()]++;
        if (inferred) fl.inferredRetx++;
        if (rtxLat != NO_LATENCY) fl.rtxLatency.add(rtxLat);
        if (nakResp >= 0) fl.nakResp.add(nakResp);
        if (store != null) {
            store.flag(inferred ? VerdictStore.RETX | VerdictStore.INFERRED : VerdictStore.RETX);
            store.cause(cause);
            if (original != 0) store.value(VerdictStore.V_ORIGINAL, original);
            if (rtxLat != NO_LATENCY) store.value(VerdictStore.V_RTX_LAT, rtxLat);
            if (nakResp >= 0) store.value(VerdictStore.V_NAK_RESP, nakResp);
        }
        if (listener == null) return null;
        boolean mr = f.tver == 1;
        return emit(new AnalysisEvent.Retransmission(f.number, f.timeNs, fl.id, f.psn, cause, inferred,
                original != 0 ? original : null, rtxLat >= 0 ? rtxLat : null, nakResp >= 0 ? nakResp : null,
                mr ? f.pathId : null, mr && prevPath >= 0 ? prevPath : null, FrameVerdict.Spurious.NO));
    }

    /** The current frame's retransmission waits for the acknowledgement that decides whether it was spurious. */
    void retransmissionPending(PendingEvent e) {
        if (store != null) store.flag(VerdictStore.PENDING);
        if (e != null) e.ready = false;
    }

    /** The retransmission in frame was spurious: the receiver already had the PSN. */
    void spurious(Flow fl, long frame, PendingEvent e) {
        fl.spurious++;
        if (store != null) store.setFlags(frame, VerdictStore.SPURIOUS);
        if (e != null) e.event = ((AnalysisEvent.Retransmission) e.event).withSpurious(FrameVerdict.Spurious.YES);
    }

    /** A pending retransmission decided: spurious yes, no, or null when the capture cannot tell. */
    void spuriousDecided(Flow fl, Flow.PendingRetx p, Boolean spurious) {
        if (spurious == null) {
            fl.spuriousUnknown++;
            if (p.event != null) {
                p.event.event = ((AnalysisEvent.Retransmission) p.event.event).withSpurious(FrameVerdict.Spurious.UNDECIDED);
                p.event.ready = true;
            }
            return;
        }
        if (store != null) store.clearFlags(p.frame, VerdictStore.PENDING);
        if (spurious) spurious(fl, p.frame, p.event);
        if (p.event != null) p.event.ready = true;
    }

    /** A retransmission still pending when the pass ended (sender's tap): its spuriousness stays undecided. */
    void spuriousUndecidedAtEnd(Flow.PendingRetx p) {
        if (store != null) {
            store.clearFlags(p.frame, VerdictStore.PENDING);
            store.setFlags(p.frame, VerdictStore.UNDECIDED);
        }
        if (p.event != null) p.event.ready = true;
    }

    /** A message (slot ms of the flow's open messages) completed by the current frame, after t ns. */
    void messageComplete(Flow fl, long msgId, long t) {
        fl.messagesCompleted++;
        fl.completion.add(t);
        if (store != null) {
            store.value(VerdictStore.V_MSG_ID, msgId);
            store.value(VerdictStore.V_MSG_DONE, t);
        }
    }

    // ------------------------------------------------------------------ responses and acknowledgements

    /** A READ response or atomic acknowledgement repeated because its request was re-issued (flow g, about fl). */
    void repeatedResponse(Flow g, Flow fl, FrameFacts f, long request, long original) {
        g.repeatedResponses++;
        g.responseRetx++;
        if (store != null) {
            store.flag(VerdictStore.REPEAT_RESP);
            if (original != 0) store.value(VerdictStore.V_ORIGINAL, original);
            if (request != 0) store.value(VerdictStore.V_REQUEST, request);
        }
        if (listener != null) {
            emit(new AnalysisEvent.RepeatedResponse(f.number, f.timeNs, g.id, f.psn, request != 0 ? request : null,
                    original != 0 ? original : null, fl.id));
        }
    }

    /** The current frame acknowledges PSNs fromU .. toU - 1 of fl first. */
    void ackRun(Flow fl, FrameFacts f, long fromU, long toU) {
        if (store != null) store.ackRun(f.number, f.timeNs, fl.index, Psn.wrap(fromU), (int) (toU - fromU));
    }

    /** Time from the first arrival past a missing PSN to the NAK/NACK naming it. */
    void nakGeneration(Flow fl, long lat) {
        fl.nakGen.add(lat);
        if (store != null) store.value(VerdictStore.V_NAK_GEN, lat);
    }

    /** An AETH RNR NAK (frame on g) about fl. */
    void rnrNak(Flow fl, Flow g, FrameFacts f) {
        fl.rnrNaks++;
        if (listener != null) {
            emit(new AnalysisEvent.Nak(f.number, f.timeNs, fl.id, f.psn, AnalysisEvent.NakKind.NAK, true, null, null,
                    null, f.aethCode, null, g.id));
        }
    }

    /** An AETH NAK (sequence error, code 0, or another error code) about fl; gen: its generation latency or -1. */
    void nak(Flow fl, Flow g, FrameFacts f, long gen) {
        if (f.aethCode == 0) fl.naks++;
        else fl.nakErrors++;
        if (listener != null) {
            emit(new AnalysisEvent.Nak(f.number, f.timeNs, fl.id, f.psn, AnalysisEvent.NakKind.NAK, false, f.aethCode,
                    null, null, null, gen >= 0 ? gen : null, g.id));
        }
    }

    /** An MR-NACK (frame on g) about fl; gen: its generation latency or -1. */
    void nack(Flow fl, Flow g, FrameFacts f, boolean rnr, long gen) {
        if (listener != null) {
            emit(new AnalysisEvent.Nak(f.number, f.timeNs, fl.id, f.nackFirst, AnalysisEvent.NakKind.NACK, rnr, null,
                    f.nackCount, f.nackReason, rnr ? f.nackRnrTimer : null, gen >= 0 ? gen : null, g.id));
        }
    }

    /**
     * The current frame acknowledged n PSNs from firstU that the capture never showed. capture: the capture lost
     * them (else a mirror that does not see every path may just not mirror them). Returns the held event.
     */
    PendingEvent ackOfUnseen(Flow fl, FrameFacts f, long firstU, int n, boolean capture) {
        if (capture) fl.captureGaps += n;
        if (store != null) store.flag(VerdictStore.ACK_UNSEEN);
        if (listener == null) return null;
        PendingEvent e = emit(new AnalysisEvent.AckOfUnseen(f.number, f.timeNs, fl.id, Psn.wrap(firstU), n,
                capture ? AnalysisEvent.Loss.CAPTURE : AnalysisEvent.Loss.NOT_MIRRORED));
        // Held while the PSNs may still appear just behind it (capture reordering).
        e.ready = false;
        return e;
    }

    /** Every PSN the acknowledgement in ackFrame seemed to cover unseen appeared after all: withdrawn. */
    void ackOfUnseenWithdrawn(long ackFrame, PendingEvent e) {
        if (e != null) {
            e.cancelled = true;
            e.ready = true;
        }
        if (store != null) store.clearFlags(ackFrame, VerdictStore.ACK_UNSEEN);
    }

    /** Some of the PSNs the acknowledgement seemed to cover unseen appeared: left of them are still missing. */
    void ackOfUnseenShrunk(PendingEvent e, int left) {
        if (e != null) e.event = ((AnalysisEvent.AckOfUnseen) e.event).withUnseen(left);
    }

    // ------------------------------------------------------------------ MetaRoCE control

    /** A credit-mode sender that waited stall ns for credit (§12). */
    void creditStall(Flow fl, FrameFacts f, long stall) {
        fl.creditStalls++;
        if (listener != null) emit(new AnalysisEvent.CreditStall(f.number, f.timeNs, fl.id, f.psn, stall));
    }

    /** Path ps of fl judged down for reason (rate and median: of the loss-rate rule; consecutive: probes). */
    void pathDown(Flow fl, PathStats ps, long frame, long time, String reason, Double rate, Double median,
                  Integer consecutive) {
        ps.down = true;
        ps.downReason = reason;
        ps.downFrame = frame;
        if (listener != null) emit(new AnalysisEvent.PathDown(frame, time, fl.id, ps.id, reason, rate, median, consecutive));
    }

    // ------------------------------------------------------------------ congestion

    /** A CNP (frame on g) about fl, or unattributed (fl null). */
    void cnp(Flow fl, Flow g, FrameFacts f, boolean mr) {
        if (listener != null) {
            emit(new AnalysisEvent.Cnp(f.number, f.timeNs, fl != null ? fl.id : g.id, mr, mr ? f.cnpPath : null,
                    mr ? f.cnpCeCount : null, fl != null ? g.id : null));
        }
    }

    /** A CE-marked request of fl (path: its MetaRoCE path, 0 for RoCEv2). */
    void ceMark(Flow fl, FrameFacts f, int path) {
        fl.ceMarks++;
        if (f.tver == 1) fl.path(path).ceMarks++;
        if (store != null) store.flag(VerdictStore.CE);
        if (listener != null) emit(new AnalysisEvent.CeMark(f.number, f.timeNs, fl.id, f.psn, f.tver == 1 ? path : null));
    }

    /** The current frame's CE mark waits for its reaction window; returns the held event (null: nobody listens). */
    PendingEvent ceWithoutCnpPending(Flow fl, FrameFacts f, int path) {
        PendingEvent pending = null;
        if (listener != null) {
            pending = emit(new AnalysisEvent.CeWithoutCnp(f.number, f.timeNs, fl.id, f.psn, f.tver == 1 ? path : null));
            pending.ready = false;
        }
        if (store != null) store.flag(VerdictStore.PENDING);
        return pending;
    }

    /** The CE mark in frame got its reaction (a CNP or rate change) within the window, or did not. */
    void ceDecided(Flow fl, long frame, PendingEvent e, boolean reacted) {
        if (store != null) store.clearFlags(frame, VerdictStore.PENDING);
        if (reacted) {
            if (e != null) e.cancelled = true;
        } else {
            fl.ceWithoutCnp++;
            if (store != null) store.setFlags(frame, VerdictStore.CE_NO_CNP);
        }
        if (e != null) e.ready = true;
    }

    /** A CE mark still inside its window when the pass ended: not judged. */
    void ceUndecidedAtEnd(long frame, PendingEvent e) {
        if (store != null) store.clearFlags(frame, VerdictStore.PENDING);
        if (e != null) {
            e.cancelled = true;
            e.ready = true;
        }
    }

    // ------------------------------------------------------------------ events

    /** Queues an event for the listener (in frame order, once decided); returns its queue entry. */
    private PendingEvent emit(AnalysisEvent e) {
        PendingEvent p = new PendingEvent(e);
        queue.add(p);
        return p;
    }

    /**
     * Hands out the decided events at the head of the queue (all: everything, at the end of the pass). Called for
     * every frame: small enough for C1 to inline when no event waits (nearly always).
     */
    void flush(boolean all, long now) {
        if (listener != null && !queue.isEmpty()) flushQueue(all, now);
    }

    private void flushQueue(boolean all, long now) {
        PendingEvent e;
        while ((e = queue.peek()) != null) {
            if (!e.ready && !all && e.event.timeNs() > now - AnalysisEngine.MAX_HOLD_NS) break;
            queue.poll();
            if (!e.cancelled) listener.event(e.event);
        }
    }
}
