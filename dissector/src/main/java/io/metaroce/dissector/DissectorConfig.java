package io.metaroce.dissector;

import io.metaroce.protocol.Spec;
import java.util.Set;

/**
 * Dissector settings. roceUdpPorts: UDP destination ports decoded as RoCEv2/MetaRoCE (tshark's
 * {@code -d udp.port==N,infiniband}); checkIcrc: compute and compare the ICRC of every frame.
 */
public record DissectorConfig(Set<Integer> roceUdpPorts, boolean checkIcrc) {
    public static final DissectorConfig DEFAULT = new DissectorConfig(Set.of(Spec.ROCE_UDP_PORT), true);

    public DissectorConfig {
        roceUdpPorts = Set.copyOf(roceUdpPorts);
    }

    public boolean isRocePort(int port) { return roceUdpPorts.contains(port); }

    public DissectorConfig withPorts(Set<Integer> ports) { return new DissectorConfig(ports, checkIcrc); }
}
