package io.metaroce.analysis;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.IcrcStatus;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.Bits;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.CmRep;
import io.metaroce.protocol.CmReq;
import io.metaroce.protocol.Crediteth;
import io.metaroce.protocol.Deth;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.MaccCbfc;
import io.metaroce.protocol.MaccCbfcTimes;
import io.metaroce.protocol.MaccPause;
import io.metaroce.protocol.Grh;
import io.metaroce.protocol.Ieth;
import io.metaroce.protocol.Immdt;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Mad;
import io.metaroce.protocol.Mrcm;
import io.metaroce.protocol.Mrcnpeth;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.Nacketh;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Probeeth;
import io.metaroce.protocol.Reth;
import io.metaroce.protocol.Sacketh;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Udp;
import io.metaroce.protocol.Vlan;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The facts of one frame the analysis needs, copied out of a {@link Dissection} into plain fields: the
 * hand-over record between decoding and analysis. Mutable and reusable, so a decode thread can fill a ring of
 * them while the analysis thread consumes another (no allocation per frame).
 */
public final class FrameFacts {
    // Frame.
    public long number, timeNs, origLen;
    /** Byte offset of the frame's record (pcap) or block (pcapng) in its file, -1 when unknown or not a file. */
    public long fileOffset = -1;
    public int capLen;
    public boolean truncated;
    /** True when the frame holds a RoCE transport packet (BTH). */
    public boolean roce;
    /** False for frames the stateful analysis must not judge (bad ICRC, malformed headers; §11 d). */
    public boolean judgeable;

    // Network.
    public boolean v6;
    /** RoCEv1 (EtherType 0x8915, GRH): addresses are GIDs. */
    public boolean rocev1;
    public long srcHi, srcLo, dstHi, dstLo;
    public int ecn = -1, ttl = -1, ipId = -1, sport = -1;
    /** IP DSCP (RoCEv1: the GRH traffic class's upper 6 bits), VLAN PCP of the first tag; -1 when absent. */
    public int dscp = -1, pcp = -1;

    // BTH / MRTH.
    public int tver, opcodeValue, psn, destQp, padCnt;
    public boolean ackReq, becn;
    public OpcodeDef opcode;
    public boolean mrth, rtx, spray, sackReq, tsValid;
    public int pathId;
    public long msgId, msgOffset, txTs;
    public int payloadLength;
    /** A fingerprint of the invariant bytes (the wire ICRC when captured): equal for capture duplicates. */
    public long fingerprint;

    // Extension headers (valid when the matching has* flag is set).
    public boolean hasReth, hasAeth, hasDeth, hasSack, hasNack, hasCredit, hasMrCnp, hasProbe;
    public long rethVa, rethLen;
    public int aethKind, aethCode, aethMsn;
    public int dethSrcQp;
    /** ImmDt's immediate data and IETH's rkey to invalidate (analyze --messages), valid when hasImm / hasIeth. */
    public boolean hasImm, hasIeth;
    public long immData, iethRkey;
    public int sackCum, sackBase, sackEchoPath, sackCeCount;
    public long sackBitmap, sackEcho;
    public int nackFirst, nackCount, nackReason, nackRnrTimer;
    public int creditPsn;
    public long creditBytes;
    public int cnpPath, cnpCeCount, cnpRateHint;
    public long probeSeq, probeEcho;

    // Connection management (UD to QP 1).
    public static final int CM_NONE = 0, CM_REQ = 1, CM_REP = 2;

    /**
     * A MAC Control frame (802.3x PAUSE, 802.1Qbb PFC) with its whole body, for the flow-control report. Set by
     * {@link #from(Dissection)} only, on frames that are not RoCE: FastFacts declines these frames, so the RoCE fast
     * path does no work for them. The pause times of the 8 classes are 16 bits each in two longs (no array: the
     * facts are compared and copied field by field), read through {@link #maccQuanta(int)}; a PAUSE's is class 0's.
     */
    public static final int MACC_NONE = 0, MACC_PAUSE = 1, MACC_PFC = 2;
    public int macc;
    /** The sender's MAC address, -1 when the frame has no Ethernet header (Linux cooked capture). */
    public long maccSrc = -1;
    public int maccEnbv;
    /** Pause times: classes 0-3 in maccQuantaLo, 4-7 in maccQuantaHi, class c % 4 at bits 16 * (c % 4). */
    public long maccQuantaLo, maccQuantaHi;

