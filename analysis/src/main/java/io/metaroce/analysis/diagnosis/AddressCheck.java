package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * "Can these two NICs talk RoCEv2 at all?" (issue 15, item 2): RoCEv1 (EtherType 0x8915) and RoCEv2 (UDP 4791)
 * between the same two hosts, and RoCEv2 from a link-local (fe80::/10) address, which is not routed.
 */
final class AddressCheck {
    private AddressCheck() {}

    static List<Finding> check(List<QpDirection> all) {
        Map<String, boolean[]> pairs = new TreeMap<>();
        Map<String, Long> firstFrame = new TreeMap<>();
        List<Finding> out = new ArrayList<>();
        for (QpDirection d : all) {
            String k = d.src.compareTo(d.dst) <= 0 ? d.src + "<>" + d.dst : d.dst + "<>" + d.src;
            boolean[] v = pairs.computeIfAbsent(k, x -> new boolean[2]);
            v[0] |= d.rocev1;
            v[1] |= d.rocev2;
            firstFrame.merge(k, d.firstFrame, Math::min);
            if (d.v6 && d.rocev2 && (d.srcHi >>> 54) == (0xfe80L >>> 6)) {
                Map<String, Object> det = new LinkedHashMap<>();
                det.put("src", d.src);
                out.add(new Finding("gid-link-local", d.id, "link_local_gid", null,
                        "RoCEv2 from the link-local address " + d.src + " (GID index of a link-local GID): not routed beyond the subnet",
                        List.of(d.firstFrame), det));
            }
        }
        for (var e : pairs.entrySet()) {
            if (!e.getValue()[0] || !e.getValue()[1]) continue;
            out.add(new Finding("roce-version-mix", e.getKey(), "rocev1_and_rocev2", null,
                    "RoCEv1 (EtherType 0x8915) and RoCEv2 (UDP) between the same hosts: the two ends use GIDs of different RoCE versions",
                    List.of(firstFrame.get(e.getKey())), new LinkedHashMap<>()));
        }
        return out;
    }
}
