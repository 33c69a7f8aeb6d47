package io.metaroce.analysis;

import io.metaroce.capture.CurrentFrame;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.Icrc;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.Bits;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.Crediteth;
import io.metaroce.protocol.Deth;
import io.metaroce.protocol.Ieth;
import io.metaroce.protocol.Immdt;
import io.metaroce.protocol.Eth;
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

/**
 * {@link FrameFacts} straight from a frame's bytes, without a {@link io.metaroce.dissector.Dissection}, for the
 * frames that make up nearly all of a RoCEv2/MetaRoCE capture: Ethernet, up to two VLAN tags, IPv4 or IPv6 (no
 * extension headers, not a fragment), UDP to a RoCE port, BTH (and MRTH) with the opcode's header chain, all of it
 * captured, with nothing the dissector would report an expert item for. {@link #fill} declines every other frame
 * (it returns false and has not touched the facts), and the caller dissects it in full: this class holds no
 * decoding rule of its own beyond "decline", and every check mirrors the one of {@code Dissector} that would
 * otherwise raise an expert item or take another branch. Field offsets come from the generated flyweights, header
 * sizes and opcode chains from the generated catalogue.
 *
 * <p>Why: {@code analyze} needs the facts only, and the full dissection (layers, head copy, expert bookkeeping)
 * followed by {@link FrameFacts#from} was about a third of the decoding thread's CPU on 10 M frames (docs/
 * benchmarks.md, helper fast, eighth session). FastFactsTest runs every frame of the bundled samples and external
 * captures through both and requires identical facts whenever this accepts.
 *
 * <p>Under {@code --check-icrc} it computes the ICRC as the dissector does and declines a frame whose ICRC is bad
 * (the dissector's expert item and source-port search, and an unjudgeable frame). Not used when a consumer needs
 * the dissection itself (validate's frame stages). Not thread-safe; one per decoding thread.
 */
final class FastFacts implements FastFrame {
    private static final int LINKTYPE_ETHERNET = 1, ETHERTYPE_IPV4 = 0x0800, ETHERTYPE_IPV6 = 0x86DD,
            ETHERTYPE_VLAN = 0x8100, ETHERTYPE_QINQ = 0x88A8, ETHERTYPE_QINQ_OLD = 0x9100, IPPROTO_UDP = 17,
            RD_BASE = 0x40, GSI_QP = 1, MAX_TAGS = 2, HEAD_CHUNK = 128;
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /**
     * The catalogue's opcode tables as arrays: the generated lists are unmodifiable views of arrays, two calls on
     * the interface per lookup (per frame) under C1 alone, an array read here.
     */
    private static final OpcodeDef[] OPCODES_TVER0 = Spec.OPCODES_TVER0.toArray(new OpcodeDef[0]),
            OPCODES_TVER1 = Spec.OPCODES_TVER1.toArray(new OpcodeDef[0]);

    private final DissectorConfig config;
    /** The ICRC computation under {@code --check-icrc}, else null. */
    private final Icrc icrc;
    /** The frame's first bytes (as {@code Dissection.head()}): header fields are read through the byte[] getters. */
    private byte[] head = new byte[HEAD_CHUNK];
    private int headLength;
    /** The frame's bytes as a slice of the mapping; null until asked for when the frame came from a frame buffer. */
    private MemorySegment data;
    /** The source whose current frame this is, when it came from its frame buffer (see {@link #data()}); else null. */
    private PacketSource source;
    /** The source's frame buffer and where the frame starts in it; null when the frame is read from {@link #data}. */
    private byte[] buffer;
    private int bufferAt;
    private int capLen;
    /**
     * Set by {@link #fillFromHead} when it stopped because the frame's head copy did not hold a byte it needed
     * (headers beyond the copy, or an ICRC that is neither in the copy nor the frame's last 4 bytes).
     */
    private boolean needFrame;
    /** The accepted frame's layout ({@link FastFrame}), set only when {@link #fill} accepts. */
    private int ipOff, ipHdrLen, udpOff, bthOff, mrthOff, payloadOff, icrcOff;
    private boolean ipv6;
    private long icrc32;

