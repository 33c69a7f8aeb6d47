package io.metaroce.analysis;

import static io.metaroce.analysis.Pkt.ACK;
import static io.metaroce.analysis.Pkt.READ_REQ;
import static io.metaroce.analysis.Pkt.READ_RESP_FIRST;
import static io.metaroce.analysis.Pkt.READ_RESP_LAST;
import static io.metaroce.analysis.Pkt.SEND_FIRST;
import static io.metaroce.analysis.Pkt.SEND_ONLY;
import static io.metaroce.analysis.Pkt.UD_SEND_ONLY;
import static io.metaroce.analysis.Pkt.WRITE_FIRST;
import static io.metaroce.analysis.Pkt.WRITE_LAST;
import static io.metaroce.analysis.Pkt.WRITE_MIDDLE;
import static io.metaroce.analysis.Pkt.WRITE_ONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * analyze --messages ({@link MessageTracker}): one {@link RdmaMessage} per message of crafted frame sequences,
 * with its packets, bytes, PSNs, retransmitted packets, immediate data, completion and status.
 */
class MessageTrackerTest {
    static final String A = "10.0.0.1", B = "10.0.0.2";
    static final String DATA = "10.0.0.1>10.0.0.2/0x000201";
    static final long US = 1_000;
    static final int WRITE_ONLY_IMM = 0x0B, SEND_LAST_INV = 0x16, SEND_ONLY_IMM = 0x05;

    private static Pkt req(int op, int psn) { return Pkt.of(op).from(A, B).qp(0x201).psn(psn).payload(256); }

    private static Pkt ack(int psn, int kind) {
        return Pkt.of(ACK).from(B, A).qp(0x102).psn(psn).aeth(kind, kind == 0 ? 0x1F : 0, 1);
    }

    private static Pkt resp(int op, int psn, int payload) { return Pkt.of(op).from(B, A).qp(0x102).psn(psn).payload(payload).aeth(0, 0x1F, 1); }

    /** The messages of the capture, in the order the analysis decided them. */
    private static List<RdmaMessage> messages(Cap c, String tap) throws Exception {
        Path f = c.write();
        try {
            List<RdmaMessage> out = new ArrayList<>();
            new AnalysisSession(AnalysisSettings.DEFAULT.withTap(AnalysisSettings.Tap.parse(tap)), AnalysisSession.Options.RESULTS)
                    .onMessage(out::add).run(f);
            return out;
        } finally {
            Files.deleteIfExists(f);
        }
    }

    @Test
    void sendOnlyAckedWithItsCompletion() throws Exception {
        Cap c = new Cap();
        c.add(0, req(SEND_ONLY, 100).ack());
        c.add(5 * US, ack(100, 0));
        List<RdmaMessage> ms = messages(c, "host:" + A);
        assertEquals(1, ms.size(), ms.toString());
        RdmaMessage m = ms.get(0);
        assertEquals("SEND", m.kind());
        assertEquals(DATA, m.flow());
        assertEquals(1, m.frame());
        assertEquals(100, m.firstPsn());
        assertEquals(100, m.lastPsn());
        assertEquals(1, m.packets());
        assertEquals(256, m.bytes());
        assertEquals(-1, m.dmaLength());
        assertEquals(5 * US, m.completionNs());
        assertEquals(RdmaMessage.ACKED, m.status());
        assertEquals(0x102, m.srcQp(), "the paired flow's QP sends it");
        assertEquals("{\"frame\":1,\"time\":0.000000,\"flow\":\"" + DATA + "\",\"kind\":\"SEND\",\"first_psn\":100,\"last_psn\":100,"
                + "\"packets\":1,\"bytes\":256,\"dma_length\":null,\"duration_ns\":0,\"completion_ns\":5000,\"retransmitted\":0,"
                + "\"immediate\":null,\"invalidate_rkey\":null,\"msg_id\":null,\"status\":\"acked\"}", m.toJson());
    }

    @Test
    void writeFirstMiddleLastIsOneMessage() throws Exception {
        Cap c = new Cap();
        c.add(0, req(WRITE_FIRST, 10).reth(0x1000, 768));
        c.add(US, req(WRITE_MIDDLE, 11));
        c.add(US, req(WRITE_LAST, 12).ack());
        c.add(4 * US, ack(12, 0));
        List<RdmaMessage> ms = messages(c, "host:" + A);
        assertEquals(1, ms.size(), ms.toString());
        RdmaMessage m = ms.get(0);
        assertEquals("WRITE", m.kind());
        assertEquals(10, m.firstPsn());
        assertEquals(12, m.lastPsn());
        assertEquals(3, m.packets());
        assertEquals(768, m.bytes());
        assertEquals(768, m.dmaLength());
        assertEquals(2 * US, m.durationNs());
        assertEquals(6 * US, m.completionNs());
        assertEquals(0, m.retransmitted());
        assertEquals(RdmaMessage.ACKED, m.status());
    }

