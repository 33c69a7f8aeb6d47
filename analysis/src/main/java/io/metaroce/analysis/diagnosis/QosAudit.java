package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * "Is every byte on the lossless class?" (issue 15, item 3): per packet kind (data, ACK, NAK, CNP, zero-length),
 * the DSCP, ECN capability and VLAN PCP each QP direction mostly uses; a direction whose marking differs from
 * what most directions use for the same kind is flagged (a minority marking: one QP or one direction on DSCP
 * 0, Not-ECT data among ECT). Needs at least two directions agreeing on the majority marking.
 */
final class QosAudit {
    private QosAudit() {}

    /** The marking part of a key: dscp, pcp+1, ECT or not. */
    private static long marking(long key) {
        int ecn = (int) (key & 0xF);
        return (key & 0xFFFF_FF00L) | (ecn == 0 ? 0 : 1);
    }

    static List<Finding> audit(List<QpDirection> all) {
        List<Finding> out = new ArrayList<>();
        for (int kind = 0; kind < Kinds.NAMES.length; kind++) {
            if (kind == Kinds.CONTROL) continue;
            Map<QpDirection, long[]> dominant = new LinkedHashMap<>();
            Map<Long, Integer> votes = new HashMap<>();
            for (QpDirection d : all) {
                long best = -1, bestN = 0, first = 0;
                Map<Long, long[]> byMarking = new HashMap<>();
                for (var e : d.markings.entrySet()) {
                    if ((e.getKey() >>> 32) != kind) continue;
                    long[] c = byMarking.computeIfAbsent(marking(e.getKey()), k -> new long[] {0, e.getValue()[1]});
                    c[0] += e.getValue()[0];
                    c[1] = Math.min(c[1], e.getValue()[1]);
                }
                for (var e : byMarking.entrySet()) {
                    if (e.getValue()[0] > bestN) {
                        bestN = e.getValue()[0];
                        best = e.getKey();
                        first = e.getValue()[1];
                    }
                }
                if (best < 0) continue;
                dominant.put(d, new long[] {best, bestN, first});
                votes.merge(best, 1, Integer::sum);
            }
            if (votes.size() < 2) continue;
            long major = -1;
            int majorVotes = 0, second = 0;
            for (var e : votes.entrySet()) {
                if (e.getValue() > majorVotes) {
                    second = majorVotes;
                    majorVotes = e.getValue();
                    major = e.getKey();
                } else if (e.getValue() > second) second = e.getValue();
            }
            if (majorVotes < 2 || majorVotes == second) continue;
            for (var e : dominant.entrySet()) {
                long m = e.getValue()[0];
                if (m == major) continue;
                QpDirection d = e.getKey();
                Map<String, Object> det = new LinkedHashMap<>();
                det.put("kind", Kinds.NAMES[kind]);
                det.put("dscp", dscp(m));
                det.put("expected_dscp", dscp(major));
                det.put("ect", (m & 1) != 0);
                det.put("expected_ect", (major & 1) != 0);
                det.put("pcp", pcp(m));
                det.put("expected_pcp", pcp(major));
                det.put("packets", e.getValue()[1]);
                det.put("directions_with_expected", majorVotes);
                String what = dscp(m) != dscp(major) ? "DSCP " + dscp(m) + " instead of " + dscp(major)
                        : (m & 1) != (major & 1) ? ((m & 1) == 0 ? "Not-ECT where the rest is ECT" : "ECT where the rest is Not-ECT")
                        : "PCP " + pcp(m) + " instead of " + pcp(major);
                out.add(new Finding("qos-minority-marking", d.id, "minority_marking", null,
                        Kinds.NAMES[kind] + " packets of this direction use " + what + " (" + majorVotes
                                + " other directions use the majority marking): possibly on a lossy class",
                        List.of(e.getValue()[2]), det));
            }
        }
        return out;
    }

    static int dscp(long m) { return (int) ((m >>> 16) & 0xFF) == 0xFF ? -1 : (int) ((m >>> 16) & 0xFF); }

    static Integer pcp(long m) {
        int p = (int) ((m >>> 8) & 0xF);
        return p == 0 ? null : p - 1;
    }
}
