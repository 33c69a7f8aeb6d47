package io.metaroce.analysis;

import static io.metaroce.analysis.Pkt.ACK;
import static io.metaroce.analysis.Pkt.WRITE_FIRST;
import static io.metaroce.analysis.Pkt.WRITE_LAST;
import static io.metaroce.analysis.Pkt.WRITE_MIDDLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.diagnosis.Diagnoser;
import io.metaroce.analysis.diagnosis.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Recovery behaviour on crafted RoCEv2 exchanges: two 4-packet WRITEs, the second one's third packet lost after the
 * tap, a NAK naming it, and the sender's answer (from the NAK's PSN, from the message start, skipping it, none).
 */
class RecoveryTest {
    static final String A = "10.0.0.1", B = "10.0.0.2";
    static final long US = 1_000;
    static final int MASK = 0xFFFFFF;

    static Pkt data(int op, int psn) { return Pkt.of(op).from(A, B).qp(0x201).psn(psn & MASK).payload(256); }

    static Pkt ack(int psn) { return Pkt.of(ACK).from(B, A).qp(0x102).psn(psn & MASK).aeth(0, 0x1F, 1); }

    static Pkt nak(int psn) { return Pkt.of(ACK).from(B, A).qp(0x102).psn(psn & MASK).aeth(3, 0, 1); }

    static int op(int k) { return k % 4 == 0 ? WRITE_FIRST : k % 4 == 3 ? WRITE_LAST : WRITE_MIDDLE; }

    /** Two messages from b (b..b+3, b+4..b+7), b+6 lost, NAK(b+6); the sender resends from start (and on to b+7). */
    static void episode(Cap c, int b, int start, boolean nak) {
        for (int k = 0; k < 8; k++) c.add(US, data(op(k), b + k).ack());
        c.add(6 * US, ack(b + 5));
        if (nak) c.add(US, nak(b + 6));
        // The NIC reacts 3 us after the NAK (a resend sooner than a round trip after its original would be a capture duplicate).
        c.add(nak ? 3 * US : 200 * US, data(op(start - b), start).ack());
        for (int p = start + 1; p <= b + 7; p++) c.add(US, data(op(p - b), p).ack());
        if (start > b + 6) {
            // The hole the skip left: only the sender's timer fills it.
            c.add(150 * US, data(op(6), b + 6).ack());
            c.add(US, data(op(7), b + 7).ack());
        }
        c.add(10 * US, ack(b + 7));
    }

    static Map<String, Object> sender(Cap.Run r) {
        Map<String, Object> rec = r.result.recovery();
        assertNotNull(rec, r.dump());
        List<?> s = (List<?>) rec.get("senders");
        assertEquals(1, s.size());
        @SuppressWarnings("unchecked") Map<String, Object> m = (Map<String, Object>) s.get(0);
        assertEquals(A, m.get("sender"));
        return m;
    }

    static List<Finding> findings(Cap.Run r) {
        List<Finding> out = new ArrayList<>();
        for (Finding f : new Diagnoser().recovery(r.result.recovery()).finish().findings()) {
            if (f.rule().startsWith("nic-")) out.add(f);
        }
        return out;
    }

    static Cap.Run run(int base, int[] starts, String tap) {
        Cap c = new Cap();
        for (int i = 0; i < starts.length; i++) episode(c, base + 8 * i, base + 8 * i + starts[i], true);
        return c.analyze(tap);
    }

    @Test
    void goBackNFromTheNakPsnConforms() {
        Cap.Run r = run(100, new int[] {6, 6, 6}, "host:" + A);
        Map<String, Object> m = sender(r);
        assertEquals(3L, m.get("naks"));
        assertEquals(3L, m.get("from_nak_psn"));
        assertEquals(0L, m.get("earlier"));
        assertEquals(0L, m.get("later"));
        assertEquals(3000L, m.get("nak_to_resend_ns_median"));
        assertEquals("go-back-n", m.get("verdict"));
        assertEquals(List.of(), findings(r));
    }

