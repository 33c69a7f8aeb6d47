package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every diagnosis against the simulator's ground truth (the {@code diagnosis} list of the committed samples'
 * truth files): the right QP, cause, start time and figures; and nothing diagnosed on the clean samples.
 */
class DiagnosisTruthTest {
    static final Path CAPTURES = Path.of("../samples/captures");
    static final ObjectMapper JSON = new ObjectMapper();
    /** The first unanswered request leaves within this of the fault (the sender paces a message every 5 us). */
    static final long START_TOLERANCE_NS = 10_000;

    record Run(Diagnosis diagnosis, JsonNode truth, long epochNs, String tapHost) {
        List<Finding> rule(String r) {
            List<Finding> l = new ArrayList<>();
            for (Finding f : diagnosis.findings()) if (f.rule().equals(r)) l.add(f);
            return l;
        }

        Finding about(String flow) {
            for (Finding f : diagnosis.findings()) if (f.subject().equals(flow)) return f;
            return null;
        }
    }

    static Run run(String scenario) throws Exception { return run(scenario, null); }

    static Run run(String scenario, Long atAfterFirstNs) throws Exception {
        Path cap = CAPTURES.resolve(scenario + ".pcapng");
        JsonNode truth = JSON.readTree(Files.readString(CAPTURES.resolve(scenario + ".truth.json")));
        Diagnoser d = new Diagnoser(atAfterFirstNs);
        new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(d).run(cap);
        return new Run(d.finish(), truth, truth.get("capture").get("epoch_ns").asLong(),
                truth.get("capture").path("tap_host").asText(null));
    }

    /** The truth's failed QPs whose requester is the tap host (what a capture there can diagnose). */
    static List<JsonNode> failedAtTap(Run r, String cause) {
        List<JsonNode> l = new ArrayList<>();
        for (JsonNode n : r.truth.get("diagnosis")) {
            if (n.get("cause").asText().equals(cause) && n.get("flow").asText().startsWith(r.tapHost + ">")) l.add(n);
        }
        return l;
    }

    static void assertDeath(Run r, String cause, String rule, int expectedCount) {
        List<JsonNode> truth = failedAtTap(r, cause);
        assertEquals(expectedCount, truth.size(), "truth entries for " + cause);
        Set<String> diagnosed = new HashSet<>();
        for (Finding f : r.rule(rule)) diagnosed.add(f.subject());
        for (JsonNode t : truth) {
            String flow = t.get("flow").asText();
            Finding f = r.about(flow);
            assertNotNull(f, "no diagnosis for " + flow + " in " + r.diagnosis.findings());
            assertEquals(rule, f.rule(), flow);
            assertEquals(cause, f.cause(), flow);
            long started = f.startedNs() - r.epochNs;
            assertTrue(Math.abs(started - t.get("started_ns").asLong()) <= START_TOLERANCE_NS,
                    flow + " started at " + started + " ns, truth " + t.get("started_ns"));
            assertEquals(t.get("retries").asInt(), ((Number) f.details().get("retries")).intValue(), flow + " retries");
            assertEquals(t.get("timeout_exp").asInt(), f.details().get("local_ack_timeout"), flow + " timeout exponent");
            assertEquals(true, f.details().get("gave_up"), flow);
            assertFalse(f.evidence().isEmpty());
        }
        assertEquals(truth.size(), diagnosed.size(), "diagnosed " + diagnosed);
    }

    @Test
    void retryExhaustionNamesTheQpTheTimeoutExponentAndTheRetryCount() throws Exception {
        Run r = run("rocev2-retry-exhausted");
        assertDeath(r, "retry_exhausted", "qp-retry-exhausted", 1);
        assertEquals(1, r.diagnosis.findings().stream().filter(f -> f.rule().startsWith("qp-") && !f.rule().equals("qp-tail-loss-timeout")).count(),
                "only the black-holed QP died: " + r.diagnosis.findings());
    }

    @Test
    void fullSizePacketsDroppedWhileSmallOnesPassIsAnMtuBlackHole() throws Exception {
        Run r = run("rocev2-mtu-blackhole");
        assertDeath(r, "mtu_blackhole", "qp-mtu-blackhole", 1);
        Finding f = r.rule("qp-mtu-blackhole").get(0);
        int linkMtu = r.truth.get("diagnosis").get(0).get("link_mtu").asInt();
        assertTrue(((Number) f.details().get("lost_frame_bytes")).intValue() - 14 > linkMtu, "" + f.details());
        assertTrue(((Number) f.details().get("largest_acked_frame_bytes")).intValue() - 14 <= linkMtu, "" + f.details());
    }

    @Test
    void aDeadPeerIsToldFromALinkDown() throws Exception {
        Run r = run("rocev2-peer-dead");
        assertDeath(r, "peer_stopped", "qp-peer-stopped", 1);
        assertTrue(r.rule("qp-link-down").isEmpty(), "no link down: " + r.diagnosis.findings());
    }

    @Test
    void aLinkDownSilencesEveryPeerAtOnce() throws Exception {
        Run r = run("rocev2-link-down");
        assertDeath(r, "link_down", "qp-link-down", 2);
        assertTrue(r.rule("qp-peer-stopped").isEmpty(), "no peer stopped: " + r.diagnosis.findings());
    }

