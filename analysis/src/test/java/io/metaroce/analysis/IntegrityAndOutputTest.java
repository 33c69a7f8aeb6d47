package io.metaroce.analysis;

import static io.metaroce.analysis.Pkt.ACK;
import static io.metaroce.analysis.Pkt.WRITE_ONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.filter.FieldResolver;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Capture integrity (capture loss vs network loss, drops, truncation, sampling), tap inference, outputs. */
class IntegrityAndOutputTest {
    static final String A = "10.0.0.1", B = "10.0.0.2", DATA = "10.0.0.1>10.0.0.2/0x000201";
    static final long US = 1_000;

    static Pkt data(int psn) { return Pkt.of(WRITE_ONLY).from(A, B).qp(0x201).psn(psn).payload(256).ack(); }

    static Pkt ack(int psn) { return Pkt.of(ACK).from(B, A).qp(0x102).psn(psn).aeth(0, 31, 1); }

    /**
     * Receiver tap: 103 is missing from the capture but the receiver acknowledged it (capture loss); 108 is
     * missing, NAKed and resent (network loss). The file also reports one interface drop.
     */
    @Test
    void captureLossIsNotNetworkLoss() {
        Cap c = new Cap().drops(1);
        for (int p = 100; p <= 105; p++) if (p != 103) c.add(US, data(p).ttl(62));   // 1..5
        c.add(2 * US, ack(105));                                                     // 6: covers 103, never captured
        c.add(US, data(106).ttl(62));                                                // 7
        c.add(US, data(107).ttl(62));                                                // 8
        c.add(US, data(109).ttl(62));                                                // 9: 108 lost
        c.add(300, Pkt.of(ACK).from(B, A).qp(0x102).psn(108).aeth(3, 0, 1).ttl(64)); // 10 NAK
        c.add(10 * US, data(108).ttl(62));                                           // 11 resend
        c.add(US, data(109).ttl(62));                                                // 12
        c.add(US, ack(109).ttl(64));                                                 // 13
        Cap.Run r = c.analyze("auto");
        assertEquals("host:10.0.0.2", ((Map<?, ?>) r.result.capture().get("tap")).get("resolved"),
                "auto: the receiver's own packets carry the initial TTL");
        assertEquals(1L, r.field(4, "psn_gap"));
        assertTrue(r.flag(6, "ack_of_unseen"), r.dump());
        assertEquals(1L, r.field(9, "psn_gap"));
        assertTrue(r.flag(11, "retransmission"));
        assertEquals(1, r.count(DATA, "capture_gaps"), "103: the capture missed it, the network did not");
        assertEquals(1, r.count(DATA, "network_losses"), "108: lost in the network");
        Map<String, Object> cap = r.result.capture();
        assertEquals(1L, ((Map<?, ?>) cap.get("capture_drops")).get("if_dropped"));
        assertEquals(true, cap.get("capture_drops_detected"));
        assertEquals(1, r.events(EventType.ACK_OF_UNSEEN).size());
        assertEquals(AnalysisEvent.Loss.CAPTURE, ((AnalysisEvent.AckOfUnseen) r.events(EventType.ACK_OF_UNSEEN).get(0)).loss());
    }

    /** Sender tap: a PSN the sender's own capture lacks can only be capture loss (a sender never skips). */
    @Test
    void gapAtSenderIsCaptureLoss() {
        Cap c = new Cap();
        c.add(0, data(10));
        c.add(US, data(12));
        c.add(10 * US, ack(12));
        Cap.Run r = c.analyze("host:" + A);
        assertEquals(1L, r.field(2, "psn_gap"));
        assertEquals(1, r.count(DATA, "capture_gaps"));
        assertEquals(0, r.count(DATA, "network_losses"));
        assertEquals(AnalysisEvent.Loss.CAPTURE, ((AnalysisEvent.PsnGap) r.events(EventType.PSN_GAP).get(0)).loss());
        assertFalse(r.flag(3, "ack_of_unseen"), "already counted as capture loss at the gap");
    }

    @Test
    void truncatedFramesAreStillAnalyzed() {
        Cap c = new Cap();
        c.addTruncated(0, data(1), 64);
        c.addTruncated(US, data(2), 64);
        c.addTruncated(US, data(1), 64);
        c.add(10 * US, ack(2));
        Cap.Run r = c.analyze("host:" + A);
        assertEquals(3L, r.result.capture().get("truncated_frames"));
        assertTrue(r.flag(3, "retransmission"), "the BTH was captured: the PSN repeat is still seen");
        assertEquals(2, r.count(DATA, "data_packets") - 1);
    }

    /** One frame in four kept: many PSN gaps no NAK or retransmission explains. */
    @Test
    void samplingIsSuspected() {
        Cap c = new Cap();
        for (int p = 0; p < 400; p += 4) c.add(US, data(p));
        Cap.Run r = c.analyze("mirror");
        Map<?, ?> s = (Map<?, ?>) r.result.capture().get("sampling");
        assertEquals(true, s.get("suspected"), s.toString());
        assertEquals(4L, s.get("estimated_one_in"));
        assertEquals(0, r.count(DATA, "network_losses"), "a sampled-out PSN is never a network loss");
    }

    @Test
    void tapMirrorWhenNoAddressIsCommon() {
        Cap c = new Cap();
        c.add(0, data(1));
        c.add(US, Pkt.of(WRITE_ONLY).from("10.0.0.3", "10.0.0.4").qp(0x300).psn(5).payload(64));
        Cap.Run r = c.analyze("auto");
        assertEquals("mirror", ((Map<?, ?>) r.result.capture().get("tap")).get("resolved"));
        assertEquals("mirror", r.result.flow(DATA).view().label());
    }

