package io.metaroce.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.TreeMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a finished pass gives: the capture summary (an ordered map in the JSON shape of {@code metaroce analyze
 * -T json}: numbers are Long or Double, absent values null) and one {@link FlowSummary} per QP flow. Immutable
 * once built; safe to read from any thread after it was published.
 */
public final class AnalysisResult {
    private final Map<String, Object> capture = new LinkedHashMap<>();
    private final List<FlowSummary> flows = new ArrayList<>();
    private final Map<String, FlowSummary> byId = new LinkedHashMap<>();
    private final Map<String, Object> flowControl;
    private final Map<String, Object> congestionLoop;
    private final java.util.List<long[]> pauseRuns;
    private final Map<String, Object> steps;
    private final Map<String, Object> recovery;
    private final Map<String, long[]> recoveryExamples;

    AnalysisResult(AnalysisEngine e, long ifDropped, long osDropped) {
        long captureGaps = 0, networkLosses = 0, gapPsns = 0, unique = 0, rtx = 0, cmFlows = 0;
        // Recovery judges its last undecided NAK answers by the host's timer: it may correct the flows' cause counts.
        Recovery.settle(e.flowList());
        for (Flow f : e.flowList()) {
            if (f.packets == 0) continue;
            FlowSummary m = flow(f);
            flows.add(m);
            byId.put(f.id, m);
            captureGaps += f.captureGaps;
            networkLosses += f.networkLosses;
            gapPsns += f.gapPsns;
            unique += f.dataPackets - f.retransmitted - f.duplicates - f.readResponses;
            rtx += f.retransmitted;
            if ("cm".equals(f.pairedBy)) cmFlows++;
        }
        EvictedFlows ev = e.evictedFlows();
        captureGaps += ev.captureGaps;
        networkLosses += ev.networkLosses;
        gapPsns += ev.gapPsns;
        unique += ev.uniquePackets;
        rtx += ev.retransmitted;
        cmFlows += ev.pairedByCm;
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
        capture.put("duplicates", e.duplicates());
        capture.put("cm_frames", e.cmFrames());
        capture.put("flows", flows.size() + ev.flows);
        // Only when it happened, so that the summary of an ordinary capture keeps its shape.
        if (ev.flows > 0) {
            capture.put("evicted_flows", ev.flows);
            // The bound that evicted them: the settings' (65,536), or lower in a heap too small for that (FlowBudget).
            capture.put("flow_bound", e.settings().maxFlows());
            if (e.boundHeapMib > 0) capture.put("flow_bound_heap_mib", e.boundHeapMib);
        }
        capture.put("connections_from_cm", cmFlows / 2);
        capture.put("sampling", sampling(gapPsns, unique, rtx, networkLosses));
        Map<String, Object> st = new LinkedHashMap<>();
        st.put("cnp_interval_ns", e.settings().cnpIntervalNs());
        st.put("cnp_pacing", e.settings().cnpPacing().label());
        st.put("ce_window_ns", e.settings().ceWindowNs());
        st.put("slack_ns", e.settings().slackNs());
        st.put("min_rtt_ns", e.settings().minRttNs());
        capture.put("settings", st);
        flowControl = e.flowControl();
        pauseRuns = java.util.Collections.unmodifiableList(e.pauseRuns());
        congestionLoop = CongestionLoop.report(e.flowList(), e.settings(), e.lastNs);
        steps = e.steps();
        recovery = Recovery.report(e.flowList(), ev.recovery);
        recoveryExamples = recovery == null ? Map.of() : Recovery.examples(e.flowList());
    }

    /**
     * The RoCEv2 requesters' recovery behaviour: where each sending host's resends start after a NAK sequence error
     * and after a timeout (JSON {@code recovery}, text "Recovery behaviour"), or null when the capture holds no NAK
     * sequence error and no timeout go-back: then the reports print nothing of it.
     */
    public Map<String, Object> recovery() { return recovery; }

