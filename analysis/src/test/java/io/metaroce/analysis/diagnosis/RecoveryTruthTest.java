package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.FlowSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Recovery behaviour against the simulator's truth: rocev2-go-back-message-start's requester resends from the first
 * packet of the NAK'd PSN's message (go-back-message-start, nic-resend-before-nak-psn); the other samples' simulated
 * NICs go back to the NAK's PSN (go-back-n, or unknown where the tap cannot tell), and no sample or real capture gets
 * a nic-* finding.
 */
class RecoveryTruthTest {
    record Run(AnalysisResult result, List<Finding> nic) {}

    static Run run(Path cap) throws Exception {
        Diagnoser d = new Diagnoser();
        AnalysisResult r = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(d).run(cap);
        List<Finding> nic = new ArrayList<>();
        for (Finding f : d.recovery(r.recovery()).finish().findings()) if (f.rule().startsWith("nic-")) nic.add(f);
        return new Run(r, nic);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> senders(AnalysisResult r) {
        return r.recovery() == null ? List.of() : (List<Map<String, Object>>) r.recovery().get("senders");
    }

    @Test
    void theMessageStartNicIsNamedWithItsFigures() throws Exception {
        String scenario = "rocev2-go-back-message-start";
        JsonNode truth = DiagnosisTruthTest.JSON.readTree(Files.readString(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".truth.json")));
        JsonNode t = truth.get("diagnosis").get(0);
        assertEquals("go_back_message_start", t.get("cause").asText());
        String host = t.get("flow").asText().split(">")[0];
        long epoch = truth.get("capture").get("epoch_ns").asLong();
        Run r = run(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".pcapng"));
        List<Map<String, Object>> s = senders(r.result());
        assertEquals(1, s.size(), "" + s);
        Map<String, Object> m = s.get(0);
        assertEquals(host, m.get("sender"));
        assertEquals("sender", m.get("tap"));
        assertEquals("go-back-message-start", m.get("verdict"));
        long naks = (Long) m.get("naks"), early = (Long) m.get("earlier"), same = (Long) m.get("from_nak_psn");
        // Every NAK is answered from its message's start; one naming a message's first PSN looks like go-back-N.
        assertEquals(naks, early + same, "" + m);
        assertEquals(early, m.get("earlier_message_start"));
        assertTrue(early >= 3, "" + m);
        assertEquals(0L, m.get("later"));
        assertEquals(0L, m.get("not_answered"));
        // The capture's spurious retransmissions are exactly the early copies (the truth's spurious count).
        long spurious = 0;
        for (JsonNode f : truth.get("flows")) spurious += f.get("counters").get("spurious").asLong();
        assertEquals(spurious, m.get("wasted_psns"), "" + m);
        assertEquals(1, r.nic().size(), "" + r.nic());
        Finding f = r.nic().get(0);
        assertEquals("nic-resend-before-nak-psn", f.rule());
        assertEquals(host, f.subject());
        assertEquals("go_back_message_start", f.cause());
        assertTrue(f.summary().contains("livelock risk"), f.summary());
        assertEquals(16L, f.details().get("packets_per_message"));
        assertNotNull(f.startedNs());
        assertTrue(f.startedNs() > epoch, "" + f.startedNs());
        assertTrue(f.evidence().size() >= 3, "" + f.evidence());
    }

    @Test
    void theNakIgnoringNicIsNamedWithWhatItCost() throws Exception {
        String scenario = "rocev2-nak-ignored";
        JsonNode truth = DiagnosisTruthTest.JSON.readTree(Files.readString(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".truth.json")));
        JsonNode t = truth.get("diagnosis").get(0);
        assertEquals("nak_ignored", t.get("cause").asText());
        String host = t.get("flow").asText().split(">")[0];
        long rtoNs = Math.round(t.get("rto_us").asDouble() * 1000);
        // The NAKs the simulated NIC ignored, as the tap saw them; the resends all the timer's.
        List<Long> ignoredNaks = new ArrayList<>();
        for (JsonNode f : truth.get("frames")) if (f.has("labels") && f.get("labels").has("nak_ignored")) ignoredNaks.add(f.get("n").asLong());
        assertTrue(ignoredNaks.size() >= 3, "" + ignoredNaks);
        Run r = run(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".pcapng"));
        List<Map<String, Object>> s = senders(r.result());
        assertEquals(1, s.size(), "" + s);
        Map<String, Object> m = s.get(0);
        assertEquals(host, m.get("sender"));
        assertEquals("nak-ignored", m.get("verdict"));
        // Every ignored NAK is found, by the timer the flows show (shorter than the fixed 100 us).
        assertTrue(rtoNs < 100_000);
        assertEquals((long) ignoredNaks.size(), m.get("naks"), "" + m);
        assertEquals((long) ignoredNaks.size(), m.get("not_answered"), "" + m);
        assertEquals(0L, m.get("from_nak_psn"));
        long timer = (Long) m.get("timer_ns");
        assertTrue(Math.abs(timer - rtoNs) <= rtoNs / 8, timer + " vs " + rtoNs);
        long wait = (Long) m.get("ignored_wait_ns");
        assertTrue(wait >= ignoredNaks.size() * rtoNs * 7 / 8 && wait <= ignoredNaks.size() * rtoNs * 9 / 8, wait + " ns");
        // The resends are the timer's: the analysis's cause counts are the truth's, flow by flow.
        for (JsonNode tf : truth.get("flows")) {
            JsonNode tc = tf.get("counters").get("retransmitted_by_cause");
            for (FlowSummary f : r.result().flows()) {
                if (!f.id().equals(tf.get("flow").asText())) continue;
                assertEquals(tc.get("nak").asLong(), f.counters().retransmissionsByCause().nak(), f.id());
                assertEquals(tc.get("timeout").asLong(), f.counters().retransmissionsByCause().timeout(), f.id());
                assertEquals(tf.get("counters").get("timeouts").asLong(), f.counters().timeouts(), f.id());
            }
        }
        assertEquals(1, r.nic().size(), "" + r.nic());
        Finding f = r.nic().get(0);
        assertEquals("nic-ignores-nak", f.rule());
        assertEquals(host, f.subject());
        assertEquals("nak_ignored", f.cause());
        assertEquals(wait, f.details().get("ignored_wait_ns"));
        assertEquals(new java.util.TreeSet<>(ignoredNaks), new java.util.TreeSet<>(f.evidence()));
        assertNotNull(f.startedNs());
    }

    @Test
    void theOtherSimulatedNicsGoBackToTheNakPsnAndNoCaptureIsMisjudged() throws Exception {
        int judged = 0;
        try (var files = Files.list(DiagnosisTruthTest.CAPTURES)) {
            for (Path p : files.filter(p -> p.toString().endsWith(".pcapng") && !p.toString().contains("message-start")
                    && !p.toString().contains("nak-ignored")).sorted().toList()) {
                Run r = run(p);
                assertEquals(List.of(), r.nic(), p.toString());
                for (Map<String, Object> m : senders(r.result())) {
                    if (p.toString().contains("conformance-violations")) continue; // plants a resend of the wrong first PSN
                    assertTrue(m.get("verdict").equals("go-back-n") || m.get("verdict").equals("unknown"), p + " " + m);
                    assertEquals(0L, m.get("earlier"), p + " " + m);
                    assertEquals(0L, m.get("not_answered"), p + " " + m);
                    if (m.get("verdict").equals("go-back-n")) judged++;
                }
                if (p.toString().contains("metaroce-")) assertEquals(List.of(), senders(r.result()), p + ": MetaRoCE is not judged");
            }
        }
        assertTrue(judged >= 5, "go-back-n verdicts on the samples: " + judged);
        Path ext = DiagnosisRealCapturesTest.dir();
        if (ext != null) {
            try (var files = Files.list(ext)) {
                for (Path p : files.filter(p -> p.toString().matches(".*\\.pcap(ng)?$")).sorted().toList()) {
                    assertEquals(List.of(), run(p).nic(), p.toString());
                }
            }
        }
    }
}
