package io.metaroce.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each scenario shows what its README line promises, checked on the dissected frames and the truth. */
class ScenarioBehaviourTest {

    @Test
    void lossyPathTruthPointsAtTheLossyPath() {
        Generated g = Generated.of("metaroce-spray-lossy-path");
        int lossy = g.truth.get("params").get("lossy-path").asInt();
        long lostOnLossy = 0, lostElsewhere = 0;
        for (JsonNode p : g.truth.get("paths")) {
            if (p.get("path").asInt() == lossy) lostOnLossy += p.get("lost").asLong();
            else lostElsewhere += p.get("lost").asLong();
        }
        assertTrue(lostOnLossy >= 3, "losses on the lossy path: " + lostOnLossy);
        assertEquals(0, lostElsewhere, "losses on the other paths");
        JsonNode fabric = g.truth.get("fabric_paths");
        long max = -1;
        int argmax = -1;
        for (JsonNode p : fabric) if (p.get("lost").asLong() > max) {
            max = p.get("lost").asLong();
            argmax = p.get("path").asInt();
        }
        assertEquals(lossy, argmax);
        // retransmissions carry rtx = 1 and leave on another path than the lost copy
        Map<Long, Long> lastPathOfPsn = new HashMap<>();
        int[] rtx = {0};
        g.forEachFrame(f -> {
            if (f.d().tver() != 1 || !RcQp.isRequest(f.d().opcodeValue())) return;
            long psn = f.d().psn(), path = Generated.field(f.d(), "mrth.path_id", -1);
            boolean isRtx = Generated.field(f.d(), "mrth.rtx", 0) == 1;
            assertEquals(f.truth().path("labels").has("retransmission"), isRtx, "rtx flag vs truth at frame " + f.number());
            if (isRtx) {
                rtx[0]++;
                assertNotEquals(lastPathOfPsn.get(psn), path, "retransmission on the same path, frame " + f.number());
            }
            lastPathOfPsn.put(psn, path);
        });
        assertTrue(rtx[0] >= 3, "retransmissions: " + rtx[0]);
        JsonNode counters = g.truth.get("flows").get(0).get("counters");
        assertTrue(counters.get("sacks").asLong() + g.truth.get("flows").get(1).get("counters").get("sacks").asLong() > 20);
    }

    @Test
    void goBackNResendsFromTheNakedPsn() {
        Generated g = Generated.of("rocev2-gbn-loss");
        Map<Long, Long> responderOf = new HashMap<>();
        for (JsonNode c : g.truth.get("connections")) responderOf.put(c.get("requester_qpn").asLong(), c.get("responder_qpn").asLong());
        Map<Long, Long> pendingNak = new HashMap<>(); // responder QPN (dest_qp of requests) -> NAK psn
        Map<Long, Long> highest = new HashMap<>();
        int[] naks = {0}, checked = {0};
        g.forEachFrame(f -> {
            var d = f.d();
            if (d.opcodeValue() == 0x11 && ((Generated.field(d, "aeth.syndrome", 0) >>> 5) & 3) == 3) {
                naks[0]++;
                pendingNak.put(responderOf.get(d.destQp()), (long) d.psn());
                return;
            }
            if (!RcQp.isRequest(d.opcodeValue())) return;
            Long hi = highest.get(d.destQp());
            boolean repeat = hi != null && RcQp.diff(d.psn(), (int) (long) hi) <= 0;
            if (!repeat) highest.put(d.destQp(), (long) d.psn());
            Long nak = pendingNak.get(d.destQp());
            if (nak != null && repeat) {
                assertEquals((long) nak, d.psn(), "first repeated PSN after a NAK, frame " + f.number());
                assertEquals("nak", f.truth().path("labels").path("retransmission").asText());
                pendingNak.remove(d.destQp());
                checked[0]++;
            }
        });
        assertTrue(naks[0] >= 2, "NAKs: " + naks[0]);
        assertEquals(naks[0], checked[0], "every NAK followed by a go-back to its PSN");
    }