    @Test
    void goBackToTheMessageStartIsNamed() {
        Cap.Run r = run(100, new int[] {4, 4, 4}, "host:" + A);
        Map<String, Object> m = sender(r);
        assertEquals(3L, m.get("earlier"));
        assertEquals(3L, m.get("earlier_message_start"));
        assertEquals(2L, m.get("extra_psns_median"));
        assertEquals(6L, m.get("wasted_psns"));
        assertEquals(6L * 256, m.get("wasted_bytes"));
        assertEquals("go-back-message-start", m.get("verdict"));
        // The early copies are the NAK's recovery, not timeouts.
        assertEquals(0L, m.get("timeouts"));
        assertEquals("nak", r.field(27, "retransmission_cause"), r.dump());
        List<Finding> f = findings(r);
        assertEquals(1, f.size(), "" + f);
        assertEquals("nic-resend-before-nak-psn", f.get(0).rule());
        assertEquals(A, f.get(0).subject());
        assertEquals("go_back_message_start", f.get(0).cause());
        assertTrue(f.get(0).summary().contains("livelock"), f.get(0).summary());
    }

    @Test
    void anEarlyStartThatIsNotTheMessageStartIsResendEarly() {
        Map<String, Object> m = sender(run(100, new int[] {5, 5, 5}, "host:" + A));
        assertEquals(3L, m.get("earlier"));
        assertEquals(0L, m.get("earlier_message_start"));
        assertEquals(1L, m.get("extra_psns_median"));
        assertEquals("resend-early", m.get("verdict"));
    }

    @Test
    void skippingTheNakPsnIsNamedAtTheSenderOnly() {
        Cap.Run r = run(100, new int[] {7, 7, 7}, "host:" + A);
        Map<String, Object> m = sender(r);
        assertEquals(3L, m.get("later"), m + "\n" + r.dump());
        assertEquals("skips", m.get("verdict"));
        List<Finding> f = findings(r);
        assertEquals(1, f.size(), "" + f);
        assertEquals("nic-resend-skips-nak-psn", f.get(0).rule());
        // At the receiver's tap a later start may be a resend of p lost before the tap: not judged.
        Cap.Run rr = run(100, new int[] {7, 7, 7}, "host:" + B);
        Map<String, Object> mr = sender(rr);
        assertNull(mr.get("later"));
        assertEquals("unknown", mr.get("verdict"));
        assertEquals(List.of(), findings(rr));
    }

    @Test
    void aNakAnsweredOnlyByTheTimerIsNotAnswered() {
        Cap c = new Cap();
        for (int i = 0; i < 3; i++) {
            int b = 100 + 8 * i;
            for (int k = 0; k < 8; k++) c.add(US, data(op(k), b + k).ack());
            c.add(6 * US, ack(b + 5));
            c.add(US, nak(b + 6));
            c.add(300 * US, data(op(6), b + 6).ack());
            c.add(US, data(op(7), b + 7).ack());
            c.add(10 * US, ack(b + 7));
        }
        Cap.Run r = c.analyze("host:" + A);
        Map<String, Object> m = sender(r);
        assertEquals(3L, m.get("not_answered"));
        assertEquals(900_000L, m.get("ignored_wait_ns"));
        // The timer's go-backs are timeouts (from the oldest unacknowledged PSN), not the NAKs' recovery.
        assertEquals(3L, m.get("timeouts"));
        assertEquals(0L, byCause(r).nak());
        assertEquals(0L, m.get("from_nak_psn"));
        assertEquals("nak-ignored", m.get("verdict"));
    }

    /** n episodes whose NAK (which acknowledges what precedes its PSN) is answered only wait later (the sender's timer). */
    static Cap.Run timerAnswers(int n, long wait) {
        Cap c = new Cap();
        for (int i = 0; i < n; i++) {
            int b = 100 + 8 * i;
            for (int k = 0; k < 8; k++) c.add(US, data(op(k), b + k).ack());
            c.add(6 * US, ack(b + 5));
            c.add(US, nak(b + 6));
            c.add(wait, data(op(6), b + 6).ack());
            c.add(US, data(op(7), b + 7).ack());
            c.add(10 * US, ack(b + 7));
        }
        return c.analyze("host:" + A);
    }

