package io.metaroce.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The result of one QP flow (one direction to one destination QP) after the pass: what {@code metaroce analyze}
 * prints per flow, the rows of a GUI's conversation table, the document of a flow index. Values the tap cannot
 * know are null (see each component). {@link #toJsonMap()} is the one mapping to the JSON of
 * {@code analyze -T json}.
 *
 * @param id the flow id {@code "<src>><dst>/0x<dest_qp, 6 hex digits>"} ({@link FlowKey#id()})
 * @param peer id of the opposite direction of the connection, null when not paired
 * @param pairedBy how the directions were paired ({@code "cm"} or the acknowledgement traffic), null when not
 * @param transport {@code "rocev2"} or {@code "metaroce"}, null when no BTH told
 * @param service {@code "rc"}, {@code "uc"}, {@code "ud"}, ... from the opcodes, null when unknown
 * @param srcQps the source QPs seen (UD flows only, from DETH; else null)
 * @param goodputBps unique payload bits per second over the flow's duration, null for a flow of one instant
 * @param metaRoce the MetaRoCE part (paths), null for a RoCEv2 flow
 */
public record FlowSummary(String id, String src, String dst, int destQp, String peer, String pairedBy, String transport,
                          String service, View view, List<Integer> srcQps, Counters counters, Latencies latency,
                          Long goodputBps, long uniquePayloadBytes, MetaRoce metaRoce) {

    /**
     * What happened to the flow. ceWithoutCnp and cnpExpected are null at the sender's tap (the receiver's
     * reaction is not visible there). spuriousUnknown: retransmissions whose spuriousness the capture cannot
     * tell; inferredRetransmissions: those whose first copy the capture never showed; repeatedResponses: READ
     * responses and atomic acknowledgements sent again for a re-issued request (not retransmissions).
     */
    public record Counters(long packets, long bytes, long dataPackets, long payloadBytes, long firstNs, long lastNs,
                           long messages, long messagesCompleted, long retransmittedPackets,
                           ByCause retransmissionsByCause, long spuriousRetransmissions, long spuriousUnknown,
                           long inferredRetransmissions, long repeatedResponses, long timeoutRetransmissions,
                           long timeouts, long outOfOrder, long duplicates, long psnGaps, long captureGaps,
                           long networkLosses, long acks, long naks, long nakErrors, long rnrNaks, long sacks,
                           long nacks, long cnps, long mrCnps, long ceMarks, Long ceWithoutCnp, Long cnpExpected,
                           boolean creditMode, long creditStalls, long readResponses, long unattributedControl,
                           long truncatedFrames, long unjudgedFrames) {}

    /** Retransmitted packets by {@link Cause}. */
    public record ByCause(long nak, long nack, long sack, long timeout, long rnr) {
        public long of(Cause c) {
            return switch (c) {
                case NAK -> nak;
                case NACK -> nack;
                case SACK -> sack;
                case TIMEOUT -> timeout;
                case RNR -> rnr;
            };
        }
    }

    /** A latency distribution in nanoseconds (nearest-rank quantiles). */
    public record LatencySummary(long count, long min, long median, long p99, long max) {
        /** The summary of l, or null when it holds no sample. */
        static LatencySummary of(Latency l) {
            return l.count() == 0 ? null : new LatencySummary(l.count(), l.min(), l.median(), l.p99(), l.max());
        }
    }

    /** The flow's latency summaries; each null when there was nothing to measure. */
    public record Latencies(LatencySummary ackRtt, LatencySummary messageCompletion, LatencySummary nakGeneration,
                            LatencySummary nakResponse, LatencySummary retransmission) {}

    /**
     * MetaRoCE: whether the flow sprays, its path count (from CM, else the highest path id seen plus one; null
     * when neither), and per-path health by path id.
     */
    public record MetaRoce(boolean spray, Long pathCount, SortedMap<Integer, PathSummary> paths) {}

    /**
     * Health of one path of a MetaRoCE flow. Losses are exact at the sender's tap only: retransmittedFrom and
     * lossRate are null elsewhere, where lostInferred (placed by the spraying order) is given instead.
     * probeLoss is null at the receiver's tap and when no probe was judged.
     */
    public record PathSummary(int id, long packets, long firstSends, long retransmissionsOn, Long retransmittedFrom,
                              Double lossRate, Long lostInferred, long ceMarks, long mrCnps, LatencySummary rtt,
                              long probes, long probesAnswered, Double probeLoss, boolean down, String downReason) {}

    /** The object {@code analyze -T json} prints for this flow, keys in their documented order. */
    public Map<String, Object> toJsonMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("src", src);
        m.put("dst", dst);
        m.put("dest_qp", (long) destQp);
        m.put("peer", peer);
        m.put("paired_by", pairedBy);
        m.put("transport", transport);
        m.put("service", service);
        m.put("view", view.label());
        if (srcQps != null) {
            List<Object> q = new ArrayList<>();
            for (int x : srcQps) q.add((long) x);
            m.put("src_qps", q);
        }
        Counters c = counters;
        m.put("packets", c.packets);
        m.put("bytes", c.bytes);
        m.put("data_packets", c.dataPackets);
        m.put("payload_bytes", c.payloadBytes);
        m.put("first_ns", c.firstNs);
        m.put("last_ns", c.lastNs);
        m.put("messages", c.messages);
        m.put("messages_completed", c.messagesCompleted);
        m.put("retransmitted_packets", c.retransmittedPackets);
        Map<String, Object> causes = new LinkedHashMap<>();
        for (Cause k : Cause.values()) causes.put(k.label(), c.retransmissionsByCause.of(k));
        m.put("retransmissions_by_cause", causes);
        m.put("spurious_retransmissions", c.spuriousRetransmissions);
        m.put("spurious_unknown", c.spuriousUnknown);
        m.put("inferred_retransmissions", c.inferredRetransmissions);
        m.put("repeated_responses", c.repeatedResponses);
        m.put("timeout_retransmissions", c.timeoutRetransmissions);
        m.put("timeouts", c.timeouts);
        m.put("out_of_order", c.outOfOrder);
        m.put("duplicates", c.duplicates);
        m.put("psn_gaps", c.psnGaps);
        m.put("capture_gaps", c.captureGaps);
        m.put("network_losses", c.networkLosses);
        m.put("acks", c.acks);
        m.put("naks", c.naks);
        m.put("nak_errors", c.nakErrors);
        m.put("rnr_naks", c.rnrNaks);
        m.put("sacks", c.sacks);
        m.put("nacks", c.nacks);
        m.put("cnps", c.cnps);
        m.put("mr_cnps", c.mrCnps);
        m.put("ce_marks", c.ceMarks);
        m.put("ce_without_cnp", c.ceWithoutCnp);
        m.put("cnp_expected", c.cnpExpected);
        m.put("credit_mode", c.creditMode);
        m.put("credit_stalls", c.creditStalls);
        m.put("read_responses", c.readResponses);
        m.put("unattributed_control", c.unattributedControl);
        m.put("truncated_frames", c.truncatedFrames);
        m.put("unjudged_frames", c.unjudgedFrames);
        Map<String, Object> lat = new LinkedHashMap<>();
        lat.put("ack_rtt_ns", json(latency.ackRtt));
        lat.put("message_completion_ns", json(latency.messageCompletion));
        lat.put("nak_gen_latency_ns", json(latency.nakGeneration));
        lat.put("nak_response_latency_ns", json(latency.nakResponse));
        lat.put("retransmission_latency_ns", json(latency.retransmission));
        m.put("latency", lat);
        m.put("goodput_bps", goodputBps);
        m.put("unique_payload_bytes", uniquePayloadBytes);
        if (metaRoce != null) {
            m.put("spray", metaRoce.spray);
            m.put("path_count", metaRoce.pathCount);
            Map<String, Object> paths = new LinkedHashMap<>();
            for (PathSummary p : metaRoce.paths.values()) {
                Map<String, Object> pm = new LinkedHashMap<>();
                pm.put("packets", p.packets);
                pm.put("first_sends", p.firstSends);
                pm.put("retransmissions_on", p.retransmissionsOn);
                pm.put("retransmitted_from", p.retransmittedFrom);
                pm.put("loss_rate", p.lossRate);
                pm.put("lost_inferred", p.lostInferred);
                pm.put("ce_marks", p.ceMarks);
                pm.put("mr_cnps", p.mrCnps);
                pm.put("rtt_ns", json(p.rtt));
                pm.put("probes", p.probes);
                pm.put("probes_answered", p.probesAnswered);
                pm.put("probe_loss", p.probeLoss);
                pm.put("down", p.down);
                pm.put("down_reason", p.downReason);
                paths.put(Integer.toString(p.id), pm);
            }
            m.put("paths", paths);
        }
        return m;
    }

    static Map<String, Object> json(LatencySummary l) {
        if (l == null) return null;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", l.count);
        m.put("min", l.min);
        m.put("median", l.median);
        m.put("p99", l.p99);
        m.put("max", l.max);
        return m;
    }
}
