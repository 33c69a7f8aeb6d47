package io.metaroce.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The PFC and notification-point parameters: what a pause does to the QPs of its class and only to them, what the
 * truth says about it, and the values refused before anything runs.
 */
class PfcParamsTest {
    private static String refused(String scenario, String... assignments) {
        Params p = Simulator.params(scenario);
        return assertThrows(IllegalArgumentException.class, () -> {
            for (String a : assignments) p.set(a);
            Simulator.validate(p);
        }).getMessage();
    }

    @Test
    void badValuesAreRefusedInOneLine() {
        assertEquals("pfc-host must be -1 (none) or a host 0..2, not 9", refused("rocev2-pfc-storm", "pfc-host=9"));
        assertEquals("parameter pfc-priority must be 0..7, not 8", refused("rocev2-pfc-storm", "pfc-priority=8"));
        assertEquals("pfc-refresh-us must be at least 1", refused("rocev2-pfc-storm", "pfc-refresh-us=0"));
        assertEquals("pfc-every-us needs a pfc-run-us above 0 and below it (pfc-run-us=0 alone: a storm)",
                refused("rocev2-pfc-heavy", "pfc-run-us=100"));
        assertEquals("parameter alt-pcp must be -1..7, not 8", refused("rocev2-pfc-storm", "alt-pcp=8"));
        assertEquals("parameter cnp: 'maybe' is not a valid value (default true)", refused("rocev2-no-cnp", "cnp=maybe"));
    }

    private static List<String> stalled(JsonNode truth) {
        List<String> l = new ArrayList<>();
        for (JsonNode s : truth.get("diagnosis").get(0).get("stalled_flows")) l.add(s.asText());
        return l;
    }

    @Test
    void aStormStallsTheQpsOfItsClassOnly() {
        Generated storm = Generated.of("rocev2-pfc-storm");
        String onThree = storm.truth.get("connections").get(0).get("requester").asText();
        String onFour = storm.truth.get("connections").get(1).get("requester").asText();
        assertEquals(List.of(onThree), stalled(storm.truth));
        // Pausing priority 4 instead stalls the other QP, and the QP on priority 3 goes on.
        Generated four = Generated.with("rocev2-pfc-storm", Simulator.params("rocev2-pfc-storm").set("pfc-priority", "4"));
        assertEquals(List.of(onFour), stalled(four.truth));
        // The PFC frames: one XOFF every 50 us from the start for the 230 ms left, no XON, the class's bit only.
        JsonNode d = storm.truth.get("diagnosis").get(0);
        assertEquals(4600, d.get("xoff_frames").asLong());
        assertEquals(0, d.get("xon_frames").asLong());
        long pfc = 0;
        for (JsonNode f : storm.truth.get("frames")) {
            if (!f.has("pfc_class_vector")) continue;
            pfc++;
            assertEquals(1 << 3, f.get("pfc_class_vector").asInt());
            assertEquals(65535, f.get("pfc_quanta").asInt());
            assertTrue(f.get("t").asLong() >= d.get("started_ns").asLong());
        }
        assertEquals(4600, pfc);
        // What the pause held at the end: sent, never delivered, not lost.
        for (JsonNode f : storm.truth.get("flows")) {
            if (f.get("flow").asText().equals(onThree)) assertTrue(f.get("counters").path("held_by_pfc").asLong() > 0, f.toString());
            else assertEquals(0, f.get("counters").path("held_by_pfc").asLong(), f.toString());
        }
    }

    @Test
    void aSlowReceiverAlternatesXoffAndXonAndLosesNothing() {
        Generated heavy = Generated.of("rocev2-pfc-heavy");
        JsonNode d = heavy.truth.get("diagnosis").get(0);
        assertEquals(d.get("xoff_frames").asLong(), d.get("xon_frames").asLong(), "every run ends with an XON");
        long lastXoff = -1;
        for (JsonNode f : heavy.truth.get("frames")) {
            if (!f.has("pfc_class_vector")) continue;
            if (f.get("pfc_quanta").asInt() > 0) lastXoff = f.get("t").asLong();
            else assertEquals(30_000, f.get("t").asLong() - lastXoff, "XON 30 us after its XOFF");
        }
        for (JsonNode f : heavy.truth.get("flows")) assertEquals(0, f.get("counters").get("lost").asLong(), f.toString());
        // Without the pauses the same senders finish sooner: the pauses held them back.
        Generated free = Generated.with("rocev2-pfc-heavy", Simulator.params("rocev2-pfc-heavy").set("pfc-host", "-1"));
        assertTrue(lastFrameTime(free.truth) < lastFrameTime(heavy.truth) || free.truth.get("frames").size() > heavy.truth.get("frames").size());
    }

    private static long lastFrameTime(JsonNode truth) {
        JsonNode f = truth.get("frames");
        return f.get(f.size() - 1).get("t").asLong();
    }

    @Test
    void cnpOffSilencesOnlyTheNamedResponders() {
        Generated one = Generated.with("rocev2-no-cnp", Simulator.params("rocev2-no-cnp").set("cnp", "off:1"));
        JsonNode d = one.truth.get("diagnosis");
        assertEquals(1, d.size());
        String silenced = one.truth.get("connections").get(1).get("requester").asText();
        assertEquals(silenced, d.get(0).get("flow").asText());
        for (JsonNode f : one.truth.get("flows")) {
            // CNPs are counted on the direction that sends them: the responder's, the peer of the data flow.
            long cnps = f.get("counters").get("cnps").asLong();
            if (f.get("peer").asText().equals(silenced)) assertEquals(0, cnps, f.toString());
        }
        long others = 0;
        for (JsonNode f : one.truth.get("flows")) others += f.get("counters").get("cnps").asLong();
        assertTrue(others > 0, "the other receivers' QPs still send CNPs");
    }
}
