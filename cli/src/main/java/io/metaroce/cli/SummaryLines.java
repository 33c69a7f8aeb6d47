package io.metaroce.cli;

import io.metaroce.dissector.Addresses;
import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.IcrcStatus;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.Nacketh;
import io.metaroce.protocol.Sacketh;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;

/** Default text output: one tshark-like line per frame (number, relative time, addresses, protocol, length, info). */
final class SummaryLines implements DissectCommand.FrameSink {
    private final ByteOut out;
    private long firstTime = Long.MIN_VALUE;

    SummaryLines(ByteOut out) { this.out = out; }

    @Override
    public void batch(io.metaroce.dissector.FrameBatch batch) { firstTime = batch.captureStartNanos(); }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        if (firstTime == Long.MIN_VALUE) firstTime = d.timeNanos();
        long rel = d.timeNanos() - firstTime;
        String no = Long.toString(d.number());
        for (int i = no.length(); i < 6; i++) out.ch(' ');
        out.ascii(no).ch(' ').num(rel / 1_000_000_000L).ch('.');
        String frac = Long.toString(Math.abs(rel % 1_000_000_000L));
        for (int i = frac.length(); i < 9; i++) out.ch('0');
        out.ascii(frac).ch(' ').str(source(d)).str(" \u2192 ").str(destination(d)).ch(' ')
                .ascii(protocol(d)).ch(' ').num(d.originalLength()).ch(' ').str(info(d)).ch('\n');
    }

    static String source(Dissection d) {
        int ip = d.offsetOf(Ip.HEADER);
        if (ip >= 0) return Addresses.ipv4(Ip.src(d.data(), ip));
        int ip6 = d.offsetOf(Ipv6.HEADER);
        if (ip6 >= 0) return Addresses.ipv6(Ipv6.src(d.data(), ip6));
        int grh = d.offsetOf(io.metaroce.protocol.Grh.HEADER);
        if (grh >= 0) return "GID: " + Addresses.ipv6(io.metaroce.protocol.Grh.sgid(d.data(), grh)); // RoCEv1, as tshark
        int lrh = d.offsetOf(io.metaroce.protocol.Lrh.HEADER);
        if (lrh >= 0) return "LID: " + io.metaroce.protocol.Lrh.slid(d.data(), lrh); // native InfiniBand, as tshark
        return "?";
    }

    static String destination(Dissection d) {
        int ip = d.offsetOf(Ip.HEADER);
        if (ip >= 0) return Addresses.ipv4(Ip.dst(d.data(), ip));
        int ip6 = d.offsetOf(Ipv6.HEADER);
        if (ip6 >= 0) return Addresses.ipv6(Ipv6.dst(d.data(), ip6));
        int grh = d.offsetOf(io.metaroce.protocol.Grh.HEADER);
        if (grh >= 0) return "GID: " + Addresses.ipv6(io.metaroce.protocol.Grh.dgid(d.data(), grh));
        int lrh = d.offsetOf(io.metaroce.protocol.Lrh.HEADER);
        if (lrh >= 0) return "LID: " + io.metaroce.protocol.Lrh.dlid(d.data(), lrh);
        return "?";
    }

    static String protocol(Dissection d) {
        if (d.hasLayer(io.metaroce.protocol.Lrh.HEADER)) return "InfiniBand";
        if (d.isRoce()) return d.isRoceV1() ? "RoCEv1" : d.tver() == 1 ? "MetaRoCE" : "RoCEv2";
        if (d.hasLayer(Udp.HEADER)) return "UDP";
        if (d.hasLayer(Ip.HEADER)) return "IPv4";
        if (d.hasLayer(Ipv6.HEADER)) return "IPv6";
        return d.layerCount() > 0 ? d.layer(d.layerCount() - 1).id().toUpperCase() : "?";
    }

    /** The Info column: opcode, QP, PSN and what matters for that opcode. */
    static String info(Dissection d) {
        StringBuilder b = new StringBuilder(64);
        if (!d.isRoce()) {
            int udp = d.offsetOf(Udp.HEADER);
            if (udp >= 0) b.append(Udp.srcport(d.data(), udp)).append(" \u2192 ").append(Udp.dstport(d.data(), udp))
                    .append(" Len=").append(Udp.length(d.data(), udp) - Udp.SIZE);
        } else {
            b.append(d.opcode() != null ? d.opcode().label() : "Unknown opcode 0x" + Integer.toHexString(d.opcodeValue()));
            b.append(" QP=0x").append(String.format("%06x", d.destQp())).append(" PSN=").append(d.psn());
            int aeth = d.offsetOf(Aeth.HEADER);
            if (aeth >= 0) {
                int kind = Aeth.syndromeKind(d.data(), aeth);
                int code = Aeth.syndromeCode(d.data(), aeth);
                if (kind == 3) {
                    EnumValueDef v = Spec.ENUM_NAK_CODE.of(code);
                    b.append(" NAK [").append(v == null ? "code " + code : v.label()).append(']');
                } else if (kind == 1) b.append(" RNR NAK [").append(Spec.ENUM_RNR_TIMER.label(code)).append(']');
                b.append(" MSN=").append(Aeth.msn(d.data(), aeth));
            }
            int mrth = d.mrthOffset();
            if (mrth >= 0) {
                b.append(" path=").append(Mrth.pathId(d.data(), mrth));
                if (Mrth.rtx(d.data(), mrth)) b.append(" rtx");
            }
            int sack = d.offsetOf(Sacketh.HEADER);
            if (sack >= 0) b.append(" cum=").append(Sacketh.cumPsn(d.data(), sack)).append(" base=")
                    .append(Sacketh.basePsn(d.data(), sack)).append(" bitmap=0x").append(Long.toHexString(Sacketh.bitmap(d.data(), sack)));
            int nack = d.offsetOf(Nacketh.HEADER);
            if (nack >= 0) b.append(" first=").append(Nacketh.firstPsn(d.data(), nack)).append(" count=").append(Nacketh.count(d.data(), nack));
            if (d.hasLayer(io.metaroce.protocol.CmReq.HEADER)) b.append(" CM ConnectRequest");
            else if (d.hasLayer(io.metaroce.protocol.CmRep.HEADER)) b.append(" CM ConnectReply");
            else if (d.hasLayer(io.metaroce.protocol.CmRtu.HEADER)) b.append(" CM ReadyToUse");
            else if (d.hasLayer(io.metaroce.protocol.CmDreq.HEADER)) b.append(" CM DisconnectRequest");
            else if (d.hasLayer(io.metaroce.protocol.CmDrep.HEADER)) b.append(" CM DisconnectReply");
            else if (d.hasLayer(io.metaroce.protocol.CmRej.HEADER)) b.append(" CM ConnectReject");
            if (d.ecn() == 3) b.append(" [ECN CE]");
        }
        if (d.icrcStatus() == IcrcStatus.BAD) b.append(" [bad ICRC]");
        if (d.truncated()) b.append(" [truncated]");
        if (!d.expert().isEmpty() && d.icrcStatus() != IcrcStatus.BAD) b.append(" [").append(d.expert().get(0).message()).append(']');
        return b.toString();
    }
}
