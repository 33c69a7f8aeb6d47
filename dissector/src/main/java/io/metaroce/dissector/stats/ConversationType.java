package io.metaroce.dissector.stats;

import io.metaroce.protocol.Eth;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Udp;

/**
 * The layers whose addresses make conversations and endpoints (tshark's -z conv,TYPE and Wireshark's tabs): the id
 * tshark takes, the tab's title, the header counted and the display filter field of its addresses.
 */
public enum ConversationType {
    ETH("eth", "Ethernet", Eth.HEADER), IP("ip", "IPv4", Ip.HEADER), IPV6("ipv6", "IPv6", Ipv6.HEADER), UDP("udp", "UDP", Udp.HEADER);

    private final String id, title;
    private final int header;

    ConversationType(String id, String title, int header) {
        this.id = id;
        this.title = title;
        this.header = header;
    }

    /** tshark's name of the type (conv,ip). */
    public String id() { return id; }

    /** Wireshark's tab title (IPv4). */
    public String title() { return title; }

    /** The header each of whose occurrences in a frame counts once. */
    public int header() { return header; }

    /** The type tshark names id, or null. */
    public static ConversationType of(String id) {
        for (ConversationType t : values()) if (t.id.equals(id)) return t;
        return null;
    }

    /** The address field of a filter on this type's addresses (for UDP, the IP version's: ip or ipv6). */
    String addressField(String address) {
        return switch (this) {
            case ETH -> "eth";
            case IP -> "ip";
            case IPV6 -> "ipv6";
            case UDP -> address.indexOf(':') >= 0 ? "ipv6" : "ip";
        };
    }
}