    FastFacts(DissectorConfig config) {
        this.config = config;
        this.icrc = config.checkIcrc() ? new Icrc() : null;
    }

    /**
     * Fills f with the facts of the frame when it is a common, clean RoCE frame (then returns true); otherwise
     * returns false without having written to f. {@code f.fileOffset} is the caller's, as after
     * {@link FrameFacts#from}.
     */
    boolean fill(FrameFacts f, MemorySegment data, long number, long timeNanos, long originalLength, int linkType,
                 int fcsLength) {
        return fill(f, data, null, null, 0, (int) data.byteSize(), 0, 0, number, timeNanos, originalLength, linkType, fcsLength);
    }

    /**
     * As {@link #fill(FrameFacts, MemorySegment, long, long, long, int, int)} for the source's current frame, read
     * from the source's frame buffer when it has the frame there: no slice of the mapping and no copy out of it per
     * frame (under C1 alone, the launcher's choice for analyze under 1 GiB, each is a chain of calls the compiler
     * does not inline, and the copy a JNI call). The slice is made only if a consumer asks for {@link #data()}.
     */
    boolean fill(FrameFacts f, PacketSource src) {
        CurrentFrame c = src.current();
        // One call on the source for all of the frame's fields (a file reader's), not eight.
        if (c != null && c.bufferOffset >= 0) return fill(f, null, src, c.buffer, c.bufferOffset, c.capturedLength,
                c.capturedLength, 0, c.number, c.timestampNanos, c.originalLength, c.linkType, c.fcsLength);
        int at = src.frameBufferOffset();
        if (at < 0) return fill(f, src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(),
                src.linkType(), src.fcsLength());
        return fill(f, null, src, src.frameBuffer(), at, src.capturedLength(), src.capturedLength(), 0, src.frameNumber(),
                src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength());
    }

    /** What {@link #fillFromHead} found: the frame's facts are in f, it needs the full dissection, or its whole bytes. */
    static final int FILLED = 0, DECLINED = 1, NEED_FRAME = 2;

    /**
     * As {@link #fill(FrameFacts, PacketSource)} for a frame of which only a copy of the first bytes is at hand
     * ({@link FillSplit}: the decoding thread copied them, this runs later on the analysis thread): the first
     * {@code copied} of the frame's {@code capLen} bytes are {@code heads[at, at + copied)}, and when the frame is
     * longer than that, {@code tail} holds its last 4 bytes (little-endian), which is where the ICRC of a frame
     * without Ethernet padding lies. The record fields are f's (number, timeNs, origLen), set by the caller; an
     * Ethernet frame without FCS. {@link #NEED_FRAME} when a byte it needs is not in the copy: nothing written,
     * the caller fills again from the whole frame. copied must be at least min(capLen, {@link #MIN_HEAD}).
     */
    int fillFromHead(FrameFacts f, byte[] heads, int at, int copied, int capLen, int tail) {
        boolean ok = fill(f, null, null, heads, at, capLen, copied, tail, f.number, f.timeNs, f.origLen, LINKTYPE_ETHERNET, 0);
        return ok ? FILLED : needFrame ? NEED_FRAME : DECLINED;
    }

    /**
     * The head copy {@link #fillFromHead} needs at least (or the whole frame when shorter): every read before the
     * first check against the copy's end lies within it (Ethernet, two VLAN tags, the fixed IPv4 header or the IPv6
     * header: at most 14 + 8 + 40 bytes).
     */
    static final int MIN_HEAD = 64;

