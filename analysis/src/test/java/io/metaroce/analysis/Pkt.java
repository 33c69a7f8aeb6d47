package io.metaroce.analysis;

import io.metaroce.dissector.Addresses;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.Icrc;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.CmRep;
import io.metaroce.protocol.CmReq;
import io.metaroce.protocol.Crediteth;
import io.metaroce.protocol.Deth;
import io.metaroce.protocol.HeaderDef;
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
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Test frame builder: Ethernet / IPv4 or IPv6 / UDP 4791 / BTH [/ MRTH] / the opcode's headers / payload /
 * ICRC, written with the generated flyweight setters and a correct ICRC. Fluent; {@link #build()} gives bytes.
 */
final class Pkt {
    // Opcodes.
    static final int SEND_FIRST = 0x00, SEND_MIDDLE = 0x01, SEND_LAST = 0x02, SEND_ONLY = 0x04, WRITE_FIRST = 0x06,
            WRITE_MIDDLE = 0x07, WRITE_LAST = 0x08, WRITE_ONLY = 0x0A, READ_REQ = 0x0C, READ_RESP_FIRST = 0x0D,
            READ_RESP_MIDDLE = 0x0E, READ_RESP_LAST = 0x0F, READ_RESP_ONLY = 0x10, ACK = 0x11, UD_SEND_ONLY = 0x64,
            CNP = 0x81, MR_SACK = 0xE0, MR_NACK = 0xE1, MR_CREDIT = 0xE2, MR_CNP = 0xE3, MR_PROBE = 0xE4,
            MR_PROBE_REPLY = 0xE5;
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    String src = "10.0.0.1", dst = "10.0.0.2";
    int sport = 49152, ttl = 64, ecn = 2, ipId;
    int opcode = SEND_ONLY, tver, qp = 0x201, psn;
    boolean ackReq, becn;
    boolean rtx, spray, sackReq, tsValid = true;
    int path;
    long msgId, msgOffset, tx;
    long rethVa = 0x1000, rethLen;
    int aethSyndrome = 0x1F, msn;
    int dethSrcQp = 0x11;
    long qkey = 0x11111111L;
    int sackCum, sackBase, sackCe, sackEchoPath;
    long sackBitmap, sackEcho;
    int nackFirst, nackCount = 1, nackReason, nackRnr;
    int creditPsn;
    long creditBytes;
    int cnpPath, cnpCe;
    long probeSeq, probeEcho;
    int payload;
    long imm, iethRkey;
    byte[] madBody; // UD to QP 1: MAD + CM bytes

    static Pkt of(int opcode) {
        Pkt p = new Pkt();
        p.opcode = opcode;
        if (opcode >= 0xE0) p.tver = 1;
        return p;
    }

    Pkt from(String s, String d) { src = s; dst = d; return this; }
    Pkt qp(int q) { qp = q; return this; }
    Pkt psn(int p) { psn = p & 0xFFFFFF; return this; }
    Pkt payload(int n) { payload = n; return this; }
    Pkt meta() { tver = 1; return this; }
    Pkt ce() { ecn = 3; return this; }
    Pkt ack() { ackReq = true; return this; }
    Pkt rtx() { rtx = true; return this; }
    Pkt path(int p) { path = p; sport = 49152 + p; return this; }
    Pkt msg(long id, long off) { msgId = id; msgOffset = off; return this; }
    Pkt tx(long t) { tx = t; return this; }
    Pkt reth(long va, long len) { rethVa = va; rethLen = len; return this; }
    Pkt aeth(int kind, int code, int m) { aethSyndrome = (kind << 5) | code; msn = m; return this; }
    Pkt sack(int cum, int base, long bitmap) { sackCum = cum; sackBase = base; sackBitmap = bitmap; return this; }
    Pkt echo(long ts, int p) { sackEcho = ts; sackEchoPath = p; probeEcho = ts; return this; }
    Pkt nack(int first, int count, int reason) { nackFirst = first; nackCount = count; nackReason = reason; return this; }
    Pkt ipId(int id) { ipId = id; return this; }
    Pkt ttl(int t) { ttl = t; return this; }
    Pkt imm(long v) { imm = v; return this; }
    Pkt ieth(long rkey) { iethRkey = rkey; return this; }

    byte[] build() {
        boolean v6 = src.contains(":");
        OpcodeDef def = Dissector.opcodeDef(opcode, tver);
        if (def == null) throw new IllegalArgumentException("opcode " + opcode + " tver " + tver);
        boolean sprayChain = tver == 1 && spray;
        int[] chain = def.chain(sprayChain);
        int hdrs = 0;
        for (int h : chain) hdrs += Spec.HEADERS.get(h).size();
        int body = payload;
        if (madBody != null) body = madBody.length;
        int pad = (4 - (body & 3)) & 3;
        int ipLen = v6 ? 40 : 20;
        int bthOff = 14 + ipLen + 8;
        int afterBth = bthOff + 12 + (tver == 1 ? 16 : 0);
        int payloadOff = afterBth + hdrs;
        int icrcOff = payloadOff + body + pad;
        int total = icrcOff + 4;
        byte[] b = new byte[total];
        MemorySegment s = MemorySegment.ofArray(b);
        // Ethernet.
        b[0] = 2; b[5] = 2; b[6] = 2; b[11] = 1;
        b[12] = (byte) (v6 ? 0x86 : 0x08);
        b[13] = (byte) (v6 ? 0xDD : 0x00);
        int ip = 14;
        if (v6) {
            Ipv6.version(s, ip, 6);
            Ipv6.ecn(s, ip, ecn);
            Ipv6.plen(s, ip, total - ip - 40);
            Ipv6.nxt(s, ip, 17);
            Ipv6.hlim(s, ip, ttl);
            Ipv6.src(s, ip, MemorySegment.ofArray(Addresses.parse(src)));
            Ipv6.dst(s, ip, MemorySegment.ofArray(Addresses.parse(dst)));
        } else {
            Ip.version(s, ip, 4);
            Ip.hdrLen(s, ip, 5);
            Ip.ecn(s, ip, ecn);
            Ip.len(s, ip, total - ip);
            Ip.id(s, ip, ipId);
            Ip.flagsDf(s, ip, true);
            Ip.ttl(s, ip, ttl);
            Ip.proto(s, ip, 17);
            Ip.src(s, ip, v4(src));
            Ip.dst(s, ip, v4(dst));
            int sum = 0;
            for (int i = 0; i < 20; i += 2) sum += ((b[ip + i] & 0xFF) << 8) | (b[ip + i + 1] & 0xFF);
            while ((sum >>> 16) != 0) sum = (sum & 0xFFFF) + (sum >>> 16);
            Ip.checksum(s, ip, ~sum & 0xFFFF);
        }
        int udp = 14 + ipLen;
        Udp.srcport(s, udp, sport);
        Udp.dstport(s, udp, 4791);
        Udp.length(s, udp, total - udp);
        Udp.checksum(s, udp, 0);
        Bth.opcode(s, bthOff, opcode);
        Bth.padCnt(s, bthOff, pad);
        Bth.tver(s, bthOff, tver);
        Bth.pKey(s, bthOff, 0xFFFF);
        Bth.becn(s, bthOff, becn || opcode == CNP);
        Bth.destQp(s, bthOff, qp);
        Bth.ackReq(s, bthOff, ackReq);
        Bth.psn(s, bthOff, psn);
        int p = bthOff + 12;
        if (tver == 1) {
            Mrth.version(s, p, 1);
            Mrth.rtx(s, p, rtx);
            Mrth.spray(s, p, spray);
            Mrth.sackReq(s, p, sackReq);
            Mrth.tsValid(s, p, tsValid);
            Mrth.pathId(s, p, path);
            Mrth.msgId(s, p, msgId);
            Mrth.msgOffset(s, p, msgOffset);
            Mrth.txTimestamp(s, p, tx);
            p += 16;
        }
        for (int h : chain) {
            HeaderDef hd = Spec.HEADERS.get(h);
            switch (hd.id()) {
                case "reth" -> {
                    Reth.virtualAddress(s, p, rethVa);
                    Reth.rKey(s, p, 0x1234);
                    Reth.dmaLength(s, p, rethLen);
                }
                case "aeth" -> {
                    Aeth.syndrome(s, p, aethSyndrome);
                    Aeth.msn(s, p, msn);
                }
                case "deth" -> {
                    Deth.qKey(s, p, qkey);
                    Deth.srcQp(s, p, dethSrcQp);
                }
                case "sacketh" -> {
                    Sacketh.cumPsn(s, p, sackCum);
                    Sacketh.basePsn(s, p, sackBase);
                    Sacketh.bitmap(s, p, sackBitmap);
                    Sacketh.echoTimestamp(s, p, sackEcho);
                    Sacketh.ceCount(s, p, sackCe);
                    Sacketh.echoPathId(s, p, sackEchoPath);
                }
                case "nacketh" -> {
                    Nacketh.firstPsn(s, p, nackFirst);
                    Nacketh.count(s, p, nackCount);
                    Nacketh.reason(s, p, nackReason);
                    Nacketh.rnrTimer(s, p, nackRnr);
                }
                case "crediteth" -> {
                    Crediteth.grantedPsn(s, p, creditPsn);
                    Crediteth.grantedBytes(s, p, creditBytes);
                }
                case "mrcnpeth" -> {
                    Mrcnpeth.congestedPathId(s, p, cnpPath);
                    Mrcnpeth.ceCount(s, p, cnpCe);
                }
                case "immdt" -> io.metaroce.protocol.Immdt.immediate(s, p, imm);
                case "ieth" -> io.metaroce.protocol.Ieth.rKey(s, p, iethRkey);
                case "probeeth" -> {
                    Probeeth.probeSeq(s, p, probeSeq);
                    Probeeth.echoTimestamp(s, p, probeEcho);
                }
                default -> { }
            }
            p += hd.size();
        }
        if (madBody != null) System.arraycopy(madBody, 0, b, payloadOff, madBody.length);
        else for (int i = 0; i < body; i++) b[payloadOff + i] = (byte) (psn + i);
        long icrc = new Icrc().overIp(s, ip, ipLen, v6, bthOff, icrcOff);
        s.set(LE_INT, icrcOff, (int) icrc);
        return b;
    }

    static int v4(String a) {
        String[] p = a.split("\\.");
        return (Integer.parseInt(p[0]) << 24) | (Integer.parseInt(p[1]) << 16) | (Integer.parseInt(p[2]) << 8) | Integer.parseInt(p[3]);
    }

    /** A CM REQ (A -> B) as UD SEND Only to QP 1, with IP CM and optional MetaRoCE parameters. */
    static Pkt cmReq(String a, String b, long commId, int localQpn, int startPsn, int pathMtuCode, boolean mr,
                     int pathCount, int basePort, int pmtuLog2) {
        byte[] mad = new byte[Mad.SIZE + CmReq.SIZE];
        MemorySegment s = MemorySegment.ofArray(mad);
        Mad.baseVersion(s, 0, 1);
        Mad.mgmtClass(s, 0, 7);
        Mad.classVersion(s, 0, 2);
        Mad.method(s, 0, 3);
        Mad.attributeId(s, 0, 0x10);
        int o = Mad.SIZE;
        CmReq.localCommId(s, o, commId);
        CmReq.localQpn(s, o, localQpn);
        CmReq.startingPsn(s, o, startPsn);
        CmReq.pathMtu(s, o, pathMtuCode);
        int pd = o + 140;
        mad[pd] = 0x40; // IP CM major version 4
        mad[pd + 1] = 0x40;
        if (mr) mrcm(s, pd + 36, pathCount, basePort, pmtuLog2);
        Pkt p = of(UD_SEND_ONLY).from(a, b).qp(1);
        p.madBody = mad;
        p.qkey = 0x80010000L;
        p.dethSrcQp = 1;
        return p;
    }

    static Pkt cmRep(String b, String a, long commId, long remoteCommId, int localQpn, int startPsn, boolean mr,
                     int pathCount, int basePort, int pmtuLog2) {
        byte[] mad = new byte[Mad.SIZE + CmRep.SIZE];
        MemorySegment s = MemorySegment.ofArray(mad);
        Mad.baseVersion(s, 0, 1);
        Mad.mgmtClass(s, 0, 7);
        Mad.classVersion(s, 0, 2);
        Mad.method(s, 0, 3);
        Mad.attributeId(s, 0, 0x13);
        int o = Mad.SIZE;
        CmRep.localCommId(s, o, commId);
        CmRep.remoteCommId(s, o, remoteCommId);
        CmRep.localQpn(s, o, localQpn);
        CmRep.startingPsn(s, o, startPsn);
        if (mr) mrcm(s, o + 36, pathCount, basePort, pmtuLog2);
        Pkt p = of(UD_SEND_ONLY).from(b, a).qp(1);
        p.madBody = mad;
        p.qkey = 0x80010000L;
        p.dethSrcQp = 1;
        return p;
    }

    private static void mrcm(MemorySegment s, int o, int pathCount, int basePort, int pmtuLog2) {
        Mrcm.magic(s, o, 0x4D52);
        Mrcm.version(s, o, 1);
        Mrcm.spray(s, o, pathCount > 1);
        Mrcm.pathCount(s, o, pathCount);
        Mrcm.basePort(s, o, basePort);
        Mrcm.pmtuLog2(s, o, pmtuLog2);
    }
}
