package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The address and MTU diagnoses (issue 15, items 2 and 5) against the simulator's truth: the peer outside its
 * host's rail subnet, the source address that changed under a live QP after a silence, and the QP whose path
 * MTU is not the one its CM REQ negotiated. Each names the truth's QP (or host pair), cause and time; and none
 * of them fires on the other samples.
 */
class DiagnosisAddressMtuTruthTest {

    static JsonNode truth(DiagnosisTruthTest.Run r, String cause) {
        for (JsonNode n : r.truth().get("diagnosis")) if (n.get("cause").asText().equals(cause)) return n;
        throw new AssertionError("truth has no " + cause);
    }

    @Test
    void aPeerOutsideItsHostsRailSubnetIsFlagged() throws Exception {
        DiagnosisTruthTest.Run r = DiagnosisTruthTest.run("rocev2-off-rail-peer");
        JsonNode t = truth(r, "off_rail_peer");
        List<Finding> f = r.rule("address-off-rail");
        assertEquals(1, f.size(), "" + r.diagnosis().findings());
        String flow = t.get("flow").asText();
        assertEquals(flow.substring(0, flow.lastIndexOf('/')), f.get(0).subject());
        assertEquals(t.get("peer").asText(), f.get(0).details().get("peer"));
        assertEquals(t.get("rail").asText(), f.get(0).details().get("rail_subnet"));
        assertEquals(3, f.get(0).details().get("peers_in_rail"));
        assertEquals(List.of("address-off-rail"), r.diagnosis().findings().stream().map(Finding::rule).toList());
    }

    @Test
    void aSourceAddressThatChangesAfterASilenceIsFlaggedOnTheNewDirection() throws Exception {
        DiagnosisTruthTest.Run r = DiagnosisTruthTest.run("rocev2-source-address-change");
        JsonNode t = truth(r, "source_address_changed");
        List<Finding> f = r.rule("address-source-changed");
        assertEquals(1, f.size(), "" + r.diagnosis().findings());
        Finding x = f.get(0);
        assertEquals(t.get("flow").asText(), x.subject());
        assertEquals(t.get("old_src").asText(), x.details().get("old_src"));
        assertEquals(t.get("new_src").asText(), x.details().get("new_src"));
        long started = x.startedNs() - r.epochNs();
        assertTrue(started >= t.get("started_ns").asLong() && started - t.get("started_ns").asLong() <= DiagnosisTruthTest.START_TOLERANCE_NS,
                "started " + started + ", truth " + t.get("started_ns"));
        assertTrue(((Number) x.details().get("silent_ns")).longValue() > 50_000, "" + x.details());
        // From the moved sender's capture its QP is never answered any more: the answers go to the old address.
        JsonNode dead = truth(r, "answers_to_old_address");
        Finding never = r.about(dead.get("flow").asText());
        assertEquals("qp-never-answered", never.rule(), "" + r.diagnosis().findings());
        assertEquals(true, never.details().get("gave_up"));
        assertEquals(dead.get("timeout_exp").asInt(), never.details().get("local_ack_timeout"));
        assertTrue(Math.abs(never.startedNs() - r.epochNs() - dead.get("started_ns").asLong()) <= DiagnosisTruthTest.START_TOLERANCE_NS);
    }

    @Test
    void aQpAboveThePathMtuItsCmReqNegotiatedIsFlaggedWithTheIpLength() throws Exception {
        DiagnosisTruthTest.Run r = DiagnosisTruthTest.run("rocev2-cm-mtu-mismatch");
        JsonNode t = truth(r, "mtu_cm_mismatch");
        List<Finding> f = r.rule("mtu-cm-mismatch");
        assertEquals(1, f.size(), "" + r.diagnosis().findings());
        Finding x = f.get(0);
        assertEquals(t.get("flow").asText(), x.subject());
        assertEquals(t.get("cm_path_mtu").asInt(), x.details().get("cm_path_mtu"));
        assertEquals(t.get("pmtu").asInt(), x.details().get("segment_payload"));
        assertEquals(t.get("pmtu").asInt() + 20 + 8 + 12 + 4, x.details().get("segment_ip_length"));
        assertEquals(x.details().get("cm_req_frame"), x.evidence().get(0), "the CM REQ is the first evidence");
    }

    /** Item 2's GIDs of the wrong kind: an IPv4-mapped and a link-local source address, each on its sender's QP. */
    @Test
    void gidsOfTheWrongKindAreFlaggedOnTheirSendersQp() throws Exception {
        DiagnosisTruthTest.Run r = DiagnosisTruthTest.run("rocev2-gid-misconfig");
        for (String[] c : new String[][] {{"gid_ipv4_mapped", "gid-ipv4-mapped"}, {"gid_link_local", "gid-link-local"}}) {
            JsonNode t = truth(r, c[0]);
            List<Finding> f = r.rule(c[1]);
            assertEquals(1, f.size(), c[1] + " in " + r.diagnosis().findings());
            assertEquals(t.get("flow").asText(), f.get(0).subject());
            assertEquals(t.get("src").asText(), f.get(0).details().get("src"));
        }
        assertEquals(List.of("gid-ipv4-mapped", "gid-link-local"),
                r.diagnosis().findings().stream().map(Finding::rule).sorted().toList(), "nothing else");
    }

    @Test
    void theAddressAndCmMtuDiagnosesFireNowhereElse() throws Exception {
        for (String s : List.of("rocev2-clean", "rocev2-gbn-loss", "rocev2-ecn-cnp", "rocev2-rnr", "rocev2-read-atomic",
                "metaroce-spray-lossy-path", "metaroce-incast-credit", "metaroce-path-down", "capture-gaps-truncated",
                "rocev2-retry-exhausted", "rocev2-peer-dead", "rocev2-link-down", "rocev2-hang", "rocev2-mtu-blackhole",
                "rocev2-dscp0-qp", "rocev2-one-source-port", "rocev2-sick-source-port", "rocev2-asymmetric-mtu",
                "conformance-violations")) {
            DiagnosisTruthTest.Run r = DiagnosisTruthTest.run(s);
            for (String rule : List.of("address-off-rail", "address-source-changed", "mtu-cm-mismatch", "gid-ipv4-mapped",
                    "gid-link-local")) {
                assertEquals(List.of(), r.rule(rule), s + ": " + rule);
            }
        }
    }
}