    /** The JSON report has the documented shape; text and event stream render. */
    @Test
    void reportShapes() throws Exception {
        Cap c = new Cap();
        c.add(0, data(1));
        c.add(US, data(2));
        c.add(US, data(3));
        c.add(4 * US, Pkt.of(ACK).from(B, A).qp(0x102).psn(2).aeth(3, 0, 1));
        c.add(US, data(2));
        c.add(US, data(3));
        c.add(5 * US, ack(3));
        java.nio.file.Path f = c.write();
        AnalysisSettings s = AnalysisSettings.DEFAULT.withTap(AnalysisSettings.Tap.host(A));
        StringWriter json = new StringWriter();
        AnalyzeOutput.write(f, s, AnalyzeOutput.Form.JSON, true, json);
        JsonNode root = new ObjectMapper().readTree(json.toString());
        // The NAK brings the recovery behaviour (where the sender's resend started: from the NAK's PSN).
        assertEquals(List.of("capture", "flows", "events", "loss_timeline", "recovery", "diagnosis"), iter(root.fieldNames()));
        assertEquals("go-back-n", root.get("recovery").get("senders").get(0).get("verdict").asText());
        JsonNode cap = root.get("capture");
        for (String k : List.of("frames", "bytes", "first_ns", "last_ns", "capture_drops", "capture_drops_detected", "tap",
                "sampling", "truncated_frames")) assertTrue(cap.has(k), k);
        JsonNode flow = null;
        for (JsonNode fl : root.get("flows")) if (fl.get("id").asText().equals(DATA)) flow = fl;
        assertNotNull(flow);
        for (String k : List.of("id", "src", "dst", "dest_qp", "peer", "transport", "service", "packets", "bytes",
                "data_packets", "payload_bytes", "first_ns", "last_ns", "messages", "retransmitted_packets",
                "spurious_retransmissions", "timeout_retransmissions", "out_of_order", "duplicates", "capture_gaps", "acks",
                "naks", "rnr_naks", "sacks", "nacks", "cnps", "ce_marks", "credit_stalls", "latency", "goodput_bps")) {
            assertTrue(flow.has(k), "flow field " + k);
        }
        for (String k : List.of("ack_rtt_ns", "message_completion_ns", "nak_gen_latency_ns", "nak_response_latency_ns",
                "retransmission_latency_ns")) assertTrue(flow.get("latency").has(k), k);
        assertEquals(0x201, flow.get("dest_qp").asInt());
        assertEquals(2, flow.get("retransmitted_packets").asInt());
        JsonNode ev = root.get("events");
        assertTrue(ev.size() >= 3);
        for (JsonNode e : ev) for (String k : List.of("frame", "time_ns", "flow", "type")) assertTrue(e.has(k), k);
        StringWriter text = new StringWriter();
        AnalyzeOutput.write(f, s, AnalyzeOutput.Form.TEXT, false, text);
        assertTrue(text.toString().contains("QP Conversations"), text.toString());
        assertTrue(text.toString().contains("Expert Info summary"));
        StringWriter lines = new StringWriter();
        AnalyzeOutput.write(f, s, AnalyzeOutput.Form.EVENTS_JSONL, false, lines);
        String[] ls = lines.toString().trim().split("\n");
        assertEquals(ev.size(), ls.length);
        new ObjectMapper().readTree(ls[0]);
    }

    /** The analysis fields are filterable: a -Y style filter over FrameFields sees them. */
    @Test
    void analysisFieldsAreFilterable() throws Exception {
        Cap c = new Cap();
        c.add(0, data(1));
        c.add(50 * US, data(1));
        Cap.Run r = c.analyze("host:" + A);
        assertTrue(r.flag(2, "retransmission"));
        FieldResolver res = FieldCatalog.get();
        assertNotNull(res.resolve("analysis.retransmission"));
        assertNull(r.field(1, "retransmission"), "absent where nothing was found");
    }

    @Test
    void verdictStoreStaysSmall() throws Exception {
        Cap c = new Cap();
        for (int p = 0; p < 2000; p++) c.add(US, data(p).ack());
        for (int p = 0; p < 2000; p += 8) c.add(US, ack(p + 7));
        Cap.Run r = c.analyze("host:" + A);
        VerdictStore st = r.session.engine().verdicts();
        assertTrue(st.size() <= 260, "only notable frames (here: the ACKs completing messages), got " + st.size());
        assertEquals(250, st.ackRuns());
        assertEquals(2001L, r.field(8, "acked_by_frame"));
    }

    /** Idle flows release their sequence state (bounded memory); traffic after the pause starts afresh. */
    @Test
    void idleFlowsExpire() {
        Cap c = new Cap();
        c.add(0, data(1));
        c.add(10 * US, ack(1));
        c.add(20_000_000_000L, data(2));             // 20 s later (idle expiry 10 s)
        c.add(10 * US, ack(2));
        c.add(10 * US, data(900_000));               // a far jump: a new stream, not a gap of 900 000
        Cap.Run r = c.analyze("host:" + A);
        assertNull(r.field(3, "psn_gap"), r.dump());
        assertNull(r.field(3, "retransmission"));
        assertEquals(4L, r.field(3, "acked_by_frame"));
        assertEquals(0, r.count(DATA, "capture_gaps"));
    }

    private static List<String> iter(java.util.Iterator<String> it) {
        java.util.ArrayList<String> l = new java.util.ArrayList<>();
        it.forEachRemaining(l::add);
        return l;
    }
}
