package io.metaroce.analysis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The requester NIC's recovery behaviour (analyze's "Recovery behaviour", operator need #14): where a RoCEv2 sender
 * starts resending after a NAK PSN-sequence-error naming PSN p, and after its timer fires. IBTA prescribes go-back-N
 * from p (the responder's expected PSN) after the NAK and from the oldest unacknowledged PSN after a timeout.
 * Starting earlier resends packets the NAK already acknowledged (a NIC going back to the message's first packet
 * never finishes a long message at modest loss: the SIGCOMM'16 "RDMA transport livelock"); starting later leaves a
 * hole only a timeout fills; answering no NAK makes every loss cost a timeout. A NAK is ignored when its first
 * resend is the timer's: it came as long after the timer's restart (the last acknowledgement that moved the oldest
 * PSN, or the timer's own go-back) as the timer the flow's timeouts show, and 8 round trips or more after the NAK (a
 * NIC answers within a round trip or so); or 100 us and 32 round trips after it whatever the timer. A timer shorter
 * than 100 us is learned from the flow's timeouts, or from two slow answers as long after their restarts (the first
 * is counted again then), or at the end from the host's other QPs. The resend run of an ignored NAK is a timeout.
 *
 * <p>State per RoCEv2 QP direction ({@link State}, made at its first NAK or timeout go-back): a flow that never sees
 * either pays one null check per retransmission. MetaRoCE recovers by SACK/NACK selective repeat: out of scope.
 * What a tap allows: the sender's tap sees every resend and the NAK as the NIC got it; a mirror or the receiver's
 * tap sees a resend only if it was not lost before the tap, so a start later than p may be a lost resend of p
 * there: those taps judge same and earlier starts, and a host whose NAKs look answered later gets {@code unknown}.
 */
final class Recovery {
    private Recovery() {}

    /** A resend at least this long after the NAK (and 32 round trips) answered the sender's timer, not the NAK. */
    static final long IGNORED_MIN_NS = 100_000;
    /**
     * A resend this many round trips after the NAK is slow for an answer: when it also comes at the flow's timer
     * (the time since the last progress equals the timer its other timeouts show) the NAK was ignored.
     */
    static final int SLOW_RTTS = 8;
    /** How far a resend may be from the learned timer and still be the timer's: this share of it, 2 us at least. */
    static final int TIMER_TOLERANCE_DIV = 8;
    static final long TIMER_TOLERANCE_MIN_NS = 2_000;
    /** Samples kept per QP direction for the medians (extra PSNs, NAK -> resend time); later ones are counted only. */
    static final int MAX_SAMPLES = 1024;

    /**
     * The figures a QP direction's state and a host's accumulation of them share: one list, so a figure added for a
     * new behaviour is summed into the host's report by {@link #addCounts} whichever way the flow reaches it.
     */
    abstract static class Counts {
        long naks, same, earlier, earlierMessageStart, later, ignored, notJudged, wastedPsns, wastedBytes;
        long timeouts, timeoutsFromOldest, timeoutsEarlier, timeoutsLater;
        /** Sum of the NAK -> resend waits of the ignored NAKs (what ignoring them cost). */
        long ignoredWaitNs, firstIgnoredNs;
        /** The retransmission timer the flow showed (time from the timer's restart to its go-back), 0 unknown. */
        long timerNs;
        long firstWrongNs;
        final Latency extraPsns = new Latency(), response = new Latency();
        final List<Long> evidence = new ArrayList<>();

        /** Adds o's figures: sums, the earliest times, the shortest timer, o's evidence up to 8 frames in all. */
        final void addCounts(Counts o) {
            naks += o.naks;
            same += o.same;
            earlier += o.earlier;
            earlierMessageStart += o.earlierMessageStart;
            later += o.later;
            ignored += o.ignored;
            notJudged += o.notJudged;
            wastedPsns += o.wastedPsns;
            wastedBytes += o.wastedBytes;
            timeouts += o.timeouts;
            timeoutsFromOldest += o.timeoutsFromOldest;
            timeoutsEarlier += o.timeoutsEarlier;
            timeoutsLater += o.timeoutsLater;
            ignoredWaitNs += o.ignoredWaitNs;
            firstIgnoredNs = earliest(firstIgnoredNs, o.firstIgnoredNs);
            // The QPs' timers are one NIC setting: the shortest learned (a longer one may be a backed-off retry).
            timerNs = earliest(timerNs, o.timerNs);
            firstWrongNs = earliest(firstWrongNs, o.firstWrongNs);
            extraPsns.addAll(o.extraPsns);
            response.addAll(o.response);
            for (int i = 0; i < o.evidence.size() && evidence.size() < 8; i++) evidence.add(o.evidence.get(i));
        }

        /** The smaller of two values where 0 means none (a time or timer not seen). */
        private static long earliest(long a, long b) {
            return b != 0 && (a == 0 || b < a) ? b : a;
        }
    }

    /** The recovery state of one RoCEv2 QP direction. */
    static final class State extends Counts {
        /** The NAK awaiting its first resend: its PSN (unwrapped, Long.MIN_VALUE for none), time, frame, message start. */
        long nakU = Long.MIN_VALUE, nakTime, nakFrame, nakMsgStartU = Long.MIN_VALUE;
        /** Resends of PSNs below this (exclusive) continuing an early go-back run are waste. */
        long wasteToU = Long.MIN_VALUE;
        /** Highest PSN acknowledged (unwrapped) and when the timer last restarted (progress or its own go-back). */
        long ackedU = Long.MIN_VALUE, timerBaseNs;
        /**
         * A slow answer judged before any timer was known (kept as an answer): when a later timer go-back came as long
         * after its timer restart, it was the timer's too and is counted again as ignored (its copies as a timeout).
         */
        boolean cand;
        long candSinceNs, candLat, candFrame, candNakNs, candCopies, candResendFrame;
        Flow.Episode candEpi;
        /** The first NAK answered wrongly per kind ({@link #EARLIER}, ...) and its first resend: {nak, resend} frames, 0 for none. */
        final long[] examples = new long[2 * KINDS];
    }

    /** The kinds of wrong answer to a NAK an example is kept for (the GUI's jump to a frame; not in analyze's outputs). */
    static final int EARLIER = 0, LATER = 1, NOT_ANSWERED = 2, KINDS = 3;

    /** A NAK PSN-sequence-error naming u, the requester's oldest outstanding PSN (Acknowledgements#ack). */
    static void nak(Flow fl, FrameFacts f, long u) {
        if (fl.tver != 0) return;
        State s = fl.recovery;
        if (s == null) s = fl.recovery = new State();
        if (s.nakU == u) return; // the responder repeating itself: the first NAK is the one the sender must answer
        if (s.nakU != Long.MIN_VALUE) s.notJudged++; // a new NAK before any resend answered the previous one
        s.naks++;
        progress(s, f.timeNs, u - 1);
        s.nakU = u;
        s.nakTime = f.timeNs;
        s.nakFrame = f.number;
        s.nakMsgStartU = messageStart(fl, u);
    }

    /** An acknowledgement through u at time t (flows with a State): progress restarts the sender's timer. */
    static void acked(Flow fl, long t, long u) {
        progress(fl.recovery, t, u);
    }

    private static void progress(State s, long t, long u) {
        if (u > s.ackedU) {
            s.ackedU = u;
            if (t > s.timerBaseNs) s.timerBaseNs = t;
        }
    }

    /** A retransmission the stream gave the cause NAK (flows with a State): counted for a candidate's run. */
    static void nakCopy(Flow fl) {
        State s = fl.recovery;
        if (s.cand && fl.epi == s.candEpi) s.candCopies++;
    }

    /** Whether d is the timer t (within its tolerance). */
    private static boolean atTimer(long d, long t) {
        return t > 0 && Math.abs(d - t) <= Math.max(TIMER_TOLERANCE_MIN_NS, t / TIMER_TOLERANCE_DIV);
    }

    /**
     * A timer go-back came d after the timer's restart: the flow's timer (the latest, a NIC may back off). A candidate
     * slow answer that came as long after its restart was the timer's.
     */
    private static void learnTimer(Flow fl, State s, long d) {
        if (d < SLOW_RTTS * fl.rttEstimate(6_000)) return;
        s.timerNs = d;
        if (s.cand && atTimer(s.candSinceNs, d)) promoteCandidate(fl, s);
        s.cand = false;
    }

    /** The candidate answer was the timer's: an ignored NAK, its resend run a timeout (counts corrected). */
    private static void promoteCandidate(Flow fl, State s) {
        s.cand = false;
        s.same--;
        s.ignored++;
        s.ignoredWaitNs += s.candLat;
        if (s.firstIgnoredNs == 0 || s.candNakNs < s.firstIgnoredNs) s.firstIgnoredNs = s.candNakNs;
        // Judged late: its NAK goes where it came in the flow's evidence (frame order).
        int at = 0;
        while (at < s.evidence.size() && s.evidence.get(at) < s.candFrame) at++;
        if (s.evidence.size() < 8) s.evidence.add(at, s.candFrame);
        else if (at < 8) {
            s.evidence.remove(7);
            s.evidence.add(at, s.candFrame);
        }
        // An ignored NAK too: the example of its kind when it is the first (it was judged after later NAKs may have been).
        int k = 2 * NOT_ANSWERED;
        if (s.examples[k] == 0 || s.candFrame < s.examples[k]) {
            s.examples[k] = s.candFrame;
            s.examples[k + 1] = s.candResendFrame;
        }
        fl.byCause[Cause.NAK.ordinal()] -= s.candCopies;
        fl.byCause[Cause.TIMEOUT.ordinal()] += s.candCopies;
        fl.timeouts++;
        s.timeouts++;
        if (fl.view != View.RECEIVER && fl.everAcked) s.timeoutsFromOldest++;
    }

    /** The first PSN of the open message holding u, or Long.MIN_VALUE when the stream does not tell. */
    private static long messageStart(Flow fl, long u) {
        SeqWindow w = fl.w;
        if (w == null || !w.contains(u)) return Long.MIN_VALUE;
        int ord = w.msg[w.idx(u)];
        // A tap that never saw u (lost before it): the open message that started before u and has not ended.
        int ms = ord >= 0 ? fl.msgs.slotOf(ord) : fl.msgs.findByPsn(u);
        return ms >= 0 ? fl.msgs.firstU[ms] : Long.MIN_VALUE;
    }

    /**
     * A retransmission of u (RequestStream#retransmission, before its cause is decided; only on flows with a
     * {@link State}). The first resend that starts a run after the NAK answers it; a start before p lowers the NAK's
     * recovery episode to it, so the copies of the early run count as the NAK's, not as a timeout's. Returns whether
     * the copy is part of the answer to a NAK (then it is no timeout go-back, whatever cause the stream gives it).
     */
    static boolean resend(Flow fl, FrameFacts f, long u) {
        State s = fl.recovery;
        if (s.wasteToU != Long.MIN_VALUE) {
            if (u < s.wasteToU && u == fl.lastRetxU + 1 && fl.lastRetxFrame > fl.lastNewFrame) {
                s.wastedPsns++;
                s.wastedBytes += f.payloadLength;
                return true;
            }
            s.wasteToU = Long.MIN_VALUE;
        }
        long p = s.nakU;
        if (p == Long.MIN_VALUE || f.timeNs < s.nakTime) return false;
        // A copy continuing a run that began before the NAK is still the previous run, not the answer.
        boolean runStart = fl.lastRetxU == Long.MIN_VALUE || u <= fl.lastRetxU || fl.lastNewFrame > fl.lastRetxFrame;
        if (!runStart && u != p) return false;
        s.nakU = Long.MIN_VALUE;
        long lat = f.timeNs - s.nakTime, rtt = fl.rttEstimate(6_000);
        // The timer restarted at the last progress (the NAK's own acknowledgement, or before): a resend as long after
        // it as the timer the flow shows came from the timer; so did a long wait whatever the timer.
        long since = s.timerBaseNs > 0 ? f.timeNs - s.timerBaseNs : lat;
        boolean slow = lat >= SLOW_RTTS * rtt;
        boolean candMatch = slow && s.cand && s.timerNs == 0 && atTimer(since, s.candSinceNs);
        if (lat >= Math.max(IGNORED_MIN_NS, 32 * rtt) || (slow && atTimer(since, s.timerNs)) || candMatch) {
            s.ignored++;
            s.ignoredWaitNs += lat;
            if (s.firstIgnoredNs == 0) s.firstIgnoredNs = s.nakTime;
            evidence(s, s.nakFrame);
            if (candMatch) promoteCandidate(fl, s);
            example(s, NOT_ANSWERED, f.number);
            // The resend run is the timer's (a timeout from the oldest PSN), not the NAK's recovery.
            Flow.Episode e = fl.epi;
            if (e != null && e.cause == Cause.NAK && e.startTime == 0) fl.epi = null;
            return false;
        }
        if (slow && u == p && s.timerNs == 0 && !s.cand && s.timerBaseNs > 0) {
            // Too slow for an answer, yet no timer to compare with: decided when the flow shows its timer.
            s.cand = true;
            s.candSinceNs = since;
            s.candLat = lat;
            s.candFrame = s.nakFrame;
            s.candResendFrame = f.number;
            s.candNakNs = s.nakTime;
            s.candCopies = 0;
            s.candEpi = fl.epi;
            s.same++;
            return true;
        }
        if (fl.view != View.RECEIVER && s.response.count() < MAX_SAMPLES) s.response.add(lat);
        if (u == p) {
            s.same++;
            return true;
        }
        if (u > p) {
            s.later++;
            if (fl.view == View.SENDER) {
                evidence(s, f.number);
                example(s, LATER, f.number);
                if (s.firstWrongNs == 0) s.firstWrongNs = f.timeNs;
            }
            return true;
        }
        s.earlier++;
        example(s, EARLIER, f.number);
        if (u == s.nakMsgStartU) s.earlierMessageStart++;
        if (s.extraPsns.count() < MAX_SAMPLES) s.extraPsns.add(p - u);
        s.wastedPsns++;
        s.wastedBytes += f.payloadLength;
        s.wasteToU = p;
        if (s.firstWrongNs == 0) s.firstWrongNs = f.timeNs;
        evidence(s, f.number);
        Flow.Episode e = fl.epi;
        if (e != null && e.cause == Cause.NAK && e.startTime == 0 && e.fromU == p) e.fromU = u;
        return true;
    }

    private static void evidence(State s, long frame) {
        if (s.evidence.size() < 8) s.evidence.add(frame);
    }

    /** Keeps the NAK being answered and its resend as the example of kind, if the QP direction has none yet. */
    private static void example(State s, int kind, long resendFrame) {
        if (s.examples[2 * kind] != 0) return;
        s.examples[2 * kind] = s.nakFrame;
        s.examples[2 * kind + 1] = resendFrame;
    }

    /**
     * Per sending host (the rows of {@link #report}), the example of each kind of wrong answer with the earliest NAK
     * over its QP directions: {nak, resend} frames per kind, 0 for none. O(QP directions with recovery state).
     */
    static Map<String, long[]> examples(List<Flow> flows) {
        Map<String, long[]> hosts = new LinkedHashMap<>();
        for (int i = 0; i < flows.size(); i++) {
            Flow fl = flows.get(i);
            State s = fl.recovery;
            if (s == null) continue;
            long[] h = hosts.get(fl.key.src());
            if (h == null) hosts.put(fl.key.src(), h = new long[2 * KINDS]);
            for (int k = 0; k < KINDS; k++) {
                long nak = s.examples[2 * k];
                if (nak != 0 && (h[2 * k] == 0 || nak < h[2 * k])) {
                    h[2 * k] = nak;
                    h[2 * k + 1] = s.examples[2 * k + 1];
                }
            }
        }
        return hosts;
    }

    /** A timer go-back starting at u at time t (the first copy of a new timeout run; RoCEv2). */
    static void timeout(Flow fl, long t, long u, long oldestU) {
        State s = fl.recovery;
        if (s == null) s = fl.recovery = new State();
        s.timeouts++;
        if (s.timerBaseNs > 0) learnTimer(fl, s, t - s.timerBaseNs);
        // The timer restarts at its own go-back.
        s.timerBaseNs = t;
        // Judged only where the acknowledgements are seen before the timer could fire on them (not the receiver's tap).
        if (fl.view == View.RECEIVER || !fl.everAcked) return;
        if (u == oldestU) s.timeoutsFromOldest++;
        else if (u < oldestU) s.timeoutsEarlier++;
        else s.timeoutsLater++;
    }

    // ------------------------------------------------------------------ report

    /**
     * At the end (before the flows' counts are read): a candidate slow answer of a QP that showed no timer of its own
     * is judged by its host's timer (one NIC setting: the shortest any of its QPs showed). Idempotent.
     */
    static void settle(List<Flow> flows) {
        Map<String, long[]> timers = null;
        for (int i = 0; i < flows.size(); i++) {
            State s = flows.get(i).recovery;
            if (s == null || s.timerNs == 0) continue;
            if (timers == null) timers = new LinkedHashMap<>();
            long[] t = timers.get(flows.get(i).key.src());
            if (t == null) timers.put(flows.get(i).key.src(), new long[] {s.timerNs});
            else if (s.timerNs < t[0]) t[0] = s.timerNs;
        }
        if (timers == null) return;
        for (int i = 0; i < flows.size(); i++) {
            Flow fl = flows.get(i);
            State s = fl.recovery;
            if (s == null || !s.cand) continue;
            long[] t = timers.get(fl.key.src());
            if (t != null && atTimer(s.candSinceNs, t[0])) promoteCandidate(fl, s);
        }
    }

    /** An evicted flow's figures go into its host's (the counts, medians' samples and evidence kept; its id listed). */
    static void fold(Map<String, Host> hosts, Flow fl) {
        Host h = hosts.get(fl.key.src());
        if (h == null) hosts.put(fl.key.src(), h = new Host(fl.key.src()));
        h.add(fl, fl.recovery);
    }

    /**
     * Per sending host, over its RoCEv2 QP directions with a NAK or timeout go-back, those evicted included
     * (evicted: their hosts' folded figures, or null); null when none had either.
     */
    static Map<String, Object> report(List<Flow> flows, Map<String, Host> evicted) {
        Map<String, Host> hosts = new LinkedHashMap<>();
        if (evicted != null) {
            for (Host e : evicted.values()) {
                Host h = new Host(e.ip);
                h.merge(e);
                hosts.put(e.ip, h);
            }
        }
        for (int i = 0; i < flows.size(); i++) {
            Flow fl = flows.get(i);
            State s = fl.recovery;
            if (s == null) continue;
            Host h = hosts.get(fl.key.src());
            if (h == null) hosts.put(fl.key.src(), h = new Host(fl.key.src()));
            h.add(fl, s);
        }
        if (hosts.isEmpty()) return null;
        List<Object> rows = new ArrayList<>();
        for (Host h : hosts.values()) rows.add(h.toMap());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("senders", rows);
        return m;
    }

    /** One sending host's figures. */
    static final class Host extends Counts {
        final String ip;
        final List<String> qps = new ArrayList<>();
        long open, packets, messages;
        boolean senderTap, receiverTap;

        Host(String ip) { this.ip = ip; }

        void add(Flow fl, State s) {
            // The report names the first 16: an evicted host's list must not grow with its flows.
            if (qps.size() < 16) qps.add(fl.id);
            addCounts(s);
            if (s.nakU != Long.MIN_VALUE) open++;
            packets += Math.max(0, fl.dataPackets - fl.retransmitted);
            messages += fl.messages;
            if (fl.view == View.SENDER) senderTap = true;
            else if (fl.view == View.RECEIVER) receiverTap = true;
        }

        /** Adds another accumulation of the same host (the evicted flows' figures). */
        void merge(Host o) {
            for (int i = 0; i < o.qps.size() && qps.size() < 16; i++) qps.add(o.qps.get(i));
            addCounts(o);
            open += o.open;
            packets += o.packets;
            messages += o.messages;
            senderTap |= o.senderTap;
            receiverTap |= o.receiverTap;
        }

        /** The behaviour most of the judged NAKs (else timeouts) show; unknown when nothing is judged or no kind leads. */
        String verdict() {
            long judged = same + earlier + later + ignored;
            if (judged > 0) {
                if (2 * same > judged) return "go-back-n";
                if (2 * earlier > judged) return 2 * earlierMessageStart >= earlier ? "go-back-message-start" : "resend-early";
                if (2 * ignored > judged) return "nak-ignored";
                if (2 * later > judged && senderTap) return "skips";
                return "unknown";
            }
            long t = timeoutsFromOldest + timeoutsEarlier + timeoutsLater;
            if (t == 0) return "unknown";
            if (2 * timeoutsFromOldest > t) return "go-back-n";
            if (2 * timeoutsEarlier > t) return "resend-early";
            if (2 * timeoutsLater > t && senderTap) return "skips";
            return "unknown";
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sender", ip);
            m.put("qps", qps);
            m.put("tap", senderTap ? "sender" : receiverTap ? "receiver" : "mirror");
            m.put("naks", naks);
            m.put("from_nak_psn", same);
            m.put("earlier", earlier);
            m.put("earlier_message_start", earlierMessageStart);
            // A later start may be a lost resend of p where the tap is not the sender's.
            m.put("later", senderTap ? later : null);
            m.put("not_answered", ignored);
            // What ignoring NAKs cost: every loss waited for the timer instead of one NAK round trip.
            m.put("ignored_wait_ns", ignoredWaitNs);
            m.put("timer_ns", timerNs == 0 ? null : timerNs);
            m.put("first_ignored_ns", firstIgnoredNs == 0 ? null : firstIgnoredNs);
            m.put("not_judged", notJudged + open);
            m.put("extra_psns_median", extraPsns.count() == 0 ? null : extraPsns.median());
            m.put("wasted_psns", wastedPsns);
            m.put("wasted_bytes", wastedBytes);
            m.put("nak_to_resend_ns_median", response.count() == 0 ? null : response.median());
            m.put("timeouts", timeouts);
            boolean judgeTimeouts = !receiverTap || senderTap;
            m.put("timeouts_from_oldest", judgeTimeouts ? timeoutsFromOldest : null);
            m.put("timeouts_earlier", judgeTimeouts ? timeoutsEarlier : null);
            m.put("timeouts_later", judgeTimeouts ? timeoutsLater : null);
            m.put("packets_per_message", messages > 0 ? Math.max(1, Math.round((double) packets / messages)) : null);
            m.put("loss_share", packets > 0 ? Math.round((double) (naks + timeouts) / packets * 1e6) / 1e6 : null);
            // The first resend that started before or after the NAK's PSN.
            m.put("first_wrong_ns", firstWrongNs == 0 ? null : firstWrongNs);
            m.put("evidence_frames", evidence);
            m.put("verdict", verdict());
            return m;
        }
    }

    // ------------------------------------------------------------------ text

    /** The section's title line: what it shows, what IBTA prescribes and when a NAK counts as ignored. */
    static final String HEADER = "Recovery behaviour (RoCEv2 requesters: where the resend starts after a NAK sequence error "
            + "naming PSN p and after a timeout; IBTA: from p, and from the oldest unacknowledged PSN; a NAK is ignored when "
            + "its resend came only at the sender's timer: as long after the last progress as the timer its timeouts show, "
            + "and 8 round trips after the NAK, or 100 us and 32 round trips after it)";
    /** The line under the table: what each column counts. */
    static final String LEGEND = "Earlier: resent PSNs the NAK had acknowledged (msg start: from the first packet of p's "
            + "message); later: skipped p; ignored: the first resend was the timer's (its NAK->resend time is not in the "
            + "median); not judged: no resend before the capture ended or the next NAK. MetaRoCE (selective repeat) is not judged";

    @SuppressWarnings("unchecked")
    static void appendText(Appendable out, Map<String, Object> r) throws IOException {
        out.append(HEADER).append('\n');
        List<Object[]> rows = new ArrayList<>();
        for (Object o : (List<Object>) r.get("senders")) {
            Map<String, Object> m = (Map<String, Object>) o;
            Object tf = m.get("timeouts_from_oldest");
            rows.add(new Object[] {m.get("sender"), m.get("tap"), m.get("naks"), m.get("from_nak_psn"),
                    m.get("earlier") + " (" + m.get("earlier_message_start") + ")", m.get("later"), m.get("not_answered"),
                    m.get("not_judged"), m.get("extra_psns_median"), us(m.get("nak_to_resend_ns_median")), m.get("timeouts"),
                    us(m.get("timer_ns")),
                    tf == null ? null : tf + "/" + (((Number) tf).longValue() + ((Number) m.get("timeouts_earlier")).longValue()
                            + ((Number) m.get("timeouts_later")).longValue()), m.get("verdict")});
        }
        Reports.rows(out, new String[] {"Sender", "Tap", "NAKs", "From p", "Earlier (msg start)", "Later", "Ignored",
                "Not judged", "Extra PSNs med", "NAK->resend us med", "Timeouts", "Timer us", "From oldest", "Verdict"}, rows);
        out.append(LEGEND).append('\n');
        out.append(Reports.RULE);
    }

    private static String us(Object ns) {
        return ns instanceof Number x ? String.format(Locale.ROOT, "%.3f", x.longValue() / 1e3) : null;
    }
}