    /** The pause time of class c (0-7) of a MAC Control frame; of a PAUSE, class 0 holds the link's. */
    public int maccQuanta(int c) {
        return (int) ((c < 4 ? maccQuantaLo : maccQuantaHi) >>> (16 * (c & 3))) & 0xFFFF;
    }
    public int cm;
    public long cmLocalCommId, cmRemoteCommId;
    public int cmLocalQpn, cmStartPsn, cmPathMtu;
    public boolean hasMrcm, mrcmSpray, mrcmCredit;
    public int mrcmPathCount, mrcmBasePort, mrcmPmtuLog2;

    /**
     * {@link OpcodeKinds#of} of {@link #opcode}, worked out on the decoding thread ({@link FastFacts}, {@link #from}):
     * the analysis thread asks for it several times per frame and is the busier one. Valid while kindsOf is opcode
     * (a caller that sets opcode itself gets it worked out on first use).
     */
    private OpcodeDef kindsOf;
    private int kinds;

    /** The {@link OpcodeKinds} bits of {@link #opcode} (not null). */
    public int opcodeKinds() {
        OpcodeDef op = opcode;
        if (kindsOf != op) {
            kinds = OpcodeKinds.of(op);
            kindsOf = op;
        }
        return kinds;
    }

    /**
     * Whether a MetaRoCE control packet holds the extended header its handlers read (an MR-SACK its SACKETH, an MR-NACK
     * its NACKETH, a credit grant its CREDITETH, a probe its PROBEETH); true for every other frame, and for a CNP, whose
     * MRCNPETH is optional ({@link #hasMrCnp}). A packet cut before that header (the snap length) has none of its fields,
     * and a FrameFacts object keeps, for fields its frame lacks, the values of the last frame it held (only the
     * has-flags are cleared): the analysis engine and validate's rules read such a packet no further.
     */
    public boolean hasControlHeader() {
        return switch (opcodeKinds() & OpcodeKinds.CONTROL_MASK) {
            case OpcodeKinds.SACK -> hasSack;
            case OpcodeKinds.NACK -> hasNack;
            case OpcodeKinds.CREDIT -> hasCredit;
            case OpcodeKinds.PROBE -> hasProbe;
            default -> true;
        };
    }

    /** Sets {@link #opcodeKinds()} of op (which is {@link #opcode}) from a table. */
    void opcodeKinds(OpcodeDef op, int k) {
        kindsOf = op;
        kinds = k;
    }

