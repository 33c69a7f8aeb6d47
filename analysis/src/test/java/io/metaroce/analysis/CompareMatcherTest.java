package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.CompareMatcher.Dir;
import io.metaroce.analysis.CompareMatcher.Histogram;
import io.metaroce.protocol.Spec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompareMatcherTest {
    static final int SEND_ONLY = 4, ACK = 17;

    /** A RoCE packet of the test's RC connection 10.0.0.1 <-> 10.0.0.2 (forward: QP 0x201, back: 0x101). */
    static FrameFacts packet(boolean forward, int psn, int opcode, long fingerprint) {
        FrameFacts f = new FrameFacts();
        f.roce = true;
        f.srcLo = forward ? 0x0A000001 : 0x0A000002;
        f.dstLo = forward ? 0x0A000002 : 0x0A000001;
        f.destQp = forward ? 0x201 : 0x101;
        f.psn = psn;
        f.opcodeValue = opcode;
        f.opcode = Spec.OPCODES_TVER0.get(opcode);
        f.fingerprint = fingerprint;
        return f;
    }

    private static Dir flow(CompareMatcher m, String id) {
        return m.flows().stream().filter(d -> d.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void aResentCopyPairsWithTheCopyThatCrossedNotWithTheLostOriginal() {
        // A NIC that sends IP id 0: the original and its resend have the same key. The original is lost; the resend
        // arrives 3 ns after it was sent. Matching the oldest copy (FIFO) would call the resend lost instead.
        CompareMatcher m = new CompareMatcher(1_000);
        m.packet(CompareMatcher.P1, packet(true, 5, SEND_ONLY, 42), 0, 0);
        m.packet(CompareMatcher.P1, packet(true, 5, SEND_ONLY, 42), 100, 100);
        m.packet(CompareMatcher.P2, packet(true, 5, SEND_ONLY, 42), 103, 103);
        m.end();
        Dir d = flow(m, "10.0.0.1>10.0.0.2/0x000201");
        assertEquals(1, d.matched);
        assertEquals(1, d.unmatched[CompareMatcher.P1].n);
        assertEquals(0, d.unmatched[CompareMatcher.P1].t[0]);
        assertEquals(3, d.rawMin);
        assertEquals(0, d.unmatched[CompareMatcher.P2].n);
    }

    @Test
    void aPacketThatLeavesTheWindowUnmatchedIsRecordedAndMemoryStaysSmall() {
        CompareMatcher m = new CompareMatcher(1_000);
        // 100,000 packets matched 10 ns later, one packet seen at point 1 only near the start.
        m.packet(CompareMatcher.P1, packet(true, 7, SEND_ONLY, 1), 5, 5);
        for (int i = 0; i < 100_000; i++) {
            long t = 100 + i * 50L;
            m.packet(CompareMatcher.P1, packet(true, 1000 + i, SEND_ONLY, i), t, t);
            m.packet(CompareMatcher.P2, packet(true, 1000 + i, SEND_ONLY, i), t + 10, t + 10);
        }
        Dir d = flow(m, "10.0.0.1>10.0.0.2/0x000201");
        // Recorded when it left the window, before the end of the stream.
        assertEquals(1, d.unmatched[CompareMatcher.P1].n);
        assertEquals(7, d.unmatched[CompareMatcher.P1].psn[0]);
        assertTrue(m.pendingPeak() < 100, "pending peak " + m.pendingPeak());
        m.end();
        assertEquals(100_000, d.matched);
        assertEquals(10, d.raw.quantile(0.5));
        assertEquals(10, d.rawMax);
    }

    @Test
    void packetsMatchedBehindALostOneDoNotWaitForTheWindow() {
        // A window of a whole second over 100,000 packets 50 ns apart (5 ms): only the lost packet waits that long.
        CompareMatcher m = new CompareMatcher(1_000_000_000L);
        m.packet(CompareMatcher.P1, packet(true, 7, SEND_ONLY, 1), 5, 5);
        for (int i = 0; i < 100_000; i++) {
            long t = 100 + i * 50L;
            m.packet(CompareMatcher.P1, packet(true, 1000 + i, SEND_ONLY, i), t, t);
            m.packet(CompareMatcher.P2, packet(true, 1000 + i, SEND_ONLY, i), t + 10, t + 10);
        }
        assertTrue(m.pendingPeak() < 10, "pending peak " + m.pendingPeak());
        m.end();
        assertEquals(1, flow(m, "10.0.0.1>10.0.0.2/0x000201").unmatched[CompareMatcher.P1].n);
    }

    @Test
    void resentPsnsAreRememberedPerFlowAcrossThePsnWrap() {
        CompareMatcher m = new CompareMatcher(1_000_000_000L);
        long t = 0;
        // PSNs 0xFFFFF0 .. 0x00000F (across the wrap) seen at both points, then 0xFFFFF8 and 0x000002 resent.
        for (int i = 0; i < 32; i++, t += 100) {
            int psn = (0xFFFFF0 + i) & 0xFFFFFF;
            m.packet(CompareMatcher.P1, packet(true, psn, SEND_ONLY, i), t, t);
            m.packet(CompareMatcher.P2, packet(true, psn, SEND_ONLY, i), t + 10, t + 10);
        }
        m.packet(CompareMatcher.P1, packet(true, 0xFFFFF8, SEND_ONLY, 100), t, t);
        m.packet(CompareMatcher.P1, packet(true, 2, SEND_ONLY, 101), t + 1, t + 1);
        m.end();
        assertEquals(2, flow(m, "10.0.0.1>10.0.0.2/0x000201").again[CompareMatcher.P1]);
        assertEquals(0, flow(m, "10.0.0.1>10.0.0.2/0x000201").again[CompareMatcher.P2]);
    }

    @Test
    void aRequestResentAfterBothPointsHadItIsCounted() {
        CompareMatcher m = new CompareMatcher(1_000_000);
        m.packet(CompareMatcher.P1, packet(true, 9, SEND_ONLY, 1), 0, 0);
        m.packet(CompareMatcher.P2, packet(true, 9, SEND_ONLY, 1), 10, 10);
        // The ACK was lost: the requester resends PSN 9 (a new IP id, so a new fingerprint).
        m.packet(CompareMatcher.P1, packet(true, 9, SEND_ONLY, 2), 500, 500);
        m.packet(CompareMatcher.P2, packet(true, 9, SEND_ONLY, 2), 510, 510);
        // Repeated ACKs of one PSN are not resends.
        m.packet(CompareMatcher.P2, packet(false, 9, ACK, 3), 520, 520);
        m.packet(CompareMatcher.P1, packet(false, 9, ACK, 3), 530, 530);
        m.packet(CompareMatcher.P2, packet(false, 9, ACK, 4), 540, 540);
        m.packet(CompareMatcher.P1, packet(false, 9, ACK, 4), 550, 550);
        m.end();
        Dir d = flow(m, "10.0.0.1>10.0.0.2/0x000201");
        assertEquals(2, d.matched);
        assertEquals(1, d.again[CompareMatcher.P1]);
        assertEquals(0, flow(m, "10.0.0.2>10.0.0.1/0x000101").again[CompareMatcher.P2]);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theOffsetAndDirectionAreNtpsFromTheMinimumDelayPackets() {
        // Point 2's clock is 1,000,000 ns ahead; requests take 2,000 ns (one queued for 50,000), ACKs 2,000 ns.
        // The merge ran on a first estimate 10 us short (offset0): the report's delays must not carry that error.
        long off = 1_000_000, off0 = 990_000;
        CompareMatcher m = new CompareMatcher(10_000_000);
        for (int i = 0; i < 20; i++) {
            long t = i * 100_000L, q = i == 3 ? 50_000 : 0;
            m.packet(CompareMatcher.P1, packet(true, i, SEND_ONLY, i), t, t);
            m.packet(CompareMatcher.P2, packet(true, i, SEND_ONLY, i), t + 2_000 + q + off - off0, t + 2_000 + q + off);
            m.packet(CompareMatcher.P2, packet(false, i, ACK, 100 + i), t + 10_000 + off - off0, t + 10_000 + off);
            m.packet(CompareMatcher.P1, packet(false, i, ACK, 100 + i), t + 12_000, t + 12_000);
        }
        m.end();
        CompareReport r = new CompareReport(m, off0, "estimated", 10_000_000, new String[] {"a", "b"}, new long[] {80, 80},
                new long[2]);
        assertEquals(off, r.estimatedOffset());
        Map<String, Object> model = r.model(List.of());
        List<Object> flows = (List<Object>) model.get("flows");
        Map<String, Object> req = (Map<String, Object>) flows.get(0), ack = (Map<String, Object>) flows.get(1);
        assertEquals("1>2", req.get("direction"));
        assertEquals("2>1", ack.get("direction"));
        Map<String, Object> delay = (Map<String, Object>) req.get("one_way_delay_ns");
        assertEquals(2_000L, delay.get("min"));
        assertEquals(52_000L, delay.get("max"));
        assertEquals(2_000L, ((Map<String, Object>) ack.get("one_way_delay_ns")).get("median"));
    }

    @Test
    void histogramIsExactBelow256NanosecondsAndWithinAFractionOfAPercentAbove() {
        Histogram h = new Histogram();
        for (long v = -300; v <= 300; v++) h.add(v);
        assertEquals(0, h.quantile(0.5));
        for (long v : new long[] {0, 1, 255, -255, 256, 3_000, 2_500_000_000L, -7_777_777}) {
            long back = Histogram.value(Histogram.bucket(v));
            assertTrue(Math.abs(back - v) <= Math.abs(v) / 256, v + " -> " + back);
            if (Math.abs(v) < 256) assertEquals(v, back);
        }
        // Monotone buckets: quantiles come out in order.
        long prev = Long.MIN_VALUE;
        for (long v = -100_000; v < 100_000; v += 7) {
            long b = Histogram.bucket(v);
            assertTrue(b >= prev, "bucket of " + v);
            prev = b;
        }
    }
}
