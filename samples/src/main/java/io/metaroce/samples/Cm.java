package io.metaroce.samples;

import io.metaroce.protocol.CarryDef;
import io.metaroce.protocol.CmRep;
import io.metaroce.protocol.CmReq;
import io.metaroce.protocol.CmRtu;
import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.IpCm;
import io.metaroce.protocol.Mad;
import io.metaroce.protocol.Mrcm;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/**
 * RDMA-CM connection setup on QP 1 (spec §4.1): REQ from the requester, REP from the responder, RTU from the
 * requester, each a UD SEND Only to QP 1 with DETH Q_Key 0x80010000 carrying a CM MAD (class 0x07). The REQ
 * private data starts with the IP CM header; MetaRoCE QPs add their connection parameters (path count,
 * base port, spray, credit, PMTU) at the offsets the spec's {@code carries} give (REQ 36, REP 0).
 */
final class Cm {
    static final long GSI_QKEY = 0x80010000L;
    static final int CM_CLASS = 0x07, METHOD_SEND = 0x03, ATTR_REQ = 0x10, ATTR_REP = 0x13, ATTR_RTU = 0x14;
    static final int MAD_AND_CM = Mad.SIZE + CmReq.SIZE;
    static final int SERVICE_PORT = 18515;

    private final Sim sim;
    private final Map<Long, Flow> flows = new HashMap<>();
    private final Map<Integer, int[]> gsiPsn = new HashMap<>();

    Cm(Sim sim) { this.sim = sim; }

    private Flow flow(Host src, Host dst) {
        return flows.computeIfAbsent(((long) src.index << 32) | dst.index, k -> {
            Flow f = sim.flow(src, dst, 1, "rocev2", "cm");
            f.srcQp = 1;
            Flow back = flows.get(((long) dst.index << 32) | src.index);
            if (back != null) {
                f.peer = back;
                back.peer = f;
            }
            return f;
        });
    }

    /** Connects a (requester) and b (responder) at time {@code at}; both start sending once established. */
    void connect(RcQp a, RcQp b, long at) {
        long tid = sim.rng.nextLong() & 0x7FFF_FFFF_FFFF_FFFFL;
        int commA = sim.rng.nextInt(), commB = sim.rng.nextInt();
        a.cmSetup = b.cmSetup = true;
        sim.at(at, () -> {
            Pkt req = mad(a.host, b.host, tid, ATTR_REQ, (s, o) -> writeReq(s, o, a, b, commA));
            req.deliverTo = r -> sim.after(2_000, () -> {
                Pkt rep = mad(b.host, a.host, tid, ATTR_REP, (s, o) -> writeRep(s, o, b, commB, commA));
                rep.deliverTo = r2 -> sim.after(1_000, () -> {
                    Pkt rtu = mad(a.host, b.host, tid, ATTR_RTU, (s, o) -> {
                        CmRtu.localCommId(s, o + Mad.SIZE, commA & 0xFFFF_FFFFL);
                        CmRtu.remoteCommId(s, o + Mad.SIZE, commB & 0xFFFF_FFFFL);
                    });
                    rtu.deliverTo = r3 -> b.start();
                    sim.send(rtu);
                    a.start();
                });
                sim.send(rep);
            });
            sim.send(req);
        });
    }

    private Pkt mad(Host src, Host dst, long tid, int attribute, Pkt.PayloadWriter body) {
        Pkt p = new Pkt();
        p.src = src;
        p.dst = dst;
        p.flow = flow(src, dst);
        p.tver = 0;
        p.opcode = 0x64;
        p.destQp = 1;
        p.qKey = GSI_QKEY;
        p.srcQp = 1;
        p.dscp = src.dscp;
        p.sport = 0xC000 | (src.index * 97 + dst.index) & 0x3FFF;
        int[] psn = gsiPsn.computeIfAbsent(src.index, k -> new int[] {sim.rng.nextInt(1 << 24)});
        p.psn = psn[0];
        psn[0] = (psn[0] + 1) & 0xFFFFFF;
        p.payloadLen = MAD_AND_CM;
        p.lossless = true;
        p.payloadWriter = (s, o) -> {
            Mad.baseVersion(s, o, 1);
            Mad.mgmtClass(s, o, CM_CLASS);
            Mad.classVersion(s, o, 2);
            Mad.method(s, o, METHOD_SEND);
            Mad.transactionId(s, o, tid);
            Mad.attributeId(s, o, attribute);
            body.write(s, o);
        };
        return p;
    }

    /** Byte offset of a carried header inside a private-data field (from the spec's carries). */
    static int carryOffset(int field, int header) {
        for (CarryDef c : Spec.CARRIES) if (c.field() == field && c.header() == header) return c.at();
        throw new IllegalStateException("the spec carries no header " + header + " in field " + field);
    }

