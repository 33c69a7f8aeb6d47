package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * analyze --qp / --peer and the pause findings: a storm stays for a QP it stalled (by its QP number or its peer's
 * address) and not for the QP on another priority; a heavy pause stays for a QP sending on its priority.
 */
class PauseLookupTest {
    static Diagnosis diagnose(String scenario) throws Exception {
        Diagnoser d = new Diagnoser();
        new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(d)
                .run(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".pcapng"));
        return d.finish();
    }

    static List<String> rules(Diagnosis d) { return d.findings().stream().map(Finding::rule).toList(); }

    @Test
    void aStormStaysForTheQpItStalledOnly() throws Exception {
        Diagnosis all = diagnose("rocev2-pfc-storm");
        assertEquals(List.of("pfc-pause-storm"), rules(all).stream().filter(r -> r.startsWith("pfc-")).toList());
        // 10.0.0.2's QP 0x17 on priority 3 stalled; 10.0.0.3's 0x1c on priority 4 did not.
        assertTrue(rules(all.lookup(0x17, null)).contains("pfc-pause-storm"), "" + all.lookup(0x17, null).findings());
        assertTrue(rules(all.lookup(null, "10.0.0.2")).contains("pfc-pause-storm"));
        assertTrue(rules(all.lookup(0x11, null)).contains("pfc-pause-storm"), "the stalled QP's responder side (its QPN)");
        assertEquals(List.of(), rules(all.lookup(0x1c, null)).stream().filter(r -> r.startsWith("pfc-")).toList());
        assertEquals(List.of(), rules(all.lookup(null, "10.0.0.3")).stream().filter(r -> r.startsWith("pfc-")).toList());
    }

    @Test
    void aHeavyPauseStaysForAQpOnItsPriority() throws Exception {
        Diagnosis all = diagnose("rocev2-pfc-heavy");
        assertTrue(rules(all.lookup(null, "10.0.0.3")).contains("pfc-pause-heavy"));
        assertEquals(List.of(), rules(all.lookup(null, "10.0.0.9")));
    }
}
