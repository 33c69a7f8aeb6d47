package io.metaroce.analysis;

/**
 * What flows evicted from the flow table (more QPs than {@link AnalysisSettings#maxFlows}) added to the
 * capture's totals, so that the capture summary stays right when their rows are gone.
 */
final class EvictedFlows {
    /** Evicted flows that had packets (flows known only from CM are not counted, as in the flow list). */
    long flows;
    long captureGaps, networkLosses, gapPsns, uniquePackets, retransmitted, pairedByCm;
    /** The recovery figures of evicted RoCEv2 flows, per sending host (grows with hosts, not flows), or null. */
    java.util.Map<String, Recovery.Host> recovery;

    void add(Flow f) {
        if (f.packets == 0) return;
        flows++;
        captureGaps += f.captureGaps;
        networkLosses += f.networkLosses;
        gapPsns += f.gapPsns;
        uniquePackets += f.dataPackets - f.retransmitted - f.duplicates - f.readResponses;
        retransmitted += f.retransmitted;
        if ("cm".equals(f.pairedBy)) pairedByCm++;
        if (f.recovery != null) {
            if (recovery == null) recovery = new java.util.LinkedHashMap<>();
            Recovery.fold(recovery, f);
        }
    }
}
