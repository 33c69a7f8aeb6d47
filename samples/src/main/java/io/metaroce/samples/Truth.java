package io.metaroce.samples;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import io.metaroce.protocol.Spec;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The ground truth of one run: what every captured frame really was and what happened to it, per-flow and
 * per-path counters of everything the endpoints sent (seen by the tap or not), the planted violations and
 * the packets the capture missed. Per-frame facts are kept in primitive arrays (a 10 M frame run stays
 * compact) and labels learned after a frame was written (lost later, spurious, CE after the tap) are set on
 * it by frame number. The JSON layout is documented in samples/README.md.
 */
final class Truth {
    static final int SPURIOUS = 1, LOST_AFTER_TAP = 2, CE = 4, CE_SEEN = 8, TRUNCATED = 16, REPEATED_RESPONSE = 32,
            NAK_IGNORED = 64;

    record Violation(String rule, Pkt packet, String description) {}

    record Dropped(long afterFrame, long time, int flow, int psn, int opcode) {}

    private final Sim sim;
    private final boolean perFrame;
    private int n;
    private long[] time = new long[1024];
    private int[] flow = new int[1024], psn = new int[1024], dropsBefore = new int[1024];
    private short[] opcode = new short[1024], path = new short[1024];
    private byte[] stage = new byte[1024], cause = new byte[1024], bits = new byte[1024];
    private final List<Dropped> drops = new ArrayList<>();

    Truth(Sim sim, boolean perFrame) {
        this.sim = sim;
        this.perFrame = perFrame;
    }

    void frame(long frameNo, long t, Pkt p, String stageName, boolean truncated, int droppedBefore) {
        if (p.flow != null) p.flow.frames++;
        if (!perFrame) return;
        int i = (int) (frameNo - 1);
        if (i >= time.length) grow();
        n = i + 1;
        time[i] = t;
        // A PFC frame belongs to no flow: its class-enable vector and quanta take the opcode and PSN slots.
        flow[i] = p.flow != null ? p.flow.index : -1;
        psn[i] = p.flow != null ? p.psn : p.pfcQuanta;
        opcode[i] = (short) (p.flow != null ? p.opcode : p.pfcClasses);
        path[i] = (short) (p.tver == 1 ? p.pathId : -1);
        stage[i] = (byte) stageName.charAt(0);
        cause[i] = (byte) p.cause;
        int b = 0;
        if (p.spurious) b |= SPURIOUS;
        if (p.repeatedResponse) b |= REPEATED_RESPONSE;
        if (p.ceStage != 0) b |= CE | CE_SEEN;
        if (truncated) b |= TRUNCATED;
        bits[i] = (byte) b;
        dropsBefore[i] = droppedBefore;
    }

    private void grow() {
        int c = time.length * 2;
        time = Arrays.copyOf(time, c);
        flow = Arrays.copyOf(flow, c);
        psn = Arrays.copyOf(psn, c);
        dropsBefore = Arrays.copyOf(dropsBefore, c);
        opcode = Arrays.copyOf(opcode, c);
        path = Arrays.copyOf(path, c);
        stage = Arrays.copyOf(stage, c);
        cause = Arrays.copyOf(cause, c);
        bits = Arrays.copyOf(bits, c);
    }

    /** A label learned after the frame was written. */
    void mark(long frameNo, int bit) {
        if (!perFrame) return;
        bits[(int) (frameNo - 1)] |= (byte) bit;
    }

    void captureDropped(long afterFrame, long t, Pkt p) {
        drops.add(new Dropped(afterFrame, t, p.flow.index, p.psn, p.opcode));
    }

    List<Dropped> drops() { return drops; }

    // ------------------------------------------------------------------ JSON