    /**
     * The walk over the frame's bytes: from data (copied into {@link #head} as far as needed) when buffer is null,
     * else from buffer[bufferAt, bufferAt + limit), which holds the whole frame (limit == end) or, for
     * {@link #fillFromHead}, its first limit bytes, with the last 4 in tail.
     */
    private boolean fill(FrameFacts f, MemorySegment data, PacketSource source, byte[] buffer, int bufferAt, int end,
                         int limit, int tail, long number, long timeNanos, long originalLength, int linkType, int fcsLength) {
        needFrame = false;
        // An FCS the file announces shortens the frame, and any other link type has its own decoder: declined.
        if (linkType != LINKTYPE_ETHERNET || fcsLength > 0) return false;
        if (end < Eth.SIZE) return false;
        this.data = data;
        this.source = source;
        this.buffer = buffer;
        this.bufferAt = bufferAt;
        this.capLen = end;
        headLength = 0;
        // A frame the source's buffer holds whole is read in place (s from b on); head() copies its headers only when
        // asked (validate's frame stages). Otherwise the headers are copied out of the slice, as far as needed.
        byte[] s;
        int b;
        if (buffer != null) {
            s = buffer;
            b = bufferAt;
        } else {
            copyHead(Math.min(end, HEAD_CHUNK));
            s = head;
            b = 0;
        }
        int type = Eth.type(s, b);
        int off = Eth.SIZE, vlan = -1;
        for (int tags = 0; type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD; tags++) {
            if (tags == MAX_TAGS || off + Vlan.SIZE > end) return false;
            if (vlan < 0) vlan = off;
            type = Vlan.etype(s, b + off);
            off += Vlan.SIZE;
        }
        // Network layer: the datagram must be whole (the frame's end may hold Ethernet padding or an FCS).
        int ipEnd, udp, ecn, ipHeaderLength;
        boolean v6 = type == ETHERTYPE_IPV6;
        if (type == ETHERTYPE_IPV4) {
            if (off + Ip.SIZE > end) return false;
            int hdrLen = Ip.hdrLen(s, b + off) * 4;
            if (Ip.version(s, b + off) != 4 || hdrLen < Ip.SIZE || off + hdrLen > end) return false;
            int total = Ip.len(s, b + off);
            if (total < hdrLen || off + total > end || total > originalLength - off) return false;
            if (Ip.flagsMf(s, b + off) || Ip.fragOffset(s, b + off) != 0 || Ip.proto(s, b + off) != IPPROTO_UDP) return false;
            ipEnd = off + total;
            udp = off + hdrLen;
            ecn = Ip.ecn(s, b + off);
            ipHeaderLength = hdrLen;
        } else if (v6) {
            if (off + Ipv6.SIZE > end || Ipv6.version(s, b + off) != 6) return false;
            int total = Ipv6.SIZE + Ipv6.plen(s, b + off);
            if (off + total > end || total > originalLength - off) return false;
            // Extension headers (the ICRC is then unchecked, with an expert item) and other protocols: declined.
            if (Ipv6.nxt(s, b + off) != IPPROTO_UDP) return false;
            ipEnd = off + total;
            udp = off + Ipv6.SIZE;
            ecn = Ipv6.ecn(s, b + off);
            ipHeaderLength = Ipv6.SIZE;
        } else {
            return false;
        }
        int ip = off;
        // UDP: its length must end exactly where the IP datagram does (otherwise the dissector reports it).
        if (udp + Udp.SIZE > ipEnd) return false;
        if (buffer == null) {
            ensure(udp + Udp.SIZE);
            s = head;
        } else if (udp + Udp.SIZE > limit) {
            return needFrame();
        }
        if (udp + Udp.length(s, b + udp) != ipEnd || Udp.length(s, b + udp) < Udp.SIZE) return false;
        if (!config.isRocePort(Udp.dstport(s, b + udp))) return false;
        // Transport: BTH, MRTH under tver 1, then the opcode's header chain before the ICRC.
        int bth = udp + Udp.SIZE, icrcOff = ipEnd - 4;
        if (ipEnd - bth < Bth.SIZE + 4) return false;
        if (buffer == null) {
            ensure(bth + Bth.SIZE);
            s = head;
        } else if (bth + Bth.SIZE > limit) {
            return needFrame();
        }
        int tver = Bth.tver(s, b + bth), opcodeValue = Bth.opcode(s, b + bth);
        int p = bth + Bth.SIZE, mrth = -1;
        boolean spray = false;
        OpcodeDef def;
        if (tver == 0) {
            // The RD range is Mellanox DC when the byte after the BTH is not 0: declined either way.
            if ((opcodeValue & 0xE0) == RD_BASE) return false;
            def = OPCODES_TVER0[opcodeValue];
        } else if (tver == 1) {
            if (p + Mrth.SIZE > icrcOff) return false;
            if (buffer == null) {
                ensure(p + Mrth.SIZE);
                s = head;
            } else if (p + Mrth.SIZE > limit) {
                return needFrame();
            }
            if (Mrth.version(s, b + p) != 1) return false;
            mrth = p;
            spray = Mrth.spray(s, b + p);
            p += Mrth.SIZE;
            def = OPCODES_TVER1[opcodeValue];
        } else {
            return false;
        }
        if (def == null) return false;
        // Management datagrams go to QP 1: the dissector decodes their MAD and CM headers.
        int destQp = Bth.destQp(s, b + bth);
        if (destQp == GSI_QP) return false;
        int reth = -1, aeth = -1, deth = -1, sack = -1, nack = -1, credit = -1, mrcnp = -1, probe = -1, imm = -1, ieth = -1;
        for (int h : def.chain(spray)) {
            int size = Spec.HEADER_SIZES[h];
            if (p + size > icrcOff) return false;
            // As FrameFacts.from takes them from the layers: the first of some headers, the last of the others.
            if (h == Reth.HEADER) { if (reth < 0) reth = p; }
            else if (h == Aeth.HEADER) { if (aeth < 0) aeth = p; }
            else if (h == Deth.HEADER) { if (deth < 0) deth = p; }
            else if (h == Sacketh.HEADER) sack = p;
            else if (h == Nacketh.HEADER) nack = p;
            else if (h == Crediteth.HEADER) credit = p;
            else if (h == Mrcnpeth.HEADER) mrcnp = p;
            else if (h == Probeeth.HEADER) probe = p;
            else if (h == Immdt.HEADER) imm = p;
            else if (h == Ieth.HEADER) ieth = p;
            p += size;
        }
        if (buffer == null) {
            ensure(p);
            s = head;
        } else if (p > limit) {
            return needFrame();
        }
        int pad = Bth.padCnt(s, b + bth);
        int payloadLength = icrcOff - p - pad;
        if (payloadLength < 0 || !def.payload() && icrcOff - p > 0
                || def.payloadBytes() >= 0 && payloadLength != def.payloadBytes()) return false;
        long icrcValue;
        if (buffer == null) icrcValue = data.get(LE_INT, icrcOff) & 0xFFFFFFFFL;
        else if (icrcOff + 4 <= limit) icrcValue = littleEndianInt(buffer, bufferAt + icrcOff) & 0xFFFFFFFFL;
        else if (icrcOff + 4 == end) icrcValue = tail & 0xFFFFFFFFL; // a head copy: the frame's last 4 bytes
        else return needFrame();
        // The frame whole in the reader's window (buffer, limit == end): its CRC from there, as validate's short cut
        // does. Not from the file's mapping (data()): the first touch of each of its pages is a page fault, on this VM
        // an exit to the hypervisor, and the CRC reads every page (analyze --check-icrc of 1 M frames, 733 MB: 1.50 ->
        // 0.74 s wall; docs/benchmarks.md, "Twenty-sixth session"). FillSplit, which copies only a frame's head, does
        // not run under --check-icrc.
        if (icrc != null && (buffer != null && limit == end
                ? icrc.overIp(buffer, bufferAt, ip, ipHeaderLength, v6, bth, icrcOff)
                : icrc.overIp(data(), ip, ipHeaderLength, v6, bth, icrcOff)) != icrcValue) return false;

        // Accepted: the layout for FastFrame, then the same fields as FrameFacts.from, in its order.
        ipOff = ip;
        ipHdrLen = ipHeaderLength;
        ipv6 = v6;
        udpOff = udp;
        bthOff = bth;
        mrthOff = mrth;
        payloadOff = p;
        this.icrcOff = icrcOff;
        icrc32 = icrcValue;
        f.number = number;
        f.fileOffset = -1;
        f.timeNs = timeNanos;
        f.origLen = originalLength;
        f.capLen = end;
        f.truncated = false;
        f.roce = true;
        f.hasReth = f.hasAeth = f.hasDeth = f.hasSack = f.hasNack = f.hasCredit = f.hasMrCnp = f.hasProbe = false;
        f.hasImm = f.hasIeth = false;
        f.cm = FrameFacts.CM_NONE;
        f.hasMrcm = false;
        // A RoCE frame is no MAC Control frame: without this a frame after a PAUSE/PFC one kept its class and quanta.
        f.macc = FrameFacts.MACC_NONE;
        f.ecn = f.ttl = f.ipId = f.sport = f.dscp = f.pcp = -1;
        f.judgeable = true;
        if (!v6) {
            f.v6 = false;
            f.srcHi = f.dstHi = 0;
            f.srcLo = Ip.src(s, b + ip) & 0xFFFFFFFFL;
            f.dstLo = Ip.dst(s, b + ip) & 0xFFFFFFFFL;
            f.ttl = Ip.ttl(s, b + ip);
            f.ipId = Ip.id(s, b + ip);
            f.dscp = Ip.dscp(s, b + ip);
        } else {
            int addr = ip + 8;
            f.ttl = Ipv6.hlim(s, b + ip);
            f.dscp = Ipv6.dscp(s, b + ip);
            f.v6 = true;
            f.srcHi = Bits.read8(s, b + addr);
            f.srcLo = Bits.read8(s, b + addr + 8);
            f.dstHi = Bits.read8(s, b + addr + 16);
            f.dstLo = Bits.read8(s, b + addr + 24);
            if (f.srcHi == 0 && f.dstHi == 0 && (f.srcLo >>> 32) == 0xFFFFL && (f.dstLo >>> 32) == 0xFFFFL) {
                f.v6 = false;
                f.srcLo &= 0xFFFFFFFFL;
                f.dstLo &= 0xFFFFFFFFL;
            }
        }
        if (vlan >= 0) f.pcp = Vlan.pcp(s, b + vlan);
        f.rocev1 = false;
        f.ecn = ecn;
        f.sport = Udp.srcport(s, b + udp);

        f.opcode = def;
        f.opcodeKinds(def, OpcodeKinds.ofTable(tver, opcodeValue));
        f.tver = tver;
        f.opcodeValue = opcodeValue;
        f.psn = Bth.psn(s, b + bth);
        f.destQp = destQp;
        f.ackReq = Bth.ackReq(s, b + bth);
        f.becn = Bth.becn(s, b + bth);
        f.padCnt = pad;
        f.payloadLength = payloadLength;
        f.mrth = mrth >= 0;
        if (mrth >= 0) {
            f.rtx = Mrth.rtx(s, b + mrth);
            f.spray = spray;
            f.sackReq = Mrth.sackReq(s, b + mrth);
            f.tsValid = Mrth.tsValid(s, b + mrth);
            f.pathId = Mrth.pathId(s, b + mrth);
            f.msgId = Mrth.msgId(s, b + mrth);
            f.msgOffset = Mrth.msgOffset(s, b + mrth);
            f.txTs = Mrth.txTimestamp(s, b + mrth);
        } else {
            f.rtx = f.spray = f.sackReq = f.tsValid = false;
            f.pathId = 0;
            f.msgId = f.msgOffset = f.txTs = 0;
        }
        f.fingerprint = icrcValue * 31 + (f.ipId & 0xFFFF) * 65537L + f.sport;

        int o;
        if ((o = reth) >= 0) {
            f.hasReth = true;
            f.rethVa = Reth.virtualAddress(s, b + o);
            f.rethLen = Reth.dmaLength(s, b + o);
        }
        if ((o = aeth) >= 0) {
            f.hasAeth = true;
            f.aethKind = Aeth.syndromeKind(s, b + o);
            f.aethCode = Aeth.syndromeCode(s, b + o);
            f.aethMsn = Aeth.msn(s, b + o);
        }
        if ((o = deth) >= 0) {
            f.hasDeth = true;
            f.dethSrcQp = Deth.srcQp(s, b + o);
        }
        if ((o = imm) >= 0) {
            f.hasImm = true;
            f.immData = Immdt.immediate(s, b + o);
        }
        if ((o = ieth) >= 0) {
            f.hasIeth = true;
            f.iethRkey = Ieth.rKey(s, b + o);
        }
        if ((o = sack) >= 0) {
            f.hasSack = true;
            f.sackCum = Sacketh.cumPsn(s, b + o);
            f.sackBase = Sacketh.basePsn(s, b + o);
            f.sackBitmap = Sacketh.bitmap(s, b + o);
            f.sackEcho = Sacketh.echoTimestamp(s, b + o);
            f.sackCeCount = Sacketh.ceCount(s, b + o);
            f.sackEchoPath = Sacketh.echoPathId(s, b + o);
        }
        if ((o = nack) >= 0) {
            f.hasNack = true;
            f.nackFirst = Nacketh.firstPsn(s, b + o);
            f.nackCount = Nacketh.count(s, b + o);
            f.nackReason = Nacketh.reason(s, b + o);
            f.nackRnrTimer = Nacketh.rnrTimer(s, b + o);
        }
        if ((o = credit) >= 0) {
            f.hasCredit = true;
            f.creditPsn = Crediteth.grantedPsn(s, b + o);
            f.creditBytes = Crediteth.grantedBytes(s, b + o);
        }
        if ((o = mrcnp) >= 0) {
            f.hasMrCnp = true;
            f.cnpPath = Mrcnpeth.congestedPathId(s, b + o);
            f.cnpCeCount = Mrcnpeth.ceCount(s, b + o);
            f.cnpRateHint = Mrcnpeth.rateHint(s, b + o);
        }
        if ((o = probe) >= 0) {
            f.hasProbe = true;
            f.probeSeq = Probeeth.probeSeq(s, b + o);
            f.probeEcho = Probeeth.echoTimestamp(s, b + o);
        }
        return true;
    }

