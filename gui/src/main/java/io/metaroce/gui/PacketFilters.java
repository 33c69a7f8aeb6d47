package io.metaroce.gui;

import io.metaroce.dissector.Addresses;
import io.metaroce.dissector.Dissection;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;

/**
 * Display filters for a packet, as the packet list's context menu applies them: the value of one column of its row
 * (Wireshark's "Apply as Filter > Selected" on a packet-list cell) and the packet's QP flow. Built from the
 * flyweight dissection of the frame, in the filter language the filter bar compiles.
 */
final class PacketFilters {
    private PacketFilters() { }

    /** The filter matching this frame's value in column (the packet list's header text); frame.number when none. */
    static String forColumn(Dissection d, int frame, String column) {
        String f = switch (column == null ? "" : column) {
            case "Source" -> address(d, true);
            case "Destination" -> address(d, false);
            case "Protocol" -> d.isRoce() ? d.hasMrth() ? "mrth" : "bth" : d.layerCount() > 0 ? d.layer(d.layerCount() - 1).id() : null;
            case "QP" -> d.isRoce() ? "bth.dest_qp == " + String.format("0x%06x", d.destQp()) : null;
            case "PSN" -> d.isRoce() ? "bth.psn == " + d.psn() : null;
            case "Length" -> "frame.len == " + d.originalLength();
            default -> null;
        };
        return f != null ? f : "frame.number == " + frame;
    }

    /**
     * The frame's flow as the analysis keys it (source, destination, destination QP), the same filter as the QP
     * Conversations window's "Filter on this flow"; for a frame without a BTH its address pair, or null.
     */
    static String flow(Dissection d) {
        String src = address(d, true), dst = address(d, false);
        if (src == null || dst == null) return null;
        String pair = src + " && " + dst;
        return d.isRoce() ? pair + " && bth.dest_qp == " + String.format("0x%06x", d.destQp()) : pair;
    }

    private static String address(Dissection d, boolean source) {
        int ip = d.offsetOf(Ip.HEADER);
        if (ip >= 0) return source ? "ip.src == " + Addresses.ipv4(Ip.src(d.data(), ip)) : "ip.dst == " + Addresses.ipv4(Ip.dst(d.data(), ip));
        int ip6 = d.offsetOf(Ipv6.HEADER);
        if (ip6 >= 0) return source ? "ipv6.src == " + Addresses.ipv6(Ipv6.src(d.data(), ip6))
                : "ipv6.dst == " + Addresses.ipv6(Ipv6.dst(d.data(), ip6));
        return null;
    }
}
