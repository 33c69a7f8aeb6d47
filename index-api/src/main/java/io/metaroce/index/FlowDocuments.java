package io.metaroce.index;

import io.metaroce.analysis.Cause;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.FlowSummary.Counters;
import io.metaroce.analysis.FlowSummary.LatencySummary;
import io.metaroce.analysis.FlowSummary.PathSummary;
import io.metaroce.analysis.FrameList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Builds the documents of one capture from the analysis engine's typed results: a {@link FlowSummary} and its
 * {@link FrameList} per flow (never from the analyze JSON text). Every value lands under the name the analyze
 * JSON gives it, so a flow document holds exactly that JSON's counters.
 */
public final class FlowDocuments {
    /** Packets per document before a long flow continues in a part document (as Arkime splits sessions). */
    public static final int DEFAULT_SPLIT = 10_000;

    private FlowDocuments() {}

    /** The document that records the capture itself (indexed even when it holds no flow). */
    public static FlowDocument capture(IndexedCapture c) {
        return identity(FlowDocument.builder(), c).put(FlowSchema.ID, c.hash()).put(FlowSchema.KIND, FlowSchema.KIND_CAPTURE).build();
    }

    /** The root id shared by a flow's documents. */
    public static String rootId(String captureHash, String flowId) { return captureHash + "/" + flowId; }

    /**
     * The documents of one flow: the flow document (every counter, the first {@code splitEvery} packets) and one
     * part document per further {@code splitEvery} packets.
     *
     * @param events the event types the flow saw ({@code retransmission}, {@code nak}, ...)
     * @param rules the ids of the conformance rules it broke (empty when not validated)
     */
    public static List<FlowDocument> of(IndexedCapture c, FlowSummary f, FrameList frames, Collection<String> events,
                                        Collection<String> rules, int splitEvery) {
        return of(c, f, frames, events, rules, splitEvery, 1);
    }

    /**
     * As {@link #of(IndexedCapture, FlowSummary, FrameList, Collection, Collection, int)} for the n-th flow of the
     * capture with this flow id: a QP the analysis evicted (more QPs than its flow bound) and that sent again is
     * a second flow of the same id. The first keeps the plain root id; the n-th (n > 1) gets {@code <id>~n}, so
     * each has its own documents; both answer to {@code flow:<id>}.
     */
    public static List<FlowDocument> of(IndexedCapture c, FlowSummary f, FrameList frames, Collection<String> events,
                                        Collection<String> rules, int splitEvery, int occurrence) {
        if (splitEvery < 1) throw new IllegalArgumentException("split must be at least 1 packet");
        if (occurrence < 1) throw new IllegalArgumentException("occurrence counts from 1");
        int packets = frames.size();
        int parts = Math.max(1, (packets + splitEvery - 1) / splitEvery);
        String root = rootId(c.hash(), occurrence == 1 ? f.id() : f.id() + "~" + occurrence);
        List<FlowDocument> out = new ArrayList<>(parts);
        for (int p = 0; p < parts; p++) {
            FlowDocument.Builder b = FlowDocument.builder();
            b.put(FlowSchema.ID, root + "#" + p).put(FlowSchema.KIND, p == 0 ? FlowSchema.KIND_FLOW : FlowSchema.KIND_PART)
                    .put(FlowSchema.ROOT_ID, root).put(FlowSchema.PART, (long) p).put(FlowSchema.PARTS, (long) parts);
            identity(b, c);
            flowIdentity(b, f);
            if (p == 0) counters(b, f, events, rules);
            int from = (int) Math.min(packets, (long) p * splitEvery), to = (int) Math.min(packets, (long) from + splitEvery);
            b.put(FlowSchema.PART_PACKETS, (long) (to - from));
            // The recording holds the lists in this very form (PackedLongs): copied, not decoded and encoded again.
            b.put(FlowSchema.OFFSETS, frames.packedOffsets(from, to));
            b.put(FlowSchema.FRAMES, frames.packedFrames(from, to));
            out.add(b.build());
        }
        return out;
    }

    private static FlowDocument.Builder identity(FlowDocument.Builder b, IndexedCapture c) {
        return b.put(FlowSchema.CAPTURE_PATH, c.path()).put(FlowSchema.CAPTURE_SIZE, c.size())
                .put(FlowSchema.CAPTURE_HASH, c.hash()).put(FlowSchema.CAPTURE_FORMAT, c.format())
                .put(FlowSchema.CAPTURE_FIRST, c.firstNs()).put(FlowSchema.CAPTURE_LAST, c.lastNs())
                .put(FlowSchema.INDEXED_AT, c.indexedAtNs()).put(FlowSchema.TAP, c.tap());
    }

    /** What every document of a flow carries, so that a part is found by the same identity as its flow. */
    private static void flowIdentity(FlowDocument.Builder b, FlowSummary f) {
        b.put(FlowSchema.FLOW, f.id()).put(FlowSchema.SRC, f.src()).put(FlowSchema.DST, f.dst())
                .put(FlowSchema.DEST_QP, (long) f.destQp()).put("transport", f.transport()).put("service", f.service())
                .put("view", f.view().label());
    }