    /** Copies the analysis-relevant facts of a dissected frame. */
    public FrameFacts from(Dissection d) {
        number = d.number();
        fileOffset = -1;
        timeNs = d.timeNanos();
        origLen = d.originalLength();
        capLen = d.capturedLength();
        truncated = d.truncated();
        roce = d.isRoce() && d.opcode() != null;
        hasReth = hasAeth = hasDeth = hasSack = hasNack = hasCredit = hasMrCnp = hasProbe = false;
        hasImm = hasIeth = false;
        cm = CM_NONE;
        hasMrcm = false;
        ecn = ttl = ipId = sport = dscp = pcp = -1;
        macc = MACC_NONE;
        if (!roce) return macControl(d);
        // Header fields are read from the dissection's byte[] copy of the headers (it holds every layer's
        // catalogue bytes): far less code for the JIT to compile than segment reads, and faster before it has.
        byte[] s = d.head();
        judgeable = d.icrcStatus() != IcrcStatus.BAD && !hasHeaderError(d);
        // One pass over the layers instead of a lookup per header.
        int ip = -1, ip6 = -1, grh = -1, udp = -1, reth = -1, aeth = -1, deth = -1, sack = -1, nack = -1, credit = -1,
                mrcnp = -1, probeh = -1, mad = -1, vlan = -1, imm = -1, ieth = -1;
        for (int k = 0, n = d.layerCount(); k < n; k++) {
            int h = d.layerHeader(k), off = d.layerOffset(k);
            if (h == Ip.HEADER) { if (ip < 0) ip = off; }
            else if (h == Vlan.HEADER) { if (vlan < 0) vlan = off; }
            else if (h == Ipv6.HEADER) { if (ip6 < 0) ip6 = off; }
            else if (h == Grh.HEADER) { if (grh < 0) grh = off; }
            else if (h == Udp.HEADER) { if (udp < 0) udp = off; }
            else if (h == Reth.HEADER) { if (reth < 0) reth = off; }
            else if (h == Aeth.HEADER) { if (aeth < 0) aeth = off; }
            else if (h == Deth.HEADER) { if (deth < 0) deth = off; }
            else if (h == Sacketh.HEADER) sack = off;
            else if (h == Nacketh.HEADER) nack = off;
            else if (h == Crediteth.HEADER) credit = off;
            else if (h == Mrcnpeth.HEADER) mrcnp = off;
            else if (h == Probeeth.HEADER) probeh = off;
            else if (h == Mad.HEADER) mad = off;
            else if (h == Immdt.HEADER) imm = off;
            else if (h == Ieth.HEADER) ieth = off;
        }
        if (ip >= 0) {
            v6 = false;
            srcHi = dstHi = 0;
            srcLo = Ip.src(s, ip) & 0xFFFFFFFFL;
            dstLo = Ip.dst(s, ip) & 0xFFFFFFFFL;
            ttl = Ip.ttl(s, ip);
            ipId = Ip.id(s, ip);
            dscp = Ip.dscp(s, ip);
        } else {
            int addr;
            if (ip6 >= 0) {
                addr = ip6 + 8;
                ttl = Ipv6.hlim(s, ip6);
                dscp = Ipv6.dscp(s, ip6);
            } else {
                if (grh < 0) {
                    roce = false;
                    return this;
                }
                addr = grh + 8;
                ttl = Grh.hoplmt(s, grh);
                dscp = Grh.tclass(s, grh) >>> 2;
            }
            v6 = true;
            srcHi = Bits.read8(s, addr);
            srcLo = Bits.read8(s, addr + 8);
            dstHi = Bits.read8(s, addr + 16);
            dstLo = Bits.read8(s, addr + 24);
            if (srcHi == 0 && dstHi == 0 && (srcLo >>> 32) == 0xFFFFL && (dstLo >>> 32) == 0xFFFFL) {
                // IPv4-mapped GIDs (::ffff:a.b.c.d, RoCEv1 on an IPv4 network) name IPv4 hosts: keyed as those,
                // so a RoCEv1 direction pairs with its RoCEv2 peer.
                v6 = false;
                srcLo &= 0xFFFFFFFFL;
                dstLo &= 0xFFFFFFFFL;
            }
        }
        if (vlan >= 0) pcp = Vlan.pcp(s, vlan);
        rocev1 = d.isRoceV1();
        ecn = d.ecn();
        sport = udp >= 0 ? Udp.srcport(s, udp) : -1;

        int bth = d.bthOffset();
        opcode = d.opcode();
        opcodeKinds();
        tver = d.tver();
        opcodeValue = Bth.opcode(s, bth);
        psn = Bth.psn(s, bth);
        destQp = Bth.destQp(s, bth);
        ackReq = Bth.ackReq(s, bth);
        becn = Bth.becn(s, bth);
        padCnt = Bth.padCnt(s, bth);
        payloadLength = Math.max(0, d.payloadLength());
        int m = d.mrthOffset();
        mrth = m >= 0;
        if (mrth) {
            rtx = Mrth.rtx(s, m);
            spray = Mrth.spray(s, m);
            sackReq = Mrth.sackReq(s, m);
            tsValid = Mrth.tsValid(s, m);
            pathId = Mrth.pathId(s, m);
            msgId = Mrth.msgId(s, m);
            msgOffset = Mrth.msgOffset(s, m);
            txTs = Mrth.txTimestamp(s, m);
        } else {
            rtx = spray = sackReq = tsValid = false;
            pathId = 0;
            msgId = msgOffset = txTs = 0;
        }
        long icrc = d.icrcValue();
        fingerprint = icrc >= 0 ? icrc : fallbackFingerprint(d.data(), bth, d.capturedLength());
        fingerprint = fingerprint * 31 + (ipId & 0xFFFF) * 65537L + sport;

        int o;
        if ((o = reth) >= 0) {
            hasReth = true;
            rethVa = Reth.virtualAddress(s, o);
            rethLen = Reth.dmaLength(s, o);
        }
        if ((o = aeth) >= 0) {
            hasAeth = true;
            aethKind = Aeth.syndromeKind(s, o);
            aethCode = Aeth.syndromeCode(s, o);
            aethMsn = Aeth.msn(s, o);
        }
        if ((o = deth) >= 0) {
            hasDeth = true;
            dethSrcQp = Deth.srcQp(s, o);
        }
        if ((o = imm) >= 0) {
            hasImm = true;
            immData = Immdt.immediate(s, o);
        }
        if ((o = ieth) >= 0) {
            hasIeth = true;
            iethRkey = Ieth.rKey(s, o);
        }
        if ((o = sack) >= 0) {
            hasSack = true;
            sackCum = Sacketh.cumPsn(s, o);
            sackBase = Sacketh.basePsn(s, o);
            sackBitmap = Sacketh.bitmap(s, o);
            sackEcho = Sacketh.echoTimestamp(s, o);
            sackCeCount = Sacketh.ceCount(s, o);
            sackEchoPath = Sacketh.echoPathId(s, o);
        }
        if ((o = nack) >= 0) {
            hasNack = true;
            nackFirst = Nacketh.firstPsn(s, o);
            nackCount = Nacketh.count(s, o);
            nackReason = Nacketh.reason(s, o);
            nackRnrTimer = Nacketh.rnrTimer(s, o);
        }
        if ((o = credit) >= 0) {
            hasCredit = true;
            creditPsn = Crediteth.grantedPsn(s, o);
            creditBytes = Crediteth.grantedBytes(s, o);
        }
        if ((o = mrcnp) >= 0) {
            hasMrCnp = true;
            cnpPath = Mrcnpeth.congestedPathId(s, o);
            cnpCeCount = Mrcnpeth.ceCount(s, o);
            cnpRateHint = Mrcnpeth.rateHint(s, o);
        }
        if ((o = probeh) >= 0) {
            hasProbe = true;
            probeSeq = Probeeth.probeSeq(s, o);
            probeEcho = Probeeth.echoTimestamp(s, o);
        }
        if (destQp == 1 && mad >= 0) cmFacts(d, d.data());
        return this;
    }