    private boolean needFrame() {
        needFrame = true;
        return false;
    }

    /** Whether this frame's bytes were sliced out of the file's mapping ({@link #data()}): never for the window's. */
    boolean slicedTheMapping() {
        return data != null;
    }

    @Override public MemorySegment data() {
        if (data == null) data = source.data();
        return data;
    }
    @Override public byte[] head() {
        // Read in place from the source's buffer: the copy (at least up to the payload, as from the slice) is made now.
        if (buffer != null && headLength == 0) copyHead(Math.min(capLen, Math.max(payloadOff, HEAD_CHUNK)));
        return head;
    }
    @Override public byte[] buffer() { return buffer; }
    @Override public int bufferOffset() { return buffer != null ? bufferAt : -1; }
    @Override public MemorySegment mapping() { return source != null ? source.mapping() : null; }
    @Override public long mappingOffset() { return source != null ? source.dataOffset() : -1; }
    @Override public int ipOffset() { return ipOff; }
    @Override public boolean ipv6() { return ipv6; }
    @Override public int ipHeaderLength() { return ipHdrLen; }
    @Override public int udpOffset() { return udpOff; }
    @Override public int bthOffset() { return bthOff; }
    @Override public int mrthOffset() { return mrthOff; }
    @Override public int payloadOffset() { return payloadOff; }
    @Override public int icrcOffset() { return icrcOff; }
    @Override public long icrcValue() { return icrc32; }

    /** Makes {@link #head} hold at least the frame's bytes before end (end is within the captured bytes). */
    private void ensure(int end) {
        if (end > headLength) copyHead(Math.min(capLen, Math.max(end, headLength + HEAD_CHUNK)));
    }

    private void copyHead(int n) {
        if (n > head.length) head = java.util.Arrays.copyOf(head, Math.max(n, head.length * 2));
        if (buffer != null) System.arraycopy(buffer, bufferAt + headLength, head, headLength, n - headLength);
        else MemorySegment.copy(data, ValueLayout.JAVA_BYTE, headLength, head, headLength, n - headLength);
        headLength = n;
    }

    static int littleEndianInt(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | b[i + 3] << 24;
    }
}