    @Test
    void theHangSnapshotListsTheStuckQpAndWhoWentQuietFirst() throws Exception {
        Run r = run("rocev2-hang");
        JsonNode t = r.truth.get("diagnosis").get(0);
        assertEquals("hung", t.get("cause").asText());
        List<HangSnapshot.Entry> e = r.diagnosis.hang().entries();
        assertEquals(1, e.size(), "only the black-holed QP hangs: " + e);
        HangSnapshot.Entry h = e.get(0);
        assertEquals(t.get("flow").asText(), h.flow());
        assertEquals("retry", h.lastEvent());
        assertEquals("responder", h.quietFirst());
        assertEquals((t.get("next_psn").asInt() - 1) & 0xFFFFFF, h.lastPsnSent());
        assertEquals((t.get("first_unacked_psn").asInt() - 1) & 0xFFFFFF, h.lastPsnAcked());
        assertTrue(h.responderSilentNs() > 300_000, "silent since the fault at 50 us: " + h.responderSilentNs());
        assertFalse(r.rule("qp-retrying").isEmpty(), "still retrying: " + r.diagnosis.findings());
    }

    @Test
    void theQpOnDscpZeroIsFlagged() throws Exception {
        Run r = run("rocev2-dscp0-qp");
        JsonNode t = r.truth.get("diagnosis").get(0);
        List<Finding> q = r.rule("qos-minority-marking");
        assertEquals(1, q.size(), "" + r.diagnosis.findings());
        assertEquals(t.get("flow").asText(), q.get(0).subject());
        assertEquals(0, q.get(0).details().get("dscp"));
        assertEquals(26, q.get(0).details().get("expected_dscp"));
        assertEquals("data", q.get(0).details().get("kind"));
    }

    @Test
    void everyQpOnOneSourcePortIsFlagged() throws Exception {
        Run r = run("rocev2-one-source-port");
        JsonNode t = r.truth.get("diagnosis").get(0);
        List<Finding> q = r.rule("entropy-single-source-port");
        assertEquals(1, q.size(), "" + r.diagnosis.findings());
        assertEquals(t.get("sport").asInt(), q.get(0).details().get("sport"));
        assertEquals(t.get("qps").asInt(), q.get(0).details().get("qps"));
    }

    @Test
    void theSickSourcePortsAreTheOnesOnTheLossyPath() throws Exception {
        Run r = run("rocev2-sick-source-port");
        Set<Integer> lossy = new HashSet<>(), flagged = new HashSet<>();
        for (JsonNode c : r.truth.get("connections")) {
            String req = c.get("requester").asText(), resp = c.get("responder").asText();
            long lost = 0;
            for (JsonNode f : r.truth.get("flows")) {
                String id = f.get("flow").asText();
                if (id.equals(req) || id.equals(resp)) lost += f.get("counters").get("lost").asLong();
            }
            if (lost > 0) lossy.add(c.get("requester_sport").asInt());
        }
        for (Finding f : r.rule("entropy-sick-source-port")) flagged.add((Integer) f.details().get("sport"));
        assertFalse(lossy.isEmpty());
        assertTrue(lossy.size() < r.truth.get("connections").size());
        assertEquals(lossy, flagged);
    }

    @Test
    void anAsymmetricMtuIsFlagged() throws Exception {
        Run r = run("rocev2-asymmetric-mtu");
        JsonNode t = r.truth.get("diagnosis").get(0);
        List<Finding> q = r.rule("mtu-asymmetric");
        assertEquals(1, q.size(), "" + r.diagnosis.findings());
        assertEquals(t.get("pmtu").asInt(), q.get(0).details().get("10.0.0.1>10.0.0.2"));
        assertEquals(t.get("peer_pmtu").asInt(), q.get(0).details().get("10.0.0.2>10.0.0.1"));
    }

    @Test
    void cleanSamplesHaveNoDiagnosis() throws Exception {
        for (String s : List.of("rocev2-clean", "rocev2-ecn-cnp", "metaroce-incast-credit")) {
            Run r = run(s);
            assertTrue(r.diagnosis.findings().isEmpty(), s + ": " + r.diagnosis.findings());
        }
    }

    @Test
    void recoveredLossIsToldByItsCause() throws Exception {
        assertFalse(run("rocev2-gbn-loss").rule("qp-loss-nak").isEmpty());
        Run rnr = run("rocev2-rnr");
        List<Finding> f = rnr.rule("qp-rnr");
        assertEquals(1, f.size());
        assertEquals(30_000L, f.get(0).details().get("rnr_timer_ns"));
        // The one lost READ response of rocev2-read-atomic is recovered by the requester's timer.
        assertEquals(1, run("rocev2-read-atomic").rule("qp-tail-loss-timeout").size());
    }

    @Test
    void lookupByTheLocalQpnAnNcclWarningPrintsFindsTheDeadQp() throws Exception {
        Run r = run("rocev2-retry-exhausted");
        String dead = r.truth.get("diagnosis").get(0).get("flow").asText();
        int localQpn = -1;
        for (JsonNode c : r.truth.get("connections")) if (c.get("requester").asText().equals(dead)) localQpn = c.get("requester_qpn").asInt();
        Diagnosis l = r.diagnosis.lookup(localQpn, "10.0.0.2");
        assertEquals(List.of(dead), l.findings().stream().map(Finding::subject).toList());
        assertTrue(l.flows().containsKey(dead), "" + l.flows());
        assertEquals(2, l.flows().size(), "the QP's two directions: " + l.flows());
        assertTrue(r.diagnosis.lookup(localQpn, "10.9.9.9").findings().isEmpty());
    }

    @Test
    void aSnapshotBeforeTheFaultShowsNoStuckQp() throws Exception {
        Run before = run("rocev2-hang", 30_000L), after = run("rocev2-hang", 250_000L);
        assertTrue(before.diagnosis.hang().entries().stream().noneMatch(e -> e.lastEvent().equals("retry")), "" + before.diagnosis.hang());
        assertEquals(1, after.diagnosis.hang().entries().stream().filter(e -> e.lastEvent().equals("retry")).count(), "" + after.diagnosis.hang());
        assertEquals(before.diagnosis.firstNs() + 30_000L, before.diagnosis.hang().atNs());
    }
}
