package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.protocol.Severity;
import io.metaroce.samples.Simulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Legal traffic gives no error at any tap (§11): losses, go-back-N and selective retransmissions, spurious
 * copies, RNR, CE marks and CNPs, credit, a failing path, capture drops and truncation are behaviour to
 * analyze, not violations. At the scenario's own tap not even a warning.
 */
class CleanScenariosTest {

    static Stream<Arguments> scenarios() {
        List<Arguments> l = new ArrayList<>();
        for (String s : Simulator.scenarios()) {
            if (s.equals("conformance-violations")) continue;
            // Faults that break rules on purpose: a QP above the PMTU its CM REQ negotiated (MR-SEQ-003); at the
            // responder, ACKs to a moved address cover PSNs that came from the new one (MR-ACK-001); a NIC resending
            // from the message start instead of the NAK's PSN (MR-RTX-001 at every such NAK).
            if (s.equals("rocev2-cm-mtu-mismatch") || s.equals("rocev2-source-address-change")
                    || s.equals("rocev2-go-back-message-start")) continue;
            for (String tap : new String[] {null, "sender", "receiver", "mirror"}) l.add(Arguments.of(s, tap));
        }
        return l.stream();
    }

    @ParameterizedTest(name = "{0} at tap {1}")
    @MethodSource("scenarios")
    void noErrorFinding(String scenario, String tap) {
        Path cap = Captures.of(scenario, tap);
        FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), false, null);
        assertNull(r.error(), r.error());
        assertTrue(r.frames() > 0);
        // The MR-DIAG warnings are diagnoses of the fault scenarios, not violations (DiagnosisRulesTest).
        List<Finding> bad = r.findings().stream().filter(f -> f.severity() == Severity.ERROR
                || (tap == null && f.severity() == Severity.WARN && !RuleCatalog.isDiagnosis(f.rule()))).toList();
        assertTrue(bad.isEmpty(), scenario + " at " + (tap == null ? "its tap" : tap) + ": " + bad);
        assertEquals(0, r.count(Severity.ERROR));
    }
}
