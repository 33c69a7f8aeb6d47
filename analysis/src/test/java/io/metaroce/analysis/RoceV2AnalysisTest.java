package io.metaroce.analysis;

import static io.metaroce.analysis.Pkt.ACK;
import static io.metaroce.analysis.Pkt.READ_REQ;
import static io.metaroce.analysis.Pkt.READ_RESP_FIRST;
import static io.metaroce.analysis.Pkt.READ_RESP_LAST;
import static io.metaroce.analysis.Pkt.READ_RESP_MIDDLE;
import static io.metaroce.analysis.Pkt.SEND_ONLY;
import static io.metaroce.analysis.Pkt.WRITE_FIRST;
import static io.metaroce.analysis.Pkt.WRITE_LAST;
import static io.metaroce.analysis.Pkt.WRITE_ONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** RoCEv2 (tver 0) reliability: go-back-N after NAK, timeouts, RNR, READ PSN reservation. */
class RoceV2AnalysisTest {
    static final String A = "10.0.0.1", B = "10.0.0.2";
    static final String DATA = "10.0.0.1>10.0.0.2/0x000201", ACKS = "10.0.0.2>10.0.0.1/0x000102";
    static final long US = 1_000;

    static Pkt data(int op, int psn) { return Pkt.of(op).from(A, B).qp(0x201).psn(psn).payload(256); }

    static Pkt ack(int psn) { return Pkt.of(ACK).from(B, A).qp(0x102).psn(psn).aeth(0, 0x1F, 1); }

    static Pkt nak(int psn) { return Pkt.of(ACK).from(B, A).qp(0x102).psn(psn).aeth(3, 0, 1); }

    /** Sender tap: 102 is lost after the tap, the NAK brings go-back-N from 102. */
    @Test
    void goBackNAfterNakAtSender() {
        Cap c = new Cap();
        c.add(0, data(WRITE_ONLY, 100).ack());             // 1
        c.add(US, data(WRITE_ONLY, 101).ack());            // 2
        c.add(US, data(WRITE_ONLY, 102).ack());            // 3 (lost after the tap)
        c.add(US, data(WRITE_ONLY, 103).ack());            // 4
        c.add(US, data(WRITE_ONLY, 104).ack());            // 5
        c.add(6 * US, ack(101));                           // 6  rtt 10 us for 100
        c.add(2 * US, nak(102));                           // 7
        c.add(US, data(WRITE_ONLY, 102).ack());            // 8
        c.add(US, data(WRITE_ONLY, 103).ack());            // 9
        c.add(US, data(WRITE_ONLY, 104).ack());            // 10
        c.add(12 * US, ack(104));                          // 11
        Cap.Run r = c.analyze("host:" + A);
        for (int f : new int[] {8, 9, 10}) {
            assertTrue(r.flag(f, "retransmission"), r.dump());
            assertEquals("nak", r.field(f, "retransmission_cause"));
            assertEquals(null, r.field(f, "spurious"), "frame " + f + "\n" + r.dump());
        }
        assertEquals(3L, r.field(8, "original_frame"));
        assertEquals(1000L, r.field(8, "nak_response_latency_ns"));
        assertNull(r.field(9, "nak_response_latency_ns"));
        assertEquals(11_000L, r.field(8, "retransmission_latency_ns"));
        assertFalse(r.flag(4, "out_of_order"));
        assertNull(r.field(4, "psn_gap"));
        assertEquals(6L, r.field(1, "acked_by_frame"));
        assertEquals(10_000L, r.field(1, "ack_rtt_ns"));
        assertEquals(11L, r.field(10, "acked_by_frame"));
        assertEquals(DATA, r.field(1, "flow"));
        assertEquals(ACKS, r.field(6, "flow"));
        assertEquals(3, r.count(DATA, "retransmitted_packets"));
        assertEquals(0, r.count(DATA, "spurious_retransmissions"));
        assertEquals(1, r.count(DATA, "naks"));
        assertEquals(2, r.count(DATA, "acks"));
        assertEquals(5, r.count(DATA, "messages"));
        assertEquals(5, r.count(DATA, "messages_completed"));
        assertEquals(1, r.count(DATA, "network_losses"), "the NAK names the one lost PSN; 103 and 104 were resent, not lost");
        assertEquals(ACKS, r.result.flow(DATA).peer());
        assertEquals("psn", r.result.flow(DATA).pairedBy());
        assertEquals("sender", r.result.flow(DATA).view().label());
        assertEquals(1, r.events(EventType.NAK).size());
        assertEquals(3, r.events(EventType.RETRANSMISSION).size());
        // message completion on the ACK frames: 100 and 101 by frame 6, 102..104 by frame 11
        assertEquals(java.util.List.of(0L, 1L), r.field(6, "message_id"));
        assertEquals(java.util.List.of(2L, 3L, 4L), r.field(11, "message_id"));
    }

