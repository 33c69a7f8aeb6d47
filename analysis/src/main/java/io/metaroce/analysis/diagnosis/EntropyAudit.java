package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * "Are my QPs spread over paths?" (issue 15, item 4), for RoCEv2 (MetaRoCE paths have their own health): per
 * host pair and direction, the UDP source ports of its RC QPs, packets and bytes per port, and per port the
 * share of request packets that were resends. Flags every QP on one source port (two QPs or more, no ECMP
 * entropy) and one sick port among healthy ones (at least three ports; its resend share at least 1 % and
 * five times the median of the others').
 */
final class EntropyAudit {
    private EntropyAudit() {}

    static final int ROCE_PORT = 4791;

    static List<Finding> audit(List<QpDirection> all) {
        Map<String, List<QpDirection>> byPair = new TreeMap<>();
        for (QpDirection d : all) {
            // Connected RoCEv2 QPs only; a source port of 4791 is a capture point's rewrite (SOURCES.md of the
            // external captures), not the sender's choice.
            if (!d.requester() || d.tver != 0 || d.rocev1 || d.sports.isEmpty() || d.sports.containsKey(ROCE_PORT)
                    || !("rc".equals(d.service) || "uc".equals(d.service))) continue;
            byPair.computeIfAbsent(d.src + ">" + d.dst, k -> new ArrayList<>()).add(d);
        }
        List<Finding> out = new ArrayList<>();
        for (var e : byPair.entrySet()) {
            List<QpDirection> qps = e.getValue();
            Map<Integer, long[]> ports = new TreeMap<>(); // port -> {qps, packets, bytes, requests, resends, first frame}
            for (QpDirection d : qps) {
                for (var p : d.sports.entrySet()) {
                    long[] c = ports.computeIfAbsent(p.getKey(), k -> new long[] {0, 0, 0, 0, 0, d.firstFrame});
                    c[0]++;
                    c[1] += p.getValue()[0];
                    c[2] += p.getValue()[1];
                }
                int main = mainPort(d);
                long[] c = ports.get(main);
                c[3] += d.requests;
                c[4] += d.resends;
            }
            long totalBytes = 0;
            for (long[] c : ports.values()) totalBytes += c[2];
            Map<String, Object> perPort = new LinkedHashMap<>();
            for (var p : ports.entrySet()) {
                long[] c = p.getValue();
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("qps", c[0]);
                m.put("packets", c[1]);
                m.put("byte_share", totalBytes == 0 ? 0.0 : (double) c[2] / totalBytes);
                m.put("resend_share", c[3] == 0 ? 0.0 : (double) c[4] / c[3]);
                perPort.put(String.format("0x%04x", p.getKey()), m);
            }
            if (qps.size() >= 2 && ports.size() == 1) {
                int port = ports.keySet().iterator().next();
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("qps", qps.size());
                d.put("sport", port);
                d.put("ports", perPort);
                List<Long> ev = new ArrayList<>();
                for (QpDirection q : qps) ev.add(q.firstFrame);
                ev.sort(null);
                out.add(new Finding("entropy-single-source-port", e.getKey(), "single_source_port", null,
                        "all " + qps.size() + " QPs from " + e.getKey().replace(">", " to ") + " use UDP source port "
                                + String.format("0x%04x", port) + ": ECMP puts them all on one path", ev, d));
            }
            if (ports.size() >= 3) {
                for (var p : ports.entrySet()) {
                    long[] c = p.getValue();
                    if (c[3] == 0) continue;
                    double share = (double) c[4] / c[3];
                    List<Double> others = new ArrayList<>();
                    for (var o : ports.entrySet()) {
                        if (o.getKey().equals(p.getKey()) || o.getValue()[3] == 0) continue;
                        others.add((double) o.getValue()[4] / o.getValue()[3]);
                    }
                    if (others.size() < 2) continue;
                    others.sort(null);
                    double median = others.get(others.size() / 2);
                    if (share >= 0.01 && share >= 5 * median) {
                        Map<String, Object> d = new LinkedHashMap<>();
                        d.put("sport", p.getKey());
                        d.put("resend_share", share);
                        d.put("median_other_ports", median);
                        d.put("ports", perPort);
                        out.add(new Finding("entropy-sick-source-port", e.getKey(), "sick_source_port", null,
                                String.format("UDP source port 0x%04x resends %.1f %% of its requests, the other ports %.1f %% (median): "
                                        + "the path ECMP hashes it to is sick", p.getKey(), 100 * share, 100 * median),
                                List.of(c[5]), d));
                    }
                }
            }
        }
        return out;
    }

    static int mainPort(QpDirection d) {
        int best = -1;
        long n = -1;
        for (var p : d.sports.entrySet()) if (p.getValue()[0] > n) {
            n = p.getValue()[0];
            best = p.getKey();
        }
        return best;
    }
}
