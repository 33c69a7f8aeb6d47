package io.metaroce.dissector.stats;

import io.metaroce.dissector.Addresses;
import io.metaroce.dissector.Dissection;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Udp;

/**
 * One end of a conversation or an endpoint as counted: an address (a MAC or an IPv4 address in lo; an IPv6 address in
 * hi and lo; for UDP v6 marks IPv6) and a port (-1: none). Texts are made only for the rows shown.
 */
record End(long hi, long lo, int port, boolean v6) {
    String address(ConversationType t) {
        return switch (t) {
            case ETH -> Addresses.mac(lo);
            case IP -> Addresses.ipv4((int) lo);
            case IPV6 -> ipv6(hi, lo);
            case UDP -> v6 ? ipv6(hi, lo) : Addresses.ipv4((int) lo);
        };
    }

    private static String ipv6(long hi, long lo) {
        byte[] a = new byte[16];
        for (int i = 0; i < 8; i++) {
            a[i] = (byte) (hi >>> (56 - 8 * i));
            a[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return Addresses.ipv6(a);
    }

    /**
     * The source (source true) or destination end of layer i of the frame, whose header is t's; null for a UDP header
     * with no IP header before it.
     */
    static End of(ConversationType t, Dissection d, int i, boolean source) {
        byte[] b = d.head();
        int o = d.layerOffset(i);
        switch (t) {
            case ETH:
                return new End(0, source ? Eth.src(b, o) : Eth.dst(b, o), -1, false);
            case IP:
                return new End(0, (source ? Ip.src(b, o) : Ip.dst(b, o)) & 0xFFFFFFFFL, -1, false);
            case IPV6:
                return new End(longAt(b, o + (source ? 8 : 24)), longAt(b, o + (source ? 16 : 32)), -1, true);
            default:
                // UDP: the addresses of the IP header before it.
                int ip = i - 1;
                while (ip >= 0 && d.layerHeader(ip) != Ip.HEADER && d.layerHeader(ip) != Ipv6.HEADER) ip--;
                if (ip < 0) return null;
                int io = d.layerOffset(ip);
                int port = source ? Udp.srcport(b, o) : Udp.dstport(b, o);
                if (d.layerHeader(ip) == Ipv6.HEADER) {
                    return new End(longAt(b, io + (source ? 8 : 24)), longAt(b, io + (source ? 16 : 32)), port, true);
                }
                return new End(0, (source ? Ip.src(b, io) : Ip.dst(b, io)) & 0xFFFFFFFFL, port, false);
        }
    }

    private static long longAt(byte[] b, int o) {
        long v = 0;
        for (int i = 0; i < 8; i++) v = (v << 8) | (b[o + i] & 0xFF);
        return v;
    }
}
