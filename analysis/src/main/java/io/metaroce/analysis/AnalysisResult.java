package io.metaroce.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link AnalysisEngine#finish} returns: the capture summary and one result object per QP flow, as
 * ordered maps in the JSON shape of {@code metaroce analyze -T json} (numbers are Long or Double, absent
 * values are null). The same maps feed the text tables, the GUI and the index.
 */
public final class AnalysisResult {
    private final Map<String, Object> capture = new LinkedHashMap<>();
    private final List<Map<String, Object>> flows = new ArrayList<>();
    private final Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
    private final AnalysisEngine engine;

    AnalysisResult(AnalysisEngine e, long ifDropped, long osDropped) {
        this.engine = e;
        long captureGaps = 0, networkLosses = 0, gapPsns = 0, unique = 0, rtx = 0, cmFlows = 0;
        for (Flow f : e.flowList()) {
            if (f.packets == 0) continue;
            Map<String, Object> m = flow(f);
            flows.add(m);
            byId.put(f.id, m);
            captureGaps += f.captureGaps;
            networkLosses += f.networkLosses;
            gapPsns += f.gapPsns;
            unique += f.dataPackets - f.retransmitted - f.duplicates - f.readResponses;
            rtx += f.retransmitted;
            if ("cm".equals(f.pairedBy)) cmFlows++;
        }
        capture.put("file", null);
        capture.put("format", null);
        capture.put("frames", e.frames);
        capture.put("roce_frames", e.roceFrames);
        capture.put("bytes", e.bytes);
        capture.put("first_ns", e.firstNs < 0 ? null : e.firstNs);
        capture.put("last_ns", e.firstNs < 0 ? null : e.lastNs);
        capture.put("duration_ns", e.firstNs < 0 ? 0 : e.lastNs - e.firstNs);
        Map<String, Object> tap = new LinkedHashMap<>();
        tap.put("setting", e.settings().tap().toString());
        tap.put("resolved", e.tap().toString());
        tap.put("how", e.tapNote());
        capture.put("tap", tap);
        Map<String, Object> drops = new LinkedHashMap<>();
        drops.put("if_dropped", ifDropped < 0 ? null : ifDropped);
        drops.put("os_dropped", osDropped < 0 ? null : osDropped);
        capture.put("capture_drops", drops);
        capture.put("capture_drops_detected", ifDropped > 0 || osDropped > 0 || captureGaps > 0);
        capture.put("capture_gaps", captureGaps);
        capture.put("network_losses", networkLosses);
        capture.put("truncated_frames", e.truncatedFrames);
        capture.put("unjudged_frames", e.unjudgedFrames);
        capture.put("duplicates", e.duplicates);
        capture.put("cm_frames", e.cmFrames);
        capture.put("flows", (long) flows.size());
        capture.put("connections_from_cm", cmFlows / 2);
        capture.put("sampling", sampling(gapPsns, unique, rtx, networkLosses));
        Map<String, Object> st = new LinkedHashMap<>();
        st.put("cnp_interval_ns", e.settings().cnpIntervalNs());
        st.put("cnp_pacing", e.settings().cnpPacing().label());
        st.put("ce_window_ns", e.settings().ceWindowNs());
        st.put("slack_ns", e.settings().slackNs());
        st.put("min_rtt_ns", e.settings().minRttNs());
        capture.put("settings", st);
    }

    /**
     * Signs of 1-in-N sampling: many PSNs skipped that nothing (NAK, SACK, retransmission) ever accounts for.
     */
    private static Map<String, Object> sampling(long gapPsns, long seen, long rtx, long network) {
        Map<String, Object> s = new LinkedHashMap<>();
        long unexplained = Math.max(0, gapPsns - network);
        double missing = seen + unexplained == 0 ? 0 : (double) unexplained / (seen + unexplained);
        boolean suspected = unexplained >= 20 && missing > 0.3 && rtx < unexplained / 4;
        s.put("suspected", suspected);
        s.put("unexplained_missing_psns", unexplained);
        s.put("missing_fraction", Math.round(missing * 1000) / 1000.0);
        s.put("estimated_one_in", suspected ? Math.round(1 / (1 - missing)) : null);
        return s;
    }

