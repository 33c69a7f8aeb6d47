package io.metaroce.dissector.stats;

import io.metaroce.dissector.Addresses;
import io.metaroce.dissector.Dissection;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.EnumDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import java.util.List;

/**
 * The stats trees tshark has for our frames (-z plen,tree, ptype,tree, ip_hosts,tree, ip_srcdst,tree, dests,tree and
 * the IPv6 ones) and ours for RDMA (roce_ops,tree), each a {@link StatsTree} fed frame by frame as Wireshark's taps
 * feed theirs: what dissect -z prints and the GUI's Statistics > Packet Lengths / IPv4 Statistics / IPv6 Statistics /
 * RoCE Operations windows show. One per tree and reader; frames in capture order.
 */
public final class StatsTrees {
    /** A tree: its -z name (before ",tree"), tshark's title and the menu entry that opens it. */
    public enum Kind {
        PLEN("plen", "Packet Lengths"),
        PTYPE("ptype", "IPv4 Statistics/IP Protocol Types"),
        IP_HOSTS("ip_hosts", "IPv4 Statistics/All Addresses"),
        IP_SRCDST("ip_srcdst", "IPv4 Statistics/Source and Destination Addresses"),
        DESTS("dests", "IPv4 Statistics/Destinations and Ports"),
        IPV6_HOSTS("ipv6_hosts", "IPv6 Statistics/All Addresses"),
        IPV6_SRCDST("ipv6_srcdst", "IPv6 Statistics/Source and Destination Addresses"),
        IPV6_DESTS("ipv6_dests", "IPv6 Statistics/Destinations and Ports"),
        ROCE_OPS("roce_ops", "RoCE Statistics/Operations");

        private final String abbr, title;

        Kind(String abbr, String title) {
            this.abbr = abbr;
            this.title = title;
        }

        /** The -z name: "plen" of -z plen,tree. */
        public String abbr() { return abbr; }

        public String title() { return title; }

        /** The kind a -z name names, or null. */
        public static Kind of(String abbr) {
            for (Kind k : values()) if (k.abbr.equals(abbr)) return k;
            return null;
        }
    }

    /** Wireshark's packet length ranges (its default plen UAT); -1: and greater. */
    private static final long[][] PLEN_RANGES = {{0, 19}, {20, 39}, {40, 79}, {80, 159}, {160, 319}, {320, 639},
            {640, 1279}, {1280, 2559}, {2560, 5119}, {5120, -1}};

    private final Kind kind;
    private final StatsTree tree;
    /** The fixed top nodes (the second: ip_srcdst's destinations). */
    private StatsTree.Node top, top2;

    public StatsTrees(Kind kind) {
        this.kind = kind;
        this.tree = new StatsTree(kind.title());
        switch (kind) {
            case PLEN -> {
                top = tree.top("Packet Lengths", false);
                tree.ranges(top, PLEN_RANGES);
            }
            case PTYPE -> top = tree.top("IP Protocol Types", false);
            case IP_HOSTS, IPV6_HOSTS -> top = tree.top("All Addresses", false);
            case IP_SRCDST -> {
                top = tree.top("Source IPv4 Addresses", true);
                top2 = tree.top("Destination IPv4 Addresses", false);
            }
            case IPV6_SRCDST -> {
                top = tree.top("Source IPv6 Addresses", true);
                top2 = tree.top("Destination IPv6 Addresses", false);
            }
            case DESTS, IPV6_DESTS -> top = tree.top("Destinations and Ports", false);
            case ROCE_OPS -> top = tree.top("RoCE Operations", false);
        }
    }

    public Kind kind() { return kind; }

    public StatsTree tree() { return tree; }

    /** Counts a frame, as the tree's tap would: the IP trees once per IPv4 (IPv6) header, RoCE once per BTH. */
    public void add(Dissection d) {
        switch (kind) {
            case PLEN -> {
                tree.frame(d.timeNanos() - d.firstTimeNanos());
                tree.tick(top);
                tree.tickRange(top, d.originalLength());
            }
            case ROCE_OPS -> {
                if (d.isRoce()) {
                    tree.frame(d.timeNanos() - d.firstTimeNanos());
                    roce(d);
                }
            }
            default -> {
                boolean v6 = kind == Kind.IPV6_HOSTS || kind == Kind.IPV6_SRCDST || kind == Kind.IPV6_DESTS;
                int header = v6 ? Ipv6.HEADER : Ip.HEADER;
                for (int i = 0; i < d.layerCount(); i++) {
                    if (d.layerHeader(i) != header) continue;
                    tree.frame(d.timeNanos() - d.firstTimeNanos());
                    ip(d, i, v6);
                }
            }
        }
    }

