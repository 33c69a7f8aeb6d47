package io.metaroce.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.dissector.Dissector;
import io.metaroce.protocol.OpcodeDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The truth's per-flow counters equal what the dissected frames show: for flows the tap host sends, every
 * transmission is a frame (S tap); for flows it receives, every packet the network did not lose is a frame
 * (R tap); and the per-frame labels add up to the per-flow counters.
 */
class TruthConsistencyTest {

    static Stream<String> scenarios() {
        return Simulator.scenarios().stream().filter(s -> !s.equals("capture-gaps-truncated"));
    }

    /** Counts taken from the dissected frames of one flow. */
    static final class Seen {
        long frames, data, payload, acks, naks, rnr, sacks, nacks, cnps, credits, probes, ceVisible, rtxLabels,
                spuriousLabels, lostLabels, ceLabels;
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void countersMatchTheFrames(String scenario) {
        Generated g = Generated.of(scenario);
        String tapHost = g.truth.get("capture").path("tap_host").asText();
        assertTrue(!tapHost.isEmpty(), "scenario defaults use a host tap");
        Map<String, Seen> seen = new HashMap<>();
        g.forEachFrame(f -> {
            if (f.truth().has("pfc_class_vector")) return; // a PFC frame belongs to no flow
            Seen s = seen.computeIfAbsent(f.truth().get("flow").asText(), k -> new Seen());
            var d = f.d();
            JsonNode labels = f.truth().path("labels");
            if (labels.has("violation")) {
                s.frames++;
                return; // a planted frame may be malformed on purpose: counted, not decoded
            }
            s.frames++;
            OpcodeDef def = Dissector.opcodeDef(d.opcodeValue(), d.tver());
            if (def != null && (def.role() == OpcodeDef.Role.REQUEST || def.role() == OpcodeDef.Role.RESPONSE)) {
                s.data++;
                s.payload += d.payloadLength();
            }
            int op = d.opcodeValue();
            if (op == 0x11) {
                long kind = (Generated.field(d, "aeth.syndrome", 0) >>> 5) & 3;
                if (kind == 0) s.acks++;
                if (kind == 1) s.rnr++;
                if (kind == 3) s.naks++;
            }
            if (d.tver() == 1 && op == 0xE0) s.sacks++;
            if (d.tver() == 1 && op == 0xE1) s.nacks++;
            if (op == 0x81 || (d.tver() == 1 && op == 0xE3)) s.cnps++;
            if (d.tver() == 1 && op == 0xE2) s.credits++;
            if (d.tver() == 1 && (op == 0xE4 || op == 0xE5)) s.probes++;
            if (d.ecn() == 3) s.ceVisible++;
            if (labels.has("retransmission")) s.rtxLabels++;
            if (labels.has("spurious")) s.spuriousLabels++;
            if (labels.has("lost_after_tap")) s.lostLabels++;
            if (labels.has("ce")) s.ceLabels++;
        });
        List<String> problems = new ArrayList<>();
        int judged = 0;
        for (JsonNode flow : g.truth.get("flows")) {
            String id = flow.get("flow").asText();
            JsonNode c = flow.get("counters");
            Seen s = seen.getOrDefault(id, new Seen());
            check(problems, id, "frames", flow.get("frames").asLong(), s.frames);
            if (flow.get("src").asText().equals(tapHost)) {
                judged++;
                check(problems, id, "packets", c.get("packets").asLong(), s.frames);
                if (hasPlant(g, id)) continue;
                check(problems, id, "data_packets", c.get("data_packets").asLong(), s.data);
                check(problems, id, "payload_bytes", c.get("payload_bytes").asLong(), s.payload);
                check(problems, id, "acks", c.get("acks").asLong(), s.acks);
                check(problems, id, "naks", c.get("naks").asLong(), s.naks);
                check(problems, id, "rnr_naks", c.get("rnr_naks").asLong(), s.rnr);
                check(problems, id, "sacks", c.get("sacks").asLong(), s.sacks);
                check(problems, id, "nacks", c.get("nacks").asLong(), s.nacks);
                check(problems, id, "cnps", c.get("cnps").asLong(), s.cnps);
                check(problems, id, "credits", c.get("credits").asLong(), s.credits);
                check(problems, id, "probes", c.get("probes").asLong(), s.probes);
                check(problems, id, "retransmitted", c.get("retransmitted").asLong(), s.rtxLabels);
                check(problems, id, "spurious", c.get("spurious").asLong(), s.spuriousLabels);
                check(problems, id, "lost", c.get("lost").asLong(), s.lostLabels);
                check(problems, id, "ce_marks (labels)", c.get("ce_marks").asLong(), s.ceLabels);
                if (s.ceVisible != 0) problems.add(id + ": CE visible at the sender's own tap");
            } else if (flow.get("dst").asText().equals(tapHost)) {
                judged++;
                // A PFC storm leaves frames in the paused queue at the end: sent, never delivered, not lost.
                check(problems, id, "packets - lost - held", c.get("packets").asLong() - c.get("lost").asLong()
                        - c.path("held_by_pfc").asLong(0), s.frames);
                if (hasPlant(g, id)) continue;
                check(problems, id, "ce_marks (visible at R)", c.get("ce_marks").asLong(), s.ceVisible);
                check(problems, id, "ce_marks (labels)", c.get("ce_marks").asLong(), s.ceLabels);
            }
        }
        assertTrue(judged >= 2, "no flow judged");
        if (!problems.isEmpty()) fail(scenario + ": " + problems);
    }

    private static boolean hasPlant(Generated g, String flow) {
        for (JsonNode v : g.truth.get("violations")) if (v.get("flow").asText().equals(flow)) return true;
        return false;
    }

    private static void check(List<String> problems, String flow, String what, long truth, long frames) {
        if (truth != frames) problems.add(flow + " " + what + ": truth " + truth + ", frames " + frames);
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void perPathCountersAddUpToTheFlow(String scenario) {
        Generated g = Generated.of(scenario);
        Map<String, long[]> sums = new HashMap<>();
        for (JsonNode p : g.truth.get("paths")) {
            long[] s = sums.computeIfAbsent(p.get("flow").asText(), k -> new long[3]);
            s[0] += p.get("packets").asLong();
            s[1] += p.get("lost").asLong();
            s[2] += p.get("ce").asLong();
        }
        for (JsonNode f : g.truth.get("flows")) {
            long[] s = sums.get(f.get("flow").asText());
            if (!f.get("transport").asText().equals("metaroce") || !f.get("service").asText().equals("rc")) continue;
            JsonNode c = f.get("counters");
            assertEquals(c.get("packets").asLong(), s[0], f.get("flow") + " packets over paths");
            assertEquals(c.get("lost").asLong(), s[1], f.get("flow") + " lost over paths");
            assertEquals(c.get("ce_marks").asLong(), s[2], f.get("flow") + " ce over paths");
        }
    }
}