    private static Map<String, Object> flow(Flow f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id);
        m.put("src", f.key.src());
        m.put("dst", f.key.dst());
        m.put("dest_qp", (long) f.key.qp);
        m.put("peer", f.peer == null ? null : f.peer.id);
        m.put("paired_by", f.pairedBy);
        m.put("transport", f.transport());
        m.put("service", f.service);
        m.put("view", f.view.label());
        if (f.ud) {
            List<Object> q = new ArrayList<>();
            for (int x : f.srcQps) q.add((long) x);
            m.put("src_qps", q);
        }
        m.put("packets", f.packets);
        m.put("bytes", f.bytes);
        m.put("data_packets", f.dataPackets);
        m.put("payload_bytes", f.payloadBytes);
        m.put("first_ns", f.firstNs);
        m.put("last_ns", f.lastNs);
        m.put("messages", f.messages);
        m.put("messages_completed", f.messagesCompleted);
        m.put("retransmitted_packets", f.retransmitted);
        Map<String, Object> causes = new LinkedHashMap<>();
        for (Cause c : Cause.values()) causes.put(c.label(), f.byCause[c.ordinal()]);
        m.put("retransmissions_by_cause", causes);
        m.put("spurious_retransmissions", f.spurious);
        m.put("spurious_unknown", f.spuriousUnknown);
        m.put("inferred_retransmissions", f.inferredRetx);
        m.put("repeated_responses", f.repeatedResponses);
        m.put("timeout_retransmissions", f.byCause[Cause.TIMEOUT.ordinal()]);
        m.put("timeouts", f.timeouts);
        m.put("out_of_order", f.outOfOrder);
        m.put("duplicates", f.duplicates);
        m.put("psn_gaps", f.gapEvents);
        m.put("capture_gaps", f.captureGaps);
        m.put("network_losses", f.networkLosses);
        m.put("acks", f.acks);
        m.put("naks", f.naks);
        m.put("nak_errors", f.nakErrors);
        m.put("rnr_naks", f.rnrNaks);
        m.put("sacks", f.sacks);
        m.put("nacks", f.nacks);
        m.put("cnps", f.cnps);
        m.put("mr_cnps", f.mrCnps);
        m.put("ce_marks", f.ceMarks);
        boolean judgeCe = f.view != View.SENDER;
        m.put("ce_without_cnp", judgeCe ? f.ceWithoutCnp : null);
        m.put("cnp_expected", judgeCe ? f.cnpExpected : null);
        m.put("credit_mode", f.credit);
        m.put("credit_stalls", f.creditStalls);
        m.put("read_responses", f.readResponses);
        m.put("unattributed_control", f.unattributedControl);
        m.put("truncated_frames", f.truncated);
        m.put("unjudged_frames", f.unjudged);
        Map<String, Object> lat = new LinkedHashMap<>();
        lat.put("ack_rtt_ns", summary(f.ackRtt));
        lat.put("message_completion_ns", summary(f.completion));
        lat.put("nak_gen_latency_ns", summary(f.nakGen));
        lat.put("nak_response_latency_ns", summary(f.nakResp));
        lat.put("retransmission_latency_ns", summary(f.rtxLatency));
        m.put("latency", lat);
        long dur = f.lastNs - f.firstNs;
        m.put("goodput_bps", dur > 0 ? (long) (f.uniquePayloadBytes * 8e9 / dur) : null);
        m.put("unique_payload_bytes", f.uniquePayloadBytes);
        if (f.tver == 1) {
            m.put("spray", f.spray);
            m.put("path_count", f.pathCount > 0 ? Long.valueOf(f.pathCount) : f.maxPath >= 0 ? Long.valueOf(f.maxPath + 1) : null);
            Map<String, Object> paths = new LinkedHashMap<>();
            if (f.paths != null) {
                for (PathStats p : f.paths) {
                    if (p == null) continue;
                    Map<String, Object> pm = new LinkedHashMap<>();
                    pm.put("packets", p.packets);
                    pm.put("first_sends", p.firstSends);
                    pm.put("retransmissions_on", p.retransmissionsOn);
                    // Losses are exact at the sender's tap (§12), not measurable at the receiver's.
                    boolean lossKnown = f.view == View.SENDER;
                    pm.put("retransmitted_from", lossKnown ? p.lost : null);
                    pm.put("loss_rate", lossKnown ? Math.round(p.lossRate() * 10000) / 10000.0 : null);
                    // Elsewhere: losses found by a retransmission filling a gap, placed on the path the sender's
                    // round-robin spraying would have used (an inference, not a measurement).
                    pm.put("lost_inferred", lossKnown ? null : p.lostInferred);
                    pm.put("ce_marks", p.ceMarks);
                    pm.put("mr_cnps", p.mrCnps);
                    pm.put("rtt_ns", summary(p.rtt));
                    pm.put("probes", p.probes);
                    pm.put("probes_answered", p.probesAnswered);
                    long judged = p.probesAnswered + p.probesUnanswered;
                    pm.put("probe_loss", judged > 0 && f.view != View.RECEIVER
                            ? Math.round(1000.0 * p.probesUnanswered / judged) / 1000.0 : null);
                    pm.put("down", p.down);
                    pm.put("down_reason", p.downReason);
                    paths.put(Integer.toString(p.id), pm);
                }
            }
            m.put("paths", paths);
        }
        return m;
    }

    static Map<String, Object> summary(Latency l) {
        if (l.count() == 0) return null;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", l.count());
        m.put("min", l.min());
        m.put("median", l.median());
        m.put("p99", l.p99());
        m.put("max", l.max());
        return m;
    }

    public Map<String, Object> capture() { return capture; }

    public List<Map<String, Object>> flows() { return flows; }

    /** The result of the flow with this id, or null. */
    public Map<String, Object> flow(String id) { return byId.get(id); }

    /** A numeric field of a flow (0 when absent). */
    public long count(String flowId, String field) {
        Map<String, Object> m = byId.get(flowId);
        if (m == null) throw new IllegalArgumentException("no flow " + flowId + "; flows: " + byId.keySet());
        return m.get(field) instanceof Number n ? n.longValue() : 0;
    }

    /** Sum of a numeric field over all flows. */
    public long total(String field) {
        long s = 0;
        for (Map<String, Object> m : flows) if (m.get(field) instanceof Number n) s += n.longValue();
        return s;
    }

    /** The engine that produced this result (for per-frame verdicts). */
    public AnalysisEngine engine() { return engine; }

    void source(String file, String format) {
        capture.put("file", file);
        capture.put("format", format);
    }

    /** Damage the capture reader met (cut file, bad block): every frame before it was analyzed. */
    void problems(java.util.List<String> problems) {
        capture.put("capture_problems", java.util.List.copyOf(problems));
    }
}
