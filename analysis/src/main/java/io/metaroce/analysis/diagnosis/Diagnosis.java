package io.metaroce.analysis.diagnosis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answers to the operator questions of issue 15 for one capture: findings (each with a rule id, cause,
 * start time and evidence frames), the hang snapshot and the wire / host-idle split per QP. Printed by
 * {@code metaroce analyze} as the "Diagnosis" section (text) and the {@code diagnosis} object (JSON).
 */
public record Diagnosis(List<Finding> findings, HangSnapshot hang, List<Map<String, Object>> timeSplit, long firstNs) {

    /** Only what concerns QP number qp (either direction: NCCL prints the local QPN) and/or the peer address. */
    public Diagnosis lookup(Integer qp, String peer) {
        List<Finding> f = new ArrayList<>();
        for (Finding x : findings) if (matches(x.subject(), qp, peer)) f.add(x);
        List<HangSnapshot.Entry> h = new ArrayList<>();
        for (HangSnapshot.Entry e : hang.entries()) {
            if (matches(e.flow(), qp, peer) || (e.peer() != null && matches(e.peer(), qp, peer))) h.add(e);
        }
        List<Map<String, Object>> t = new ArrayList<>();
        for (Map<String, Object> m : timeSplit) if (matches((String) m.get("flow"), qp, peer)) t.add(m);
        return new Diagnosis(f, new HangSnapshot(hang.atNs(), h), t, firstNs);
    }

    /** A flow id {@code src>dst/0xQPN} or host pair {@code a<>b} against the lookup keys. */
    static boolean matches(String subject, Integer qp, String peer) {
        if (peer != null) {
            String[] hosts = subject.contains("<>") ? subject.split("<>") : subject.substring(0, subject.lastIndexOf('/')).split(">");
            boolean any = false;
            for (String h : hosts) any |= h.equalsIgnoreCase(peer);
            if (!any) return false;
        }
        if (qp != null) {
            int slash = subject.lastIndexOf("/0x");
            if (slash < 0 || Integer.parseInt(subject.substring(slash + 3), 16) != qp) return false;
        }
        return true;
    }

    public Map<String, Object> toJsonMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Object> f = new ArrayList<>();
        for (Finding x : findings) f.add(x.toJsonMap(firstNs));
        m.put("findings", f);
        m.put("hang_snapshot", hang.toJsonMap());
        m.put("time_split", timeSplit);
        return m;
    }

    /** The text section of {@code analyze -T text}. */
    public void appendText(Appendable out) throws IOException {
        out.append("\nDiagnosis\n=========\n");
        if (findings.isEmpty()) out.append("No problem found.\n");
        for (Finding x : findings) {
            out.append(String.format("%-26s %s%n", x.rule(), x.subject()));
            out.append("    ").append(x.summary()).append('\n');
            if (x.startedNs() != null) {
                out.append(String.format("    started at %.6f s (capture time)%n", (x.startedNs() - firstNs) / 1e9));
            }
            out.append("    evidence frames ").append(x.evidence().toString()).append('\n');
        }
        out.append(String.format("%nHang snapshot at %.6f s: %d QP(s) with unacknowledged requests%n",
                firstNs < 0 ? 0 : (hang.atNs() - firstNs) / 1e9, hang.entries().size()));
        for (HangSnapshot.Entry e : hang.entries()) {
            out.append(String.format("  %s last PSN sent %d, acked %s, %d outstanding, requester silent %.1f us, responder silent %s, last event %s, %s went quiet first%n",
                    e.flow(), e.lastPsnSent(), e.lastPsnAcked() == null ? "none" : e.lastPsnAcked().toString(), e.outstanding(),
                    e.requesterSilentNs() / 1e3, e.responderSilentNs() == null ? "(never answered)" : String.format("%.1f us", e.responderSilentNs() / 1e3),
                    e.lastEvent(), e.quietFirst()));
        }
    }
}
