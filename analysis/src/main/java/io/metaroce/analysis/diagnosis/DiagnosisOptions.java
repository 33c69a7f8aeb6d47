package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code analyze} is asked of the diagnosis: the hang snapshot time and the lookup keys an NCCL warning
 * prints (QP number, peer address), given as options or as the warnings themselves.
 *
 * @param atNs snapshot time in ns after the capture's first frame ({@code --at}), null for the end of the capture
 * @param qp only QP flows with this QP number in either direction ({@code --qp}), null for all
 * @param peer only flows and host pairs with this address ({@code --peer}), null for all
 * @param pfcWatchdogNs a class paused this long without a break is a PFC storm ({@code --pfc-watchdog})
 * @param nccl NCCL warnings to look up ({@code --nccl}): each gives its own keys, {@code qp} and {@code peer}
 *             replacing the warning's when given
 */
public record DiagnosisOptions(Long atNs, Integer qp, String peer, long pfcWatchdogNs, List<NcclWarning> nccl) {
    public static final DiagnosisOptions DEFAULT = new DiagnosisOptions(null, null, null);

    /** With the watchdogs' default detection time ({@link Diagnoser#DEFAULT_PFC_WATCHDOG_NS}). */
    public DiagnosisOptions(Long atNs, Integer qp, String peer) { this(atNs, qp, peer, Diagnoser.DEFAULT_PFC_WATCHDOG_NS); }

    public DiagnosisOptions(Long atNs, Integer qp, String peer, long pfcWatchdogNs) {
        this(atNs, qp, peer, pfcWatchdogNs, List.of());
    }

    public boolean lookup() { return qp != null || peer != null || !nccl.isEmpty(); }

    /** The diagnosis as asked: the lookup applied. */
    public Diagnosis apply(Diagnosis d) {
        if (nccl.isEmpty()) return lookup() ? d.lookup(qp, peer) : d;
        List<Integer> qps = new ArrayList<>();
        List<String> peers = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (NcclWarning w : nccl) {
            List<String> addresses = peer != null ? List.of(peer) : w.peerAddresses();
            // UCX names the remote QP too: the only key of the flow a QP sent into silence (no answer pairs it).
            List<Integer> keys = new ArrayList<>();
            keys.add(qp != null ? qp : w.qpNum());
            if (qp == null && w.remoteQp() != null) keys.add(w.remoteQp());
            for (Integer q : keys) {
                if (addresses.isEmpty()) {
                    if (q != null && seen.add(q + " ")) { qps.add(q); peers.add(null); }
                } else {
                    for (String a : addresses) {
                        if (seen.add(q + " " + a)) { qps.add(q); peers.add(a); }
                    }
                }
            }
        }
        return d.lookup(qps, peers, nccl);
    }
}