    static FlowSummary.ByCause byCause(Cap.Run r) {
        for (FlowSummary f : r.result.flows()) if (f.src().equals(A)) return f.counters().retransmissionsByCause();
        throw new AssertionError(r.dump());
    }

    @Test
    void aTimerShorterThan100UsIsRecognisedByTheTimerTheFlowShows() {
        // 80 us: well over 8 round trips, under the fixed 100 us. The first NAK's resend is judged once the second
        // shows the same timer; from then on each one at once.
        Cap.Run r = timerAnswers(3, 80 * US);
        Map<String, Object> m = sender(r);
        assertEquals(3L, m.get("not_answered"), m + "\n" + r.dump());
        assertEquals(0L, m.get("from_nak_psn"));
        // From the last progress: the acknowledgement 1 us before the NAK (which acknowledged nothing more).
        assertEquals(81_000L, m.get("timer_ns"));
        assertEquals(240_000L, m.get("ignored_wait_ns"));
        assertEquals(3L, m.get("timeouts"));
        assertEquals(3L, m.get("timeouts_from_oldest"));
        assertEquals("nak-ignored", m.get("verdict"));
        // The timer's resends are timeouts, not the NAK's recovery (the counts; the last run's frames too).
        FlowSummary.ByCause b = byCause(r);
        assertEquals(0L, b.nak(), "" + b);
        assertEquals(6L, b.timeout(), "" + b);
        assertEquals("timeout", r.field(37, "retransmission_cause"), r.dump());
        List<Finding> f = findings(r);
        assertEquals(1, f.size(), "" + f);
        assertEquals("nic-ignores-nak", f.get(0).rule());
        assertEquals("nak_ignored", f.get(0).cause());
        assertEquals(240_000L, f.get(0).details().get("ignored_wait_ns"));
        assertTrue(f.get(0).summary().contains("0.240 ms"), f.get(0).summary());
        assertEquals(List.of(10L, 23L, 36L), f.get(0).evidence());
    }

    @Test
    void anEvictedFlowKeepsItsRecoveryFigures() {
        // The message-start NIC's QP, then eight other QPs: with a bound of 4 flows the first is evicted.
        Cap c = new Cap();
        for (int i = 0; i < 3; i++) episode(c, 100 + 8 * i, 100 + 8 * i + 4, true);
        for (int q = 0; q < 8; q++) c.add(US, Pkt.of(WRITE_FIRST).from(A, B).qp(0x300 + q).psn(1).payload(256));
        Cap.Run r = c.analyze(AnalysisSettings.DEFAULT.withTap(AnalysisSettings.Tap.parse("host:" + A)).withMaxFlows(4));
        for (FlowSummary f : r.result.flows()) assertTrue(!f.id().endsWith("/0x000201"), "not evicted: " + f.id());
        Map<String, Object> m = sender(r);
        assertEquals(3L, m.get("naks"), "" + m);
        assertEquals(3L, m.get("earlier_message_start"));
        assertEquals(6L, m.get("wasted_psns"));
        assertEquals(2L, m.get("extra_psns_median"));
        assertEquals("go-back-message-start", m.get("verdict"));
        assertEquals(List.of(A + ">" + B + "/0x000201"), m.get("qps"));
        assertEquals("nic-resend-before-nak-psn", findings(r).get(0).rule());
    }

    @Test
    void aSlowAnswerWithNoTimerToCompareIsStillAnAnswer() {
        // One NAK answered 80 us later and no timer shown: a slow NIC, not a proven timer.
        Map<String, Object> m = sender(timerAnswers(1, 80 * US));
        assertEquals(1L, m.get("from_nak_psn"));
        assertEquals(0L, m.get("not_answered"));
        assertNull(m.get("timer_ns"));
        assertEquals("go-back-n", m.get("verdict"));
    }

