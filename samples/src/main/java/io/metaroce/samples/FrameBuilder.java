package io.metaroce.samples;

import io.metaroce.dissector.Icrc;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.Atomicacketh;
import io.metaroce.protocol.Atomiceth;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.Cnp;
import io.metaroce.protocol.Crediteth;
import io.metaroce.protocol.Deth;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.Ieth;
import io.metaroce.protocol.Immdt;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Mrcnpeth;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.Nacketh;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Probeeth;
import io.metaroce.protocol.Reth;
import io.metaroce.protocol.Sacketh;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import io.metaroce.protocol.Vlan;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Packet to frame bytes. Every layout comes from the generated flyweights and the opcode table of the
 * spec (Spec.OPCODES_TVER0/1: the header chain of each opcode), so any opcode is laid out generically:
 * Ethernet [802.1Q] / IPv4 or IPv6 / UDP 4791 / BTH / [MRTH] / chain / payload / pad / ICRC (little-endian).
 * The IPv4 header checksum is computed here, the UDP checksum is 0. One instance per thread.
 */
final class FrameBuilder {
    static final int ETHERTYPE_IPV4 = 0x0800, ETHERTYPE_IPV6 = 0x86DD, ETHERTYPE_VLAN = 0x8100;
    static final int MAX_FRAME = 16384;
    private static final int PATTERN_SPAN = 16384;
    /** Payload bytes: a fixed pseudo-random pattern, read at an offset chosen by the packet's seed. */
    private static final byte[] PATTERN = new byte[PATTERN_SPAN + 8192];

    static {
        new SplittableRandom(0x5EED_F00DL).nextBytes(PATTERN);
    }

    /** Where each header of the last built frame starts (-1: absent), for mutations and tests. */
    static final class Layout {
        final int[] offset = new int[Spec.HEADERS.size()];
        int ipOffset, ipHeaderLength, udpOffset, bthOffset, payloadOffset, icrcOffset, length;
        boolean ipv6;
    }

    private final byte[] buf = new byte[MAX_FRAME];
    private final MemorySegment seg = MemorySegment.ofArray(buf);
    private final Layout layout = new Layout();
    private final Icrc icrc = new Icrc();
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    byte[] buffer() { return buf; }

    Layout layout() { return layout; }

    static OpcodeDef opcodeDef(Pkt p) {
        List<OpcodeDef> t = p.tver == 1 ? Spec.OPCODES_TVER1 : Spec.OPCODES_TVER0;
        OpcodeDef d = t.get(p.opcode);
        if (d == null) throw new IllegalStateException("opcode 0x" + Integer.toHexString(p.opcode) + " undefined for tver " + p.tver);
        return d;
    }

    static OpcodeDef opcodeDefOrNull(Pkt p) {
        return (p.tver == 1 ? Spec.OPCODES_TVER1 : Spec.OPCODES_TVER0).get(p.opcode);
    }

    static int padOf(Pkt p) { return p.noPad ? 0 : (4 - (p.payloadLen & 3)) & 3; }

    /** The 802.1Qbb PFC destination, the MAC Control multicast address 01:80:C2:00:00:01. */
    static final long PFC_DST = 0x0180_C200_0001L;
    static final int ETHERTYPE_MAC_CONTROL = 0x8808, PFC_OPCODE = 0x0101, PFC_FRAME = 60;

    /**
     * An 802.1Qbb PFC frame from the packet's source NIC, untagged as NICs send them: MAC Control opcode 0x0101, the
     * class-enable vector, then eight 16-bit pause times (the quanta for the enabled classes, 0 for the others),
     * padded to the 60-byte minimum.
     */
    private int buildPfc(Pkt p) {
        Arrays.fill(buf, 0, PFC_FRAME, (byte) 0);
        Arrays.fill(layout.offset, -1);
        layout.offset[Eth.HEADER] = 0;
        Eth.dst(seg, 0, PFC_DST);
        Eth.src(seg, 0, p.src.mac);
        Eth.type(seg, 0, ETHERTYPE_MAC_CONTROL);
        int off = Eth.SIZE;
        put16(off, PFC_OPCODE);
        put16(off + 2, p.pfcClasses);
        for (int c = 0; c < 8; c++) put16(off + 4 + 2 * c, (p.pfcClasses >>> c & 1) != 0 ? p.pfcQuanta : 0);
        layout.length = PFC_FRAME;
        return PFC_FRAME;
    }

    private void put16(int at, int v) {
        buf[at] = (byte) (v >>> 8);
        buf[at + 1] = (byte) v;
    }

    /** Transport bytes after the UDP header: BTH, MRTH, chain, payload, pad, ICRC. */
    static int transportLength(Pkt p) {
        int n = Bth.SIZE + (p.tver == 1 ? Mrth.SIZE : 0);
        for (int h : opcodeDef(p).chain(p.spray)) n += Spec.HEADERS.get(h).size();
        return n + p.payloadLen + padOf(p) + 4;
    }