    /** The kinds of wrong answer to a NAK {@link #recoveryExample} knows: a resend from before, or after, its PSN; none before the timer. */
    public static final int RECOVERY_EARLIER = Recovery.EARLIER, RECOVERY_LATER = Recovery.LATER, RECOVERY_NOT_ANSWERED = Recovery.NOT_ANSWERED;
    /** The "Recovery behaviour" section's title and legend lines, for a front end that shows the same table. */
    public static final String RECOVERY_HEADER = Recovery.HEADER, RECOVERY_LEGEND = Recovery.LEGEND;

    /**
     * The first NAK a sender of {@link #recovery()} answered wrongly in that way (over its QP directions) and the
     * first resend after it: {nak frame, resend frame}, or null for none (a later start is kept at the sender's tap
     * only, as it is judged). Not in analyze's outputs: the GUI's Recovery tab jumps to it.
     */
    public long[] recoveryExample(String sender, int kind) {
        long[] h = recoveryExamples.get(sender);
        return h == null || h[2 * kind] == 0 ? null : new long[] {h[2 * kind], h[2 * kind + 1]};
    }

    /** The text section of {@link #recovery()} (nothing when it is null). */
    public void appendRecovery(Appendable out) throws java.io.IOException {
        if (recovery != null) Recovery.appendText(out, recovery);
    }

    /**
     * The training steps: periodic bursts of RC messages and each sending host's timing in them (JSON {@code steps},
     * text "Steps"), or null when the capture shows no periodic pattern: then the reports print nothing of it.
     */
    public Map<String, Object> steps() { return steps; }

    /** The text section of {@link #steps()} (nothing when it is null). */
    public void appendSteps(Appendable out) throws java.io.IOException {
        if (steps != null) Steps.appendText(out, steps);
    }

    /**
     * The congestion loop per QP with CE marks or CNPs (JSON {@code congestion_loop}, text "Congestion loop"), or null
     * when the capture held neither: then the reports print nothing of it.
     */
    public Map<String, Object> congestionLoop() { return congestionLoop; }

    /** The text section of {@link #congestionLoop()} (nothing when it is null). */
    public void appendCongestionLoop(Appendable out) throws java.io.IOException {
        if (congestionLoop != null) CongestionLoop.appendText(out, congestionLoop);
    }

    /**
     * PAUSE/PFC frames per sender MAC and priority class (JSON {@code flow_control}, text "Flow control"), or null when
     * the capture held none: then the reports print nothing of it.
     */
    public Map<String, Object> flowControl() { return flowControl; }

    /**
     * The runs in which a PAUSE/PFC class stayed paused, as {@link #flowControl()} times them (the GUI's congestion
     * graph draws them as bands): {@code FlowControl.R_*} slots, the first {@link FlowControl#MAX_RUNS}; empty when the
     * capture held no such frame.
     */
    public java.util.List<long[]> pauseRuns() { return pauseRuns; }

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

    /** The result of one flow as it stands (also of a flow being evicted). */
    static FlowSummary summaryOf(Flow f) { return flow(f); }

