package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Steps and step-straggler against the simulator's truth (rocev2-straggler: 10.0.0.4 starts its writes late in every
 * step), and no straggler on the other samples or the real captures.
 */
class StepsTruthTest {
    record Run(AnalysisResult result, List<Finding> stragglers) {}

    static Run run(Path cap) throws Exception {
        Diagnoser d = new Diagnoser();
        AnalysisResult r = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(d).run(cap);
        return new Run(r, d.steps(r.steps()).finish().findings().stream().filter(f -> f.rule().equals("step-straggler")).toList());
    }

    @Test
    void theStepsAndTheStragglingPeerAreTheTruths() throws Exception {
        String scenario = "rocev2-straggler";
        JsonNode truth = DiagnosisTruthTest.JSON.readTree(Files.readString(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".truth.json")));
        JsonNode t = truth.get("diagnosis").get(0);
        assertEquals("step_straggler", t.get("cause").asText());
        long epoch = truth.get("capture").get("epoch_ns").asLong();
        Run r = run(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".pcapng"));
        Map<String, Object> steps = r.result().steps();
        assertNotNull(steps);
        assertEquals(t.get("steps").asLong(), steps.get("steps"));
        long period = Math.round(t.get("step_period_us").asDouble() * 1000);
        Map<?, ?> p = (Map<?, ?>) steps.get("period_ns");
        // Step starts are packets at the tap: the same period within the fabric's jitter.
        for (String q : new String[] {"p10", "median", "p90"}) assertEquals(period, ((Number) p.get(q)).longValue(), 500, q);
        assertEquals(1, r.stragglers().size(), "" + r.stragglers());
        Finding f = r.stragglers().get(0);
        assertEquals(t.get("peer").asText(), f.subject());
        assertEquals(t.get("flow").asText().split(">")[0], f.subject());
        assertEquals("straggler", f.cause());
        assertEquals(t.get("steps").asLong(), f.details().get("last_to_finish"));
        long delay = Math.round(t.get("delay_us").asDouble() * 1000);
        // It starts delay later than the others would, and finishes last by a good part of it.
        long margin = ((Number) ((Map<?, ?>) f.details().get("margin_ns")).get("median")).longValue();
        assertTrue(margin > delay / 4 && margin <= delay, "margin " + margin + " delay " + delay);
        // Started: the first step (the straggler's first late message follows within the delay and the fabric's).
        assertTrue(f.startedNs() - epoch <= t.get("started_ns").asLong() && f.startedNs() - epoch >= 0, "" + f.startedNs());
        assertTrue(f.evidence().size() >= 2);
        for (int i = 1; i < f.evidence().size(); i++) assertTrue(f.evidence().get(i - 1) < f.evidence().get(i), "" + f.evidence());
    }

    @Test
    void noStragglerOnTheOtherSamplesNorTheRealCaptures() throws Exception {
        try (var files = Files.list(DiagnosisTruthTest.CAPTURES)) {
            for (Path p : files.filter(p -> p.toString().endsWith(".pcapng") && !p.toString().contains("straggler")).sorted().toList()) {
                assertEquals(List.of(), run(p).stragglers(), p.toString());
            }
        }
        Path ext = DiagnosisRealCapturesTest.dir();
        if (ext != null) {
            try (var files = Files.list(ext)) {
                for (Path p : files.filter(p -> p.toString().matches(".*\\.pcap(ng)?$")).sorted().toList()) {
                    Run r = run(p);
                    assertEquals(List.of(), r.stragglers(), p.toString());
                    assertNull(r.result().steps() == null ? null : r.result().steps().get("straggler"), p.toString());
                }
            }
        }
    }
}
