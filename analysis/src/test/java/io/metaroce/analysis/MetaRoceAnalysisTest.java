package io.metaroce.analysis;

import static io.metaroce.analysis.Pkt.MR_CNP;
import static io.metaroce.analysis.Pkt.MR_CREDIT;
import static io.metaroce.analysis.Pkt.MR_NACK;
import static io.metaroce.analysis.Pkt.MR_PROBE;
import static io.metaroce.analysis.Pkt.MR_PROBE_REPLY;
import static io.metaroce.analysis.Pkt.MR_SACK;
import static io.metaroce.analysis.Pkt.WRITE_ONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** MetaRoCE v1: spraying, SACK/NACK selective repeat, spurious retransmissions, paths, credit. */
class MetaRoceAnalysisTest {
    static final String A = "10.0.0.1", B = "10.0.0.2";
    static final String DATA = "10.0.0.1>10.0.0.2/0x000201", CTL = "10.0.0.2>10.0.0.1/0x000102";
    static final long US = 1_000;

    /** A sprayed WRITE Only with PSN p on path p % 4 (sender clock = capture time in these tests). */
    static Pkt data(int psn, Cap c, long dt) {
        return Pkt.of(WRITE_ONLY).meta().from(A, B).qp(0x201).psn(psn).payload(512).path(psn % 4)
                .msg(psn, 0).tx((c.t + dt) & 0xFFFFFFFFL);
    }

    static Pkt sack(int trigger, int cum, int base, long bitmap, long echo, int echoPath) {
        return Pkt.of(MR_SACK).from(B, A).qp(0x102).psn(trigger).sack(cum, base, bitmap).echo(echo, echoPath);
    }

    static int send(Cap c, long dt, Pkt p) { return c.add(dt, p); }

