package io.metaroce.analysis.diagnosis;

/**
 * What {@code analyze} is asked of the diagnosis: the hang snapshot time and the lookup keys an NCCL warning
 * prints (QP number, peer address).
 *
 * @param atNs snapshot time in ns after the capture's first frame ({@code --at}), null for the end of the capture
 * @param qp only QP flows with this QP number in either direction ({@code --qp}), null for all
 * @param peer only flows and host pairs with this address ({@code --peer}), null for all
 * @param pfcWatchdogNs a class paused this long without a break is a PFC storm ({@code --pfc-watchdog})
 */
public record DiagnosisOptions(Long atNs, Integer qp, String peer, long pfcWatchdogNs) {
    public static final DiagnosisOptions DEFAULT = new DiagnosisOptions(null, null, null);

    /** With the watchdogs' default detection time ({@link Diagnoser#DEFAULT_PFC_WATCHDOG_NS}). */
    public DiagnosisOptions(Long atNs, Integer qp, String peer) { this(atNs, qp, peer, Diagnoser.DEFAULT_PFC_WATCHDOG_NS); }

    public boolean lookup() { return qp != null || peer != null; }

    /** The diagnosis as asked: the lookup applied. */
    public Diagnosis apply(Diagnosis d) { return lookup() ? d.lookup(qp, peer) : d; }
}