    /** Frame length on the wire (no FCS). */
    static int frameLength(Pkt p) {
        if (p.flow == null && p.pfcClasses != 0) return PFC_FRAME;
        return Eth.SIZE + (p.src.vlan >= 0 ? Vlan.SIZE : 0) + (p.src.ipv6 ? Ipv6.SIZE : Ip.SIZE) + Udp.SIZE
                + transportLength(p);
    }

    /**
     * Builds the frame as a tap at {@code stage} sees it (0 sender host, 1 switch mirror, 2 receiver host:
     * the TTL drops by one per switch and a CE mark shows once the packet has passed the marking queue).
     * Returns the length; the bytes are in {@link #buffer()}.
     */
    int build(Pkt p, int stage) {
        if (p.flow == null && p.pfcClasses != 0) return buildPfc(p);
        int len = frameLength(p);
        Arrays.fill(buf, 0, len, (byte) 0);
        Layout l = layout;
        Arrays.fill(l.offset, -1);
        Host h = p.src;
        int off = 0;
        l.offset[Eth.HEADER] = 0;
        Eth.dst(seg, 0, p.dst.mac);
        Eth.src(seg, 0, h.mac);
        off = Eth.SIZE;
        int etherType = h.ipv6 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4;
        if (h.vlan >= 0) {
            Eth.type(seg, 0, ETHERTYPE_VLAN);
            l.offset[Vlan.HEADER] = off;
            Vlan.pcp(seg, off, p.flow != null ? p.flow.pcp : 3);
            Vlan.id(seg, off, h.vlan);
            Vlan.etype(seg, off, etherType);
            off += Vlan.SIZE;
        } else {
            Eth.type(seg, 0, etherType);
        }
        int ecn = p.ecn;
        if (p.ceStage != 0 && stage >= p.ceStage) ecn = 3;
        int ttl = 64 - stage;
        int transport = transportLength(p);
        l.ipOffset = off;
        l.ipv6 = h.ipv6;
        if (h.ipv6) {
            l.offset[Ipv6.HEADER] = off;
            l.ipHeaderLength = Ipv6.SIZE;
            Ipv6.version(seg, off, 6);
            Ipv6.dscp(seg, off, p.dscp);
            Ipv6.ecn(seg, off, ecn);
            Ipv6.plen(seg, off, Udp.SIZE + transport);
            Ipv6.nxt(seg, off, 17);
            Ipv6.hlim(seg, off, ttl);
            Ipv6.src(seg, off, MemorySegment.ofArray(h.ip6));
            Ipv6.dst(seg, off, MemorySegment.ofArray(p.dst.ip6));
            off += Ipv6.SIZE;
        } else {
            l.offset[Ip.HEADER] = off;
            l.ipHeaderLength = Ip.SIZE;
            Ip.version(seg, off, 4);
            Ip.hdrLen(seg, off, Ip.SIZE / 4);
            Ip.dscp(seg, off, p.dscp);
            Ip.ecn(seg, off, ecn);
            Ip.len(seg, off, Ip.SIZE + Udp.SIZE + transport);
            Ip.id(seg, off, p.ipId & 0xFFFF);
            Ip.flagsDf(seg, off, true);
            Ip.ttl(seg, off, ttl);
            Ip.proto(seg, off, 17);
            // The flow's addresses: a readdressed host's old QPs still send to and from what they were set up with.
            Ip.src(seg, off, p.flow != null ? p.flow.srcIpv4 : h.ipv4);
            Ip.dst(seg, off, p.flow != null ? p.flow.dstIpv4 : p.dst.ipv4);
            off += Ip.SIZE;
        }
        l.udpOffset = off;
        l.offset[Udp.HEADER] = off;
        Udp.srcport(seg, off, p.sport);
        Udp.dstport(seg, off, Spec.ROCE_UDP_PORT);
        Udp.length(seg, off, Udp.SIZE + transport);
        off += Udp.SIZE;

        OpcodeDef def = opcodeDef(p);
        int pad = padOf(p);
        l.bthOffset = off;
        l.offset[Bth.HEADER] = off;
        Bth.opcode(seg, off, p.opcode);
        Bth.se(seg, off, p.se);
        Bth.padCnt(seg, off, pad);
        Bth.tver(seg, off, p.tver);
        Bth.pKey(seg, off, p.pKey);
        Bth.becn(seg, off, p.becn);
        Bth.destQp(seg, off, p.destQp);
        Bth.ackReq(seg, off, p.ackReq);
        Bth.psn(seg, off, p.psn);
        off += Bth.SIZE;
        if (p.tver == 1) {
            l.offset[Mrth.HEADER] = off;
            Mrth.version(seg, off, 1);
            Mrth.rtx(seg, off, p.rtx);
            Mrth.spray(seg, off, p.spray);
            Mrth.sackReq(seg, off, p.sackReq);
            Mrth.tsValid(seg, off, p.tsValid);
            Mrth.pathId(seg, off, p.pathId);
            Mrth.msgId(seg, off, p.msgId & 0xFFFF_FFFFL);
            Mrth.msgOffset(seg, off, p.msgOffset & 0xFFFF_FFFFL);
            Mrth.txTimestamp(seg, off, p.tsValid ? p.txTs & 0xFFFF_FFFFL : 0);
            off += Mrth.SIZE;
        }
        for (int hdr : def.chain(p.spray)) {
            l.offset[hdr] = off;
            writeHeader(hdr, p, off);
            off += Spec.HEADERS.get(hdr).size();
        }
        l.payloadOffset = off;
        if (p.payloadLen > 0) {
            if (p.payloadWriter != null) p.payloadWriter.write(seg, off);
            else fillPattern(p.payloadSeed, off, p.payloadLen);
        }
        off += p.payloadLen + pad;
        l.icrcOffset = off;
        l.length = off + 4;
        if (p.mutation != null) p.mutation.apply(l, seg);
        if (!h.ipv6) ipChecksum(l.ipOffset);
        long crc = icrc.overIp(seg, l.ipOffset, l.ipHeaderLength, h.ipv6, l.bthOffset, l.icrcOffset);
        if (p.badIcrc) crc ^= 0x0BAD_0BADL;
        seg.set(LE_INT, l.icrcOffset, (int) crc);
        p.wireLength = l.length;
        return l.length;
    }

