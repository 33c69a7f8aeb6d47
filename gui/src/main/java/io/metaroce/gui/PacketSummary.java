package io.metaroce.gui;

import io.metaroce.analysis.FrameVerdict;
import io.metaroce.dissector.Addresses;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.IcrcStatus;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.Grh;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Lrh;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.Nacketh;
import io.metaroce.protocol.Sacketh;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;

/**
 * The packet list's text of one decoded frame: addresses, protocol, QP, PSN and the Info column with the opcode,
 * what matters for it, and the analysis verdicts in brackets ({@code [Retransmission (nak)]}, {@code [Spurious]},
 * {@code [NAK seq err]}), as Wireshark's TCP analysis flags read. Same wording as {@code metaroce dissect}'s
 * summary lines where both show the same thing.
 */
final class PacketSummary {
    private PacketSummary() { }

    static String source(Dissection d) {
        int ip = d.offsetOf(Ip.HEADER);
        if (ip >= 0) return Addresses.ipv4(Ip.src(d.data(), ip));
        int ip6 = d.offsetOf(Ipv6.HEADER);
        if (ip6 >= 0) return Addresses.ipv6(Ipv6.src(d.data(), ip6));
        int grh = d.offsetOf(Grh.HEADER);
        if (grh >= 0) return "GID: " + Addresses.ipv6(Grh.sgid(d.data(), grh));
        int lrh = d.offsetOf(Lrh.HEADER);
        if (lrh >= 0) return "LID: " + Lrh.slid(d.data(), lrh);
        return "";
    }

    static String destination(Dissection d) {
        int ip = d.offsetOf(Ip.HEADER);
        if (ip >= 0) return Addresses.ipv4(Ip.dst(d.data(), ip));
        int ip6 = d.offsetOf(Ipv6.HEADER);
        if (ip6 >= 0) return Addresses.ipv6(Ipv6.dst(d.data(), ip6));
        int grh = d.offsetOf(Grh.HEADER);
        if (grh >= 0) return "GID: " + Addresses.ipv6(Grh.dgid(d.data(), grh));
        int lrh = d.offsetOf(Lrh.HEADER);
        if (lrh >= 0) return "LID: " + Lrh.dlid(d.data(), lrh);
        return "";
    }

    static String protocol(Dissection d) {
        if (d.hasLayer(Lrh.HEADER)) return "InfiniBand";
        if (d.isRoce()) return d.isRoceV1() ? "RoCEv1" : d.tver() == 1 ? "MetaRoCE" : "RoCEv2";
        if (d.hasLayer(Udp.HEADER)) return "UDP";
        if (d.hasLayer(Ip.HEADER)) return "IPv4";
        if (d.hasLayer(Ipv6.HEADER)) return "IPv6";
        return d.layerCount() > 0 ? d.layer(d.layerCount() - 1).id().toUpperCase() : "";
    }

    static String qp(Dissection d) { return d.isRoce() ? String.format("0x%06x", d.destQp()) : ""; }

    static String psn(Dissection d) { return d.isRoce() ? Integer.toString(d.psn()) : ""; }