    /** Receiver tap: 102 never arrives; 103 shows the gap, the NAK follows; the resends fill it. */
    @Test
    void goBackNAfterNakAtReceiver() {
        Cap c = new Cap();
        c.add(0, data(WRITE_ONLY, 100).ack());             // 1
        c.add(US, data(WRITE_ONLY, 101).ack());            // 2
        c.add(2 * US, data(WRITE_ONLY, 103).ack());        // 3 gap 1
        c.add(300, ack(101));                              // 4
        c.add(200, nak(102));                              // 5
        c.add(US, data(WRITE_ONLY, 104).ack());            // 6 in flight, dropped by the responder
        c.add(10 * US, data(WRITE_ONLY, 102).ack());       // 7 resend
        c.add(US, data(WRITE_ONLY, 103).ack());            // 8
        c.add(US, data(WRITE_ONLY, 104).ack());            // 9
        c.add(300, ack(104));                              // 10
        Cap.Run r = c.analyze("host:" + B);
        assertEquals(1L, r.field(3, "psn_gap"), r.dump());
        assertEquals(500L, r.field(5, "nak_gen_latency_ns"));
        for (int f : new int[] {7, 8, 9}) {
            assertTrue(r.flag(f, "retransmission"), "frame " + f + "\n" + r.dump());
            assertEquals("nak", r.field(f, "retransmission_cause"), "frame " + f);
            assertEquals(null, r.field(f, "spurious"), "frame " + f + "\n" + r.dump());
        }
        assertFalse(r.flag(6, "retransmission"));
        assertNull(r.field(7, "original_frame"));
        assertEquals(3L, r.field(8, "original_frame"));
        assertEquals(1, r.count(DATA, "network_losses"));
        assertEquals(0, r.count(DATA, "capture_gaps"));
        assertEquals("receiver", r.result.flow(DATA).view().label());
    }

    /** A tail loss recovered by the timer, and a timer that fired although the ACK was on its way. */
    @Test
    void timeoutAndSpuriousTimeoutAtSender() {
        Cap c = new Cap();
        c.add(0, data(SEND_ONLY, 100).ack());   // 1
        c.add(US, data(SEND_ONLY, 101).ack());  // 2 lost
        c.add(9 * US, ack(100));                // 3 rtt 10us
        c.add(500 * US, data(SEND_ONLY, 101).ack()); // 4 timeout
        c.add(10 * US, ack(101));               // 5
        c.add(10 * US, data(SEND_ONLY, 102).ack()); // 6
        c.add(50 * US, data(SEND_ONLY, 102).ack()); // 7 timer fired early: the ACK below was already on its way
        c.add(2 * US, ack(102));                // 8
        Cap.Run r = c.analyze("host:" + A);
        assertEquals("timeout", r.field(4, "retransmission_cause"), r.dump());
        assertEquals(null, r.field(4, "spurious"));
        assertEquals("timeout", r.field(7, "retransmission_cause"));
        assertEquals(true, r.field(7, "spurious"), r.dump());
        assertEquals(2, r.count(DATA, "timeout_retransmissions"));
        assertEquals(1, r.count(DATA, "spurious_retransmissions"));
        assertEquals(1, r.events(EventType.TIMEOUT_RETRANSMISSION).size());
        assertEquals(1, r.events(EventType.SPURIOUS_RETRANSMISSION).size());
        // events come out in frame order even though frame 7 was decided at frame 8
        long last = 0;
        for (AnalysisEvent e : r.events) {
            assertTrue(e.frame() >= last, r.dump());
            last = e.frame();
        }
    }

    /** Receiver tap: a duplicate PSN the responder already accepted is a spurious retransmission. */
    @Test
    void spuriousAtReceiver() {
        Cap c = new Cap();
        c.add(0, data(SEND_ONLY, 100).ack());
        c.add(300, ack(100));                   // ACK lost in the network later
        c.add(100 * US, data(SEND_ONLY, 100).ack()); // 3 timeout resend: the responder had it
        c.add(300, ack(100));
        Cap.Run r = c.analyze("host:" + B);
        assertTrue(r.flag(3, "retransmission"));
        assertEquals("timeout", r.field(3, "retransmission_cause"));
        assertEquals(true, r.field(3, "spurious"));
        assertEquals(1L, r.field(3, "original_frame"));
    }

