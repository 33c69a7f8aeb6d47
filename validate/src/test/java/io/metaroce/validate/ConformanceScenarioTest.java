package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The simulator's conformance-violations scenario plants one violation of every §11 rule, each in its own short
 * connection, labeled in the truth with rule id and frame. Captured at the sender's host (the tap host sends
 * the data of every connection but the congestion ones), every planted violation must be reported with its rule
 * at its frame, with the rule's own severity, and nothing else may be an error or a warning: each planted frame
 * breaks only its rule.
 */
class ConformanceScenarioTest {

    private static FileResult validate(Path cap) {
        FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), false, null);
        assertNull(r.error(), r.error());
        return r;
    }

    private static Map<String, Long> planted(Path cap) throws Exception {
        Map<String, Long> m = new HashMap<>();
        for (JsonNode v : Captures.truth(cap).get("violations")) m.put(v.get("rule").asText(), v.get("frame").asLong());
        return m;
    }

    @Test
    void everyRuleIsPlantedOnce() throws Exception {
        Map<String, Long> planted = planted(Captures.of("conformance-violations", null));
        // The MR-DIAG rules (diagnoses) are planted by the fault scenarios instead (DiagnosisRulesTest).
        List<RuleDef> rules = RuleCatalog.all().stream().filter(r -> !r.diagnosis()).toList();
        for (RuleDef r : rules) assertTrue(planted.containsKey(r.id()), "scenario plants " + r.id());
        assertEquals(rules.size(), planted.size());
    }

    @Test
    void eachPlantedViolationIsReportedWithItsRuleAtItsFrame() throws Exception {
        Path cap = Captures.of("conformance-violations", null);
        FileResult r = validate(cap);
        Map<String, Long> planted = planted(cap);
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Long> e : planted.entrySet()) {
            RuleDef rule = RuleCatalog.get(e.getKey());
            boolean found = r.findings().stream().anyMatch(f -> f.rule().equals(e.getKey()) && f.frame() == e.getValue()
                    && f.severity() == rule.severity());
            if (!found) missing.add(e.getKey() + " at frame " + e.getValue() + " (" + rule.severity().label() + ")");
        }
        assertTrue(missing.isEmpty(), "not reported: " + missing + "\nfindings:\n" + dump(r));
    }

    @Test
    void nothingElseIsAnErrorOrAWarning() throws Exception {
        Path cap = Captures.of("conformance-violations", null);
        FileResult r = validate(cap);
        Set<String> planted = new HashSet<>();
        for (Map.Entry<String, Long> e : planted(cap).entrySet()) planted.add(e.getKey() + "@" + e.getValue());
        List<String> extra = new ArrayList<>();
        for (Finding f : r.findings()) {
            if (f.severity() == Severity.NOTE) continue;
            // The planted NAKs and resends are also loss an operator asks about: MR-DIAG diagnoses, not violations.
            if (RuleCatalog.isDiagnosis(f.rule())) continue;
            if (!planted.contains(f.rule() + "@" + f.frame())) extra.add(f.toString());
        }
        assertTrue(extra.isEmpty(), "findings that no planted violation explains: " + extra);
        assertTrue(r.fails(Severity.ERROR));
    }

    /**
     * At the receiver's host and at a mirror, what the sender did before the network is not all visible: planted
     * violations there may be notes or go unseen, but nothing a planted violation does not explain is an error.
     */
    @ParameterizedTest
    @ValueSource(strings = {"receiver", "mirror"})
    void otherTapsRaiseNoUnexplainedError(String tap) throws Exception {
        Path cap = Captures.of("conformance-violations", tap);
        FileResult r = validate(cap);
        Map<String, Long> planted = planted(cap);
        Set<String> keys = new HashSet<>();
        for (Map.Entry<String, Long> e : planted.entrySet()) keys.add(e.getKey() + "@" + e.getValue());
        for (Finding f : r.findings()) {
            if (f.severity() != Severity.ERROR) continue;
            assertTrue(keys.contains(f.rule() + "@" + f.frame()), "unexplained error at the " + tap + " tap: " + f);
        }
        // Frame and header rules see everything at any tap.
        for (String rule : List.of("MR-FRAME-002", "MR-FRAME-004", "MR-HDR-001", "MR-HDR-002", "MR-HDR-004", "MR-HDR-005",
                "MR-HDR-006", "MR-SEQ-002", "MR-SEQ-003", "MR-SEQ-004", "MR-SEQ-005", "MR-PATH-001", "MR-PATH-002",
                "MR-CTL-001", "MR-CTL-002", "MR-CTL-003", "MR-UD-001")) {
            long frame = planted.get(rule);
            assertTrue(r.findings().stream().anyMatch(f -> f.rule().equals(rule) && f.frame() == frame && f.severity() == Severity.ERROR),
                    rule + " at frame " + frame + " at the " + tap + " tap\n" + dump(r));
        }
        // A sender's skipped PSNs look like loss away from its tap: a note, not an error.
        long seq1 = planted.get("MR-SEQ-001");
        assertTrue(r.findings().stream().anyMatch(f -> f.rule().equals("MR-SEQ-001") && f.frame() == seq1 && f.severity() == Severity.NOTE),
                "MR-SEQ-001 is a note at the " + tap + " tap\n" + dump(r));
    }

    static String dump(FileResult r) {
        StringBuilder b = new StringBuilder();
        for (Finding f : r.findings()) b.append("  ").append(f).append('\n');
        return b.toString();
    }
}