    /** The Info column; v is the frame's analysis verdict or null while the analysis runs. */
    static String info(Dissection d, FrameVerdict v) {
        StringBuilder b = new StringBuilder(80);
        if (!d.isRoce()) {
            int udp = d.offsetOf(Udp.HEADER);
            if (udp >= 0) b.append(Udp.srcport(d.data(), udp)).append(" \u2192 ").append(Udp.dstport(d.data(), udp))
                    .append(" Len=").append(Udp.length(d.data(), udp) - Udp.SIZE);
        } else {
            b.append(d.opcode() != null ? d.opcode().label() : "Unknown opcode 0x" + Integer.toHexString(d.opcodeValue()));
            int aeth = d.offsetOf(Aeth.HEADER);
            if (aeth >= 0) {
                int kind = Aeth.syndromeKind(d.data(), aeth);
                int code = Aeth.syndromeCode(d.data(), aeth);
                if (kind == 3) {
                    EnumValueDef e = Spec.ENUM_NAK_CODE.of(code);
                    b.append(" [NAK ").append(e == null ? "code " + code : nakShort(e.id())).append(']');
                } else if (kind == 1) b.append(" [RNR NAK ").append(Spec.ENUM_RNR_TIMER.label(code)).append(']');
                b.append(" MSN=").append(Aeth.msn(d.data(), aeth));
            }
            int mrth = d.mrthOffset();
            if (mrth >= 0) {
                b.append(" path=").append(Mrth.pathId(d.data(), mrth));
                if (Mrth.rtx(d.data(), mrth)) b.append(" rtx");
            }
            int sack = d.offsetOf(Sacketh.HEADER);
            if (sack >= 0) b.append(" cum=").append(Sacketh.cumPsn(d.data(), sack)).append(" bitmap=0x")
                    .append(Long.toHexString(Sacketh.bitmap(d.data(), sack)));
            int nack = d.offsetOf(Nacketh.HEADER);
            if (nack >= 0) {
                EnumValueDef r = Spec.ENUM_NACK_REASON.of(Nacketh.reason(d.data(), nack));
                b.append(" [NACK ").append(r == null ? "reason " + Nacketh.reason(d.data(), nack) : r.id().replace('_', ' '))
                        .append("] first=").append(Nacketh.firstPsn(d.data(), nack)).append(" count=").append(Nacketh.count(d.data(), nack));
            }
            if (d.hasLayer(io.metaroce.protocol.CmReq.HEADER)) b.append(" CM ConnectRequest");
            else if (d.hasLayer(io.metaroce.protocol.CmRep.HEADER)) b.append(" CM ConnectReply");
            else if (d.hasLayer(io.metaroce.protocol.CmRtu.HEADER)) b.append(" CM ReadyToUse");
            else if (d.hasLayer(io.metaroce.protocol.CmDreq.HEADER)) b.append(" CM DisconnectRequest");
            else if (d.hasLayer(io.metaroce.protocol.CmDrep.HEADER)) b.append(" CM DisconnectReply");
            else if (d.hasLayer(io.metaroce.protocol.CmRej.HEADER)) b.append(" CM ConnectReject");
            if (d.ecn() == 3) b.append(" [ECN CE]");
        }
        if (v != null) verdicts(b, v);
        if (d.icrcStatus() == IcrcStatus.BAD) b.append(" [Bad ICRC]");
        if (d.truncated()) b.append(" [Truncated]");
        if (!d.expert().isEmpty() && d.icrcStatus() != IcrcStatus.BAD) {
            b.append(" [").append(d.expert().getFirst().message());
            if (d.expert().size() > 1) b.append(" +").append(d.expert().size() - 1);
            b.append(']');
        }
        return b.toString();
    }

    /** The short NAK names Wireshark users know: "seq err" for a PSN sequence error. */
    private static String nakShort(String id) {
        return switch (id) {
            case "psn_sequence_error" -> "seq err";
            case "invalid_request" -> "inv req";
            case "remote_access_error" -> "rem acc err";
            case "remote_operational_error" -> "rem op err";
            default -> id.replace('_', ' ');
        };
    }

    private static void verdicts(StringBuilder b, FrameVerdict v) {
        if (v.retransmission()) {
            b.append(v.inferred() ? " [Retransmission, first copy unseen" : " [Retransmission");
            if (v.cause() != null) b.append(" (").append(v.cause().label()).append(')');
            b.append(']');
            if (v.spurious() == FrameVerdict.Spurious.YES) b.append(" [Spurious]");
        }
        if (v.repeatedResponse()) b.append(" [Repeated response]");
        if (v.duplicate()) b.append(" [Duplicate]");
        if (v.outOfOrder()) b.append(" [Out-of-order]");
        if (v.psnGap() != null && v.psnGap() > 0) b.append(" [PSN gap ").append(v.psnGap()).append(']');
        if (v.ackOfUnseen()) b.append(" [ACK of unseen]");
        if (v.ackBeforeRequest()) b.append(" [ACK before request]");
        if (v.ceWithoutCnp()) b.append(" [CE without CNP]");
    }
}