    @Test
    void immediateDataAndInvalidatedRkeyNameTheirMessages() throws Exception {
        Cap c = new Cap();
        c.add(0, req(WRITE_ONLY_IMM, 1).reth(0x2000, 256).imm(0xab000005L));
        c.add(US, req(SEND_FIRST, 2));
        c.add(US, req(SEND_LAST_INV, 3).ieth(0xfeedbeefL));
        c.add(US, req(SEND_ONLY_IMM, 4).imm(0x80000001L).ack());
        c.add(4 * US, ack(4, 0));
        List<RdmaMessage> ms = messages(c, "host:" + A);
        assertEquals(3, ms.size(), ms.toString());
        assertEquals("WRITE_IMM", ms.get(0).kind());
        assertEquals(0xab000005L, ms.get(0).immediate());
        assertEquals(-1, ms.get(0).invalidateRkey());
        assertEquals("SEND_INV", ms.get(1).kind());
        assertEquals(0xfeedbeefL, ms.get(1).invalidateRkey());
        assertEquals(2, ms.get(1).packets());
        assertEquals("SEND_IMM", ms.get(2).kind());
        assertEquals(0x80000001L, ms.get(2).immediate(), "the top bit set is no 'none'");
        assertEquals("\"0x80000001\"", ms.get(2).toJson().replaceAll(".*\"immediate\":([^,]*),.*", "$1"));
    }

    @Test
    void readRequestWithItsResponsesIsOneMessage() throws Exception {
        Cap c = new Cap();
        c.add(0, req(READ_REQ, 50).payload(0).reth(0x3000, 1500));
        c.add(3 * US, resp(READ_RESP_FIRST, 50, 1024));
        c.add(US, resp(READ_RESP_LAST, 51, 476));
        c.add(US, req(SEND_ONLY, 52).ack());
        c.add(3 * US, ack(52, 0));
        List<RdmaMessage> ms = messages(c, "host:" + A);
        assertEquals(2, ms.size(), ms.toString());
        RdmaMessage r = ms.get(0);
        assertEquals("READ", r.kind());
        assertEquals(50, r.firstPsn());
        assertEquals(51, r.lastPsn(), "the last response's PSN");
        assertEquals(3, r.packets(), "the request and two responses");
        assertEquals(1500, r.bytes());
        assertEquals(1500, r.dmaLength());
        assertEquals(4 * US, r.completionNs());
        assertEquals(RdmaMessage.ACKED, r.status());
        assertEquals("SEND", ms.get(1).kind());
        assertEquals(52, ms.get(1).firstPsn(), "the SEND after the READ's reserved PSNs is no retransmission");
        assertEquals(0, ms.get(1).retransmitted());
    }

    /** Receiver tap: PSN 21 lost before the tap, NAKed, resent with 22 (go-back-N). */
    @Test
    void resentMiddlePacketCountsIntoItsMessage() throws Exception {
        Cap c = new Cap();
        c.add(0, req(WRITE_FIRST, 20).reth(0x1000, 1024).ttl(62));
        c.add(US, req(WRITE_MIDDLE, 22).ttl(62));   // 21 lost
        c.add(300, ack(21, 3));                      // NAK: expected 21
        c.add(10 * US, req(WRITE_MIDDLE, 21).ttl(62));
        c.add(US, req(WRITE_MIDDLE, 22).ttl(62));
        c.add(US, req(WRITE_LAST, 23).ack().ttl(62));
        c.add(US, ack(23, 0));
        List<RdmaMessage> ms = messages(c, "host:" + B);
        assertEquals(1, ms.size(), ms.toString());
        RdmaMessage m = ms.get(0);
        assertEquals(5, m.packets());
        assertEquals(2, m.retransmitted());
        assertEquals(1024, m.bytes(), "each PSN's bytes once: 21's first copy at this tap is its resend");
        assertEquals(RdmaMessage.ACKED, m.status());
    }

    /** Receiver tap: the Last of the first message lost; the next message went ahead; both resent. */
    @Test
    void lostLastResentCompletesItsMessage() throws Exception {
        Cap c = new Cap();
        c.add(0, req(WRITE_FIRST, 30).reth(0x1000, 512).ttl(62));
        c.add(US, req(SEND_ONLY, 32).ttl(62));       // 31 (the WRITE's Last) lost
        c.add(300, ack(31, 3));
        c.add(10 * US, req(WRITE_LAST, 31).ttl(62));
        c.add(US, req(SEND_ONLY, 32).ack().ttl(62));
        c.add(US, ack(32, 0));
        List<RdmaMessage> ms = messages(c, "host:" + B);
        assertEquals(2, ms.size(), ms.toString());
        RdmaMessage w = ms.get(0), s = ms.get(1);
        assertEquals("WRITE", w.kind());
        assertEquals(31, w.lastPsn());
        assertEquals(2, w.packets());
        assertEquals(512, w.bytes());
        assertEquals(1, w.retransmitted());
        assertEquals(RdmaMessage.ACKED, w.status());
        assertEquals(2, s.packets());
        assertEquals(1, s.retransmitted());
        assertEquals(256, s.bytes());
    }

