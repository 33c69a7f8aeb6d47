package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** The JSON of a lookup is the same bytes in every run: its object keeps the key order it was written in. */
    @Test
    void aLookupsJsonKeepsItsKeyOrder() throws Exception {
        Diagnosis all = diagnose(Diagnoser.DEFAULT_MAX_DIRECTIONS);
        String first = all.flows().keySet().iterator().next();
        int qp = Integer.parseInt(first.substring(first.lastIndexOf("/0x") + 3), 16);
        Object lookup = all.lookup(qp, null).toJsonMap().get("lookup");
        assertTrue(lookup instanceof LinkedHashMap, "insertion-ordered, not Map.of's salted order: " + lookup.getClass());
        assertEquals(List.of("keys", "flows"), List.copyOf(((Map<?, ?>) lookup).keySet()));
    }
}
