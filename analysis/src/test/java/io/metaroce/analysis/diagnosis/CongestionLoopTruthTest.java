package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * cc-cnp-ignored and cc-no-cnp against the simulator's truth (rocev2-cnp-ignored: one sender's reaction point off),
 * and no congestion-loop diagnosis on the captures whose loop works or cannot be judged (the ECN/CNP incast at its
 * receiver, the MetaRoCE credit incast, the real captures).
 */
class CongestionLoopTruthTest {
    static List<Finding> cc(Path cap) throws Exception {
        Diagnoser d = new Diagnoser();
        AnalysisResult r = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(d).run(cap);
        return d.congestionLoop(r.congestionLoop()).finish().findings().stream().filter(f -> f.rule().startsWith("cc-")).toList();
    }

    @Test
    void theSenderWhoseReactionPointIsOffIsDiagnosedAndOnlyIt() throws Exception {
        String scenario = "rocev2-cnp-ignored";
        JsonNode truth = DiagnosisTruthTest.JSON.readTree(Files.readString(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".truth.json")));
        JsonNode t = truth.get("diagnosis").get(0);
        assertEquals("cnp_ignored", t.get("cause").asText());
        List<Finding> f = cc(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".pcapng"));
        assertEquals(1, f.size(), "" + f);
        Finding x = f.get(0);
        assertEquals("cc-cnp-ignored", x.rule());
        assertEquals(t.get("flow").asText(), x.subject());
        assertEquals("cnp_ignored", x.cause());
        assertTrue(((Number) x.details().get("cnps")).longValue() >= 3, "" + x.details());
        assertEquals(0.0, ((Number) x.details().get("pace_cut_pct")).doubleValue(), 5.0, "" + x.details());
        // Evidence: the first CNP and the data the sender sent after it, in capture order.
        assertTrue(x.evidence().size() >= 2, "" + x.evidence());
        assertTrue(x.evidence().get(0) < x.evidence().get(1), "" + x.evidence());
        assertTrue(x.startedNs() != null && x.startedNs() > 0);
    }

    @Test
    void everyQpOfTheReceiverWhoseNotificationPointIsOffIsDiagnosedNoCnp() throws Exception {
        String scenario = "rocev2-no-cnp";
        JsonNode truth = DiagnosisTruthTest.JSON.readTree(Files.readString(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".truth.json")));
        java.util.Set<String> expected = new java.util.TreeSet<>();
        for (JsonNode t : truth.get("diagnosis")) {
            assertEquals("no_cnp", t.get("cause").asText());
            expected.add(t.get("flow").asText());
        }
        assertEquals(4, expected.size(), "the incast's four senders");
        // The first CE-marked frame of each flow in the truth: where its finding starts.
        java.util.Map<String, Long> firstCe = new java.util.HashMap<>();
        for (JsonNode fr : truth.get("frames")) {
            if (fr.path("labels").has("ce")) firstCe.putIfAbsent(fr.get("flow").asText(), fr.get("t").asLong());
        }
        long epoch = truth.get("capture").get("epoch_ns").asLong();
        List<Finding> f = cc(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".pcapng"));
        java.util.Set<String> found = new java.util.TreeSet<>();
        for (Finding x : f) {
            assertEquals("cc-no-cnp", x.rule(), "" + x);
            assertEquals("no_cnp", x.cause());
            assertEquals(0L, ((Number) x.details().get("cnps")).longValue(), "" + x.details());
            assertTrue(((Number) x.details().get("ce_marks")).longValue() > 0, "" + x.details());
            assertEquals(firstCe.get(x.subject()), x.startedNs() - epoch, x.subject() + " starts at its first CE mark");
            found.add(x.subject());
        }
        assertEquals(expected, found);
    }

    @Test
    void noCongestionLoopDiagnosisWhereTheLoopWorksOrCannotBeJudged() throws Exception {
        for (String s : new String[] {"rocev2-ecn-cnp", "metaroce-incast-credit", "conformance-violations", "rocev2-clean"}) {
            assertEquals(List.of(), cc(DiagnosisTruthTest.CAPTURES.resolve(s + ".pcapng")), s);
        }
        Path ext = DiagnosisRealCapturesTest.dir();
        if (ext != null) {
            try (var files = Files.list(ext)) {
                for (Path p : files.filter(p -> p.toString().matches(".*\\.pcap(ng)?$")).sorted().toList()) {
                    assertEquals(List.of(), cc(p), p.toString());
                }
            }
        }
    }
}
