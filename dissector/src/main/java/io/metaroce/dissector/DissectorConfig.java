package io.metaroce.dissector;

import io.metaroce.protocol.Spec;
import java.util.Set;

/**
 * Dissector settings. roceUdpPorts: UDP destination ports decoded as RoCEv2/MetaRoCE (tshark's
 * {@code -d udp.port==N,infiniband}); checkIcrc: compute and compare the ICRC of every frame; disabled: the
 * {@link EnabledProtocols} bits of the protocols switched off (0: all on).
 */
public record DissectorConfig(Set<Integer> roceUdpPorts, boolean checkIcrc, boolean[] portTable, int disabled) {
    public static final DissectorConfig DEFAULT = new DissectorConfig(Set.of(Spec.ROCE_UDP_PORT), true);

    public DissectorConfig(Set<Integer> roceUdpPorts, boolean checkIcrc) {
        this(roceUdpPorts, checkIcrc, 0);
    }

    /** With protocols off ({@link EnabledProtocols#bits}): bth off also takes every port out of the table. */
    public DissectorConfig(Set<Integer> roceUdpPorts, boolean checkIcrc, int disabled) {
        this(Set.copyOf(roceUdpPorts), checkIcrc, table((disabled & EnabledProtocols.BTH) != 0 ? Set.of() : roceUdpPorts), disabled);
    }

    /** A direct lookup table: this runs for every UDP datagram. */
    private static boolean[] table(Set<Integer> ports) {
        boolean[] t = new boolean[65536];
        for (int p : ports) t[p & 0xFFFF] = true;
        return t;
    }

    public boolean isRocePort(int port) { return portTable[port & 0xFFFF]; }

    public DissectorConfig withPorts(Set<Integer> ports) { return new DissectorConfig(ports, checkIcrc, disabled); }
}
