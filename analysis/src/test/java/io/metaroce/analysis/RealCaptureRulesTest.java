package io.metaroce.analysis;

import static io.metaroce.analysis.Pkt.ACK;
import static io.metaroce.analysis.Pkt.READ_REQ;
import static io.metaroce.analysis.Pkt.READ_RESP_ONLY;
import static io.metaroce.analysis.Pkt.WRITE_FIRST;
import static io.metaroce.analysis.Pkt.WRITE_LAST;
import static io.metaroce.analysis.Pkt.WRITE_MIDDLE;
import static io.metaroce.analysis.Pkt.WRITE_ONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Rules that real captures (issue 9) showed missing: capture reordering of an acknowledgement ahead of its
 * request, READ responses repeated for a re-issued READ, and spuriousness without evidence at a mirror.
 */
class RealCaptureRulesTest {
    static final String A = "10.0.0.1", B = "10.0.0.2";
    static final String DATA = "10.0.0.1>10.0.0.2/0x000201", BACK = "10.0.0.2>10.0.0.1/0x000102";
    static final long US = 1_000;

    static Pkt data(int op, int psn) { return Pkt.of(op).from(A, B).qp(0x201).psn(psn).payload(256); }

    static Pkt ack(int psn) { return Pkt.of(ACK).from(B, A).qp(0x102).psn(psn).aeth(0, 0x1F, 1); }

    /** Item 1: the ACK of 101 is captured 3 us before 101 itself (ibdump merging the two directions). */
    @Test
    void ackCapturedJustBeforeItsRequestIsCaptureReordering() {
        Cap c = new Cap();
        c.add(0, data(WRITE_ONLY, 100).ack());             // 1
        c.add(10 * US, ack(100));                          // 2
        c.add(5 * US, ack(101));                           // 3  ahead of its request
        c.add(3 * US, data(WRITE_ONLY, 101).ack());        // 4  the first (and only) copy of 101
        c.add(10 * US, data(WRITE_ONLY, 102).ack());       // 5
        c.add(10 * US, ack(102));                          // 6
        for (String tap : new String[] {"host:" + A, "host:" + B, "mirror"}) {
            Cap.Run r = c.analyze(tap);
            assertFalse(r.flag(4, "retransmission"), tap + "\n" + r.dump());
            assertTrue(r.flag(4, "ack_before_request"), tap + "\n" + r.dump());
            assertFalse(r.flag(3, "ack_of_unseen"), tap + "\n" + r.dump());
            assertEquals(0, r.count(DATA, "retransmitted_packets"), tap);
            assertEquals(0, r.count(DATA, "capture_gaps"), tap + ": 101 appeared, it is not capture loss");
            assertEquals(3, r.count(DATA, "messages_completed"), tap);
            assertTrue(r.events(EventType.ACK_OF_UNSEEN).isEmpty(), tap + "\n" + r.dump());
            assertEquals(1, r.events(EventType.ACK_BEFORE_REQUEST).size(), tap);
            AnalysisEvent e = r.events(EventType.ACK_BEFORE_REQUEST).get(0);
            assertEquals(4L, e.frame());
            assertEquals(3L, ((AnalysisEvent.AckBeforeRequest) e).ackFrame());
            assertEquals(3_000L, ((AnalysisEvent.AckBeforeRequest) e).ackLeadNs());
        }
    }

    /** Item 1, the other side of the tolerance: a copy a timeout after its ACK is a (spurious) resend. */
    @Test
    void copyLongAfterItsAckIsStillARetransmission() {
        Cap c = new Cap();
        c.add(0, data(WRITE_ONLY, 100).ack());             // 1
        c.add(10 * US, ack(101));                          // 2  covers 101, whose original the capture lost
        c.add(2_000 * US, data(WRITE_ONLY, 101).ack());    // 3  resent after the ACK was lost: spurious
        Cap.Run r = c.analyze("host:" + A);
        assertTrue(r.flag(3, "retransmission"), r.dump());
        assertEquals(true, r.field(3, "spurious"));
        assertEquals(1, r.count(DATA, "capture_gaps"));
        assertTrue(r.events(EventType.ACK_BEFORE_REQUEST).isEmpty());
    }