    private void cmFacts(Dissection d, MemorySegment s) {
        int o;
        if ((o = d.offsetOf(CmReq.HEADER)) >= 0) {
            cm = CM_REQ;
            cmLocalCommId = CmReq.localCommId(s, o);
            cmRemoteCommId = 0;
            cmLocalQpn = CmReq.localQpn(s, o);
            cmStartPsn = CmReq.startingPsn(s, o);
            cmPathMtu = CmReq.pathMtu(s, o);
        } else if ((o = d.offsetOf(CmRep.HEADER)) >= 0) {
            cm = CM_REP;
            cmLocalCommId = CmRep.localCommId(s, o);
            cmRemoteCommId = CmRep.remoteCommId(s, o);
            cmLocalQpn = CmRep.localQpn(s, o);
            cmStartPsn = CmRep.startingPsn(s, o);
            cmPathMtu = 0;
        } else {
            return;
        }
        if ((o = d.offsetOf(Mrcm.HEADER)) >= 0 && Mrcm.magic(s, o) == 0x4D52) {
            hasMrcm = true;
            mrcmSpray = Mrcm.spray(s, o);
            mrcmCredit = Mrcm.credit(s, o);
            mrcmPathCount = Mrcm.pathCount(s, o);
            mrcmBasePort = Mrcm.basePort(s, o);
            mrcmPmtuLog2 = Mrcm.pmtuLog2(s, o);
        }
    }

    private static boolean hasHeaderError(Dissection d) {
        Severity w = d.worstSeverity();
        if (w == null || w != Severity.ERROR) return false;
        // Errors in the transport headers make the frame unjudgeable; a UDP checksum or length note does not.
        for (var e : d.expert()) {
            if (e.severity() == Severity.ERROR && e.group() != io.metaroce.dissector.ExpertItem.Group.CHECKSUM) return true;
        }
        return false;
    }

    private static long fallbackFingerprint(MemorySegment s, int from, int capLen) {
        long h = 1125899906842597L;
        int end = Math.min(capLen, from + 64);
        for (int i = from; i < end; i++) h = 31 * h + s.get(ValueLayout.JAVA_BYTE, i);
        return h;
    }

