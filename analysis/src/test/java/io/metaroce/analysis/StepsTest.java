package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.dissector.Dissector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Steps on crafted message sequences: periodic or not, with a straggler or not, noise, trouble, the caps. */
class StepsTest {
    /** RoCEv2 RC opcodes: WRITE Only with immediate, WRITE First, WRITE Last. */
    static final int ONLY = 0x0B, FIRST = 0x06, LAST = 0x08;

    final Steps steps = new Steps();
    final List<Flow> flows = new ArrayList<>();
    long frame;

    Flow flow(int srcHost) {
        for (Flow f : flows) if (f.key.srcLo == (10L << 24 | srcHost)) return f;
        Flow f = new Flow(flows.size(), new FlowKey(false, 0, 10L << 24 | srcHost, 0, 10L << 24 | 1, 0x100 + srcHost));
        flows.add(f);
        return f;
    }

    /** A one-packet message of host h at t. */
    void message(int h, long t) {
        packet(flow(h), t, ONLY, 1024);
    }

    void packet(Flow fl, long t, int opcode, int len) {
        FrameFacts f = new FrameFacts();
        f.number = ++frame;
        f.timeNs = t;
        f.opcode = Dissector.opcodeDef(opcode, 0);
        f.payloadLength = len;
        fl.uniquePayloadBytes += len;
        steps.data(fl, f);
    }

    /** steps periodic steps of period ns; hosts 2..5 send a message each every 1 us from the step start, host 5 late by lateNs. */
    void periodic(int count, long period, long lateNs, Random jitter) {
        for (int s = 0; s < count; s++) {
            long t0 = 1_000_000 + s * period;
            for (int m = 0; m < 4; m++) {
                for (int h = 2; h <= 5; h++) {
                    long t = t0 + m * 1_000 + h * 10 + (h == 5 ? lateNs : 0) + (jitter == null ? 0 : jitter.nextInt(200));
                    message(h, t);
                }
            }
        }
    }

    @Test
    void periodicStepsWithAStragglerGiveThePeriodAndTheStraggler() {
        periodic(8, 200_000, 1_500, null);
        Map<String, Object> r = steps.report(flows);
        assertNotNull(r);
        assertEquals(8L, r.get("steps"));
        assertEquals(200_000L, ((Map<?, ?>) r.get("period_ns")).get("median"));
        assertEquals(16L, r.get("messages_per_step"));
        Map<?, ?> s = (Map<?, ?>) r.get("straggler");
        assertNotNull(s, "" + r);
        assertEquals("10.0.0.5", s.get("peer"));
        assertEquals(8L, s.get("last_to_finish"));
        assertEquals(1_000_020L, s.get("first_step_ns"));
        assertEquals(false, s.get("network_trouble"));
        // The next latest (10.0.0.4) finished 1.5 us + 10 ns before it.
        assertEquals(1_510L, ((Map<?, ?>) s.get("margin_ns")).get("median"));
        assertEquals(8, ((List<?>) r.get("list")).size());
    }

    @Test
    void noStragglerWhenTheLastHostChangesOrTheMarginIsSmall() {
        periodic(8, 200_000, 0, new Random(7));
        Map<String, Object> r = steps.report(flows);
        assertNotNull(r);
        assertNull(r.get("straggler"), "" + r.get("peers"));
    }

    @Test
    void aperiodicBurstsAreNoSteps() {
        Random rnd = new Random(3);
        long t = 1_000_000;
        for (int s = 0; s < 12; s++) {
            t += 50_000 + rnd.nextInt(400_000);
            for (int h = 2; h <= 5; h++) message(h, t + h * 100);
        }
        assertNull(steps.report(flows));
    }

    @Test
    void fewerThanFiveStepsOrContinuousTrafficAreNoSteps() {
        periodic(4, 200_000, 1_500, null);
        assertNull(steps.report(flows));
        Steps busy = new Steps();
        for (long t = 0; t < 2_000_000; t += 500) {
            FrameFacts f = new FrameFacts();
            f.timeNs = t;
            f.number = t;
            f.opcode = Dissector.opcodeDef(ONLY, 0);
            busy.data(flow(2), f);
        }
        assertNull(busy.report(flows));
    }