    /**
     * Sender tap: 1002 is lost on path 2; the SACK shows 1006 (a later packet of path 2) arrived, the sender
     * resends 1002 on another path (cause sack). 1008's timer fires early although it arrived: spurious.
     */
    @Test
    void selectiveRepeatAtSender() {
        Cap c = new Cap();
        long[] tx = new long[16];
        int[] frame = new int[16];
        for (int k = 0; k <= 7; k++) {
            Pkt p = data(1000 + k, c, US);
            tx[k] = p.tx;
            frame[k] = send(c, US, p);                                        // frames 1..8, PSN 1000..1007
        }
        // SACK after 1001 (rtt ~ 10 us), then SACKs for the gap.
        send(c, 3 * US, sack(1001, 1002, 1003, 0, tx[1], 1));                  // 9: cum 1002 (1000, 1001)
        send(c, US, sack(1003, 1002, 1003, 0b1, tx[3], 3));                    // 10: 1003 received
        send(c, 3 * US, sack(1006, 1002, 1003, 0b1111, tx[6], 2));              // 11: 1003..1006: path 2 later packet
        Pkt r = data(1002, c, 500).path(1).rtx();
        int rtx = send(c, 500, r);                                             // 12: resend of 1002 on path 1
        send(c, 4 * US, sack(1007, 1002, 1003, 0b11111, tx[7], 3));             // 13
        send(c, 6 * US, sack(1002, 1008, 1009, 0, r.tx, 1));                    // 14: cum 1008
        Pkt p8 = data(1008, c, US);
        int f8 = send(c, US, p8);                                              // 15: 1008 on path 0
        Pkt p8b = data(1008, c, 3 * US).path(1).rtx();
        int f8b = send(c, 3 * US, p8b);                                        // 16: early timer resend
        send(c, 8 * US, sack(1008, 1009, 1010, 0, p8.tx, 0));                  // 17: triggered by the first copy
        Cap.Run run = c.analyze("host:" + A);
        assertTrue(run.flag(rtx, "retransmission"), run.dump());
        assertEquals("sack", run.field(rtx, "retransmission_cause"), run.dump());
        assertEquals(null, run.field(rtx, "spurious"), run.dump());
        assertEquals((long) frame[2], run.field(rtx, "original_frame"));
        assertEquals("timeout", run.field(f8b, "retransmission_cause"), run.dump());
        assertEquals(true, run.field(f8b, "spurious"), run.dump());
        assertEquals(2, run.count(DATA, "retransmitted_packets"));
        assertEquals(1, run.count(DATA, "spurious_retransmissions"));
        assertEquals(6, run.count(DATA, "sacks"));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) run.result.flow(DATA).toJsonMap().get("paths");
        assertEquals(1L, paths.get("2").get("retransmitted_from"), "the loss was on path 2: " + paths);
        assertEquals(0L, paths.get("0").get("retransmitted_from"), "the spurious resend is no loss of path 0");
        assertEquals(0L, paths.get("1").get("retransmitted_from"));
        assertTrue(((Map<?, ?>) paths.get("1").get("rtt_ns")).get("count") instanceof Long);
        assertEquals(9L, run.field(1, "acked_by_frame"));
        assertEquals(10L, run.field(frame[3], "acked_by_frame"), "1003 was covered by the SACK bitmap of frame 10");
        assertEquals(14L, run.field(frame[2], "acked_by_frame"));
        assertEquals("metaroce", run.result.flow(DATA).transport());
    }

    /** Receiver tap: sprayed packets arrive out of order; a NACK for a lost PSN, the rtx=1 copy fills it. */
    @Test
    void sprayOutOfOrderAndNackAtReceiver() {
        Cap c = new Cap();
        send(c, 0, data(2000, c, 0));                        // 1
        send(c, US, data(2002, c, US));                      // 2 gap 1 (2001 late on a slow path)
        send(c, 200, data(2001, c, 200));                    // 3 out of order, distance 1
        send(c, 200, data(2003, c, 200));                    // 4
        send(c, 200, data(2005, c, 200));                    // 5 gap (2004 lost)
        send(c, 200, sack(2005, 2004, 2005, 0b1, 0, 1));      // 6
        send(c, 200, data(2006, c, 200));                    // 7
        send(c, 8 * US, Pkt.of(MR_NACK).from(B, A).qp(0x102).psn(2004).nack(2004, 1, 0)); // 8
        send(c, 10 * US, data(2004, c, 10 * US).path(2).rtx()); // 9 retransmission, original never seen
        send(c, 200, sack(2004, 2007, 2008, 0, 0, 2));        // 10
        send(c, 30 * US, data(2006, c, 30 * US).path(3).rtx()); // 11 spurious: already received
        Cap.Run r = c.analyze("host:" + B);
        assertEquals(1L, r.field(2, "psn_gap"), r.dump());
        assertTrue(r.flag(3, "out_of_order"));
        assertEquals(1L, r.field(3, "reorder_distance"));
        assertFalse(r.flag(3, "retransmission"));
        assertEquals(1L, r.field(5, "psn_gap"));
        assertTrue(r.flag(9, "retransmission"));
        assertEquals("nack", r.field(9, "retransmission_cause"), r.dump());
        assertEquals(null, r.field(9, "spurious"));
        assertNull(r.field(9, "original_frame"));
        assertEquals(true, r.field(11, "spurious"));
        assertEquals("timeout", r.field(11, "retransmission_cause"));
        assertEquals(1, r.count(DATA, "out_of_order"));
        assertEquals(1, r.count(DATA, "network_losses"), "2004 was lost in the network, 2001 only reordered");
        assertEquals(0, r.count(DATA, "capture_gaps"));
        assertEquals(1, r.count(DATA, "nacks"));
        assertEquals(8 * US + 400, r.field(8, "nak_gen_latency_ns"), "from the arrival that showed 2004 missing");
    }

    /** Probes: three unanswered probes on path 3 take it down; the others answer. */
    @Test
    void pathDownByProbes() {
        Cap c = new Cap();
        int seq = 0;
        for (int round = 0; round < 5; round++) {
            for (int p = 0; p < 4; p++) {
                Pkt probe = Pkt.of(MR_PROBE).from(A, B).qp(0x201).path(p).tx(c.t + US);
                probe.probeSeq = seq;
                send(c, US, probe);
                if (p != 3) {
                    Pkt reply = Pkt.of(MR_PROBE_REPLY).from(B, A).qp(0x102).path(p).echo(probe.tx, p);
                    reply.probeSeq = seq;
                    send(c, 10 * US, reply);
                }
                seq++;
            }
            c.t += 100 * US;
        }
        Cap.Run r = c.analyze("host:" + A);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) r.result.flow(DATA).toJsonMap().get("paths");
        assertEquals(true, paths.get("3").get("down"), paths.toString());
        assertEquals(false, paths.get("0").get("down"));
        assertEquals(1.0, paths.get("3").get("probe_loss"));
        assertEquals(0.0, paths.get("1").get("probe_loss"));
        assertEquals(1, r.events(EventType.PATH_DOWN).size());
        assertEquals(10_000L, ((Map<?, ?>) paths.get("0").get("rtt_ns")).get("median"));
    }

    /** Loss far above the other paths of the QP marks the path down (§12). */
    @Test
    void pathDownByLossRate() {
        Cap c = new Cap();
        int psn = 0;
        for (int k = 0; k < 400; k++) {
            Pkt p = data(psn, c, 100);
            send(c, 100, p);
            if (psn % 4 == 3 && k % 8 == 3) {
                // lost on path 3: resent on path 0 after a NACK
                send(c, 3 * US, Pkt.of(MR_NACK).from(B, A).qp(0x102).psn(psn).nack(psn, 1, 0));
                Pkt r = data(psn, c, US).path(0).rtx();
                send(c, US, r);
                p = r;
                send(c, 3 * US, sack(psn, psn + 1, psn + 2, 0, p.tx, p.path));
            } else {
                send(c, 100, sack(psn, psn + 1, psn + 2, 0, p.tx, p.path));
            }
            psn++;
        }
        Cap.Run r = c.analyze("host:" + A);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) r.result.flow(DATA).toJsonMap().get("paths");
        assertTrue((Long) paths.get("3").get("retransmitted_from") > 0, paths.toString());
        assertEquals(true, paths.get("3").get("down"), paths.toString());
        assertEquals("loss_rate", paths.get("3").get("down_reason"));
        assertEquals(false, paths.get("0").get("down"));
    }

    /** MR-CNP and SACK ce_count react to CE marks; the expected CNP count follows the pacing interval. */
    @Test
    void congestionAtReceiver() {
        Cap c = new Cap();
        send(c, 0, data(10, c, 0).ce());                                               // 1 CE on path 2
        Pkt cnp = Pkt.of(MR_CNP).from(B, A).qp(0x102);
        cnp.cnpPath = 2;
        cnp.cnpCe = 1;
        send(c, 2 * US, cnp);                                                          // 2
        send(c, 10 * US, data(11, c, 10 * US).ce());                                   // 3 paced (within 50 us)
        send(c, 200 * US, data(12, c, 200 * US).ce());                                 // 4 no reaction
        send(c, 300 * US, data(13, c, 300 * US));                                      // 5 closes the window
        Cap.Run r = c.analyze("host:" + B);
        assertEquals(3, r.count(DATA, "ce_marks"));
        assertEquals(1, r.count(DATA, "cnps"));
        assertEquals(1, r.count(DATA, "mr_cnps"));
        assertEquals(2, r.count(DATA, "cnp_expected"));
        assertEquals(1, r.count(DATA, "ce_without_cnp"));
        assertTrue(r.flag(4, "ce_without_cnp"), r.dump());
        assertFalse(r.flag(1, "ce_without_cnp"));
        assertFalse(r.flag(3, "ce_without_cnp"));
        assertEquals(1, r.events(EventType.CE_WITHOUT_CNP).size());
        assertEquals(3, r.events(EventType.CE_MARK).size());
    }

    /** Credit mode: the sender used its grant and waited for the next MR-CREDIT longer than a round trip. */
    @Test
    void creditStall() {
        Cap c = new Cap();
        Pkt g = Pkt.of(MR_CREDIT).from(B, A).qp(0x102);
        g.creditPsn = 4;
        send(c, 0, g);                                     // 1 grant up to PSN 4 (exclusive)
        for (int p = 0; p < 4; p++) send(c, US, data(p, c, US)); // 2..5
        send(c, 10 * US, sack(3, 4, 5, 0, 0, 3));         // 6
        Pkt g2 = Pkt.of(MR_CREDIT).from(B, A).qp(0x102);
        g2.creditPsn = 8;
        send(c, 20 * US, g2);                              // 7
        send(c, US, data(4, c, US));                       // 8 stall of 32 us ends
        Cap.Run r = c.analyze("host:" + A);
        assertEquals(1, r.count(DATA, "credit_stalls"), r.dump());
        assertEquals(true, r.result.flow(DATA).counters().creditMode());
        assertEquals(1, r.events(EventType.CREDIT_STALL).size());
    }

    /** CM with MetaRoCE private data: path count, spray and PMTU come from the setup. */
    @Test
    void metaroceCmParameters() {
        Cap c = new Cap();
        send(c, 0, Pkt.cmReq(A, B, 7, 0x102, 100, 3, true, 8, 49152, 12));
        send(c, US, Pkt.cmRep(B, A, 9, 7, 0x201, 900, true, 4, 50000, 12));
        send(c, US, data(100, c, US));
        send(c, 10 * US, sack(100, 101, 102, 0, 0, 0));
        Cap.Run r = c.analyze("host:" + A);
        assertEquals(8L, r.result.flow(DATA).metaRoce().pathCount());
        assertEquals("cm", r.result.flow(DATA).pairedBy());
        assertEquals(CTL, r.result.flow(DATA).peer());
    }
}