    @Test
    void captureStartingOrEndingMidMessage() throws Exception {
        Cap c = new Cap();
        c.add(0, req(WRITE_MIDDLE, 5));
        c.add(US, req(WRITE_LAST, 6).ack());
        c.add(US, req(WRITE_ONLY, 7).reth(0x1000, 256).ack());
        c.add(3 * US, ack(7, 0));
        c.add(US, req(WRITE_FIRST, 8).reth(0x1000, 4096));
        c.add(US, req(WRITE_MIDDLE, 9));
        List<RdmaMessage> ms = messages(c, "host:" + A);
        assertEquals(3, ms.size(), ms.toString());
        assertEquals(RdmaMessage.CUT, ms.get(0).status());
        assertEquals(5, ms.get(0).firstPsn());
        assertEquals(2, ms.get(0).packets());
        assertEquals(RdmaMessage.ACKED, ms.get(1).status());
        RdmaMessage open = ms.get(2);
        assertEquals(RdmaMessage.INCOMPLETE, open.status(), "still open when the capture ended");
        assertEquals(8, open.firstPsn());
        assertEquals(9, open.lastPsn(), "the highest seen");
        assertEquals(-1, open.completionNs());
    }

    @Test
    void psnWrapInsideAMessage() throws Exception {
        Cap c = new Cap();
        c.add(0, req(WRITE_FIRST, 0xFFFFFE).reth(0x1000, 1024));
        c.add(US, req(WRITE_MIDDLE, 0xFFFFFF));
        c.add(US, req(WRITE_MIDDLE, 0));
        c.add(US, req(WRITE_LAST, 1).ack());
        c.add(4 * US, ack(1, 0));
        c.add(US, req(SEND_ONLY, 2).ack());
        c.add(4 * US, ack(2, 0));
        List<RdmaMessage> ms = messages(c, "host:" + A);
        assertEquals(2, ms.size(), ms.toString());
        assertEquals(0xFFFFFE, ms.get(0).firstPsn());
        assertEquals(1, ms.get(0).lastPsn());
        assertEquals(4, ms.get(0).packets());
        assertEquals(0, ms.get(0).retransmitted(), "PSN 0 after 0xFFFFFF is new, not a resend");
        assertEquals(RdmaMessage.ACKED, ms.get(0).status());
        assertEquals(RdmaMessage.ACKED, ms.get(1).status());
    }

    /** One direction only (no acknowledgement at this tap): whole messages are complete, decided by time. */
    @Test
    void unacknowledgedMessagesAreCompleteAndDecidedAfterTheHold() throws Exception {
        Cap c = new Cap();
        c.add(0, req(SEND_ONLY, 1));
        c.add(MessageTracker.HOLD_NS + US, req(SEND_ONLY, 2));
        List<RdmaMessage> ms = new ArrayList<>();
        Path f = c.write();
        try {
            AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS);
            s.onMessage(m -> {
                // The first is decided by the second's frame, before the end of the pass.
                if (m.firstPsn() == 1) assertEquals(0, ms.size());
                ms.add(m);
            }).run(f);
        } finally {
            Files.deleteIfExists(f);
        }
        assertEquals(2, ms.size(), ms.toString());
        assertEquals(RdmaMessage.COMPLETE, ms.get(0).status());
        assertEquals(-1, ms.get(0).completionNs());
        assertEquals(RdmaMessage.COMPLETE, ms.get(1).status());
    }

    @Test
    void udDatagramsAreMessagesAndCmMadsAreNot() throws Exception {
        Cap c = new Cap();
        c.add(0, Pkt.of(UD_SEND_ONLY).from(A, B).qp(0x2d).psn(7).payload(100));
        c.add(US, Pkt.cmReq(A, B, 1, 0x201, 0, 3, false, 0, 0, 0));
        List<RdmaMessage> ms = messages(c, "mirror");
        assertEquals(1, ms.size(), ms.toString());
        assertEquals("UD_SEND", ms.get(0).kind());
        assertEquals(0x11, ms.get(0).srcQp(), "the DETH's source QP");
        assertEquals(RdmaMessage.COMPLETE, ms.get(0).status());
        assertEquals(100, ms.get(0).bytes());
    }

    /** The JSON's time is analyze's seconds (six decimals), written without String.format. */
    @Test
    void timesAsAnalyzePrintsThem() {
        for (long ns : new long[] {0, 1, 499, 501, 999_999, 1_000_000, 9_000_001, 1_234_567_891L, 86_400_000_000_000L, 12_345_678}) {
            StringBuilder b = new StringBuilder();
            RdmaMessage.appendSeconds(b, ns);
            assertEquals(Reports.seconds(ns), b.toString(), ns + " ns");
        }
    }

    @Test
    void qpAndPeerNarrowTheMessages() throws Exception {
        Cap c = new Cap();
        c.add(0, req(SEND_ONLY, 1).ack());
        c.add(US, ack(1, 0));
        RdmaMessage m = messages(c, "host:" + A).get(0);
        assertEquals(true, m.matches(0x201, null));
        assertEquals(true, m.matches(0x102, null), "either direction: the QP that sent it");
        assertEquals(false, m.matches(0x203, null));
        assertEquals(true, m.matches(-1, B));
        assertEquals(false, m.matches(-1, "10.0.0.3"));
    }
}