    /** One IP header of a frame (tshark's ip/ipv6 tap): its addresses, and the frame's port type and destination. */
    private void ip(Dissection d, int layer, boolean v6) {
        byte[] b = d.head();
        int o = d.layerOffset(layer);
        switch (kind) {
            case PTYPE -> {
                tree.tick(top);
                tree.tick(tree.child(top, portType(d), portType(d)));
            }
            case IP_HOSTS, IPV6_HOSTS -> {
                tree.tick(top);
                tree.tick(address(top, b, o, v6, true));
                tree.tick(address(top, b, o, v6, false));
            }
            case IP_SRCDST, IPV6_SRCDST -> {
                tree.tick(top);
                tree.tick(address(top, b, o, v6, true));
                tree.tick(top2);
                tree.tick(address(top2, b, o, v6, false));
            }
            default -> {
                tree.tick(top);
                StatsTree.Node dst = address(top, b, o, v6, false);
                tree.tick(dst);
                String type = portType(d);
                StatsTree.Node proto = tree.child(dst, type, type);
                tree.tick(proto);
                long port = destPort(d);
                tree.tick(tree.child(proto, port, Long.toString(port)));
            }
        }
    }

    /** An address's node under parent (keyed by its value: no text made for a known address). */
    private StatsTree.Node address(StatsTree.Node parent, byte[] b, int o, boolean v6, boolean source) {
        if (!v6) {
            int a = source ? Ip.src(b, o) : Ip.dst(b, o);
            StatsTree.Node n = tree.find(parent, a);
            return n != null ? n : tree.child(parent, a, Addresses.ipv4(a));
        }
        byte[] a = java.util.Arrays.copyOfRange(b, o + (source ? 8 : 24), o + (source ? 24 : 40));
        return tree.child(parent, java.nio.ByteBuffer.wrap(a), Addresses.ipv6(a));
    }

    /**
     * tshark's pinfo->ptype as port_type_to_str writes it: IBQP for RoCE (its QPs are the ports), UDP, TCP, SCTP or
     * DCCP after the last IP header, else NONE.
     */
    private static String portType(Dissection d) {
        if (d.isRoce()) return "IBQP";
        if (d.hasLayer(Udp.HEADER)) return "UDP";
        return switch (otherTransport(d)) {
            case 6 -> "TCP";
            case 33 -> "DCCP";
            case 132 -> "SCTP";
            default -> "NONE";
        };
    }

    /** tshark's pinfo->destport: the destination QP of RoCE, the UDP (TCP, SCTP, DCCP) destination port, else 0. */
    private static long destPort(Dissection d) {
        if (d.isRoce()) return d.destQp();
        int u = d.findLayer(Udp.HEADER);
        if (u >= 0) return Udp.dstport(d.head(), d.layerOffset(u));
        if (otherTransport(d) < 0) return 0;
        // The port's bytes after the IP header (we do not decode TCP, SCTP or DCCP): the same place in all three.
        long at = transportOffset(d) + 2;
        if (at + 2 > d.capturedLength()) return 0;
        return ((d.data().get(java.lang.foreign.ValueLayout.JAVA_BYTE, at) & 0xFF) << 8)
                | (d.data().get(java.lang.foreign.ValueLayout.JAVA_BYTE, at + 1) & 0xFF);
    }

    /** The IP protocol after the last IP header when it is TCP (6), DCCP (33) or SCTP (132) with its ports there; else -1. */
    private static int otherTransport(Dissection d) {
        int ip = lastIp(d);
        if (ip < 0) return -1;
        byte[] b = d.head();
        int o = d.layerOffset(ip);
        int proto = d.layerHeader(ip) == Ip.HEADER ? Ip.proto(b, o) : Ipv6.nxt(b, o);
        if (proto != 6 && proto != 33 && proto != 132) return -1;
        if (d.layerHeader(ip) == Ip.HEADER && Ip.fragOffset(b, o) != 0) return -1;   // a later fragment has no ports
        return transportOffset(d) + 4 <= d.capturedLength() ? proto : -1;
    }

    private static int lastIp(Dissection d) {
        for (int i = d.layerCount() - 1; i >= 0; i--) {
            if (d.layerHeader(i) == Ip.HEADER || d.layerHeader(i) == Ipv6.HEADER) return i;
        }
        return -1;
    }

