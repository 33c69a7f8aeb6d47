package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * pfc-pause-storm and pfc-pause-heavy against the simulator's truth (rocev2-pfc-storm: a receiver NIC stuck sending
 * XOFF on priority 3; rocev2-pfc-heavy: a slow receiver pausing 30 % of the time), with analyze's default options (no
 * --link-speed: pauses timed at 400 Gb/s): the subject (MAC and class), the start, the QPs the storm stalled and the
 * one on another priority it did not, the paused share; and each sample gives its own pause finding only.
 */
class PauseTruthTest {
    record Run(List<Finding> pauses, List<Finding> all, JsonNode truth, long epochNs) {}

    static Run run(String scenario) throws Exception {
        JsonNode truth = DiagnosisTruthTest.JSON.readTree(Files.readString(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".truth.json")));
        Diagnoser d = new Diagnoser();
        new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(d)
                .run(DiagnosisTruthTest.CAPTURES.resolve(scenario + ".pcapng"));
        List<Finding> all = d.finish().findings(), pauses = new ArrayList<>();
        for (Finding f : all) if (f.rule().startsWith("pfc-")) pauses.add(f);
        return new Run(pauses, all, truth, truth.get("capture").get("epoch_ns").asLong());
    }

    /** Frame times by number (the truth's), and the first PFC frame's. */
    static long firstPfcFrame(JsonNode truth) {
        for (JsonNode f : truth.get("frames")) if (f.has("pfc_class_vector")) return f.get("n").asLong();
        return -1;
    }

    @Test
    void theStuckReceiverIsAStormThatStallsItsPriorityAndOnlyIt() throws Exception {
        Run r = run("rocev2-pfc-storm");
        JsonNode t = r.truth.get("diagnosis").get(0);
        assertEquals("pfc_storm", t.get("cause").asText());
        assertEquals(1, r.pauses.size(), "" + r.pauses);
        Finding f = r.pauses.get(0);
        assertEquals("pfc-pause-storm", f.rule());
        assertEquals(t.get("subject").asText(), f.subject());
        assertEquals(t.get("class").asLong(), f.details().get("class"));
        assertEquals(t.get("started_ns").asLong(), f.startedNs() - r.epochNs, "the storm starts at its first XOFF");
        assertEquals(firstPfcFrame(r.truth), (long) f.evidence().get(0));
        assertTrue((Long) f.details().get("paused_ns") >= 200_000_000L, "" + f.details());
        assertEquals(true, f.details().get("until_end_of_capture"));
        // The QPs the truth says were left with requests outstanding on priority 3, and not the one on priority 4.
        List<String> stalled = new ArrayList<>();
        for (JsonNode s : t.get("stalled_flows")) stalled.add(s.asText());
        assertTrue(!stalled.isEmpty(), "the sample must stall a QP");
        assertEquals(stalled, f.details().get("stalled_flows"));
        // The QP on priority 4 kept writing after the storm began (its requests appear in the capture after it).
        long last = 0;
        String other = r.truth.get("connections").get(1).get("requester").asText();
        for (JsonNode x : r.truth.get("frames")) {
            if (x.has("flow") && x.get("flow").asText().equals(other)) last = Math.max(last, x.get("t").asLong());
        }
        assertTrue(last > t.get("started_ns").asLong() + 100_000_000L, "priority 4 went on: last request at " + last);
        assertTrue(!stalled.contains(other));
    }

    @Test
    void theSlowReceiverIsHeavyNotAStorm() throws Exception {
        Run r = run("rocev2-pfc-heavy");
        JsonNode t = r.truth.get("diagnosis").get(0);
        assertEquals("pfc_heavy", t.get("cause").asText());
        assertEquals(1, r.pauses.size(), "" + r.pauses);
        Finding f = r.pauses.get(0);
        assertEquals("pfc-pause-heavy", f.rule());
        assertEquals(t.get("subject").asText(), f.subject());
        // Each pause ends at its XON: the share is the run over the period, over the capture from its first frame
        // (the pauses start 50 us in and the capture ends before the last period is over).
        double share = (Double) f.details().get("paused_share");
        assertEquals(t.get("paused_share").asDouble(), share, 0.05, "" + f.details());
        assertEquals(firstPfcFrame(r.truth), (long) f.evidence().get(0));
        assertEquals(2L * t.get("xoff_frames").asLong(), ((Number) f.details().get("frames")).longValue(), "XOFF + XON per run");
        // Nothing was lost: no QP failure, no retransmission diagnosis.
        for (Finding x : r.all) assertTrue(x.rule().startsWith("pfc-"), "only the pause: " + x);
    }

    @Test
    void theOtherSamplesHaveNoPauseFinding() throws Exception {
        for (String s : new String[] {"rocev2-clean", "rocev2-ecn-cnp", "rocev2-no-cnp", "rocev2-hang"}) {
            assertEquals(List.of(), run(s).pauses, s);
        }
    }
}