    /** Item 6: the READ response was lost after the responder's tap; the re-issued READ is answered again. */
    @Test
    void responsesToAReissuedReadAreRepeatedResponsesNotRetransmissions() {
        Cap c = new Cap();
        c.add(0, data(READ_REQ, 200).payload(0).reth(0x1000, 256));                      // 1
        c.add(5 * US, Pkt.of(READ_RESP_ONLY).from(B, A).qp(0x102).psn(200).payload(256)
                .aeth(0, 0x1F, 1));                                                      // 2 lost after the tap
        c.add(1_000 * US, data(READ_REQ, 200).payload(0).reth(0x1000, 256));             // 3 re-issued
        c.add(5 * US, Pkt.of(READ_RESP_ONLY).from(B, A).qp(0x102).psn(200).payload(256)
                .aeth(0, 0x1F, 1));                                                      // 4 repeated
        for (String tap : new String[] {"host:" + B, "mirror"}) {
            Cap.Run r = c.analyze(tap);
            assertTrue(r.flag(3, "retransmission"), tap + "\n" + r.dump());
            assertFalse(r.flag(4, "retransmission"), tap + "\n" + r.dump());
            assertTrue(r.flag(4, "repeated_response"), tap + "\n" + r.dump());
            assertEquals(3L, r.field(4, "repeated_response_request"));
            assertEquals(2L, r.field(4, "original_frame"));
            assertEquals(1, r.count(DATA, "retransmitted_packets"), tap);
            assertEquals(0, r.count(BACK, "retransmitted_packets"), tap + ": only requests are retransmissions (§12)");
            assertEquals(1, r.count(BACK, "repeated_responses"), tap);
            assertEquals(1, r.events(EventType.TIMEOUT_RETRANSMISSION).size(), tap + "\n" + r.dump());
            assertEquals(1, r.events(EventType.REPEATED_RESPONSE).size(), tap);
            AnalysisEvent e = r.events(EventType.REPEATED_RESPONSE).get(0);
            assertEquals(4L, e.frame());
            assertEquals(3L, ((AnalysisEvent.RepeatedResponse) e).requestFrame());
        }
    }

    /** Item 8: a QP dying of retry exhaustion seen at a mirror: 7 resends, no acknowledgement ever. */
    @Test
    void retryExhaustionAtAMirrorIsNotSpurious() {
        Cap c = new Cap();
        c.add(0, data(WRITE_ONLY, 300).ack());                                   // 1
        for (int k = 0; k < 7; k++) c.add(1_000 * US, data(WRITE_ONLY, 300).ack()); // 2..8 at the ACK timeout
        Cap.Run r = c.analyze("mirror");
        assertTrue(r.events(EventType.SPURIOUS_RETRANSMISSION).isEmpty(), r.dump());
        assertEquals(7, r.events(EventType.TIMEOUT_RETRANSMISSION).size(), r.dump());
        for (AnalysisEvent e : r.events(EventType.TIMEOUT_RETRANSMISSION)) assertEquals(FrameVerdict.Spurious.UNDECIDED, ((AnalysisEvent.Retransmission) e).spurious());
        for (int f = 2; f <= 8; f++) {
            assertTrue(r.flag(f, "retransmission"));
            assertNull(r.field(f, "spurious"), "no evidence either way: no verdict\n" + r.dump());
        }
        assertEquals(0, r.count(DATA, "spurious_retransmissions"));
        assertEquals(7, r.count(DATA, "spurious_unknown"));
    }

