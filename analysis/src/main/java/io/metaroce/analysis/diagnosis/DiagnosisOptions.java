package io.metaroce.analysis.diagnosis;

/**
 * What {@code analyze} is asked of the diagnosis: the hang snapshot time and the lookup keys an NCCL warning
 * prints (QP number, peer address).
 *
 * @param atNs snapshot time in ns after the capture's first frame ({@code --at}), null for the end of the capture
 * @param qp only QP flows with this QP number in either direction ({@code --qp}), null for all
 * @param peer only flows and host pairs with this address ({@code --peer}), null for all
 */
public record DiagnosisOptions(Long atNs, Integer qp, String peer) {
    public static final DiagnosisOptions DEFAULT = new DiagnosisOptions(null, null, null);

    public boolean lookup() { return qp != null || peer != null; }

    /** The diagnosis as asked: the lookup applied. */
    public Diagnosis apply(Diagnosis d) { return lookup() ? d.lookup(qp, peer) : d; }
}
