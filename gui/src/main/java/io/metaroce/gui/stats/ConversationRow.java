package io.metaroce.gui.stats;

import io.metaroce.analysis.FlowSummary;

/**
 * One row of QP Conversations, read from the analysis' {@link FlowSummary} (nothing recomputed): identity,
 * counters, latency medians/p99 (null where the tap could not measure) and the display filter that selects the
 * flow's frames.
 */
public record ConversationRow(FlowSummary flow) {
    public String id() { return flow.id(); }
    public String src() { return flow.src(); }
    public String dst() { return flow.dst(); }
    public String destQp() { return String.format("0x%06x", flow.destQp()); }
    public String transport() { return flow.transport() == null ? "" : flow.transport(); }
    public String service() { return flow.service() == null ? "" : flow.service(); }
    public long packets() { return flow.counters().packets(); }
    public long bytes() { return flow.counters().bytes(); }
    public long durationNs() { return flow.counters().lastNs() - flow.counters().firstNs(); }
    public long retransmissions() { return flow.counters().retransmittedPackets(); }
    public long spurious() { return flow.counters().spuriousRetransmissions(); }
    /** NAKs, RNR NAKs and MR-NACKs the flow received. */
    public long naks() { return flow.counters().naks() + flow.counters().nacks(); }
    public long sacks() { return flow.counters().sacks(); }
    public long cnps() { return flow.counters().cnps() + flow.counters().mrCnps(); }
    public long ceMarks() { return flow.counters().ceMarks(); }
    public long outOfOrder() { return flow.counters().outOfOrder(); }
    public Long goodputBps() { return flow.goodputBps(); }
    public Long ackRttMedianNs() { return flow.latency().ackRtt() == null ? null : flow.latency().ackRtt().median(); }
    public Long ackRttP99Ns() { return flow.latency().ackRtt() == null ? null : flow.latency().ackRtt().p99(); }
    public Long completionMedianNs() {
        return flow.latency().messageCompletion() == null ? null : flow.latency().messageCompletion().median();
    }
    public Long paths() {
        return flow.metaRoce() == null ? null : flow.metaRoce().pathCount();
    }
    public boolean sprayed() { return flow.metaRoce() != null && flow.metaRoce().spray(); }

    /**
     * The display filter for "filter on this flow": source and destination address and destination QP, the three
     * parts of the flow id.
     */
    public String filter() {
        String ip = flow.src().contains(":") ? "ipv6" : "ip";
        return ip + ".src == " + flow.src() + " && " + ip + ".dst == " + flow.dst() + " && bth.dest_qp == "
                + String.format("0x%06x", flow.destQp());
    }
}