    private static FlowSummary flow(Flow f) {
        boolean judgeCe = f.view != View.SENDER;
        FlowSummary.Counters c = new FlowSummary.Counters(f.packets, f.bytes, f.dataPackets, f.payloadBytes, f.firstNs,
                f.lastNs, f.messages, f.messagesCompleted, f.retransmitted,
                new FlowSummary.ByCause(f.byCause[Cause.NAK.ordinal()], f.byCause[Cause.NACK.ordinal()],
                        f.byCause[Cause.SACK.ordinal()], f.byCause[Cause.TIMEOUT.ordinal()], f.byCause[Cause.RNR.ordinal()]),
                f.spurious, f.spuriousUnknown, f.inferredRetx, f.repeatedResponses, f.byCause[Cause.TIMEOUT.ordinal()], f.timeouts, f.outOfOrder, f.duplicates, f.gapEvents,
                f.captureGaps, f.networkLosses, f.acks, f.naks, f.nakErrors, f.rnrNaks, f.sacks, f.nacks, f.cnps, f.mrCnps,
                f.ceMarks, judgeCe ? f.ceWithoutCnp : null, judgeCe ? f.cnpExpected : null, f.credit, f.creditStalls,
                f.readResponses, f.unattributedControl, f.truncated, f.unjudged);
        FlowSummary.Latencies lat = new FlowSummary.Latencies(FlowSummary.LatencySummary.of(f.ackRtt),
                FlowSummary.LatencySummary.of(f.completion), FlowSummary.LatencySummary.of(f.nakGen),
                FlowSummary.LatencySummary.of(f.nakResp), FlowSummary.LatencySummary.of(f.rtxLatency));
        long dur = f.lastNs - f.firstNs;
        Long goodput = dur > 0 ? (long) (f.uniquePayloadBytes * 8e9 / dur) : null;
        List<Integer> srcQps = null;
        if (f.ud) {
            srcQps = new ArrayList<>();
            for (int x : f.srcQps) srcQps.add(x);
            srcQps = List.copyOf(srcQps);
        }
        return new FlowSummary(f.id, f.key.src(), f.key.dst(), f.key.qp, f.peer == null ? null : f.peer.id, f.pairedBy,
                f.transport(), f.service, f.view, srcQps, c, lat, goodput, f.uniquePayloadBytes,
                f.tver == 1 ? metaRoce(f) : null);
    }

    private static FlowSummary.MetaRoce metaRoce(Flow f) {
        Long pathCount = f.pathCount > 0 ? Long.valueOf(f.pathCount) : f.maxPath >= 0 ? Long.valueOf(f.maxPath + 1) : null;
        TreeMap<Integer, FlowSummary.PathSummary> paths = new TreeMap<>();
        if (f.paths != null) {
            // Losses are exact at the sender's tap (§12), not measurable at the receiver's.
            boolean lossKnown = f.view == View.SENDER;
            for (PathStats p : f.paths) {
                if (p == null) continue;
                long judged = p.probesAnswered + p.probesUnanswered;
                paths.put(p.id, new FlowSummary.PathSummary(p.id, p.packets, p.firstSends, p.retransmissionsOn,
                        lossKnown ? p.lost : null, lossKnown ? Math.round(p.lossRate() * 10000) / 10000.0 : null,
                        // Elsewhere: losses found by a retransmission filling a gap, placed on the path the sender's
                        // round-robin spraying would have used (an inference, not a measurement).
                        lossKnown ? null : p.lostInferred, p.ceMarks, p.mrCnps, FlowSummary.LatencySummary.of(p.rtt),
                        p.probes, p.probesAnswered, judged > 0 && f.view != View.RECEIVER
                                ? Math.round(1000.0 * p.probesUnanswered / judged) / 1000.0 : null,
                        p.down, p.downReason));
            }
        }
        return new FlowSummary.MetaRoce(f.spray, pathCount, Collections.unmodifiableSortedMap(paths));
    }

    public Map<String, Object> capture() { return capture; }

    /** The flows that carried at least one packet, in order of their first packet. */
    public List<FlowSummary> flows() { return flows; }

    /** The result of the flow with this id, or null. */
    public FlowSummary flow(String id) { return byId.get(id); }

    /**
     * A top-level numeric field of a flow by its JSON name ({@code "retransmitted_packets"}), 0 when null: for
     * generic consumers (reports by column name, tests against truth files).
     */
    public long count(String flowId, String field) {
        FlowSummary f = byId.get(flowId);
        if (f == null) throw new IllegalArgumentException("no flow " + flowId + "; flows: " + byId.keySet());
        return f.toJsonMap().get(field) instanceof Number n ? n.longValue() : 0;
    }

    /** Sum of a top-level numeric field (JSON name) over all flows. */
    public long total(String field) {
        long s = 0;
        for (FlowSummary f : flows) if (f.toJsonMap().get(field) instanceof Number n) s += n.longValue();
        return s;
    }

    void source(String file, String format) {
        capture.put("file", file);
        capture.put("format", format);
    }

    /** Damage the capture reader met (cut file, bad block): every frame before it was analyzed. */
    void problems(java.util.List<String> problems) {
        capture.put("capture_problems", java.util.List.copyOf(problems));
    }
}