    @Test
    void cnpsArePacedAndSendersSlowDown() {
        Generated g = Generated.of("rocev2-ecn-cnp");
        long interval = g.truth.get("params").get("cnp-interval-us").asLong() * 1000;
        Map<Long, Long> lastCnp = new HashMap<>();
        int[] cnps = {0};
        g.forEachFrame(f -> {
            if (f.d().opcodeValue() != 0x81) return;
            cnps[0]++;
            assertEquals(1, Generated.field(f.d(), "bth.becn", 0), "CNP with BECN");
            Long last = lastCnp.put(f.d().destQp(), f.time());
            if (last != null) assertTrue(f.time() - last >= interval, "CNPs " + (f.time() - last) + " ns apart");
        });
        assertTrue(cnps[0] >= 8, "CNPs: " + cnps[0]);
        // at the sender's own tap the rate cut shows: packets leave further apart after the first CNP
        Generated s = Generated.with("rocev2-ecn-cnp", Simulator.params("rocev2-ecn-cnp").set("tap", "sender"));
        List<Long> before = new ArrayList<>(), after = new ArrayList<>();
        long[] last = {-1}, firstCnp = {-1};
        s.forEachFrame(f -> {
            if (f.d().opcodeValue() == 0x81 && firstCnp[0] < 0) firstCnp[0] = f.time();
            if (!RcQp.isRequest(f.d().opcodeValue())) return;
            if (last[0] >= 0) (firstCnp[0] < 0 ? before : after).add(f.time() - last[0]);
            last[0] = f.time();
        });
        assertTrue(before.size() >= 10 && after.size() >= 10, "packets before/after the first CNP");
        assertTrue(median(after) > 1.5 * median(before), "spacing " + median(before) + " ns before the first CNP, "
                + median(after) + " ns after");
        long ce = 0;
        for (JsonNode fl : g.truth.get("flows")) ce += fl.get("counters").get("ce_marks").asLong();
        assertTrue(ce > 50, "CE marks " + ce);
    }

    private static long median(List<Long> v) {
        List<Long> c = new ArrayList<>(v);
        c.sort(null);
        return c.get(c.size() / 2);
    }

    @Test
    void creditModeSendersStayBelowTheGrant() {
        Generated g = Generated.of("metaroce-incast-credit");
        Map<String, Long> granted = new HashMap<>(); // data flow -> latest granted_psn seen at the receiver tap
        Map<String, String> flowOfGrantFlow = new HashMap<>();
        for (JsonNode fl : g.truth.get("flows")) if (fl.has("peer")) flowOfGrantFlow.put(fl.get("flow").asText(), fl.get("peer").asText());
        int[] data = {0};
        g.forEachFrame(f -> {
            var d = f.d();
            String flow = f.truth().get("flow").asText();
            if (d.tver() == 1 && d.opcodeValue() == 0xE2) granted.put(flowOfGrantFlow.get(flow), Generated.field(d, "crediteth.granted_psn", -1));
            if (RcQp.isRequest(d.opcodeValue()) && !f.truth().path("labels").has("retransmission")) {
                Long grant = granted.get(flow);
                assertTrue(grant != null, "data before the first MR-CREDIT, frame " + f.number());
                assertTrue(RcQp.diff(d.psn(), (int) (long) grant) < 0, "PSN at/after granted_psn, frame " + f.number());
                data[0]++;
            }
        });
        assertTrue(data[0] >= 64, "data frames " + data[0]);
    }

    @Test
    void readResponseLossIsRecoveredByAReissuedRead() {
        Generated g = Generated.of("rocev2-read-atomic");
        List<long[]> reads = new ArrayList<>(); // psn, va, len
        int[] atomicAcks = {0};
        g.forEachFrame(f -> {
            var d = f.d();
            if (d.opcodeValue() == 0x0C) reads.add(new long[] {d.psn(), Generated.field(d, "reth.virtual_address", 0),
                    Generated.field(d, "reth.dma_length", 0), f.truth().path("labels").has("retransmission") ? 1 : 0});
            if (d.opcodeValue() == 0x12) atomicAcks[0]++;
        });
        assertTrue(atomicAcks[0] >= 2, "atomic acks");
        long[] reissue = reads.stream().filter(r -> r[3] == 1).findFirst().orElseThrow();
        long[] original = reads.stream().filter(r -> r[3] == 0 && RcQp.diff((int) reissue[0], (int) r[0]) > 0)
                .reduce((a, b) -> b).orElseThrow();
        long k = RcQp.diff((int) reissue[0], (int) original[0]);
        int pmtu = g.truth.get("params").get("pmtu").asInt();
        assertTrue(k >= 1);
        assertEquals(original[1] + k * pmtu, reissue[1], "re-issued READ virtual address");
        assertEquals(original[2] - k * pmtu, reissue[2], "re-issued READ length");
    }