    static int privateDataOffset(int field) { return Spec.FIELDS.get(field).bitOffset() / 8; }

    static int mtuCode(int pmtu) {
        for (EnumValueDef v : Spec.ENUM_IB_MTU.values()) if (v.number() == pmtu) return (int) v.value();
        throw new IllegalArgumentException("PMTU " + pmtu + " is not an IB MTU (256..4096)");
    }

    private static void writeReq(MemorySegment s, long o, RcQp a, RcQp b, int comm) {
        long c = o + Mad.SIZE;
        CmReq.localCommId(s, c, comm & 0xFFFF_FFFFL);
        CmReq.serviceId(s, c, 0x0000_0001_0106_0000L | SERVICE_PORT);
        CmReq.localCaGuid(s, c, 0x0200_00FF_FE00_0000L | a.host.index);
        CmReq.localQpn(s, c, a.qpn);
        CmReq.responderResources(s, c, 16);
        CmReq.initiatorDepth(s, c, 16);
        CmReq.remoteCmResponseTimeout(s, c, 20);
        CmReq.transportServiceType(s, c, 0);
        CmReq.endToEndFlowControl(s, c, true);
        CmReq.startingPsn(s, c, a.startPsn);
        CmReq.localCmResponseTimeout(s, c, 20);
        CmReq.retryCount(s, c, 7);
        CmReq.partitionKey(s, c, 0xFFFF);
        CmReq.pathMtu(s, c, mtuCode(a.cmPathMtu > 0 ? a.cmPathMtu : a.pmtu));
        CmReq.rnrRetryCount(s, c, 7);
        CmReq.maxCmRetries(s, c, 15);
        CmReq.primaryLocalLid(s, c, 0xFFFF);
        CmReq.primaryRemoteLid(s, c, 0xFFFF);
        CmReq.primaryLocalGid(s, c, MemorySegment.ofArray(a.host.gid()));
        CmReq.primaryRemoteGid(s, c, MemorySegment.ofArray(b.host.gid()));
        CmReq.primaryTrafficClass(s, c, a.host.dscp << 2);
        CmReq.primaryHopLimit(s, c, 64);
        CmReq.primarySubnetLocal(s, c, true);
        CmReq.primaryLocalAckTimeout(s, c, 5);
        long priv = c + privateDataOffset(CmReq.F_PRIVATE_DATA);
        long ipcm = priv + carryOffset(CmReq.F_PRIVATE_DATA, IpCm.HEADER);
        IpCm.ipVersion(s, ipcm, a.host.ipv6 ? 6 : 4);
        IpCm.srcPort(s, ipcm, 0xC000 | (a.qpn & 0x3FFF));
        IpCm.srcIp(s, ipcm, MemorySegment.ofArray(a.host.gid()));
        IpCm.dstIp(s, ipcm, MemorySegment.ofArray(b.host.gid()));
        if (a.meta) writeMrcm(s, priv + carryOffset(CmReq.F_PRIVATE_DATA, Mrcm.HEADER), a);
    }

    private static void writeRep(MemorySegment s, long o, RcQp b, int comm, int remote) {
        long c = o + Mad.SIZE;
        CmRep.localCommId(s, c, comm & 0xFFFF_FFFFL);
        CmRep.remoteCommId(s, c, remote & 0xFFFF_FFFFL);
        CmRep.localQpn(s, c, b.qpn);
        CmRep.startingPsn(s, c, b.startPsn);
        CmRep.responderResources(s, c, 16);
        CmRep.initiatorDepth(s, c, 16);
        CmRep.targetAckDelay(s, c, 15);
        CmRep.endToEndFlowControl(s, c, true);
        CmRep.rnrRetryCount(s, c, 7);
        CmRep.localCaGuid(s, c, 0x0200_00FF_FE00_0000L | b.host.index);
        if (b.meta) writeMrcm(s, c + privateDataOffset(CmRep.F_PRIVATE_DATA) + carryOffset(CmRep.F_PRIVATE_DATA, Mrcm.HEADER), b);
    }

    private static void writeMrcm(MemorySegment s, long o, RcQp q) {
        Mrcm.magic(s, o, 0x4D52);
        Mrcm.version(s, o, 1);
        Mrcm.spray(s, o, q.spray);
        Mrcm.credit(s, o, q.credit);
        Mrcm.pathCount(s, o, q.pathCount);
        Mrcm.basePort(s, o, q.basePort);
        Mrcm.pmtuLog2(s, o, Integer.numberOfTrailingZeros(q.pmtu));
    }
}