    /** The PAUSE or PFC body of a frame that is not RoCE, when it has one whole. */
    private FrameFacts macControl(Dissection d) {
        int pause = d.offsetOf(MaccPause.HEADER), times = d.offsetOf(MaccCbfcTimes.HEADER);
        if (pause < 0 && times < 0) return this;
        byte[] s = d.head();
        int eth = d.offsetOf(Eth.HEADER);
        maccSrc = eth >= 0 ? Eth.src(s, eth) : -1;
        if (pause >= 0) {
            macc = MACC_PAUSE;
            maccEnbv = 1;
            maccQuantaLo = MaccPause.pauseTime(s, pause);
            maccQuantaHi = 0;
        } else {
            macc = MACC_PFC;
            maccEnbv = MaccCbfc.enbv(s, d.offsetOf(MaccCbfc.HEADER));
            // Eight 16-bit times in class order: class c's is C0's read 2 * c bytes further.
            long lo = 0, hi = 0;
            for (int c = 0; c < 4; c++) {
                lo |= (long) MaccCbfcTimes.c0(s, times + 2 * c) << (16 * c);
                hi |= (long) MaccCbfcTimes.c0(s, times + 8 + 2 * c) << (16 * c);
            }
            maccQuantaLo = lo;
            maccQuantaHi = hi;
        }
        return this;
    }

    /** Copies every field from another instance (used by the decode/analysis pipeline). */
    public void copyFrom(FrameFacts o) {
        number = o.number; fileOffset = o.fileOffset; timeNs = o.timeNs; origLen = o.origLen; capLen = o.capLen; truncated = o.truncated;
        roce = o.roce; judgeable = o.judgeable; v6 = o.v6; rocev1 = o.rocev1; srcHi = o.srcHi; srcLo = o.srcLo; dstHi = o.dstHi;
        dstLo = o.dstLo; ecn = o.ecn; dscp = o.dscp; pcp = o.pcp; ttl = o.ttl; ipId = o.ipId; sport = o.sport; tver = o.tver;
        opcodeValue = o.opcodeValue; psn = o.psn; destQp = o.destQp; padCnt = o.padCnt; ackReq = o.ackReq;
        becn = o.becn; opcode = o.opcode; mrth = o.mrth; rtx = o.rtx; spray = o.spray; sackReq = o.sackReq;
        tsValid = o.tsValid; pathId = o.pathId; msgId = o.msgId; msgOffset = o.msgOffset; txTs = o.txTs;
        payloadLength = o.payloadLength; fingerprint = o.fingerprint; hasReth = o.hasReth; hasAeth = o.hasAeth;
        hasDeth = o.hasDeth; hasSack = o.hasSack; hasNack = o.hasNack; hasCredit = o.hasCredit;
        hasMrCnp = o.hasMrCnp; hasProbe = o.hasProbe; rethVa = o.rethVa; rethLen = o.rethLen;
        aethKind = o.aethKind; aethCode = o.aethCode; aethMsn = o.aethMsn; dethSrcQp = o.dethSrcQp;
        hasImm = o.hasImm; hasIeth = o.hasIeth; immData = o.immData; iethRkey = o.iethRkey;
        sackCum = o.sackCum; sackBase = o.sackBase; sackEchoPath = o.sackEchoPath; sackCeCount = o.sackCeCount;
        sackBitmap = o.sackBitmap; sackEcho = o.sackEcho; nackFirst = o.nackFirst; nackCount = o.nackCount;
        nackReason = o.nackReason; nackRnrTimer = o.nackRnrTimer; creditPsn = o.creditPsn;
        creditBytes = o.creditBytes; cnpPath = o.cnpPath; cnpCeCount = o.cnpCeCount; cnpRateHint = o.cnpRateHint;
        probeSeq = o.probeSeq; probeEcho = o.probeEcho; cm = o.cm; cmLocalCommId = o.cmLocalCommId;
        cmRemoteCommId = o.cmRemoteCommId; cmLocalQpn = o.cmLocalQpn; cmStartPsn = o.cmStartPsn;
        cmPathMtu = o.cmPathMtu; hasMrcm = o.hasMrcm; mrcmSpray = o.mrcmSpray; mrcmCredit = o.mrcmCredit;
        mrcmPathCount = o.mrcmPathCount; mrcmBasePort = o.mrcmBasePort; mrcmPmtuLog2 = o.mrcmPmtuLog2;
        kindsOf = o.kindsOf; kinds = o.kinds;
        macc = o.macc; maccSrc = o.maccSrc; maccEnbv = o.maccEnbv; maccQuantaLo = o.maccQuantaLo; maccQuantaHi = o.maccQuantaHi;
    }
}
