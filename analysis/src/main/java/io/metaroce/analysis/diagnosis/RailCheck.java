package io.metaroce.analysis.diagnosis;

import io.metaroce.dissector.Addresses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * "Is the peer on my rail?" (issue 15, item 2). A rail is the set of NICs that one rail switch connects, and a
 * rail is addressed as one subnet; here a host's rail subnet is the /24 of its IPv4 address (the /64 of an IPv6
 * one), and the host's rail is the peers it sends RoCEv2 to inside that subnet. When at least
 * {@link #MIN_IN_RAIL} peers share the host's subnet and the peers outside it are at most a third as many, each
 * outside peer is flagged: a NIC given another rail's address (or a wrong GID index), whose traffic crosses the
 * spine or does not route at all. Address plans that spread a rail over several /24s simply have no majority
 * and give no finding.
 */
final class RailCheck {
    static final int MIN_IN_RAIL = 3;

    private RailCheck() {}

    static List<Finding> check(List<QpDirection> all) {
        // source -> peer -> the first frame to it (sorted maps: the report order does not depend on hashing)
        Map<String, Map<String, QpDirection>> bySource = new TreeMap<>();
        for (QpDirection d : all) {
            if (!d.rocev2) continue;
            Map<String, QpDirection> peers = bySource.computeIfAbsent(d.src, k -> new TreeMap<>());
            QpDirection first = peers.get(d.dst);
            if (first == null || d.firstFrame < first.firstFrame) peers.put(d.dst, d);
        }
        List<Finding> out = new ArrayList<>();
        for (Map<String, QpDirection> peers : bySource.values()) {
            List<QpDirection> in = new ArrayList<>(), outside = new ArrayList<>();
            for (QpDirection d : peers.values()) (sameSubnet(d) ? in : outside).add(d);
            if (in.size() < MIN_IN_RAIL || outside.isEmpty() || 3 * outside.size() > in.size()) continue;
            for (QpDirection d : outside) {
                String rail = subnet(d);
                Map<String, Object> det = new LinkedHashMap<>();
                det.put("rail_subnet", rail);
                det.put("peer", d.dst);
                det.put("peers_in_rail", in.size());
                out.add(new Finding("address-off-rail", d.src + ">" + d.dst, "off_rail_peer", null,
                        d.dst + " is outside the subnet " + rail + " that " + d.src + " and its " + in.size()
                                + " other peers share (its rail): a NIC with another rail's address or a wrong GID index; "
                                + "its traffic crosses the spine or does not route",
                        List.of(d.firstFrame), det));
            }
        }
        return out;
    }

    private static boolean sameSubnet(QpDirection d) {
        return d.v6 ? d.srcHi == d.dstHi : (d.srcLo >>> 8) == (d.dstLo >>> 8);
    }

    /** The source's rail subnet: its /24 (IPv4) or /64 (IPv6). */
    private static String subnet(QpDirection d) {
        if (!d.v6) return Addresses.ipv4((int) (d.srcLo & 0xFFFF_FF00L)) + "/24";
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) b[i] = (byte) (d.srcHi >>> (56 - 8 * i));
        return Addresses.ipv6(b) + "/64";
    }
}
