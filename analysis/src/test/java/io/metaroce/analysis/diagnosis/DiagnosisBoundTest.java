package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The diagnosis keeps a few KB per QP direction, so it stops taking new directions at its bound (a capture of a
 * million QPs under a 1 GB heap) and says how many frames it left out, instead of running out of memory.
 */
class DiagnosisBoundTest {
    private static Diagnosis diagnose(int maxDirections) throws Exception {
        Diagnoser d = new Diagnoser(null, maxDirections);
        new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(d)
                .run(Path.of("../samples/captures/rocev2-one-source-port.pcapng"));
        return d.finish();
    }

    @Test
    void directionsBeyondTheBoundAreCountedNotKept() throws Exception {
        Diagnosis all = diagnose(Diagnoser.DEFAULT_MAX_DIRECTIONS);
        assertTrue(all.flows().size() > 2, "the sample has several QP directions: " + all.flows().keySet());
        assertEquals(0, all.framesNotDiagnosed());
        assertFalse(all.toJsonMap().containsKey("frames_not_diagnosed"));

        Diagnosis bounded = diagnose(2);
        assertEquals(2, bounded.flows().size());
        assertTrue(bounded.framesNotDiagnosed() > 0);
        assertEquals(bounded.framesNotDiagnosed(), bounded.toJsonMap().get("frames_not_diagnosed"));
        StringBuilder text = new StringBuilder();
        bounded.appendText(text);
        assertTrue(text.toString().contains("frames of QPs beyond the first diagnosed ones were not diagnosed"), text.toString());
    }
}