    @Test
    void answersAtDifferentDelaysAreNoTimer() {
        // Two slow answers 80 and 40 us after their NAKs: not one timer, both stay answers.
        Cap c = new Cap();
        long[] waits = {80 * US, 40 * US};
        for (int i = 0; i < 2; i++) {
            int b = 100 + 8 * i;
            for (int k = 0; k < 8; k++) c.add(US, data(op(k), b + k).ack());
            c.add(6 * US, ack(b + 5));
            c.add(US, nak(b + 6));
            c.add(waits[i], data(op(6), b + 6).ack());
            c.add(US, data(op(7), b + 7).ack());
            c.add(10 * US, ack(b + 7));
        }
        Map<String, Object> m = sender(c.analyze("host:" + A));
        assertEquals(2L, m.get("from_nak_psn"), "" + m);
        assertEquals(0L, m.get("not_answered"));
    }

    @Test
    void aTimeoutGoBackFromTheOldestUnacknowledgedPsnConforms() {
        Cap c = new Cap();
        episode(c, 100, 106, false);
        Map<String, Object> m = sender(c.analyze("host:" + A));
        assertEquals(0L, m.get("naks"));
        assertEquals(1L, m.get("timeouts"));
        assertEquals(1L, m.get("timeouts_from_oldest"));
        assertEquals("go-back-n", m.get("verdict"));
    }

    @Test
    void theMessageStartIsFoundAcrossThePsnWrap() {
        // Messages 0xFFFFFA..0xFFFFFD and 0xFFFFFE..0x000001; the NAK names 0x000000.
        Map<String, Object> m = sender(run(0xFFFFFA, new int[] {4, 4, 4}, "host:" + A));
        assertEquals(3L, m.get("earlier_message_start"));
        assertEquals(2L, m.get("extra_psns_median"));
        assertEquals("go-back-message-start", m.get("verdict"));
    }

    @Test
    void atTheReceiverTheMessageOfAPsnItNeverSawIsFound() {
        // The receiver's tap: b+6 lost before it, so its message is the open one that began at b+4.
        Cap c = new Cap();
        for (int i = 0; i < 3; i++) {
            int b = 100 + 8 * i;
            for (int k = 0; k < 8; k++) if (k != 6) c.add(US, data(op(k), b + k).ack());
            c.add(200, ack(b + 5));
            c.add(200, nak(b + 6));
            for (int p = b + 4; p <= b + 7; p++) c.add(p == b + 4 ? 8 * US : US, data(op(p - b), p).ack());
            c.add(200, ack(b + 7));
        }
        Map<String, Object> m = sender(c.analyze("host:" + B));
        assertEquals("receiver", m.get("tap"));
        assertEquals(3L, m.get("earlier"), "" + m);
        assertEquals(3L, m.get("earlier_message_start"), "" + m);
        assertNull(m.get("nak_to_resend_ns_median"), "the receiver sees the NAK leave, not arrive");
        assertEquals("go-back-message-start", m.get("verdict"));
    }

    @Test
    void aSkipAnsweringTheNakIsNoTimeout() {
        Map<String, Object> m = sender(run(100, new int[] {7, 7, 7}, "host:" + A));
        assertEquals(0L, m.get("timeouts"), "" + m);
    }

    @Test
    void noNakNoTimeoutNoSection() {
        Cap c = new Cap();
        for (int k = 0; k < 8; k++) c.add(US, data(op(k), 100 + k).ack());
        c.add(6 * US, ack(107));
        assertNull(c.analyze("host:" + A).result.recovery());
    }

    @Test
    void aNakWithoutResendBeforeTheCaptureEndsIsNotJudged() {
        Cap c = new Cap();
        for (int k = 0; k < 8; k++) c.add(US, data(op(k), 100 + k).ack());
        c.add(6 * US, ack(105));
        c.add(US, nak(106));
        Map<String, Object> m = sender(c.analyze("host:" + A));
        assertEquals(1L, m.get("naks"));
        assertEquals(1L, m.get("not_judged"));
        assertEquals("unknown", m.get("verdict"));
    }
}