    void write(OutputStream out, String scenario, String description) throws IOException {
        JsonFactory factory = new JsonFactory();
        try (JsonGenerator g = factory.createGenerator(out, JsonEncoding.UTF8)) {
            g.setPrettyPrinter(new MinimalPrettyPrinter(""));
            g.writeStartObject();
            nl(g);
            g.writeStringField("format", "metaroce-simulator-truth");
            g.writeNumberField("version", 1);
            g.writeStringField("spec", Spec.VERSION);
            g.writeStringField("scenario", scenario);
            g.writeStringField("description", description);
            g.writeNumberField("seed", sim.seed);
            nl(g);
            g.writeObjectFieldStart("params");
            for (Map.Entry<String, String> e : sim.params.asMap().entrySet()) {
                if (Params.LISTED_WHEN_SET.contains(e.getKey()) && e.getValue().equals(Params.KEYS.get(e.getKey()).defaultValue())) continue;
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            nl(g);
            writeCapture(g);
            nl(g);
            g.writeArrayFieldStart("hosts");
            for (Host h : sim.hosts) {
                nl(g);
                g.writeStartObject();
                g.writeStringField("ip", h.ip);
                g.writeStringField("mac", io.metaroce.dissector.Addresses.mac(h.mac));
                if (h.vlan >= 0) g.writeNumberField("vlan", h.vlan);
                g.writeNumberField("dscp", h.dscp);
                g.writeEndObject();
            }
            g.writeEndArray();
            nl(g);
            g.writeArrayFieldStart("connections");
            for (Sim.Connection c : sim.connections) {
                nl(g);
                writeConnection(g, c);
            }
            g.writeEndArray();
            nl(g);
            g.writeArrayFieldStart("flows");
            for (Flow f : sim.flows) {
                if (f.packets == 0) continue;
                nl(g);
                writeFlow(g, f);
            }
            g.writeEndArray();
            nl(g);
            g.writeArrayFieldStart("paths");
            for (Flow f : sim.flows) {
                for (int k = 0; k < f.pathPackets.length; k++) {
                    if (f.pathPackets[k] == 0) continue;
                    nl(g);
                    g.writeStartObject();
                    g.writeStringField("flow", f.id);
                    g.writeNumberField("path", k);
                    g.writeNumberField("sport", f.basePort + k);
                    g.writeNumberField("packets", f.pathPackets[k]);
                    g.writeNumberField("lost", f.pathLost[k]);
                    g.writeNumberField("ce", f.pathCe[k]);
                    g.writeEndObject();
                }
            }
            g.writeEndArray();
            nl(g);
            g.writeArrayFieldStart("fabric_paths");
            for (Fabric.Path p : sim.fabric.paths) {
                nl(g);
                g.writeStartObject();
                g.writeNumberField("path", p.index);
                g.writeNumberField("delay_ns", p.delayNs);
                g.writeNumberField("jitter_ns", p.jitterNs);
                g.writeNumberField("loss_rate", p.loss);
                if (p.downAt != Long.MAX_VALUE) g.writeNumberField("down_at_ns", p.downAt);
                g.writeNumberField("packets", p.packets);
                g.writeNumberField("lost", p.lost);
                g.writeNumberField("ce", p.ce);
                g.writeEndObject();
            }
            g.writeEndArray();
            nl(g);
            g.writeArrayFieldStart("violations");
            for (Violation v : sim.violations) {
                nl(g);
                g.writeStartObject();
                g.writeStringField("rule", v.rule());
                if (v.packet().frameNo > 0) g.writeNumberField("frame", v.packet().frameNo);
                else g.writeNullField("frame");
                g.writeStringField("flow", v.packet().flow.id);
                g.writeNumberField("psn", v.packet().psn);
                g.writeNumberField("opcode", v.packet().opcode);
                if (v.description() != null) g.writeStringField("description", v.description());
                g.writeEndObject();
            }
            g.writeEndArray();
            nl(g);
            if (!sim.failures.isEmpty()) {
                // Only scenarios with a fault have it: what each QP died of (or hangs on), for the diagnosis.
                g.writeArrayFieldStart("diagnosis");
                for (Sim.Failure f : sim.failures) {
                    nl(g);
                    g.writeStartObject();
                    // A pause names no flow: its subject is the pausing MAC and class (in the details).
                    if (f.flow() != null) g.writeStringField("flow", f.flow().id);
                    g.writeStringField("cause", f.cause());
                    if (f.at() >= 0) g.writeNumberField("started_ns", f.at());
                    for (var e : f.details().entrySet()) {
                        if (e.getValue() instanceof List<?> list) {
                            g.writeArrayFieldStart(e.getKey());
                            for (Object o : list) g.writeString(String.valueOf(o));
                            g.writeEndArray();
                        } else {
                            g.writeObjectField(e.getKey(), e.getValue());
                        }
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
                nl(g);
            }
            g.writeArrayFieldStart("capture_drops");
            for (Dropped d : drops) {
                nl(g);
                g.writeStartObject();
                g.writeNumberField("after_frame", d.afterFrame());
                g.writeNumberField("t", d.time());
                g.writeStringField("flow", sim.flows.get(d.flow()).id);
                g.writeNumberField("psn", d.psn());
                g.writeNumberField("opcode", d.opcode());
                g.writeEndObject();
            }
            g.writeEndArray();
            nl(g);
            writeFrames(g);
            nl(g);
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }

    private static void nl(JsonGenerator g) throws IOException { g.writeRaw('\n'); }

    private void writeCapture(JsonGenerator g) throws IOException {
        Tap tap = sim.tap;
        g.writeObjectFieldStart("capture");
        g.writeStringField("tap", tap.kind == Tap.Kind.HOST ? "host" : tap.kind == Tap.Kind.PORT ? "port" : "mirror");
        if (tap.kind != Tap.Kind.MIRROR) g.writeStringField("tap_host", tap.host.ip);
        g.writeNumberField("epoch_ns", Sim.EPOCH_NS);
        g.writeNumberField("link_type", 1);
        g.writeNumberField("snap_length", tap.snapLength);
        g.writeNumberField("sampling", Math.max(1, sim.params.i("sample")));
        g.writeNumberField("frames", tap.frames());
        g.writeNumberField("seen", tap.seen());
        g.writeNumberField("capture_dropped", tap.dropped());
        g.writeNumberField("sampled_out", tap.sampledOut());
        g.writeNumberField("truncated", tap.truncated());
        g.writeNumberField("simulated_ns", sim.now);
        g.writeEndObject();
    }

    private static void writeConnection(JsonGenerator g, Sim.Connection c) throws IOException {
        RcQp a = c.requester(), b = c.responder();
        g.writeStartObject();
        g.writeStringField("transport", a.meta ? "metaroce" : "rocev2");
        g.writeBooleanField("cm", c.cm());
        g.writeNumberField("pmtu", a.pmtu);
        g.writeStringField("requester", a.flow.id);
        g.writeStringField("responder", b.flow.id);
        g.writeNumberField("requester_qpn", a.qpn);
        g.writeNumberField("responder_qpn", b.qpn);
        g.writeNumberField("requester_start_psn", a.startPsn);
        g.writeNumberField("responder_start_psn", b.startPsn);
        if (a.meta) {
            g.writeBooleanField("spray", a.spray);
            g.writeBooleanField("credit", a.credit);
            g.writeNumberField("path_count", a.pathCount);
            g.writeNumberField("requester_base_port", a.basePort);
            g.writeNumberField("responder_base_port", b.basePort);
        } else {
            g.writeNumberField("requester_sport", a.basePort);
            g.writeNumberField("responder_sport", b.basePort);
        }
        g.writeEndObject();
    }

    private static void writeFlow(JsonGenerator g, Flow f) throws IOException {
        g.writeStartObject();
        g.writeStringField("flow", f.id);
        if (f.peer != null) g.writeStringField("peer", f.peer.id);
        g.writeStringField("transport", f.transport);
        g.writeStringField("service", f.service);
        g.writeStringField("src", f.src.ip);
        g.writeStringField("dst", f.dst.ip);
        g.writeNumberField("dest_qp", f.destQp);
        if (f.srcQp >= 0) g.writeNumberField("src_qp", f.srcQp);
        if (f.pathCount > 0) {
            g.writeBooleanField("spray", f.spray);
            g.writeNumberField("path_count", f.pathCount);
            g.writeNumberField("base_port", f.basePort);
        }
        g.writeNumberField("frames", f.frames);
        g.writeObjectFieldStart("counters");
        g.writeNumberField("packets", f.packets);
        g.writeNumberField("data_packets", f.dataPackets);
        g.writeNumberField("payload_bytes", f.payloadBytes);
        g.writeNumberField("messages", f.messages);
        g.writeNumberField("retransmitted", f.retransmitted);
        g.writeObjectFieldStart("retransmitted_by_cause");
        for (int c = 1; c < Pkt.CAUSE_NAMES.length; c++) g.writeNumberField(Pkt.CAUSE_NAMES[c], f.retransmittedByCause[c]);
        g.writeEndObject();
        g.writeNumberField("spurious", f.spurious);
        g.writeNumberField("timeouts", f.timeouts);
        g.writeNumberField("acks", f.acks);
        g.writeNumberField("naks", f.naks);
        g.writeNumberField("rnr_naks", f.rnrNaks);
        g.writeNumberField("sacks", f.sacks);
        g.writeNumberField("nacks", f.nacks);
        g.writeNumberField("cnps", f.cnps);
        g.writeNumberField("credits", f.credits);
        g.writeNumberField("probes", f.probes);
        g.writeNumberField("ce_marks", f.ceMarks);
        g.writeNumberField("lost", f.lost);
        // Only in PFC scenarios: frames a pause still held at the end (sent, neither delivered nor lost).
        if (f.heldByPfc > 0) g.writeNumberField("held_by_pfc", f.heldByPfc);
        g.writeEndObject();
        g.writeEndObject();
    }

    private void writeFrames(JsonGenerator g) throws IOException {
        g.writeArrayFieldStart("frames");
        if (perFrame) {
            String[] ruleOf = new String[n];
            for (Violation v : sim.violations) {
                long f = v.packet().frameNo;
                if (f > 0 && f <= n) ruleOf[(int) f - 1] = v.rule();
            }
            for (int i = 0; i < n; i++) {
                nl(g);
                g.writeStartObject();
                g.writeNumberField("n", i + 1);
                g.writeNumberField("t", time[i]);
                g.writeStringField("tap", String.valueOf((char) stage[i]));
                if (flow[i] < 0) {
                    g.writeNumberField("pfc_class_vector", opcode[i]);
                    g.writeNumberField("pfc_quanta", psn[i]);
                    g.writeEndObject();
                    continue;
                }
                g.writeStringField("flow", sim.flows.get(flow[i]).id);
                g.writeNumberField("psn", psn[i]);
                g.writeNumberField("opcode", opcode[i]);
                if (path[i] >= 0) g.writeNumberField("path", path[i]);
                int b = bits[i];
                boolean dropsAfter = i + 1 < n && dropsBefore[i + 1] > 0;
                if (cause[i] != 0 || b != 0 || dropsBefore[i] > 0 || dropsAfter || ruleOf[i] != null) {
                    g.writeObjectFieldStart("labels");
                    if (cause[i] != 0) g.writeStringField("retransmission", Pkt.CAUSE_NAMES[cause[i]]);
                    if ((b & SPURIOUS) != 0) g.writeBooleanField("spurious", true);
                    if ((b & REPEATED_RESPONSE) != 0) g.writeBooleanField("repeated_response", true);
                    if ((b & LOST_AFTER_TAP) != 0) g.writeBooleanField("lost_after_tap", true);
                    if ((b & NAK_IGNORED) != 0) g.writeBooleanField("nak_ignored", true);
                    if ((b & CE) != 0) g.writeStringField("ce", (b & CE_SEEN) != 0 ? "seen" : "after_tap");
                    if ((b & TRUNCATED) != 0) g.writeBooleanField("truncated", true);
                    if (dropsBefore[i] > 0) g.writeNumberField("capture_dropped_before", dropsBefore[i]);
                    if (dropsAfter) g.writeNumberField("capture_dropped_after", dropsBefore[i + 1]);
                    if (ruleOf[i] != null) g.writeStringField("violation", ruleOf[i]);
                    g.writeEndObject();
                }
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }
}
