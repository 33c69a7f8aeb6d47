package io.metaroce.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.IcrcStatus;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our dissector decodes every simulated frame: RoCE, ICRC good (unchecked only when the snap length cut the
 * frame), no expert error; a planted violation is the only exception, and the truth labels it. The truth's
 * per-frame flow, PSN and opcode are what the frame carries.
 */
class ScenarioDissectionTest {

    static Stream<String> scenarios() { return Simulator.scenarios().stream(); }

    @ParameterizedTest
    @MethodSource("scenarios")
    void everyFrameDecodesCleanlyAndMatchesItsTruth(String scenario) {
        Generated g = Generated.of(scenario);
        assertEquals(g.result.frames(), g.truth.get("frames").size(), "one truth entry per frame");
        assertTrue(g.result.frames() > 20, "scenario too small: " + g.result.frames());
        List<String> problems = new ArrayList<>();
        long[] count = {0};
        g.forEachFrame(f -> {
            count[0]++;
            JsonNode t = f.truth();
            JsonNode labels = t.path("labels");
            String violation = labels.path("violation").asText(null);
            boolean truncated = labels.path("truncated").asBoolean(false);
            String where = scenario + " frame " + f.number();
            if (t.get("n").asLong() != f.number()) problems.add(where + ": truth entry " + t.get("n"));
            if (t.has("pfc_class_vector")) {
                // A PFC frame (tap=port): MAC Control, its class vector and quanta (TsharkAgreementTest checks them).
                if (!f.d().protocols().startsWith("eth:macc:macc_cbfc")) problems.add(where + ": not decoded as PFC: " + f.d().protocols());
                if (t.get("t").asLong() + g.truth.get("capture").get("epoch_ns").asLong() != f.time()) {
                    problems.add(where + ": time differs from truth");
                }
                return;
            }
            if (!f.d().isRoce()) {
                problems.add(where + ": not decoded as RoCE: " + f.d().protocols());
                return;
            }
            IcrcStatus expected = truncated ? IcrcStatus.UNCHECKED
                    : "MR-FRAME-001".equals(violation) ? IcrcStatus.BAD : IcrcStatus.GOOD;
            if (f.d().icrcStatus() != expected) problems.add(where + ": ICRC " + f.d().icrcStatus() + ", expected " + expected);
            for (ExpertItem e : f.d().expert()) {
                if (e.severity() == Severity.ERROR && violation == null) problems.add(where + ": unexpected " + e);
            }
            if (f.d().psn() != t.get("psn").asInt()) problems.add(where + ": psn " + f.d().psn() + " vs truth " + t.get("psn"));
            if (f.d().opcodeValue() != t.get("opcode").asInt() && violation == null) {
                problems.add(where + ": opcode " + f.d().opcodeValue() + " vs truth " + t.get("opcode"));
            }
            if (!Generated.flowId(f.d()).equals(t.get("flow").asText())) {
                problems.add(where + ": flow " + Generated.flowId(f.d()) + " vs truth " + t.get("flow").asText());
            }
            if (t.has("path") && violation == null) {
                long path = Generated.field(f.d(), "mrth.path_id", -1);
                if (path != t.get("path").asLong()) problems.add(where + ": path " + path + " vs truth " + t.get("path"));
            }
            if (t.get("t").asLong() + g.truth.get("capture").get("epoch_ns").asLong() != f.time()) {
                problems.add(where + ": time differs from truth");
            }
        });
        assertEquals(g.result.frames(), count[0]);
        if (!problems.isEmpty()) fail(problems.size() + " problems, first: " + problems.subList(0, Math.min(10, problems.size())));
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"metaroce-spray-lossy-path,mirror", "metaroce-spray-lossy-path,receiver",
            "rocev2-ecn-cnp,mirror", "rocev2-gbn-loss,receiver", "metaroce-incast-credit,sender"})
    void otherTapsDecodeCleanlyToo(String scenario, String tap) {
        Generated g = Generated.with(scenario, Simulator.params(scenario).set("tap", tap));
        assertTrue(g.result.frames() > 20);
        long[] ceSeen = {0}, ceLabels = {0};
        g.forEachFrame(f -> {
            String where = scenario + "@" + tap + " frame " + f.number();
            assertEquals(IcrcStatus.GOOD, f.d().icrcStatus(), where);
            assertTrue(f.d().expert().stream().noneMatch(e -> e.severity() == Severity.ERROR), where + " " + f.d().expert());
            assertEquals(f.truth().get("flow").asText(), Generated.flowId(f.d()), where);
            assertEquals(f.truth().get("psn").asInt(), f.d().psn(), where);
            assertEquals(tap.equals("mirror") ? "M" : null, tap.equals("mirror") ? f.truth().get("tap").asText() : null);
            if (f.d().ecn() == 3) ceSeen[0]++;
            if ("seen".equals(f.truth().path("labels").path("ce").asText(null))) ceLabels[0]++;
        });
        assertEquals(ceLabels[0], ceSeen[0], "frames showing CE = frames labeled ce: seen");
    }

    @Test
    void conformanceScenarioPlantsEveryRuleOnceOnACapturedFrame() {
        Generated g = Generated.of("conformance-violations");
        Map<String, Long> frameOfRule = new TreeMap<>();
        for (JsonNode v : g.truth.get("violations")) {
            String rule = v.get("rule").asText();
            assertTrue(v.get("frame").canConvertToLong(), rule + " planted on a frame the tap did not capture");
            assertNotNull(v.get("description"), rule + " has no description");
            assertEquals(null, frameOfRule.put(rule, v.get("frame").asLong()), rule + " planted twice");
        }
        // The MR-DIAG rules are the analyzer's diagnoses: the fault scenarios show them, not planted violations.
        List<String> expected = Spec.RULES.stream().filter(r -> !r.diagnosis()).map(RuleDef::id).sorted().toList();
        assertEquals(expected, List.copyOf(frameOfRule.keySet()), "one planted violation per rule of §11");
        JsonNode frames = g.truth.get("frames");
        int labeled = 0;
        for (JsonNode f : frames) {
            String rule = f.path("labels").path("violation").asText(null);
            if (rule == null) continue;
            labeled++;
            assertEquals(frameOfRule.get(rule), f.get("n").asLong(), rule + " labeled on another frame");
        }
        assertEquals(expected.size(), labeled, "every planted frame carries its label, nothing else does");
    }

    @Test
    void frameLevelPlantsAreWhatTheDissectorReports() {
        Generated g = Generated.of("conformance-violations");
        Map<String, List<String>> expertOfRule = new TreeMap<>();
        g.forEachFrame(f -> {
            String rule = f.truth().path("labels").path("violation").asText(null);
            if (rule == null) return;
            List<String> errors = new ArrayList<>();
            for (ExpertItem e : f.d().expert()) if (e.severity() == Severity.ERROR) errors.add(e.message());
            expertOfRule.put(rule, errors);
        });
        for (String rule : List.of("MR-FRAME-001", "MR-FRAME-002", "MR-HDR-001", "MR-HDR-002", "MR-HDR-004", "MR-HDR-005")) {
            assertTrue(!expertOfRule.get(rule).isEmpty(), rule + ": the dissector reports no error on the planted frame");
        }
        assertTrue(expertOfRule.get("MR-FRAME-001").get(0).contains("ICRC"));
        assertTrue(expertOfRule.get("MR-HDR-002").get(0).contains("0xc0"));
    }
}
