package io.metaroce.dissector;

import io.metaroce.protocol.Bth;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds RoCEv2 / MetaRoCE frames from the catalogue: Ethernet, IPv4 or IPv6, UDP, BTH, MRTH (tver 1),
 * the opcode's header chain from the opcode table, payload, pad and a correct ICRC. Field values are set
 * by name ({@code "bth.psn"}) through the catalogue, so the builder knows no layout of its own. Used by
 * tests and tools that need frames "built to the spec".
 */
public final class FrameBuilder {
    private final Map<String, Long> values = new LinkedHashMap<>();
    private int opcode;
    private int tver;
    private boolean spray;
    private boolean ipv6;
    private int payloadLength;
    private byte payloadFill = (byte) 0xA5;
    private boolean corruptIcrc;

    public FrameBuilder opcode(int opcode, int tver) {
        this.opcode = opcode;
        this.tver = tver;
        return this;
    }

    public FrameBuilder spray(boolean spray) {
        this.spray = spray;
        return this;
    }

    public FrameBuilder ipv6(boolean ipv6) {
        this.ipv6 = ipv6;
        return this;
    }

    public FrameBuilder payload(int length) {
        this.payloadLength = length;
        return this;
    }

    public FrameBuilder corruptIcrc() {
        this.corruptIcrc = true;
        return this;
    }

    /** Sets a numeric field by catalogue name; applied after the builder's own defaults. */
    public FrameBuilder set(String field, long value) {
        if (FieldCatalog.get().field(field) == null) throw new IllegalArgumentException("no field " + field);
        values.put(field, value);
        return this;
    }

    /** The headers after the BTH (and MRTH) for this opcode. */
    public int[] chain() {
        OpcodeDef def = Dissector.opcodeDef(opcode, tver);
        if (def == null) throw new IllegalArgumentException("opcode 0x" + Integer.toHexString(opcode) + " undefined for tver " + tver);
        return def.chain(spray);
    }

    public byte[] build() {
        int[] chain = chain();
        int pad = (4 - payloadLength % 4) % 4;
        int ipLen = ipv6 ? Ipv6.SIZE : Ip.SIZE;
        int transport = Bth.SIZE + (tver == 1 ? Mrth.SIZE : 0);
        for (int h : chain) transport += Spec.HEADERS.get(h).size();
        int udpLen = Udp.SIZE + transport + payloadLength + pad + 4;
        byte[] frame = new byte[Eth.SIZE + ipLen + udpLen];
        MemorySegment s = MemorySegment.ofArray(frame);
        Eth.dst(s, 0, 0x020000000014L);
        Eth.src(s, 0, 0x02000000000AL);
        Eth.type(s, 0, ipv6 ? 0x86DD : 0x0800);
        int ip = Eth.SIZE;
        if (ipv6) {
            Ipv6.version(s, ip, 6);
            Ipv6.plen(s, ip, udpLen);
            Ipv6.nxt(s, ip, 17);
            Ipv6.hlim(s, ip, 64);
            Ipv6.src(s, ip, MemorySegment.ofArray(Addresses.parse("fd00::10")));
            Ipv6.dst(s, ip, MemorySegment.ofArray(Addresses.parse("fd00::20")));
        } else {
            Ip.version(s, ip, 4);
            Ip.hdrLen(s, ip, Ip.SIZE / 4);
            Ip.len(s, ip, Ip.SIZE + udpLen);
            Ip.flagsDf(s, ip, true);
            Ip.ttl(s, ip, 64);
            Ip.proto(s, ip, 17);
            Ip.src(s, ip, 0x0A000001);
            Ip.dst(s, ip, 0x0A000002);
        }
        int udp = ip + ipLen;
        Udp.srcport(s, udp, 0xC000);
        Udp.dstport(s, udp, Spec.ROCE_UDP_PORT);
        Udp.length(s, udp, udpLen);
        int bth = udp + Udp.SIZE;
        Bth.opcode(s, bth, opcode);
        Bth.tver(s, bth, tver);
        Bth.padCnt(s, bth, pad);
        Bth.pKey(s, bth, 0xFFFF);
        int p = bth + Bth.SIZE;
        Map<Integer, Integer> offsets = new LinkedHashMap<>();
        offsets.put(Bth.HEADER, bth);
        offsets.put(ipv6 ? Ipv6.HEADER : Ip.HEADER, ip);
        offsets.put(Udp.HEADER, udp);
        offsets.put(Eth.HEADER, 0);
        if (tver == 1) {
            Mrth.version(s, p, 1);
            Mrth.spray(s, p, spray);
            offsets.put(Mrth.HEADER, p);
            p += Mrth.SIZE;
        }
        for (int h : chain) {
            offsets.put(h, p);
            p += Spec.HEADERS.get(h).size();
        }
        Arrays.fill(frame, p, p + payloadLength, payloadFill);
        for (var e : values.entrySet()) {
            FieldDef f = FieldCatalog.get().field(e.getKey());
            Integer off = offsets.get(f.header());
            if (off == null) throw new IllegalArgumentException(e.getKey() + ": no " + Spec.HEADERS.get(f.header()).id() + " in this frame");
            f.writeLong(s, off, e.getValue());
        }
        if (!ipv6) Ip.checksum(s, ip, ipv4Checksum(s, ip));
        int icrcOff = frame.length - 4;
        long crc = new Icrc().overIp(s, ip, ipLen, ipv6, bth, icrcOff);
        if (corruptIcrc) crc ^= 0xFFFFFFFFL;
        s.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), icrcOff, (int) crc);
        return frame;
    }

    /** The IPv4 header checksum (RFC 791 one's complement sum over the header with the checksum field zeroed). */
    public static int ipv4Checksum(MemorySegment s, int ip) {
        Ip.checksum(s, ip, 0);
        int sum = 0;
        for (int i = 0; i < Ip.hdrLen(s, ip) * 4; i += 2) sum += ((s.get(ValueLayout.JAVA_BYTE, ip + i) & 0xFF) << 8) | (s.get(ValueLayout.JAVA_BYTE, ip + i + 1) & 0xFF);
        while ((sum >>> 16) != 0) sum = (sum & 0xFFFF) + (sum >>> 16);
        return ~sum & 0xFFFF;
    }

    /** A header's catalogue entry by id. */
    public static HeaderDef header(String id) {
        for (HeaderDef h : Spec.HEADERS) if (h.id().equals(id)) return h;
        throw new IllegalArgumentException("no header " + id);
    }
}
