package io.metaroce.dissector;

import io.metaroce.protocol.Bth;
import io.metaroce.protocol.Dceth;
import io.metaroce.protocol.CarryDef;
import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.Expert;
import io.metaroce.protocol.ExpertDef;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Grh;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Lrh;
import io.metaroce.protocol.Macc;
import io.metaroce.protocol.MaccCbfc;
import io.metaroce.protocol.MaccCbfcTimes;
import io.metaroce.protocol.MaccPause;
import io.metaroce.protocol.Rdeth;
import io.metaroce.protocol.Mad;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.OpcodeRangeDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Sll;
import io.metaroce.protocol.Sll2;
import io.metaroce.protocol.Udp;
import io.metaroce.protocol.Vlan;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Frames to headers: link layer (Ethernet with 802.1Q/QinQ tags, Linux SLL/SLL2, raw IP), IPv4 with
 * options, IPv6 with extension headers, UDP, then RoCEv2/MetaRoCE on the configured UDP ports and RoCEv1
 * on its EtherType: BTH, MRTH when tver is 1, the header chain the opcode table gives, CM MADs on QP 1,
 * and the ICRC. All layouts come from the generated catalogue; this class only decides what follows what.
 *
 * <p>Decoding never throws: a short or inconsistent frame is decoded as far as its bytes allow and
 * carries an expert item saying what is wrong. Not thread-safe; use one instance per thread.
 */
public final class Dissector {
    /** LINKTYPE_* values (https://www.tcpdump.org/linktypes.html). */
    static final int LINKTYPE_ETHERNET = 1, LINKTYPE_RAW = 101, LINKTYPE_LINUX_SLL = 113, LINKTYPE_IPV4 = 228,
            LINKTYPE_IPV6 = 229, LINKTYPE_LINUX_SLL2 = 276, DLT_RAW_BSD = 12, DLT_RAW_OPENBSD = 14, LINKTYPE_ERF = 197,
            LINKTYPE_INFINIBAND = 247;
    /** ERF record header: 16 bytes; type byte at 8 (bit 7: an extension header follows); ERF type 21 = InfiniBand. */
    private static final int ERF_HEADER = 16, ERF_TYPE_INFINIBAND = 21, ERF_TYPE_INFINIBAND_LINK = 25, LNH_BTH = 2, LNH_GRH = 3,
            VCRC = 2;
    private static final int ETHERTYPE_IPV4 = 0x0800, ETHERTYPE_IPV6 = 0x86DD, ETHERTYPE_VLAN = 0x8100,
            ETHERTYPE_QINQ = 0x88A8, ETHERTYPE_QINQ_OLD = 0x9100, ETHERTYPE_MAC_CONTROL = 0x8808;
    /** MAC Control opcodes: 802.3x PAUSE and 802.1Qbb PFC (tshark's "Class Based Flow Control [CBFC] Pause"). */
    static final int MACC_PAUSE = 0x0001, MACC_PFC = 0x0101;
    private static final int IPPROTO_UDP = 17, CM_MGMT_CLASS = 0x07, GSI_QP = 1, FCS_LENGTH = 4, UD_SEND_ONLY = 0x64,
            UD_SEND_ONLY_IMM = 0x65, RD_BASE = 0x40;
    /** More tags than any real network stacks; beyond it the frame is treated as damaged. */
    private static final int MAX_VLAN_TAGS = 16;
    private static final int MAX_IPV6_EXTENSIONS = 16;
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final DissectorConfig config;
    private final Icrc icrc = new Icrc();

    public Dissector(DissectorConfig config) { this.config = config; }

    public Dissector() { this(DissectorConfig.DEFAULT); }

    public DissectorConfig config() { return config; }

    /**
     * Dissects one frame into {@code out} (reset first).
     *
     * @param data the captured bytes
     * @param originalLength the frame's length on the wire
     * @param fcsLength bytes of FCS the capture file says each frame ends with, or -1 when unknown
     */
    public Dissection dissect(MemorySegment data, long number, long timeNanos, long originalLength, int linkType,
                              int fcsLength, Dissection out) {
        out.reset();
        out.data = data;
        out.number = number;
        out.timeNanos = timeNanos;
        out.originalLength = originalLength;
        out.capturedLength = (int) data.byteSize();
        out.linkType = linkType;
        try {
            int end = out.capturedLength;
            // The FCS is the last bytes on the wire: present in the data only when the frame was not cut.
            if (fcsLength > 0 && end >= fcsLength && linkType == LINKTYPE_ETHERNET && originalLength == out.capturedLength) {
                end -= fcsLength;
                out.fcsOffset = end;
                out.fcsLength = fcsLength;
            }
            switch (linkType) {
                case LINKTYPE_ETHERNET -> ethernet(out, end, fcsLength);
                case LINKTYPE_LINUX_SLL -> cooked(out, Sll.HEADER, Sll.SIZE, Sll.F_ETYPE, end);
                case LINKTYPE_LINUX_SLL2 -> cooked(out, Sll2.HEADER, Sll2.SIZE, Sll2.F_ETYPE, end);
                case LINKTYPE_RAW, DLT_RAW_BSD, DLT_RAW_OPENBSD, LINKTYPE_IPV4, LINKTYPE_IPV6 -> rawIp(out, 0, end);
                case LINKTYPE_ERF -> erf(out, end);
                case LINKTYPE_INFINIBAND -> infiniband(out, 0, end, out.originalLength);
                default -> out.expert(Expert.FRAME_LINK_TYPE_UNSUPPORTED, "link type " + linkType + " is not decoded");
            }
        } catch (IndexOutOfBoundsException e) {
            // Every read is bounds-checked before it is made; this is a last line of defence so that a
            // missed check degrades into an expert item instead of killing the run.
            out.expert(Expert.FRAME_ENDS_UNEXPECTEDLY, "frame ends unexpectedly inside " + lastLayerName(out), out.layerCount - 1, -1);
        }
        return out;
    }

