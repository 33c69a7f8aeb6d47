package io.metaroce.samples;

import io.metaroce.dissector.Addresses;
import java.util.HashMap;
import java.util.Map;

/** A host: one NIC with a MAC, an IPv4 or IPv6 address, optional VLAN tag and DSCP, and its QPs by number. */
final class Host {
    final int index;
    long mac;
    final boolean ipv6;
    int ipv4;
    final byte[] ip6;
    String ip;
    final int vlan;
    final int dscp;
    /** Host clock offset for MRTH tx_timestamp (ns, mod 2^32 on the wire). */
    final long clockOffset;
    /** When the NIC finishes serializing what it was given so far. */
    long nicFreeAt;
    int ipId;
    /** Endpoints by QP number; looked up only, never iterated (determinism). */
    final Map<Integer, Endpoint> qps = new HashMap<>();

    Host(int index, boolean ipv6, int vlan, int dscp, long clockOffset) {
        this.index = index;
        this.mac = 0x02_00_00_00_00_00L | ((long) (index + 1) << 8) | 0x10;
        this.ipv6 = ipv6;
        this.vlan = vlan;
        this.dscp = dscp;
        this.clockOffset = clockOffset;
        if (ipv6) {
            ip6 = new byte[16];
            ip6[0] = (byte) 0xfd;
            ip6[14] = (byte) ((index + 1) >>> 8);
            ip6[15] = (byte) (index + 1);
            ipv4 = 0;
            ip = Addresses.ipv6(ip6);
        } else {
            ip6 = null;
            ipv4 = (10 << 24) | (index + 1);
            ip = Addresses.ipv4(ipv4);
        }
    }

    /**
     * The host gets another IPv4 address (its port came back with a new one): flows created from now on carry
     * it, flows created before keep the address they were set up with (as a QP's address vector does).
     */
    void readdress(int newIpv4) {
        if (ipv6) throw new IllegalStateException("readdress: IPv4 hosts only");
        ipv4 = newIpv4;
        ip = Addresses.ipv4(newIpv4);
    }

    /**
     * The IPv6 host sends from another address (a GID of another kind picked by the QP's GID index): set before its
     * flows are created, which copy the address they are set up with.
     */
    void readdress6(byte[] address) {
        if (!ipv6) throw new IllegalStateException("readdress6: IPv6 hosts only");
        System.arraycopy(address, 0, ip6, 0, 16);
        ip = Addresses.ipv6(ip6);
    }

    /** The address as 16 bytes (IPv4 as ::ffff:a.b.c.d), as CM GIDs and the IP CM header carry it. */
    byte[] gid() {
        if (ipv6) return ip6.clone();
        byte[] g = new byte[16];
        g[10] = (byte) 0xFF;
        g[11] = (byte) 0xFF;
        g[12] = (byte) (ipv4 >>> 24);
        g[13] = (byte) (ipv4 >>> 16);
        g[14] = (byte) (ipv4 >>> 8);
        g[15] = (byte) ipv4;
        return g;
    }

    /** Sender clock for MRTH tx_timestamp: monotonic, wraps mod 2^32 on the wire. */
    long clock(long now) { return (now + clockOffset) & 0xFFFF_FFFFL; }
}
