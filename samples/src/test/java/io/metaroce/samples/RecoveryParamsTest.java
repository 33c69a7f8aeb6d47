package io.metaroce.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * The recovery parameter: a NIC resending from the NAK'd PSN's message start sends again what the responder had
 * (spurious resends go-back-N never makes on the same run), one skipping the NAK's PSN leaves holes only its timer fills.
 */
class RecoveryParamsTest {
    private static long sum(Generated g, String counter) {
        long n = 0;
        for (JsonNode f : g.truth.get("flows")) n += f.get("counters").get(counter).asLong();
        return n;
    }

    private static Generated gbnLoss(String recovery) {
        return Generated.with("rocev2-gbn-loss", Simulator.params("rocev2-gbn-loss").set("recovery", recovery)
                .set("message-size", "fixed:16384").set("messages", "8").set("loss", "0.02").set("duration-us", "3000"));
    }

    @Test
    void badValuesAreRefusedInOneLine() {
        Params p = Simulator.params("rocev2-gbn-loss");
        assertEquals("parameter recovery: 'back' is not a valid value (default go-back-n)",
                assertThrows(IllegalArgumentException.class, () -> p.set("recovery=back")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> p.set("recovery=skip:0"));
    }

    @Test
    void messageStartResendsWhatTheResponderHadAndSkipWaitsForTheTimer() {
        Generated gbn = gbnLoss("go-back-n"), start = gbnLoss("message-start"), skip = gbnLoss("skip:2");
        assertTrue(sum(start, "spurious") > sum(gbn, "spurious"), sum(start, "spurious") + " vs " + sum(gbn, "spurious"));
        assertTrue(sum(skip, "timeouts") > sum(gbn, "timeouts"), sum(skip, "timeouts") + " vs " + sum(gbn, "timeouts"));
        // The same workload in each: only the answer to a NAK differs.
        for (Generated g : new Generated[] {gbn, start, skip}) assertEquals(sum(gbn, "messages"), sum(g, "messages"));
        assertEquals("message-start", start.truth.get("params").get("recovery").asText());
        assertEquals("go_back_message_start", start.truth.get("diagnosis").get(0).get("cause").asText());
    }

    @Test
    void ignoreNakLeavesEveryLossToTheTimer() {
        Generated gbn = gbnLoss("go-back-n"), ignore = gbnLoss("ignore-nak");
        // No resend answers a NAK: every one is the timer's, and each NAK the tap saw is labelled ignored.
        long byNak = 0, byTimeout = 0;
        for (JsonNode f : ignore.truth.get("flows")) {
            byNak += f.get("counters").get("retransmitted_by_cause").get("nak").asLong();
            byTimeout += f.get("counters").get("retransmitted_by_cause").get("timeout").asLong();
        }
        assertEquals(0, byNak);
        assertTrue(byTimeout > 0);
        assertTrue(sum(ignore, "timeouts") > sum(gbn, "timeouts"), sum(ignore, "timeouts") + " vs " + sum(gbn, "timeouts"));
        long labelled = 0;
        for (JsonNode fr : ignore.truth.get("frames")) if (fr.has("labels") && fr.get("labels").has("nak_ignored")) labelled++;
        assertTrue(labelled >= 1 && labelled <= sum(ignore, "naks"), labelled + " of " + sum(ignore, "naks"));
        assertEquals(sum(gbn, "messages"), sum(ignore, "messages"));
        assertEquals("nak_ignored", ignore.truth.get("diagnosis").get(0).get("cause").asText());
        // The default leaves no label of it.
        for (JsonNode fr : gbn.truth.get("frames")) assertTrue(!fr.has("labels") || !fr.get("labels").has("nak_ignored"));
    }
}