    private static String lastLayerName(Dissection out) {
        return out.layerCount == 0 ? "the link-layer header" : out.layer(out.layerCount - 1).title();
    }

    // ------------------------------------------------------------------ link layer

    private void ethernet(Dissection out, int end, int fcsLength) {
        if (!need(out, 0, Eth.SIZE, end, Eth.HEADER)) return;
        out.addLayer(Eth.HEADER, 0);
        int type = Eth.type(out.head, 0);
        int off = Eth.SIZE;
        int tags = 0;
        while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD) {
            if (!need(out, off, Vlan.SIZE, end, Vlan.HEADER)) return;
            if (++tags > MAX_VLAN_TAGS) {
                out.expert(Expert.VLAN_TOO_MANY_TAGS, "more than " + MAX_VLAN_TAGS + " VLAN tags; the rest of the frame is not decoded", -1, -1, off, end - off);
                return;
            }
            out.addLayer(Vlan.HEADER, off);
            type = Vlan.etype(out.head, off);
            off += Vlan.SIZE;
        }
        int ipEnd = etherType(out, type, off, end);
        if (ipEnd > 0 && ipEnd < end && fcsLength < 0) trailer(out, ipEnd, end);
    }

    /**
     * Bytes after the IP datagram: Ethernet padding, or an FCS the file did not announce. An FCS is
     * recognized only when its CRC verifies (§1), so padding is never mistaken for an FCS or an ICRC.
     */
    private void trailer(Dissection out, int ipEnd, int end) {
        if (end - ipEnd >= FCS_LENGTH && out.originalLength == out.capturedLength) {
            long fcs = out.data.get(LE_INT, end - FCS_LENGTH) & 0xFFFFFFFFL;
            if (icrc.crc32(out.data, end - FCS_LENGTH) == fcs) {
                out.fcsStatus = "good";
                out.fcsValue = fcs;
                out.fcsOffset = end - FCS_LENGTH;
                out.fcsLength = FCS_LENGTH;
            }
        }
    }

    /** An ERF record (Endace Extensible Record Format): 16-byte header, extension headers, then the packet. */
    private void erf(Dissection out, int end) {
        if (end < ERF_HEADER) {
            out.expert(Expert.ERF_RECORD_TOO_SHORT, "ERF record of " + end + " bytes is shorter than its 16-byte header");
            return;
        }
        int typeByte = Byte.toUnsignedInt(out.data.get(ValueLayout.JAVA_BYTE, 8));
        int off = ERF_HEADER;
        // Extension headers: 8 bytes each, the top bit of the first byte says another follows.
        for (boolean more = (typeByte & 0x80) != 0; more; off += 8) {
            if (off + 8 > end) {
                out.expert(Expert.ERF_EXTENSION_OVERRUN, "ERF extension header runs past the end of the record");
                return;
            }
            more = (out.data.get(ValueLayout.JAVA_BYTE, off) & 0x80) != 0;
        }
        int type = typeByte & 0x7F;
        if (type != ERF_TYPE_INFINIBAND && type != ERF_TYPE_INFINIBAND_LINK) {
            out.expert(Expert.ERF_TYPE_UNDECODED, "ERF record type " + type + " is not decoded");
            return;
        }
        int wlen = Short.toUnsignedInt(out.data.get(BE_SHORT, 14));
        infiniband(out, off, end, off + wlen - (out.capturedLength - end));
    }

    /**
     * A native InfiniBand packet at off: LRH, a GRH when lnh is 3, then the transport as RoCE has it. wireLimit:
     * where the packet ends on the wire (its LRH pkt_len must fit). The ICRC covers the LRH with its VL masked,
     * which RoCE replaces by ones: not checked here.
     */
    private void infiniband(Dissection out, int off, int end, long wireLimit) {
        if (!need(out, off, Lrh.SIZE, end, Lrh.HEADER)) return;
        out.addLayer(Lrh.HEADER, off);
        int lnh = Lrh.lnh(out.data, off);
        int wireEnd = off + Lrh.pktLen(out.data, off) * 4;
        if (wireEnd > wireLimit) {
            out.expert(Expert.LRH_PKT_LEN_EXCEEDS_RECORD, "LRH packet length " + Lrh.pktLen(out.data, off) + " words exceeds the record");
            wireEnd = (int) Math.max(off, wireLimit - VCRC);
        }
        if (wireEnd > end) out.truncated = true;
        int p = off + Lrh.SIZE;
        if (lnh == LNH_GRH) {
            if (!need(out, p, Grh.SIZE, end, Grh.HEADER)) return;
            out.addLayer(Grh.HEADER, p);
            if (Grh.nxthdr(out.data, p) != 0x1B) {
                out.expert(Expert.GRH_NEXT_HEADER_NOT_BTH, "GRH next header 0x" + hex2(Grh.nxthdr(out.data, p)) + " is not the BTH");
                return;
            }
            p += Grh.SIZE;
        } else if (lnh != LNH_BTH) {
            out.expert(Expert.LRH_NEXT_HEADER_UNDECODED, "LRH next header " + lnh + " (raw) is not decoded");
            return;
        }
        transport(out, p, wireEnd, Math.min(wireEnd, end), off, -1, false);
    }

    private void cooked(Dissection out, int header, int size, int etypeField, int end) {
        if (!need(out, 0, size, end, header)) return;
        out.addLayer(header, 0);
        etherType(out, (int) Spec.FIELDS.get(etypeField).readLong(out.data, 0), size, end);
    }

    private void rawIp(Dissection out, int off, int end) {
        if (end - off < 1) {
            out.expert(Expert.FRAME_EMPTY, "empty frame");
            return;
        }
        int version = (out.data.get(ValueLayout.JAVA_BYTE, off) & 0xF0) >>> 4;
        if (version == 4) ipv4(out, off, end);
        else if (version == 6) ipv6(out, off, end);
        else out.expert(Expert.IP_RAW_VERSION_UNKNOWN, "raw IP frame with IP version " + version, -1, -1, off, 1);
    }

    /** Returns the end of the network-layer datagram, or -1. */
    private int etherType(Dissection out, int type, int off, int end) {
        if (type == ETHERTYPE_IPV4) return ipv4(out, off, end);
        if (type == ETHERTYPE_IPV6) return ipv6(out, off, end);
        if (type == Spec.ROCE_V1_ETHERTYPE) {
            roceV1(out, off, end);
            return -1;
        }
        if (type == ETHERTYPE_MAC_CONTROL) macControl(out, off, end);
        return -1;
    }

    /**
     * A MAC Control frame: the opcode, then a PAUSE (one pause time) or a PFC body (class enable vector, eight
     * pause times). Each part is a layer of its own, as tshark's tree has them, so that a frame cut inside the
     * pause times still shows its vector (tshark shows it too, then marks the frame malformed).
     */
    private static void macControl(Dissection out, int off, int end) {
        if (!need(out, off, Macc.SIZE, end, Macc.HEADER)) return;
        int layer = out.addLayer(Macc.HEADER, off);
        int opcode = Macc.opcode(out.data, off);
        int p = off + Macc.SIZE;
        if (opcode == MACC_PAUSE) {
            if (need(out, p, MaccPause.SIZE, end, MaccPause.HEADER)) out.addLayer(MaccPause.HEADER, p);
        } else if (opcode == MACC_PFC) {
            if (!need(out, p, MaccCbfc.SIZE, end, MaccCbfc.HEADER)) return;
            int cbfc = out.addLayer(MaccCbfc.HEADER, p);
            int enbv = MaccCbfc.enbv(out.data, p);
            if ((enbv & 0xFF00) != 0) out.expert(Expert.MACC_ENBV_RESERVED, "PFC class enable vector 0x" + String.format("%04x", enbv)
                    + ": its 8 most significant bits must be 0", cbfc, MaccCbfc.F_ENBV);
            p += MaccCbfc.SIZE;
            if (need(out, p, MaccCbfcTimes.SIZE, end, MaccCbfcTimes.HEADER)) out.addLayer(MaccCbfcTimes.HEADER, p);
        } else {
            out.expert(Expert.MACC_OPCODE_UNKNOWN, "MAC Control opcode 0x" + String.format("%04x", opcode) + " is not decoded (PAUSE 0x0001, PFC 0x0101)",
                    layer, Macc.F_OPCODE);
        }
    }

    // ------------------------------------------------------------------ network layer

    private int ipv4(Dissection out, int off, int end) {
        if (!need(out, off, Ip.SIZE, end, Ip.HEADER)) return -1;
        int layer = out.addLayer(Ip.HEADER, off);
        out.ipVersion = 4;
        out.ecn = Ip.ecn(out.head, off);
        int version = Ip.version(out.head, off);
        int hdrLen = Ip.hdrLen(out.head, off) * 4;
        if (version != 4) out.expert(Expert.IP_VERSION_BAD, "IPv4 header with version " + version, layer, Ip.F_VERSION);
        if (hdrLen < Ip.SIZE) {
            out.expert(Expert.IP_HDR_LEN_TOO_SMALL, "IPv4 header length " + hdrLen + " bytes is below the minimum of " + Ip.SIZE, layer, Ip.F_HDR_LEN);
            return -1;
        }
        if (!need(out, off, hdrLen, end, Ip.HEADER)) return -1;
        if (layer >= 0) out.layerLength[layer] = hdrLen; // with its options
        int total = Ip.len(out.head, off);
        int ipEnd = datagramEnd(out, off, total, hdrLen, end, "IPv4 total length", layer, Ip.F_LEN,
                Expert.IP_TOTAL_LENGTH_BELOW_HEADER, Expert.IP_TOTAL_LENGTH_EXCEEDS_FRAME);
        if (ipEnd < 0) return -1;
        if (Ip.flagsMf(out.head, off) || Ip.fragOffset(out.head, off) != 0) {
            out.expert(Expert.IP_FRAGMENT, "IPv4 fragment (offset " + Ip.fragOffset(out.head, off) * 8 + "), not reassembled", layer, Ip.F_FRAG_OFFSET);
            if (Ip.fragOffset(out.head, off) != 0) return ipEnd;
        }
        if (Ip.proto(out.head, off) == IPPROTO_UDP) udp(out, off, hdrLen, false, off + hdrLen, Math.min(ipEnd, end), ipEnd);
        return ipEnd;
    }

    private int ipv6(Dissection out, int off, int end) {
        if (!need(out, off, Ipv6.SIZE, end, Ipv6.HEADER)) return -1;
        int layer = out.addLayer(Ipv6.HEADER, off);
        out.ipVersion = 6;
        out.ecn = Ipv6.ecn(out.head, off);
        int version = Ipv6.version(out.head, off);
        if (version != 6) out.expert(Expert.IPV6_VERSION_BAD, "IPv6 header with version " + version, layer, Ipv6.F_VERSION);
        int ipEnd = datagramEnd(out, off, Ipv6.SIZE + Ipv6.plen(out.head, off), Ipv6.SIZE, end, "IPv6 payload length", layer,
                Ipv6.F_PLEN, Expert.IPV6_PAYLOAD_LENGTH_EXCEEDS_FRAME, Expert.IPV6_PAYLOAD_LENGTH_EXCEEDS_FRAME);
        if (ipEnd < 0) return -1;
        int next = Ipv6.nxt(out.head, off);
        int p = off + Ipv6.SIZE;
        boolean extensions = false;
        // Extension headers: hop-by-hop 0, routing 43, fragment 44, AH 51, destination options 60.
        for (int seen = 0; next == 0 || next == 43 || next == 44 || next == 51 || next == 60; seen++) {
            if (seen == MAX_IPV6_EXTENSIONS) {
                out.expert(Expert.IPV6_TOO_MANY_EXTENSIONS, "more than " + MAX_IPV6_EXTENSIONS + " IPv6 extension headers; the rest is not decoded", layer, -1);
                return ipEnd;
            }
            if (p + 8 > Math.min(ipEnd, end)) {
                out.expert(Expert.IPV6_EXTENSION_TRUNCATED, "IPv6 extension header " + next + " runs past the end of the frame", layer, -1,
                        p, Math.max(0, Math.min(ipEnd, end) - p));
                return ipEnd;
            }
            extensions = true;
            int len = next == 44 ? 8 : next == 51 ? (Byte.toUnsignedInt(out.data.get(ValueLayout.JAVA_BYTE, p + 1)) + 2) * 4
                    : (Byte.toUnsignedInt(out.data.get(ValueLayout.JAVA_BYTE, p + 1)) + 1) * 8;
            // Extension headers belong to the IPv6 layer (as far as they were captured).
            if (layer >= 0) out.layerLength[layer] = Math.min(p + len, Math.min(ipEnd, end)) - off;
            if (next == 44) {
                int fragOff = (Short.toUnsignedInt(out.data.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), p + 2)) >>> 3);
                out.expert(Expert.IPV6_FRAGMENT, "IPv6 fragment (offset " + fragOff * 8 + "), not reassembled", layer, -1, p, 8);
                if (fragOff != 0) return ipEnd;
            }
            next = Byte.toUnsignedInt(out.data.get(ValueLayout.JAVA_BYTE, p));
            p += len;
        }
        if (next == IPPROTO_UDP) {
            if (extensions) out.expert(Expert.ICRC_UNCHECKED_IPV6_EXTENSIONS,
                    "IPv6 extension headers: the ICRC masking over them is undefined, ICRC unchecked", layer, -1, off + Ipv6.SIZE, p - off - Ipv6.SIZE);
            udp(out, off, extensions ? -1 : Ipv6.SIZE, true, p, Math.min(ipEnd, end), ipEnd);
        }
        return ipEnd;
    }

    /**
     * Checks a length field against the frame: the datagram may be cut by the snap length (captured <
     * original), but its length must agree with the frame's original length (MR-FRAME-002).
     */
    private int datagramEnd(Dissection out, int off, int total, int hdrLen, int end, String what, int layer, int field,
                            ExpertDef belowHeader, ExpertDef exceedsFrame) {
        if (total < hdrLen) {
            out.expert(belowHeader, what + " " + total + " is shorter than the header (" + hdrLen + ")", layer, field);
            return -1;
        }
        long wireAvailable = out.originalLength - off - (out.capturedLength - end);
        if (total > wireAvailable) {
            out.expert(exceedsFrame, what + " " + total + " exceeds the " + wireAvailable + " bytes the frame has", layer, field);
            out.shortFrame = true;
            return end;
        }
        if (off + total > end) out.truncated = true;
        return off + total;
    }

    // ------------------------------------------------------------------ UDP and RoCEv2

    /**
     * ipHeaderLength: length of the IP header covered by the ICRC, -1 when the ICRC cannot be checked.
     * capEnd: end of the captured bytes of the datagram; wireEnd: its end on the wire.
     */
    private void udp(Dissection out, int ipOff, int ipHeaderLength, boolean ipv6, int off, int capEnd, int wireEnd) {
        if (!need(out, off, Udp.SIZE, capEnd, Udp.HEADER)) return;
        int layer = out.addLayer(Udp.HEADER, off);
        int length = Udp.length(out.head, off);
        if (length < Udp.SIZE) {
            out.expert(Expert.UDP_LENGTH_BELOW_HEADER, "UDP length " + length + " is below the header size " + Udp.SIZE, layer, Udp.F_LENGTH);
            return;
        }
        if (off + length > wireEnd && out.shortFrame) {
            // IP and UDP lengths agree the datagram goes on, but the frame stops although its record says it
            // is whole: the capturing device cut it without saying so. Its last bytes are payload, not an ICRC.
            out.expert(Expert.FRAME_CUT_WITHOUT_RECORD, "frame shorter than its IP length (" + (off + length - wireEnd) + " bytes missing): "
                    + "cut by the capturing device without recording the cut; ICRC unchecked", layer, Udp.F_LENGTH);
        } else if (off + length > wireEnd) {
            out.expert(Expert.UDP_LENGTH_EXCEEDS_IP_PAYLOAD, "UDP length " + length + " exceeds the IP payload (" + (wireEnd - off) + " bytes)",
                    layer, Udp.F_LENGTH);
            length = wireEnd - off;
        } else if (off + length < wireEnd) {
            out.expert(Expert.UDP_LENGTH_BELOW_IP_PAYLOAD, "UDP length " + length + " is shorter than the IP payload (" + (wireEnd - off) + " bytes)",
                    layer, Udp.F_LENGTH);
        }
        if (!config.isRocePort(Udp.dstport(out.head, off))) return;
        int bthOff = off + Udp.SIZE;
        int tEnd = off + length;
        transport(out, bthOff, tEnd, Math.min(tEnd, capEnd), ipOff, ipHeaderLength, ipv6);
    }

    private void roceV1(Dissection out, int off, int end) {
        if (!need(out, off, Grh.SIZE, end, Grh.HEADER)) return;
        int layer = out.addLayer(Grh.HEADER, off);
        out.rocev1 = true;
        int bthOff = off + Grh.SIZE;
        int wireEnd = bthOff + Grh.paylen(out.data, off);
        long wireAvailable = out.originalLength - (out.capturedLength - end);
        if (wireEnd > wireAvailable) {
            out.expert(Expert.GRH_PAYLEN_EXCEEDS_FRAME, "GRH payload length " + Grh.paylen(out.data, off) + " exceeds the frame", layer, Grh.F_PAYLEN);
            wireEnd = (int) wireAvailable;
        }
        if (wireEnd > end) out.truncated = true;
        transport(out, bthOff, wireEnd, Math.min(wireEnd, end), off, -2, true);
    }

    /**
     * BTH, MRTH, the opcode's header chain, payload, pad and ICRC. wireEnd: end of the transport packet
     * (ICRC included) on the wire; capEnd: how much of it was captured. ipHeaderLength -2 = RoCEv1 (GRH
     * at ipOff), -1 = ICRC not checkable.
     */
    private void transport(Dissection out, int off, int wireEnd, int capEnd, int ipOff, int ipHeaderLength, boolean ipv6) {
        // RoCE switched off (--disable-protocol bth): UDP never gets here (no port is RoCE); RoCEv1 and native
        // InfiniBand end at their GRH or LRH, the rest data.
        if (config.disabled() != 0 && (config.disabled() & EnabledProtocols.BTH) != 0) return;
        if (wireEnd - off < Bth.SIZE + 4) {
            tooShortForBth(out, off, wireEnd, capEnd);
            return;
        }
        if (!need(out, off, Bth.SIZE, capEnd, Bth.HEADER)) return;
        out.bth = out.addLayer(Bth.HEADER, off);
        int icrcOff = wireEnd - 4;
        int tver = Bth.tver(out.head, off);
        out.tver = tver;
        int opcode = Bth.opcode(out.head, off);
        int p = off + Bth.SIZE;
        OpcodeDef def;
        if (tver == 0) def = Spec.OPCODES_TVER0.get(opcode);
        else if (tver == 1) {
            if (config.disabled() != 0 && (config.disabled() & EnabledProtocols.MRTH) != 0) {
                metaRoceOff(out, p, icrcOff, capEnd);
                icrcCheck(out, off, wireEnd, capEnd, ipOff, ipHeaderLength, ipv6);
                return;
            }
            if (!need(out, p, Mrth.SIZE, Math.min(capEnd, icrcOff), Mrth.HEADER)) {
                icrcCheck(out, off, wireEnd, capEnd, ipOff, ipHeaderLength, ipv6);
                return;
            }
            out.mrth = out.addLayer(Mrth.HEADER, p);
            int version = Mrth.version(out.head, p);
            if (version != 1) badMrthVersion(out, version);
            out.spray = Mrth.spray(out.head, p);
            p += Mrth.SIZE;
            def = Spec.OPCODES_TVER1.get(opcode);
        } else {
            unknownTver(out, tver);
            icrcCheck(out, off, wireEnd, capEnd, ipOff, ipHeaderLength, ipv6);
            return;
        }
        out.opcode = def;
        if (def == null) {
            unknownOpcode(out, opcode, tver);
            icrcCheck(out, off, wireEnd, capEnd, ipOff, ipHeaderLength, ipv6);
            return;
        }
        int[] chain = def.chain(out.spray);
        if (tver == 0 && (opcode & 0xE0) == RD_BASE && p < capEnd && out.data.get(ValueLayout.JAVA_BYTE, p) != 0) chain = dcChain(def);
        for (int h : chain) {
            HeaderDef hd = Spec.HEADERS.get(h);
            if (p + hd.size() > icrcOff || p + hd.size() > capEnd) {
                headerCut(out, def, hd, p, icrcOff, capEnd);
                icrcCheck(out, off, wireEnd, capEnd, ipOff, ipHeaderLength, ipv6);
                return;
            }
            out.addLayer(h, p);
            p += hd.size();
        }
        int pad = Bth.padCnt(out.head, off);
        out.padCount = pad;
        out.payloadOffset = p;
        out.payloadLength = icrcOff - p - pad;
        if (out.payloadLength < 0
                || !def.payload() && icrcOff - p > 0
                || def.payloadBytes() >= 0 && out.payloadLength != def.payloadBytes()) payloadExperts(out, def, chain, p, pad, icrcOff, capEnd);
        // Management datagrams: UD SEND Only (with or without immediate) to QP 1, the GSI.
        if (Bth.destQp(out.head, off) == GSI_QP && (opcode == UD_SEND_ONLY || opcode == UD_SEND_ONLY_IMM))
            mad(out, p, Math.min(capEnd, icrcOff - pad), icrcOff - pad);
        icrcCheck(out, off, wireEnd, capEnd, ipOff, ipHeaderLength, ipv6);
    }

    // Cold paths of transport, out of line: the method the JIT compiles for every frame stays small (string
    // building for expert messages is most of a decoder's bytecode, and C1 compiles every branch of it).

    private static void tooShortForBth(Dissection out, int off, int wireEnd, int capEnd) {
        out.expert(Expert.BTH_PACKET_TOO_SHORT, "RoCE packet of " + (wireEnd - off) + " bytes cannot hold a BTH and an ICRC ("
                + (Bth.SIZE + 4) + " bytes)");
        if (capEnd - off >= Bth.SIZE) out.bth = out.addLayer(Bth.HEADER, off);
    }

    /** MetaRoCE switched off (--disable-protocol mrth): after the BTH, everything up to the ICRC is data. */
    private static void metaRoceOff(Dissection out, int p, int icrcOff, int capEnd) {
        out.metaRoceOff = true;
        out.payloadOffset = p;
        out.payloadLength = Math.max(0, Math.min(icrcOff, capEnd) - p);
    }

    private static void badMrthVersion(Dissection out, int version) {
        out.expert(Expert.MRTH_VERSION_BAD, "MRTH version " + version + ", expected 1", out.mrth, Mrth.F_VERSION);
    }

    private static void unknownTver(Dissection out, int tver) {
        out.expert(Expert.BTH_TVER_UNKNOWN, "BTH tver " + tver + " is neither 0 (RoCEv2) nor 1 (MetaRoCE v1); rest not decoded", out.bth, Bth.F_TVER);
    }

    /** A header of the opcode's chain does not fit before the ICRC, or was not captured. */
    private static void headerCut(Dissection out, OpcodeDef def, HeaderDef hd, int p, int icrcOff, int capEnd) {
        if (p + hd.size() > icrcOff) {
            out.expert(Expert.BTH_HEADER_MISSING, def.label() + " needs a " + hd.origId() + " (" + hd.size() + " bytes) but only "
                    + Math.max(0, icrcOff - p) + " bytes are left before the ICRC");
        } else {
            out.expert(Expert.FRAME_CUT_BY_SNAPLEN, hd.origId() + " cut by the snap length", -1, -1, p, Math.max(0, capEnd - p));
            if (!out.shortFrame) out.truncated = true;
        }
    }

    /** The payload disagrees with the pad count or the opcode (called only when one of the checks fails). */
    private static void payloadExperts(Dissection out, OpcodeDef def, int[] chain, int p, int pad, int icrcOff, int capEnd) {
        if (out.payloadLength < 0) {
            out.expert(Expert.BTH_PAD_EXCEEDS_PAYLOAD, "pad count " + pad + " exceeds the " + (icrcOff - p) + " bytes after the headers", out.bth, Bth.F_PAD_CNT);
            out.payloadLength = 0;
        }
        if (!def.payload() && icrcOff - p > 0 && chain != def.chain(out.spray))
            out.expert(Expert.BTH_DC_BYTES_UNDECODED, "Mellanox DC " + def.label() + ": " + (icrcOff - p) + " bytes after its headers, not decoded (tshark skips them too)",
                    -1, -1, p, Math.max(0, Math.min(capEnd, icrcOff) - p));
        else if (!def.payload() && icrcOff - p > 0)
            out.expert(Expert.BTH_UNEXPECTED_PAYLOAD, def.label() + " carries no payload, but " + (icrcOff - p) + " bytes follow its headers",
                    -1, -1, p, Math.max(0, Math.min(capEnd, icrcOff) - p));
        if (def.payloadBytes() >= 0 && out.payloadLength != def.payloadBytes())
            out.expert(Expert.BTH_PAYLOAD_SIZE_BAD, def.label() + " carries " + def.payloadBytes() + " payload bytes, not " + out.payloadLength,
                    -1, -1, p, Math.max(0, Math.min(capEnd, icrcOff - pad) - p));
    }

    /**
     * Mellanox DC reuses the RD opcodes but is laid out differently (as tshark decodes it): an 8-byte DC
     * header after the BTH, then RDETH, DETH and the RC-form headers for requests, and the RC-form headers
     * alone (no RDETH) for responses and acknowledgements. Chosen when the byte after the BTH is not 0, which
     * an RDETH (reserved byte first) never has.
     */
    public static int[] dcChain(OpcodeDef rd) {
        int[] c = rd.chain(false);
        boolean response = rd.role() != OpcodeDef.Role.REQUEST;
        int skip = response && c.length > 0 && c[0] == Rdeth.HEADER ? 1 : 0;
        int[] out = new int[c.length + 1 - skip];
        out[0] = Dceth.HEADER;
        System.arraycopy(c, skip, out, 1, c.length - skip);
        return out;
    }

    private static void unknownOpcode(Dissection out, int opcode, int tver) {
        for (OpcodeRangeDef r : Spec.OPCODE_RANGES) {
            if (r.contains(opcode, tver)) {
                out.expert(r.expert(), "opcode 0x" + hex2(opcode) + ": " + r.message(), out.bth, Bth.F_OPCODE);
                return;
            }
        }
        out.expert(Expert.BTH_OPCODE_UNDEFINED, "opcode 0x" + hex2(opcode) + " is not defined for "
                + (tver == 0 ? "RoCEv2 (tver 0)" : "MetaRoCE v1 (tver 1)") + "; headers after the BTH not decoded", out.bth, Bth.F_OPCODE);
    }

    private void icrcCheck(Dissection out, int bthOff, int wireEnd, int capEnd, int ipOff, int ipHeaderLength, boolean ipv6) {
        int icrcOff = wireEnd - 4;
        if (icrcOff < bthOff + Bth.SIZE) return;
        out.icrcOffset = icrcOff;
        if (capEnd < wireEnd) {
            out.icrcStatus = IcrcStatus.UNCHECKED;
            if (!out.shortFrame) out.truncated = true;
            return;
        }
        out.icrcValue = out.data.get(LE_INT, icrcOff) & 0xFFFFFFFFL;
        if (ipHeaderLength == -1 || !config.checkIcrc()) {
            out.icrcStatus = IcrcStatus.UNCHECKED;
            return;
        }
        long computed = ipHeaderLength == -2 ? icrc.overGrh(out.data, ipOff, bthOff, icrcOff)
                : icrc.overIp(out.data, ipOff, ipHeaderLength, ipv6, bthOff, icrcOff);
        out.icrcComputed = computed;
        if (computed == out.icrcValue) out.icrcStatus = IcrcStatus.GOOD;
        else badIcrc(out, bthOff, icrcOff, ipOff, ipHeaderLength, ipv6, computed);
    }

    /** Out of line: the ICRC check runs on every frame, a bad ICRC is rare. */
    private void badIcrc(Dissection out, int bthOff, int icrcOff, int ipOff, int ipHeaderLength, boolean ipv6, long computed) {
        out.icrcStatus = IcrcStatus.BAD;
        String msg = "bad ICRC 0x" + hex8(out.icrcValue) + " (computed 0x" + hex8(computed) + ")";
        if (ipHeaderLength >= 0) {
            // A capture point that rewrites the UDP source port (seen on real mirror setups) breaks every
            // ICRC; finding the port that makes it match tells the user the NIC is not to blame.
            int port = icrc.matchingSourcePort(out.data, ipOff, ipHeaderLength, ipv6, bthOff, icrcOff, out.icrcValue);
            if (port >= 0) {
                out.icrcMatchingPort = port;
                msg += "; ICRC matches with UDP source port 0x" + String.format("%04x", port)
                        + ": the port was rewritten after the sender";
            }
        }
        out.expert(Expert.ICRC_BAD, msg, -1, -1, icrcOff, 4);
    }

    // ------------------------------------------------------------------ connection management on QP 1

    /** end: end of the captured payload; wireEnd: end of the payload on the wire. */
    private static void mad(Dissection out, int off, int end, int wireEnd) {
        if (end - off < Mad.SIZE) {
            if (wireEnd - off >= Mad.SIZE) out.expert(Expert.FRAME_CUT_BY_SNAPLEN, "MAD header cut by the snap length", -1, -1, off, Math.max(0, end - off));
            else out.expert(Expert.MAD_TOO_SHORT, "UD packet to QP 1 too short for a MAD header (" + Math.max(0, end - off) + " bytes)",
                    -1, -1, off, Math.max(0, end - off));
            return;
        }
        int madLayer = out.addLayer(Mad.HEADER, off);
        if (Mad.mgmtClass(out.data, off) != CM_MGMT_CLASS) return;
        EnumValueDef attr = Spec.ENUM_CM_ATTRIBUTE.of(Mad.attributeId(out.data, off));
        if (attr == null) return;
        int body = off + Mad.SIZE;
        for (HeaderDef h : Spec.HEADERS) {
            if (!h.id().equals("cm_" + attr.id())) continue;
            if (body + h.size() > end) {
                if (body + h.size() <= wireEnd) out.expert(Expert.FRAME_CUT_BY_SNAPLEN, "CM " + attr.label() + " cut by the snap length",
                        -1, -1, body, Math.max(0, end - body));
                else out.expert(Expert.CM_TRUNCATED, "CM " + attr.label() + " cut short: " + (end - body) + " of " + h.size() + " bytes",
                        madLayer, Mad.F_ATTRIBUTE_ID, body, Math.max(0, end - body));
                return;
            }
            out.addLayer(h.index(), body);
            carried(out, h, body);
            return;
        }
    }

    /** Headers carried in private data (IP CM header, MetaRoCE connection parameters). */
    private static void carried(Dissection out, HeaderDef h, int off) {
        for (CarryDef c : Spec.CARRIES) {
            FieldDef field = Spec.FIELDS.get(c.field());
            if (field.header() != h.index()) continue;
            int at = off + field.bitOffset() / 8 + c.at();
            if (c.whenField() >= 0 && Spec.FIELDS.get(c.whenField()).readLong(out.data, at) != c.whenEquals()) continue;
            out.addLayer(c.header(), at);
        }
    }

    // ------------------------------------------------------------------ helpers

    /** True when size bytes at off are captured; otherwise records why the header is missing. */
    private static boolean need(Dissection out, int off, int size, int end, int header) {
        if (off + size <= end) return true;
        missing(out, off, size, end, header);
        return false;
    }

    /** Out of line, so that {@link #need} is small enough to be inlined everywhere (it runs several times a frame). */
    private static void missing(Dissection out, int off, int size, int end, int header) {
        HeaderDef h = Spec.HEADERS.get(header);
        String name = h.origId() != null ? h.origId() : h.title();
        if (out.capturedLength < out.originalLength) {
            out.truncated = true;
            out.expert(Expert.FRAME_CUT_BY_SNAPLEN, name + " cut by the snap length: " + Math.max(0, end - off) + " of " + size + " bytes captured",
                    -1, -1, off, Math.max(0, end - off));
        } else {
            out.expert(Expert.FRAME_HEADER_TRUNCATED, name + " truncated: " + size + " bytes needed, " + Math.max(0, end - off) + " left",
                    -1, -1, off, Math.max(0, end - off));
        }
    }

    static String hex2(int v) { return String.format("%02x", v); }

    static String hex8(long v) { return String.format("%08x", v); }

    /** The spec's opcode entry for an opcode value under a tver (null when undefined). */
    public static OpcodeDef opcodeDef(int opcode, int tver) {
        List<OpcodeDef> t = tver == 1 ? Spec.OPCODES_TVER1 : Spec.OPCODES_TVER0;
        return opcode >= 0 && opcode < 256 ? t.get(opcode) : null;
    }
}