    /** Item 8: at a mirror, an acknowledgement captured before the resend is the evidence for spurious. */
    @Test
    void ackBeforeTheResendMakesItSpuriousAtAMirror() {
        Cap c = new Cap();
        c.add(0, data(WRITE_ONLY, 300).ack());             // 1
        c.add(10 * US, ack(300));                          // 2 (lost after the mirror)
        c.add(1_000 * US, data(WRITE_ONLY, 300).ack());    // 3
        Cap.Run r = c.analyze("mirror");
        assertEquals(true, r.field(3, "spurious"), r.dump());
        assertEquals(1, r.events(EventType.SPURIOUS_RETRANSMISSION).size());
    }

    static Pkt nak(int psn) { return Pkt.of(ACK).from(B, A).qp(0x102).psn(psn).aeth(3, 0, 1); }

    static int op(int psn) { return psn == 100 ? WRITE_FIRST : psn == 107 ? WRITE_LAST : WRITE_MIDDLE; }

    /**
     * Item 7, receiver's tap: 102 and the tail 105..107 of a message were lost before the tap; the NAK of 102
     * brings the go-back run 102..107. 105..107 look new (beyond the highest PSN seen) but arrive inside the run,
     * continuing its message, from a sender that had stopped sending before the NAK: inferred retransmissions.
     */
    @Test
    void firstCopiesLostBeforeTheTapInsideAResendRunAreInferredRetransmissions() {
        Cap c = new Cap();
        c.add(0, data(op(100), 100));                      // 1
        c.add(US, data(op(101), 101));                     // 2   102 lost before the tap
        c.add(2 * US, data(op(103), 103));                 // 3
        c.add(US, data(op(104), 104));                     // 4   105..107 lost before the tap
        c.add(US, nak(102));                               // 5
        for (int p = 102; p <= 107; p++) c.add(US, data(op(p), p).ack()); // 6..11
        c.add(US, data(WRITE_ONLY, 108).ack());            // 12  a new message
        c.add(5 * US, ack(108));                           // 13
        Cap.Run r = c.analyze("host:" + B);
        for (int f = 6; f <= 11; f++) {
            assertTrue(r.flag(f, "retransmission"), "frame " + f + "\n" + r.dump());
            assertEquals("nak", r.field(f, "retransmission_cause"), "frame " + f + "\n" + r.dump());
        }
        for (int f : new int[] {6, 9, 10, 11}) assertTrue(r.flag(f, "retransmission_inferred"), "frame " + f);
        for (int f : new int[] {7, 8}) assertFalse(r.flag(f, "retransmission_inferred"), "frame " + f);
        assertFalse(r.flag(12, "retransmission"), r.dump());
        assertEquals(6, r.count(DATA, "retransmitted_packets"));
        assertEquals(4, r.count(DATA, "inferred_retransmissions"));
        assertEquals(4, r.count(DATA, "network_losses"), "102 and 105..107 were lost before the tap");
        long inferredEvents = r.events(EventType.RETRANSMISSION).stream().filter(e -> ((AnalysisEvent.Retransmission) e).inferred()).count();
        assertEquals(4, inferredEvents);
    }

    /** Item 7, the counter-case: the sender was still sending when the NAK came; after the run it goes on. */
    @Test
    void newPacketsAfterAResendRunOfABusySenderAreNew() {
        Cap c = new Cap();
        c.add(0, data(op(100), 100));                      // 1
        c.add(US, data(op(101), 101));                     // 2   102 lost before the tap
        c.add(2 * US, data(op(103), 103));                 // 3
        c.add(US, nak(102));                               // 4
        c.add(US, data(op(104), 104));                     // 5   sent before the NAK reached the sender
        for (int p = 102; p <= 104; p++) c.add(US, data(op(p), p)); // 6..8 the run
        for (int p = 105; p <= 107; p++) c.add(US, data(op(p), p).ack()); // 9..11 new
        Cap.Run r = c.analyze("host:" + B);
        for (int f = 6; f <= 8; f++) assertTrue(r.flag(f, "retransmission"), "frame " + f + "\n" + r.dump());
        for (int f = 9; f <= 11; f++) assertFalse(r.flag(f, "retransmission"), "frame " + f + "\n" + r.dump());
        assertEquals(3, r.count(DATA, "retransmitted_packets"));
    }
}
