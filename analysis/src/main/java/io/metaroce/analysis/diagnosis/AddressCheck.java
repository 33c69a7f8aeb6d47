package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * "Can these two NICs talk RoCEv2 at all?" (issue 15, item 2): RoCEv1 (EtherType 0x8915) and RoCEv2 (UDP 4791)
 * between the same two hosts, RoCEv2 from a link-local (fe80::/10) address, which is not routed, and RoCEv2 in an
 * IPv6 packet from an IPv4-mapped address (::ffff:a.b.c.d): the QP was given the GID of an IPv4 address, whose
 * RoCEv2 packets are IPv4 ones, but the NIC sent an IPv6 header (a GID index of the wrong type), which the peer's
 * IPv4 QP and the fabric's IPv4 routes never match.
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
            if (d.v6 && d.rocev2 && d.srcHi == 0 && (d.srcLo >>> 32) == 0xFFFFL) {
                Map<String, Object> det = new LinkedHashMap<>();
                det.put("src", d.src);
                out.add(new Finding("gid-ipv4-mapped", d.id, "ipv4_mapped_gid", null,
                        "RoCEv2 in IPv6 packets from the IPv4-mapped address " + d.src + " (the GID of an IPv4 address used "
                                + "as an IPv6 one: a GID index of the wrong type); an IPv4 peer and IPv4 routes never match it",
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
