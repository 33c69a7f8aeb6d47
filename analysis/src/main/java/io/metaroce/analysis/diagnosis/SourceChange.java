package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * "Can these two NICs still talk?" (issue 15, item 2): a connected RoCEv2 QP reached from a new source address
 * after a silence. Two directions to the same destination QP, with the same UDP source port, from different
 * source addresses, the second starting after the first ended: the sender's address changed under a live QP
 * (its port came back with another address, or its GID table entry changed), while the peer's QP still
 * answers the old address.
 */
final class SourceChange {
    private SourceChange() {}

    static List<Finding> check(List<QpDirection> all) {
        Map<String, List<QpDirection>> byTarget = new TreeMap<>();
        for (QpDirection d : all) {
            // Connected services only (a UD QP is reached from anyone); a source port of 4791 is a capture point's
            // rewrite (SOURCES.md of the external captures) and says nothing about the sender's QP.
            if (!d.rocev2 || d.ud || d.tver != 0 || d.sports.isEmpty() || d.sports.containsKey(EntropyAudit.ROCE_PORT)
                    || !("rc".equals(d.service) || "uc".equals(d.service))) continue;
            byTarget.computeIfAbsent(d.dst + "/" + d.destQp, k -> new ArrayList<>()).add(d);
        }
        List<Finding> out = new ArrayList<>();
        for (List<QpDirection> l : byTarget.values()) {
            if (l.size() < 2) continue;
            l.sort(Comparator.comparingLong((QpDirection d) -> d.firstNs));
            for (int i = 1; i < l.size(); i++) {
                QpDirection before = l.get(i - 1), now = l.get(i);
                int port = EntropyAudit.mainPort(now);
                if (before.src.equals(now.src) || before.v6 != now.v6 || port != EntropyAudit.mainPort(before)
                        || now.firstNs <= before.lastNs) continue;
                long silent = now.firstNs - before.lastNs;
                Map<String, Object> det = new LinkedHashMap<>();
                det.put("old_src", before.src);
                det.put("new_src", now.src);
                det.put("sport", port);
                det.put("silent_ns", silent);
                det.put("old_last_frame", before.lastFrame);
                out.add(new Finding("address-source-changed", now.id, "source_address_changed", now.firstNs,
                        String.format("QP 0x%06x of %s is reached from %s after %.1f us of silence, from %s before (same UDP source "
                                + "port 0x%04x): the sender's address changed under a live QP, whose peer was set up with %s",
                                now.destQp, now.dst, now.src, silent / 1e3, before.src, port, before.src),
                        List.of(now.firstFrame), det));
            }
        }
        return out;
    }
}