    /** Where the header after the last IP header starts (IPv4: its IHL; IPv6: 40 bytes, no extension headers read). */
    private static int transportOffset(Dissection d) {
        int ip = lastIp(d);
        int o = d.layerOffset(ip);
        return o + (d.layerHeader(ip) == Ip.HEADER ? Ip.hdrLen(d.head(), o) * 4 : 40);
    }

    /**
     * roce_ops: the BTH opcodes by transport (RC, UC, RD, UD, XRC, control), then operation (the opcode's family and
     * role from the spec's opcode table), then the opcode; acknowledges by the AETH's kind (ACK, RNR NAK, NAK and its
     * code) instead of the opcode.
     */
    private void roce(Dissection d) {
        tree.tick(top);
        OpcodeDef op = d.opcode();
        if (op == null) {
            int v = d.opcodeValue();
            StatsTree.Node t = tree.child(top, "unknown", "Unknown");
            tree.tick(t);
            StatsTree.Node o = tree.child(t, "unknown", "Unknown opcode");
            tree.tick(o);
            tree.tick(tree.child(o, v, String.format(java.util.Locale.ROOT, "0x%02x", v)));
            return;
        }
        // The opcode's nodes, found once per opcode (no lookup, no text per frame after that).
        int key = (d.tver() == 1 ? 256 : 0) + op.code();
        StatsTree.Node[] nodes = opNodes[key];
        if (nodes == null) {
            String transport = op.transport().equals("control") ? (d.tver() == 1 ? "MetaRoCE control" : "Control")
                    : op.transport().toUpperCase(java.util.Locale.ROOT);
            StatsTree.Node t = tree.child(top, transport, transport);
            String operation = operation(op);
            StatsTree.Node o = tree.child(t, operation, operation);
            nodes = opNodes[key] = new StatsTree.Node[] {t, o, op.role() == OpcodeDef.Role.ACK ? null : tree.child(o, op.code(), op.label())};
        }
        tree.tick(nodes[0]);
        tree.tick(nodes[1]);
        if (nodes[2] != null) {
            tree.tick(nodes[2]);
            return;
        }
        // An acknowledge: by its AETH kind (the syndrome; 256: no AETH).
        int a = d.findLayer(Aeth.HEADER);
        int syndrome = a < 0 ? 256 : Aeth.syndrome(d.head(), d.layerOffset(a));
        if (ackNodes[key] == null) ackNodes[key] = new StatsTree.Node[257];
        StatsTree.Node leaf = ackNodes[key][syndrome];
        if (leaf == null) {
            String kind = a < 0 ? "No AETH" : aethKind(syndrome);
            leaf = ackNodes[key][syndrome] = tree.child(nodes[1], kind, kind);
        }
        tree.tick(leaf);
    }

    /** roce_ops: per transport version and opcode, its transport, operation and opcode nodes (null: not met yet). */
    private final StatsTree.Node[][] opNodes = new StatsTree.Node[512][];
    /** roce_ops: per acknowledge opcode, its nodes by AETH syndrome. */
    private final StatsTree.Node[][] ackNodes = new StatsTree.Node[512][];

    /** An opcode's operation: SEND, RDMA WRITE, RDMA READ Request/Response, ATOMIC, ... (its family and role). */
    static String operation(OpcodeDef op) {
        String f = op.family();
        return switch (f) {
            case "send" -> "SEND";
            case "write" -> "RDMA WRITE";
            case "read" -> op.role() == OpcodeDef.Role.RESPONSE ? "RDMA READ Response" : "RDMA READ Request";
            case "atomic" -> op.role() == OpcodeDef.Role.RESPONSE ? "ATOMIC Acknowledge" : "ATOMIC";
            case "ack" -> "Acknowledge";
            case "flush" -> "RDMA FLUSH";
            case "cnp" -> "CNP";
            default -> op.label();
        };
    }

    /** The AETH syndrome as the spec names it: ACK, RNR NAK, or NAK with its code (PSN Sequence Error, ...). */
    static String aethKind(int syndrome) {
        int kind = (syndrome >>> 5) & 3, code = syndrome & 0x1f;
        String k = label(Spec.ENUM_AETH_KIND, kind);
        return kind == 3 ? k + ": " + label(Spec.ENUM_NAK_CODE, code) : k;
    }

    private static String label(EnumDef e, long v) {
        String l = e.label(v);
        return l != null ? l : "Unknown (" + v + ")";
    }

    /** Every kind's -z argument as -z help lists it. */
    public static List<String> help() {
        List<String> l = new java.util.ArrayList<>();
        for (Kind k : Kind.values()) l.add(k.abbr() + ",tree[,FILTER]");
        return l;
    }
}