    private static void counters(FlowDocument.Builder b, FlowSummary f, Collection<String> events, Collection<String> rules) {
        b.put("peer", f.peer()).put("paired_by", f.pairedBy());
        if (f.srcQps() != null) for (int q : f.srcQps()) b.add(FlowSchema.SRC_QPS, (long) q);
        Counters c = f.counters();
        b.put("packets", c.packets()).put("bytes", c.bytes()).put("data_packets", c.dataPackets())
                .put("payload_bytes", c.payloadBytes()).put(FlowSchema.FIRST, c.firstNs()).put(FlowSchema.LAST, c.lastNs())
                .put("messages", c.messages()).put("messages_completed", c.messagesCompleted())
                .put("retransmitted_packets", c.retransmittedPackets());
        for (Cause k : Cause.values()) b.put("retransmissions_by_cause." + k.label(), c.retransmissionsByCause().of(k));
        b.put("spurious_retransmissions", c.spuriousRetransmissions()).put("spurious_unknown", c.spuriousUnknown())
                .put("inferred_retransmissions", c.inferredRetransmissions()).put("repeated_responses", c.repeatedResponses())
                .put("timeout_retransmissions", c.timeoutRetransmissions()).put("timeouts", c.timeouts())
                .put("out_of_order", c.outOfOrder()).put("duplicates", c.duplicates()).put("psn_gaps", c.psnGaps())
                .put("capture_gaps", c.captureGaps()).put("network_losses", c.networkLosses()).put("acks", c.acks())
                .put("naks", c.naks()).put("nak_errors", c.nakErrors()).put("rnr_naks", c.rnrNaks()).put("sacks", c.sacks())
                .put("nacks", c.nacks()).put("cnps", c.cnps()).put("mr_cnps", c.mrCnps()).put("ce_marks", c.ceMarks())
                .put("ce_without_cnp", c.ceWithoutCnp()).put("cnp_expected", c.cnpExpected())
                .put("credit_mode", Boolean.toString(c.creditMode())).put("credit_stalls", c.creditStalls())
                .put("read_responses", c.readResponses()).put("unattributed_control", c.unattributedControl())
                .put("truncated_frames", c.truncatedFrames()).put("unjudged_frames", c.unjudgedFrames());
        FlowSummary.Latencies l = f.latency();
        latency(b, "latency.ack_rtt_ns.", l.ackRtt());
        latency(b, "latency.message_completion_ns.", l.messageCompletion());
        latency(b, "latency.nak_gen_latency_ns.", l.nakGeneration());
        latency(b, "latency.nak_response_latency_ns.", l.nakResponse());
        latency(b, "latency.retransmission_latency_ns.", l.retransmission());
        b.put("goodput_bps", f.goodputBps()).put("unique_payload_bytes", f.uniquePayloadBytes());
        if (f.metaRoce() != null) {
            b.put("spray", Boolean.toString(f.metaRoce().spray())).put("path_count", f.metaRoce().pathCount());
            for (PathSummary p : f.metaRoce().paths().values()) path(b, p);
        }
        for (String e : new TreeSet<>(events)) b.add(FlowSchema.EVENTS, e);
        for (String r : new TreeSet<>(rules)) b.add(FlowSchema.RULES, r);
    }

    private static void latency(FlowDocument.Builder b, String prefix, LatencySummary s) {
        if (s == null) return;
        b.put(prefix + "count", s.count()).put(prefix + "min", s.min()).put(prefix + "median", s.median())
                .put(prefix + "p99", s.p99()).put(prefix + "max", s.max());
    }

    /** One path's summary under {@code paths.<id>.}, and its id in the path lists an operator queries. */
    private static void path(FlowDocument.Builder b, PathSummary p) {
        int id = p.id();
        b.put(FlowSchema.pathField(id, "packets"), p.packets()).put(FlowSchema.pathField(id, "first_sends"), p.firstSends())
                .put(FlowSchema.pathField(id, "retransmissions_on"), p.retransmissionsOn())
                .put(FlowSchema.pathField(id, "retransmitted_from"), p.retransmittedFrom())
                .put(FlowSchema.pathField(id, "loss_rate"), p.lossRate()).put(FlowSchema.pathField(id, "lost_inferred"), p.lostInferred())
                .put(FlowSchema.pathField(id, "ce_marks"), p.ceMarks()).put(FlowSchema.pathField(id, "mr_cnps"), p.mrCnps())
                .put(FlowSchema.pathField(id, "probes"), p.probes()).put(FlowSchema.pathField(id, "probes_answered"), p.probesAnswered())
                .put(FlowSchema.pathField(id, "probe_loss"), p.probeLoss()).put(FlowSchema.pathField(id, "down"), Boolean.toString(p.down()))
                .put(FlowSchema.pathField(id, "down_reason"), p.downReason());
        if (p.rtt() != null) {
            LatencySummary r = p.rtt();
            b.put(FlowSchema.pathField(id, "rtt_ns.count"), r.count()).put(FlowSchema.pathField(id, "rtt_ns.min"), r.min())
                    .put(FlowSchema.pathField(id, "rtt_ns.median"), r.median()).put(FlowSchema.pathField(id, "rtt_ns.p99"), r.p99())
                    .put(FlowSchema.pathField(id, "rtt_ns.max"), r.max());
        }
        b.add(FlowSchema.PATH_IDS, (long) id);
        boolean lossy = nz(p.retransmittedFrom()) || nz(p.lostInferred()) || (p.probeLoss() != null && p.probeLoss() > 0);
        if (lossy) b.add(FlowSchema.LOSSY_PATHS, (long) id);
        if (p.ceMarks() > 0) b.add(FlowSchema.CE_PATHS, (long) id);
        if (p.down()) b.add(FlowSchema.DOWN_PATHS, (long) id);
    }

    private static boolean nz(Long v) { return v != null && v > 0; }
}