    @Test
    void noiseBetweenStepsDoesNotHideThem() {
        periodic(10, 200_000, 2_000, null);
        // A lone message in the compute phase of three steps (a heartbeat), well apart from the steps.
        for (int s : new int[] {1, 4, 7}) message(2, 1_000_000 + s * 200_000 + 100_000);
        Map<String, Object> r = steps.report(flows);
        // The noise bursts are irregular: the steps are the bursts above the gap break, or there is no pattern at
        // all; a periodic answer must have the true period.
        if (r != null) assertEquals(200_000L, ((Map<?, ?>) r.get("period_ns")).get("median"), "" + r);
    }

    @Test
    void trafficWithLossOnTheStragglersQpsIsNamedButMarked() {
        periodic(8, 200_000, 1_500, null);
        flow(5).retransmitted = 3;
        Map<?, ?> s = (Map<?, ?>) steps.report(flows).get("straggler");
        assertEquals("10.0.0.5", s.get("peer"));
        assertEquals(true, s.get("network_trouble"));
    }

    @Test
    void multiPacketMessagesCountTheirBytesAndEndAtTheirLastPacket() {
        for (int s = 0; s < 6; s++) {
            long t0 = 1_000_000 + s * 100_000L;
            for (int h = 2; h <= 4; h++) {
                packet(flow(h), t0 + h * 10, FIRST, 1024);
                packet(flow(h), t0 + h * 10 + 500, LAST, 512);
                packet(flow(h), t0 + h * 10 + 1000, ONLY, 256);
            }
        }
        Map<String, Object> r = steps.report(flows);
        assertNotNull(r);
        assertEquals(6L, r.get("steps"));
        assertEquals(3L * (1536 + 256), r.get("bytes_per_step"));
        assertEquals(6L, r.get("messages_per_step"));
    }

    @Test
    void aPacedRequestStreamOrAKeepAliveIsNoTrainingStep() {
        // One message every 5 us from two hosts (an application pacing its requests): periodic, but far too fast.
        for (int i = 0; i < 40; i++) {
            message(2, 1_000_000 + i * 5_000L);
            message(3, 1_000_100 + i * 5_000L);
        }
        assertNull(steps.report(flows));
        // Two small messages every 5 s (an NVMe-oF keep-alive and its answer): too few messages per step.
        Steps keepAlive = new Steps();
        for (int i = 0; i < 9; i++) {
            // Hosts the first Steps never saw: a flow caches its host's index in the one Steps that met it.
            for (int h = 4; h <= 5; h++) {
                FrameFacts f = new FrameFacts();
                f.timeNs = 1_000_000 + i * 5_000_000_000L + h * 100;
                f.number = ++frame;
                f.opcode = Dissector.opcodeDef(ONLY, 0);
                keepAlive.data(flow(h), f);
            }
        }
        assertNull(keepAlive.report(flows));
    }

    @Test
    void oneSendingHostIsNoStep() {
        for (int s = 0; s < 8; s++) for (int m = 0; m < 6; m++) message(2, 1_000_000 + s * 200_000L + m * 500);
        assertNull(steps.report(flows));
    }

    @Test
    void manyStepsBeyondTheCapAreCountedAndTheFirstOnesTimed() {
        periodic(5_000, 200_000, 1_500, null);
        assertTrue(steps.frozen);
        Map<String, Object> r = steps.report(flows);
        assertNotNull(r);
        assertEquals((long) Steps.MAX_BURSTS, r.get("steps"));
        assertEquals(5_000L - Steps.MAX_BURSTS, r.get("later_bursts_not_timed"));
        assertEquals("10.0.0.5", ((Map<?, ?>) r.get("straggler")).get("peer"));
    }

    @Test
    void manyBurstsStayBoundedAndCoarsen() {
        // 20,000 bursts 5 us apart (less than four idle gaps): more than MAX_BURSTS; the gap doubles until they fit.
        for (int i = 0; i < 20_000; i++) message(2 + i % 3, 1_000_000 + i * 5_000L);
        assertFalse(steps.frozen);
        assertTrue(steps.gapNs > Steps.BASE_GAP_NS, "gap " + steps.gapNs);
        Map<String, Object> r = steps.report(flows);
        // One long burst at the coarser gap, or bursts 10 us apart: either way no straggler.
        if (r != null) assertFalse(r.get("straggler") != null, "" + r);
    }
}