    @Test
    void rnrNak() {
        Cap c = new Cap();
        c.add(0, data(SEND_ONLY, 200).ack());                          // 1
        c.add(10 * US, Pkt.of(ACK).from(B, A).qp(0x102).psn(200).aeth(1, 14, 0)); // 2 RNR NAK
        c.add(1300 * US, data(SEND_ONLY, 200).ack());                  // 3
        c.add(10 * US, ack(200));                                      // 4
        Cap.Run r = c.analyze("host:" + A);
        assertEquals("rnr", r.field(3, "retransmission_cause"), r.dump());
        assertEquals(1, r.count(DATA, "rnr_naks"));
        assertEquals(0, r.count(DATA, "naks"));
        assertEquals(1, r.events(EventType.RNR_NAK).size());
        assertEquals(1_300_000L, r.field(3, "nak_response_latency_ns"));
    }

    /** READ Requests reserve PSNs for their responses (§9.2); a lost response is recovered by a new READ. */
    @Test
    void readReservesPsns() {
        Cap c = new Cap();
        c.add(0, Pkt.of(WRITE_FIRST).from(A, B).qp(0x201).psn(300).payload(1024).reth(0x1000, 1124)); // 1
        c.add(US, Pkt.of(WRITE_LAST).from(A, B).qp(0x201).psn(301).payload(100).ack());            // 2
        c.add(US, data(READ_REQ, 302).payload(0).reth(0x2000, 3000).ack());                         // 3 reserves 302..304
        c.add(US, data(WRITE_ONLY, 305).ack());                                                     // 4 no gap
        c.add(6 * US, Pkt.of(READ_RESP_FIRST).from(B, A).qp(0x102).psn(302).payload(1024));        // 5
        c.add(US, Pkt.of(READ_RESP_MIDDLE).from(B, A).qp(0x102).psn(303).payload(1024));           // 6
        c.add(US, Pkt.of(READ_RESP_LAST).from(B, A).qp(0x102).psn(304).payload(952));              // 7
        c.add(US, ack(305));                                                                       // 8
        c.add(US, data(READ_REQ, 306).payload(0).reth(0x3000, 2048).ack());                         // 9 reserves 306, 307
        c.add(10 * US, Pkt.of(READ_RESP_FIRST).from(B, A).qp(0x102).psn(306).payload(1024));       // 10 (307 lost)
        c.add(100 * US, data(READ_REQ, 307).payload(0).reth(0x3400, 1024).ack());                   // 11 re-issued
        c.add(10 * US, Pkt.of(READ_RESP_LAST).from(B, A).qp(0x102).psn(307).payload(1024));        // 12
        c.add(US, data(WRITE_ONLY, 308).ack());                                                    // 13
        c.add(10 * US, ack(308));                                                                  // 14
        Cap.Run r = c.analyze("host:" + A);
        for (long f = 1; f <= 14; f++) assertNull(r.field(f, "psn_gap"), "frame " + f + "\n" + r.dump());
        assertFalse(r.flag(4, "retransmission"));
        assertTrue(r.flag(11, "retransmission"), r.dump());
        assertEquals(9L, r.field(11, "original_frame"));
        assertEquals("timeout", r.field(11, "retransmission_cause"));
        assertFalse(r.flag(13, "retransmission"));
        assertEquals(1, r.count(DATA, "retransmitted_packets"));
        assertEquals(5L, r.field(3, "acked_by_frame"), "the READ is answered by its first response");
        assertEquals(5, r.count(DATA, "messages"));
        assertEquals(5, r.count(DATA, "messages_completed"));
        assertEquals(5, r.count(ACKS, "read_responses"));
        assertEquals(0, r.count(DATA, "capture_gaps"));
    }

    /** Two QPs between the same hosts without CM: ACKs pair with the flow whose PSNs they acknowledge. */
    @Test
    void pairingByPsnAcrossQps() {
        Cap c = new Cap();
        c.add(0, Pkt.of(SEND_ONLY).from(A, B).qp(0x201).psn(100).payload(64).ack());
        c.add(US, Pkt.of(SEND_ONLY).from(A, B).qp(0x202).psn(900_000).payload(64).ack());
        c.add(US, Pkt.of(ACK).from(B, A).qp(0x103).psn(900_000).aeth(0, 31, 1));
        c.add(US, Pkt.of(ACK).from(B, A).qp(0x102).psn(100).aeth(0, 31, 1));
        Cap.Run r = c.analyze("host:" + A);
        assertEquals("10.0.0.2>10.0.0.1/0x000102", r.result.flow(DATA).peer());
        assertEquals("10.0.0.2>10.0.0.1/0x000103", r.result.flow("10.0.0.1>10.0.0.2/0x000202").peer());
        assertEquals(1, r.count(DATA, "acks"));
        assertEquals(1, r.count("10.0.0.1>10.0.0.2/0x000202", "acks"));
    }

