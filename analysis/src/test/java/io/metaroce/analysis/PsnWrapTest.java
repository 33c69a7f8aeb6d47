package io.metaroce.analysis;

import static io.metaroce.analysis.Pkt.ACK;
import static io.metaroce.analysis.Pkt.WRITE_FIRST;
import static io.metaroce.analysis.Pkt.WRITE_LAST;
import static io.metaroce.analysis.Pkt.WRITE_MIDDLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Issue 14.3: the 24-bit PSN wraps from 0xFFFFFF to 0 in the middle of a message, with no CM setup telling
 * the start PSN. A loss and its go-back-N across the wrap are judged as anywhere else: no gap of 2^24, no
 * out-of-order, one completed message.
 */
class PsnWrapTest {
    static final String A = "10.0.0.1", B = "10.0.0.2";
    static final String DATA = "10.0.0.1>10.0.0.2/0x000201";
    static final long US = 1_000;

    private static Pkt write(int op, int psn) {
        Pkt p = Pkt.of(op).from(A, B).qp(0x201).psn(psn).payload(256);
        return op == WRITE_FIRST ? p.reth(0x1000, 1024) : op == WRITE_LAST ? p.ack() : p;
    }

    private static Pkt ack(int psn, int kind) {
        return Pkt.of(ACK).from(B, A).qp(0x102).psn(psn).aeth(kind, kind == 0 ? 0x1F : 0, 1);
    }

    /** Sender tap: 0xFFFFFF is lost after the tap, NAKed, and resent with what follows it (0 and 1). */
    @Test
    void goBackNAcrossTheWrapAtTheSender() {
        Cap c = new Cap();
        c.add(0, write(WRITE_FIRST, 0xFFFFFE));   // 1
        c.add(US, write(WRITE_MIDDLE, 0xFFFFFF)); // 2 (lost after the tap)
        c.add(US, write(WRITE_MIDDLE, 0));        // 3 the wrap
        c.add(US, write(WRITE_LAST, 1));          // 4
        c.add(6 * US, ack(0xFFFFFF, 3));          // 5 NAK: expected 0xFFFFFF
        c.add(US, write(WRITE_MIDDLE, 0xFFFFFF)); // 6
        c.add(US, write(WRITE_MIDDLE, 0));        // 7
        c.add(US, write(WRITE_LAST, 1));          // 8
        c.add(10 * US, ack(1, 0));                // 9
        Cap.Run r = c.analyze("host:" + A);
        for (long f = 1; f <= 4; f++) {
            assertNull(r.field(f, "psn_gap"), "frame " + f + "\n" + r.dump());
            assertFalse(r.flag(f, "out_of_order") || r.flag(f, "retransmission"), "frame " + f + "\n" + r.dump());
        }
        for (long f = 6; f <= 8; f++) {
            assertTrue(r.flag(f, "retransmission"), "frame " + f + "\n" + r.dump());
            assertEquals("nak", r.field(f, "retransmission_cause"), "frame " + f);
            assertFalse(r.flag(f, "out_of_order"), "frame " + f);
        }
        assertEquals(2L, r.field(6, "original_frame"));
        assertEquals(3L, r.field(7, "original_frame"), "PSN 0 after the wrap is the copy of frame 3, not of a PSN 2^24 away");
        assertEquals(9L, r.field(8, "acked_by_frame"), r.dump());
        assertEquals(1, r.count(DATA, "messages_completed"), r.dump());
        assertEquals(1, r.count(DATA, "network_losses"), r.dump());
        assertEquals(0, r.count(DATA, "capture_gaps"));
    }

    /** Receiver tap: 0xFFFFFF never arrives; the gap at PSN 0 is one PSN, not 2^24 - 1. */
    @Test
    void gapAcrossTheWrapAtTheReceiver() {
        Cap c = new Cap();
        c.add(0, write(WRITE_FIRST, 0xFFFFFE).ttl(62));        // 1
        c.add(US, write(WRITE_MIDDLE, 0).ttl(62));             // 2: 0xFFFFFF lost
        c.add(300, ack(0xFFFFFF, 3).ttl(64));                  // 3 NAK
        c.add(700, write(WRITE_LAST, 1).ttl(62));              // 4 sent before the NAK reached the sender
        c.add(10 * US, write(WRITE_MIDDLE, 0xFFFFFF).ttl(62)); // 5 go-back-N
        c.add(US, write(WRITE_MIDDLE, 0).ttl(62));             // 6
        c.add(US, write(WRITE_LAST, 1).ttl(62));               // 7
        c.add(US, ack(1, 0).ttl(64));                          // 8
        Cap.Run r = c.analyze("host:" + B);
        assertEquals(1L, r.field(2, "psn_gap"), r.dump());
        for (long f = 1; f <= 4; f++) assertFalse(r.flag(f, "out_of_order") || r.flag(f, "retransmission"), "frame " + f + "\n" + r.dump());
        for (long f = 5; f <= 7; f++) assertTrue(r.flag(f, "retransmission"), "frame " + f + "\n" + r.dump());
        assertEquals(1, r.count(DATA, "network_losses"), r.dump());
        assertEquals(1, r.count(DATA, "messages_completed"), r.dump());
    }
}
