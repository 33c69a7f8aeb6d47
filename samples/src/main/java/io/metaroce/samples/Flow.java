package io.metaroce.samples;

/**
 * One QP direction (spec §12 flow id {@code "<src ip>><dst ip>/0x<dest_qp>"}) and the ground-truth counters
 * of everything its sender transmitted, whether or not a tap saw it.
 */
final class Flow {
    final int index;
    final String id;
    final Host src, dst;
    final int destQp;
    /** The IPv4 addresses the flow was set up with (a host may be readdressed later, {@link Host#readdress}). */
    final int srcIpv4, dstIpv4;
    /** "rocev2" or "metaroce". */
    final String transport;
    /** "rc", "ud", "cm" (QP 1 MADs) or "raw" (a planted stand-alone frame). */
    final String service;
    /** VLAN priority (PCP) of the flow's frames when its host tags them (alt-pcp moves some QP pairs off 3). */
    int pcp = 3;
    /** The sender's own QP number (-1 unknown). */
    int srcQp = -1;
    Flow peer;
    /** MetaRoCE: spray / path count / base port of this direction (path count 0 = not MetaRoCE). */
    boolean spray;
    int pathCount;
    int basePort;

    long packets, dataPackets, retransmitted, spurious, timeouts, acks, naks, rnrNaks, sacks, nacks, cnps, credits,
            probes, ceMarks, messages, payloadBytes, lost, frames;
    /** Frames a PFC pause holds in the receiver's downlink queue now (at the end: never delivered, not lost). */
    long heldByPfc;
    final long[] retransmittedByCause = new long[Pkt.CAUSE_NAMES.length];
    long[] pathPackets = new long[0], pathLost = new long[0], pathCe = new long[0];

    Flow(int index, Host src, Host dst, int destQp, String transport, String service) {
        this.index = index;
        this.src = src;
        this.dst = dst;
        this.destQp = destQp;
        this.transport = transport;
        this.service = service;
        this.id = id(src.ip, dst.ip, destQp);
        this.srcIpv4 = src.ipv4;
        this.dstIpv4 = dst.ipv4;
    }

    static String id(String src, String dst, int destQp) {
        String hex = Integer.toHexString(destQp & 0xFFFFFF);
        return src + ">" + dst + "/0x" + "000000".substring(hex.length()) + hex;
    }

    void ensurePaths(int path) {
        if (path < pathPackets.length) return;
        int n = Math.max(path + 1, pathPackets.length * 2);
        pathPackets = java.util.Arrays.copyOf(pathPackets, n);
        pathLost = java.util.Arrays.copyOf(pathLost, n);
        pathCe = java.util.Arrays.copyOf(pathCe, n);
    }
}