    /** CM REQ/REP: pairing, start PSNs (with 24-bit wrap) and the PMTU come from the connection setup. */
    @Test
    void pairingViaCm() {
        Cap c = new Cap();
        c.add(0, Pkt.cmReq(A, B, 0x1111, 0x102, 0xFFFFFE, 3, false, 0, 0, 0)); // 1 PMTU 1024
        c.add(US, Pkt.cmRep(B, A, 0x2222, 0x1111, 0x201, 500, false, 0, 0, 0)); // 2
        c.add(US, Pkt.of(WRITE_FIRST).from(A, B).qp(0x201).psn(0xFFFFFE).payload(1024).reth(0, 3000)); // 3
        c.add(US, Pkt.of(0x07).from(A, B).qp(0x201).psn(0xFFFFFF).payload(1024));  // 4 WRITE Middle
        c.add(US, Pkt.of(WRITE_LAST).from(A, B).qp(0x201).psn(0).payload(952).ack()); // 5 wraps to 0
        c.add(US, data(READ_REQ, 1).payload(0).reth(0, 2048).ack());                 // 6 reserves 1, 2 (PMTU from CM)
        c.add(US, data(SEND_ONLY, 3).ack());                                         // 7
        c.add(US, Pkt.of(SEND_ONLY).from(B, A).qp(0x102).psn(500).payload(64).ack()); // 8 B's own requests
        c.add(10 * US, ack(0));                                                      // 9
        c.add(US, Pkt.of(ACK).from(A, B).qp(0x201).psn(500).aeth(0, 31, 1));         // 10 A acks B's SEND
        Cap.Run r = c.analyze("host:" + A);
        assertEquals(ACKS, r.result.flow(DATA).peer(), r.dump());
        assertEquals("cm", r.result.flow(DATA).pairedBy());
        for (long f = 3; f <= 10; f++) assertNull(r.field(f, "psn_gap"), "frame " + f + "\n" + r.dump());
        assertEquals(1, r.count(ACKS, "acks"), "A's ACK of B's SEND counts on B's flow");
        assertEquals(1, r.count(DATA, "messages_completed"));
        assertEquals(1L, r.result.capture().get("connections_from_cm"));
        // The CM messages themselves are a UD flow to QP 1.
        assertEquals("ud", r.result.flow("10.0.0.1>10.0.0.2/0x000001").service());
        assertEquals(java.util.List.of(1), r.result.flow("10.0.0.1>10.0.0.2/0x000001").srcQps());
    }

    /** A mirror that saw the same frame twice: a capture duplicate, not a retransmission (§11 f). */
    @Test
    void captureDuplicate() {
        Cap c = new Cap();
        byte[] f = data(SEND_ONLY, 100).ack().build();
        c.add(0, f, 0);
        byte[] dup = f.clone();
        dup[22] = (byte) (dup[22] - 1); // TTL one lower (ICRC does not cover it)
        c.add(2 * US, dup, 0);
        c.add(10 * US, ack(100));
        Cap.Run r = c.analyze("mirror");
        assertTrue(r.flag(2, "duplicate"), r.dump());
        assertFalse(r.flag(2, "retransmission"));
        assertEquals(1, r.count(DATA, "duplicates"));
        assertEquals(0, r.count(DATA, "retransmitted_packets"));
    }

    @Test
    void ipv6FlowIds() {
        Cap c = new Cap();
        c.add(0, Pkt.of(SEND_ONLY).from("fd00::1", "fd00::2").qp(0x201).psn(7).payload(64).ack());
        c.add(US, Pkt.of(ACK).from("fd00::2", "fd00::1").qp(0x102).psn(7).aeth(0, 31, 1));
        Cap.Run r = c.analyze("auto");
        assertEquals("fd00::1>fd00::2/0x000201", r.field(1, "flow"));
        assertEquals("fd00::2>fd00::1/0x000102", r.result.flow("fd00::1>fd00::2/0x000201").peer());
    }
}