    @Test
    void rnrNaksPauseTheRequester() {
        Generated g = Generated.of("rocev2-rnr");
        long[] rnrAt = {-1};
        int[] rnr = {0}, resumed = {0};
        long delay = RcQp.rnrDelay(g.truth.get("params").get("rnr-timer").asInt());
        g.forEachFrame(f -> {
            var d = f.d();
            if (d.opcodeValue() == 0x11 && ((Generated.field(d, "aeth.syndrome", 0) >>> 5) & 3) == 1) {
                rnr[0]++;
                rnrAt[0] = f.time();
            } else if (rnrAt[0] >= 0 && "rnr".equals(f.truth().path("labels").path("retransmission").asText(null))) {
                assertTrue(f.time() - rnrAt[0] >= delay - 5_000, "resent " + (f.time() - rnrAt[0]) + " ns after the RNR NAK");
                rnrAt[0] = -1;
                resumed[0]++;
            }
        });
        assertTrue(rnr[0] >= 2 && resumed[0] >= 2, "RNR NAKs " + rnr[0] + ", resumptions " + resumed[0]);
    }

    @Test
    void failedPathIsAbandonedAfterUnansweredProbes() {
        Generated g = Generated.of("metaroce-path-down");
        long downAt = g.truth.get("capture").get("epoch_ns").asLong() + g.truth.get("params").get("path-down-at-us").asLong() * 1000;
        int down = g.truth.get("params").get("path-down").asInt();
        long[] lastDataOnDown = {0};
        int[] probesOnDown = {0};
        g.forEachFrame(f -> {
            var d = f.d();
            if (d.tver() != 1 || Generated.field(d, "mrth.path_id", -1) != down || f.time() < downAt) return;
            if (RcQp.isRequest(d.opcodeValue())) lastDataOnDown[0] = f.time();
            if (d.opcodeValue() == 0xE4) probesOnDown[0]++;
        });
        assertTrue(probesOnDown[0] >= 3, "probes on the failed path");
        assertTrue(lastDataOnDown[0] - downAt < 60_000, "data kept flowing on the failed path until "
                + (lastDataOnDown[0] - downAt) + " ns after the failure");
        long lostOnDown = 0;
        for (JsonNode p : g.truth.get("fabric_paths")) if (p.get("path").asInt() == down) lostOnDown = p.get("lost").asLong();
        assertTrue(lostOnDown > 0);
    }

    @Test
    void psnWrapsAroundInTheCleanCapture() {
        Generated g = Generated.of("rocev2-clean");
        boolean[] high = {false}, wrapped = {false};
        g.forEachFrame(f -> {
            if (!RcQp.isRequest(f.d().opcodeValue())) return;
            if (f.d().psn() >= 0xFFFFF0) high[0] = true;
            else if (high[0] && f.d().psn() < 16) wrapped[0] = true;
        });
        assertTrue(wrapped[0], "no PSN wrap-around");
    }

    @Test
    void captureGapsAreLabeledAndCounted() {
        Generated g = Generated.of("capture-gaps-truncated");
        JsonNode cap = g.truth.get("capture");
        long dropped = cap.get("capture_dropped").asLong();
        assertTrue(dropped >= 3, "capture drops " + dropped);
        assertEquals(dropped, g.truth.get("capture_drops").size());
        long labeled = 0;
        for (JsonNode f : g.truth.get("frames")) labeled += f.path("labels").path("capture_dropped_before").asLong(0);
        long afterLast = 0;
        for (JsonNode d : g.truth.get("capture_drops")) if (d.get("after_frame").asLong() == cap.get("frames").asLong()) afterLast++;
        assertEquals(dropped, labeled + afterLast, "drops attributed to the following frame");
        int snap = cap.get("snap_length").asInt();
        g.forEachFrame(f -> assertTrue(f.d().capturedLength() <= snap));
        assertEquals(cap.get("frames").asLong(), cap.get("seen").asLong() - dropped);
    }
}