    private void fillPattern(int seed, int off, int len) {
        int from = seed & (PATTERN_SPAN - 1);
        int done = 0;
        while (done < len) {
            int n = Math.min(len - done, PATTERN.length - from);
            System.arraycopy(PATTERN, from, buf, off + done, n);
            done += n;
            from = 0;
        }
    }

    private void writeHeader(int hdr, Pkt p, int o) {
        switch (hdr) {
            case Reth.HEADER -> {
                Reth.virtualAddress(seg, o, p.rethVa);
                Reth.rKey(seg, o, p.rethRkey);
                Reth.dmaLength(seg, o, p.rethLen);
            }
            case Aeth.HEADER -> {
                Aeth.syndrome(seg, o, p.syndrome);
                Aeth.msn(seg, o, p.msn & 0xFFFFFF);
            }
            case Atomiceth.HEADER -> {
                Atomiceth.virtualAddress(seg, o, p.atomicVa);
                Atomiceth.rKey(seg, o, p.atomicRkey);
                Atomiceth.swapOrAdd(seg, o, p.swapAdd);
                Atomiceth.compare(seg, o, p.compare);
            }
            case Atomicacketh.HEADER -> Atomicacketh.originalRemoteData(seg, o, p.origData);
            case Immdt.HEADER -> Immdt.immediate(seg, o, p.imm);
            case Ieth.HEADER -> Ieth.rKey(seg, o, p.iethRkey);
            case Deth.HEADER -> {
                Deth.qKey(seg, o, p.qKey);
                Deth.srcQp(seg, o, p.srcQp);
            }
            case Cnp.HEADER -> { /* 16 reserved bytes, zero */ }
            case Sacketh.HEADER -> {
                Sacketh.cumPsn(seg, o, p.cumPsn & 0xFFFFFF);
                Sacketh.basePsn(seg, o, p.basePsn & 0xFFFFFF);
                Sacketh.bitmap(seg, o, p.bitmap);
                Sacketh.echoTimestamp(seg, o, p.echoTs & 0xFFFF_FFFFL);
                Sacketh.ceCount(seg, o, p.ceCount & 0xFFFF);
                Sacketh.echoPathId(seg, o, p.echoPathId);
            }
            case Nacketh.HEADER -> {
                Nacketh.firstPsn(seg, o, p.nackFirst & 0xFFFFFF);
                Nacketh.count(seg, o, p.nackCount);
                Nacketh.reason(seg, o, p.nackReason);
                Nacketh.rnrTimer(seg, o, p.nackRnrTimer);
            }
            case Crediteth.HEADER -> {
                Crediteth.grantedPsn(seg, o, p.grantedPsn & 0xFFFFFF);
                Crediteth.grantedBytes(seg, o, p.grantedBytes & 0xFFFF_FFFFL);
            }
            case Mrcnpeth.HEADER -> {
                Mrcnpeth.congestedPathId(seg, o, p.cnpPathId);
                Mrcnpeth.ceCount(seg, o, p.cnpCeCount);
                Mrcnpeth.rateHint(seg, o, p.rateHint);
            }
            case Probeeth.HEADER -> {
                Probeeth.probeSeq(seg, o, p.probeSeq & 0xFFFF_FFFFL);
                Probeeth.echoTimestamp(seg, o, p.echoTs & 0xFFFF_FFFFL);
            }
            default -> throw new IllegalStateException("no encoder for header " + Spec.HEADERS.get(hdr).id());
        }
    }

    /** Standard IPv4 header checksum (RFC 791) over the header at {@code off}. */
    private void ipChecksum(int off) {
        Ip.checksum(seg, off, io.metaroce.dissector.FrameBuilder.ipv4Checksum(seg, off));
    }
}
