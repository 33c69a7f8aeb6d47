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
 *
 * @param flows every QP direction seen and its paired direction (null when unpaired)
 * @param lookup the lookup keys this diagnosis was narrowed to, null when it is complete
 * @param nccl the NCCL warnings the keys came from ({@code analyze --nccl}), empty otherwise
 */
public record Diagnosis(List<Finding> findings, HangSnapshot hang, List<Map<String, Object>> timeSplit, long firstNs,
                        Map<String, String> flows, String lookup, long framesNotDiagnosed, List<NcclWarning> nccl) {

    public Diagnosis(List<Finding> findings, HangSnapshot hang, List<Map<String, Object>> timeSplit, long firstNs,
                     Map<String, String> flows, String lookup, long framesNotDiagnosed) {
        this(findings, hang, timeSplit, firstNs, flows, lookup, framesNotDiagnosed, List.of());
    }

    /**
     * What concerns any of the keys (each a QP number and/or a peer address, as {@link #lookup(Integer, String)}),
     * with the NCCL warnings they came from: the union of each key's lookup, in the complete diagnosis' order.
     */
    public Diagnosis lookup(List<Integer> qps, List<String> peers, List<NcclWarning> warnings) {
        List<Diagnosis> parts = new ArrayList<>();
        for (int i = 0; i < qps.size(); i++) parts.add(lookup(qps.get(i), peers.get(i)));
        // The keys that found flows (an IPv4-mapped GID gives two forms of one address: one of them finds nothing).
        StringBuilder keys = new StringBuilder();
        for (Diagnosis p : parts) if (!p.flows().isEmpty()) keys.append(keys.length() > 0 ? ", " : "").append(p.lookup());
        if (keys.length() == 0) for (Diagnosis p : parts) keys.append(keys.length() > 0 ? ", " : "").append(p.lookup());
        // The same Finding objects as this diagnosis' (a lookup filters, it does not copy): kept by identity.
        java.util.Set<Finding> f = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.Set<String> h = new java.util.HashSet<>();
        java.util.Set<String> fl = new java.util.HashSet<>();
        for (Diagnosis p : parts) {
            f.addAll(p.findings());
            for (HangSnapshot.Entry e : p.hang().entries()) h.add(e.flow());
            fl.addAll(p.flows().keySet());
        }
        List<Finding> findingsOut = new ArrayList<>();
        for (Finding x : findings) if (f.contains(x)) findingsOut.add(x);
        List<HangSnapshot.Entry> hangOut = new ArrayList<>();
        for (HangSnapshot.Entry e : hang.entries()) if (h.contains(e.flow())) hangOut.add(e);
        List<Map<String, Object>> splitOut = new ArrayList<>();
        for (Map<String, Object> m : timeSplit) if (fl.contains((String) m.get("flow"))) splitOut.add(m);
        Map<String, String> flowsOut = new LinkedHashMap<>();
        // Each key's flows in its own order (a QP then its paired direction), keys in the order given.
        for (Diagnosis p : parts) for (String id : p.flows().keySet()) flowsOut.putIfAbsent(id, flows.get(id));
        return new Diagnosis(findingsOut, new HangSnapshot(hang.atNs(), hangOut), splitOut, firstNs, flowsOut,
                keys.length() == 0 ? "(none: the warning names neither an address nor a QP number)" : keys.toString(),
                framesNotDiagnosed, List.copyOf(warnings));
    }

    /**
     * Only what concerns QP number qp and/or the peer address: the flows with that QP number in either direction
     * (NCCL prints the local QPN, the flow id carries the destination QPN) and their paired directions, and the
     * host-pair findings between their hosts.
     */
    public Diagnosis lookup(Integer qp, String peer) {
        java.util.Set<String> matched = new java.util.LinkedHashSet<>();
        for (var e : flows.entrySet()) {
            if (matches(e.getKey(), qp, peer) || (e.getValue() != null && matches(e.getValue(), qp, peer))) {
                matched.add(e.getKey());
                if (e.getValue() != null) matched.add(e.getValue());
            }
        }
        java.util.Set<String> hostPairs = new java.util.HashSet<>(), hosts = new java.util.HashSet<>();
        for (String id : matched) {
            String[] h = hosts(id);
            hostPairs.add(h[0] + " " + h[1]);
            hostPairs.add(h[1] + " " + h[0]);
            hosts.add(h[0]);
            hosts.add(h[1]);
        }
        List<Finding> f = new ArrayList<>();
        for (Finding x : findings) {
            String[] h = hosts(x.subject());
            // A one-host subject (step-straggler's) goes with the QPs that host sends or receives on.
            boolean oneHost = x.subject().indexOf('>') < 0 && h[0].equals(h[1]);
            if (matched.contains(x.subject()) || (x.subject().indexOf("/0x") < 0 && hostPairs.contains(h[0] + " " + h[1]))
                    || pauseConcerns(x, matched)
                    || (oneHost && (peer == null || h[0].equalsIgnoreCase(peer)) && hosts.contains(h[0]))) f.add(x);
        }
        List<HangSnapshot.Entry> h = new ArrayList<>();
        for (HangSnapshot.Entry e : hang.entries()) if (matched.contains(e.flow())) h.add(e);
        List<Map<String, Object>> t = new ArrayList<>();
        for (Map<String, Object> m : timeSplit) if (matched.contains((String) m.get("flow"))) t.add(m);
        Map<String, String> fl = new LinkedHashMap<>();
        for (String id : matched) fl.put(id, flows.get(id));
        String keys = (qp == null ? "" : String.format("--qp 0x%x", qp)) + (qp != null && peer != null ? " " : "")
                + (peer == null ? "" : "--peer " + peer);
        return new Diagnosis(f, new HangSnapshot(hang.atNs(), h), t, firstNs, fl, keys, framesNotDiagnosed);
    }

    /**
     * A pause finding's subject is a MAC and a class, no address: it concerns a looked-up QP when the QP is one it
     * stalled (pfc-pause-storm) or one sending on its priority (pfc-pause-heavy), among the flows it names (the first
     * 16: a QP beyond them is not found by its key).
     */
    private static boolean pauseConcerns(Finding x, java.util.Set<String> matched) {
        if (!x.rule().startsWith("pfc-pause-")) return false;
        for (String key : new String[] {"stalled_flows", "flows_on_priority"}) {
            if (x.details().get(key) instanceof List<?> named) {
                for (Object id : named) if (matched.contains(id)) return true;
            }
        }
        return false;
    }

    /** The two hosts of a flow id, direction or host pair. */
    static String[] hosts(String subject) {
        int slash = subject.lastIndexOf("/0x");
        String[] h = (slash >= 0 ? subject.substring(0, slash) : subject).split("<>|>");
        return h.length == 2 ? h : new String[] {subject, subject};
    }

    /**
     * A flow id {@code src>dst/0xQPN}, a direction {@code src>dst} or a host pair {@code a<>b} against the lookup
     * keys; a subject without a QP number matches a QP key only through its hosts (null qp).
     */
    static boolean matches(String subject, Integer qp, String peer) {
        if (peer != null) {
            boolean any = false;
            for (String h : hosts(subject)) any |= h.equalsIgnoreCase(peer);
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
        if (lookup != null) {
            Map<String, Object> l = new LinkedHashMap<>();    // not Map.of: its key order changes from JVM to JVM
            l.put("keys", lookup);
            l.put("flows", new ArrayList<>(flows.keySet()));
            if (!nccl.isEmpty()) {
                List<Object> w = new ArrayList<>();
                for (NcclWarning x : nccl) w.add(x.toJsonMap());
                l.put("nccl", w);
                if (firstLogged() >= 0) l.put("nccl_first_logged", firstLogged());   // its index in nccl
            }
            m.put("lookup", l);
        }
        List<Object> f = new ArrayList<>();
        for (Finding x : findings) f.add(x.toJsonMap(firstNs));
        m.put("findings", f);
        m.put("hang_snapshot", hang.toJsonMap());
        m.put("time_split", timeSplit);
        if (framesNotDiagnosed > 0) m.put("frames_not_diagnosed", framesNotDiagnosed);
        return m;
    }

    /**
     * Of several warnings, the one logged first (its index), when each has a time stamp of the same kind (all with a
     * zone or all without): a job's first error is the cause, the flushed requests after it (status 5) are not. -1
     * otherwise.
     */
    private int firstLogged() {
        if (nccl.size() < 2) return -1;
        int first = -1;
        for (int i = 0; i < nccl.size(); i++) {
            LogTime t = nccl.get(i).loggedAt();
            if (t == null || t.zoned() != nccl.get(0).loggedAt().zoned()) return -1;
            if (first < 0 || t.epochNs() < nccl.get(first).loggedAt().epochNs()) first = i;
        }
        return first;
    }

    /** When a warning was logged and where that falls against the capture ("logged at ..."), null without a time stamp. */
    public String logged(NcclWarning w) {
        return w.loggedAt() == null ? null : "logged at " + w.loggedAt().describe() + loggedWhen(w.loggedAt());
    }

    /**
     * Where a warning's time stamp falls against the capture: an operator pairing a job's log with a capture wants to
     * know at once whether the capture can hold what led to the warning (it must start before the warning).
     */
    private String loggedWhen(LogTime t) {
        if (firstNs < 0) return "";
        String first = new LogTime(firstNs, true).describe();
        if (!t.zoned()) return "; the capture's first frame is at " + first;
        long d = t.epochNs() - firstNs;
        String gap = span(Math.abs(d));
        return d < 0 ? ", " + gap + " before the capture's first frame (" + first + "): the capture cannot hold what led to it"
                : ", " + gap + " after the capture's first frame (" + first + ")";
    }

    private static String span(long ns) {
        double s = ns / 1e9;
        return s < 120 ? String.format("%.6f s", s) : s < 7200 ? String.format("%.1f min", s / 60) : String.format("%.1f h", s / 3600);
    }

    /** The text section of {@code analyze -T text}. */
    public void appendText(Appendable out) throws IOException {
        out.append("\nDiagnosis\n=========\n");
        if (framesNotDiagnosed > 0) {
            out.append("Note: ").append(Long.toString(framesNotDiagnosed)).append(" frames of QPs beyond the first ")
                    .append("diagnosed ones were not diagnosed (bounded per-QP state)\n");
        }
        int first = firstLogged();
        for (int i = 0; i < nccl.size(); i++) {
            NcclWarning w = nccl.get(i);
            out.append(w.kind()).append(nccl.size() > 1 ? " " + (i + 1) + " of " + nccl.size() : "")
                    .append(i == first ? " (the first logged: the others may be its consequences)" : "").append(": ")
                    .append(w.describe()).append('\n');
            out.append("    ").append(w.meaning()).append('\n');
            if (w.loggedAt() != null) out.append("    ").append(logged(w)).append('\n');
            if (w.peerAddresses().isEmpty() && w.peer() != null) {
                out.append("    the peer is named by host name only: give its RoCE address with --peer\n");
            } else if (w.peerAddresses().isEmpty()) {
                out.append("    no peer address printed: looked up by QP number only (--peer narrows it)\n");
            } else if (w.peerFromSocket()) {
                out.append("    peer address from NCCL's socket (no remote GID printed): if no QP flow matches, it is the ")
                        .append("bootstrap interface's; give the RoCE address with --peer\n");
            }
        }
        if (lookup != null) {
            out.append("Lookup ").append(lookup).append(": ");
            out.append(flows.isEmpty() ? "no QP flow matches" : String.join(", ", flows.keySet())).append('\n');
        }
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
