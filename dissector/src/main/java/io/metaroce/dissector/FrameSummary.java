package io.metaroce.dissector;

import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.CmDrep;
import io.metaroce.protocol.CmDreq;
import io.metaroce.protocol.CmRej;
import io.metaroce.protocol.CmRep;
import io.metaroce.protocol.CmReq;
import io.metaroce.protocol.CmRtu;
import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.Grh;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.Lrh;
import io.metaroce.protocol.Macc;
import io.metaroce.protocol.MaccPause;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.Nacketh;
import io.metaroce.protocol.Sacketh;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import java.util.function.Consumer;

/**
 * The one-line summary of a dissected frame (source, destination, protocol, Info), shared by {@code metaroce
 * dissect}'s text lines and the GUI's packet list so the two cannot drift apart. The two differ only where a
 * {@link Style} says so.
 */
public final class FrameSummary {
    private FrameSummary() { }

    /** Where the wording of the two front ends differs. */
    public enum Style {
        /**
         * {@code dissect}'s text line (tshark-like, compared verbatim by the cli tests): "?" for a missing
         * address, QP and PSN inside Info, NAK/RNR NAK with the spec's label, SACK base PSN, lower-case flags.
         */
        LINE("?", true, false, "[bad ICRC]", "[truncated]", false),
        /**
         * The packet list (QP and PSN have their own columns): blank missing addresses, Wireshark's short NAK
         * names ({@code [NAK seq err]}), the NACK reason, capitalised flags, and "+n" for further expert items.
         */
        LIST("", false, true, "[Bad ICRC]", "[Truncated]", true);

        final String noAddress;
        final boolean qpPsnInInfo;
        final boolean shortNames;
        final String badIcrc, truncated;
        final boolean expertCount;

        Style(String noAddress, boolean qpPsnInInfo, boolean shortNames, String badIcrc, String truncated, boolean expertCount) {
            this.noAddress = noAddress;
            this.qpPsnInInfo = qpPsnInInfo;
            this.shortNames = shortNames;
            this.badIcrc = badIcrc;
            this.truncated = truncated;
            this.expertCount = expertCount;
        }
    }

    public static String source(Dissection d, Style s) { return source(d, s, NameResolver.NONE); }

    public static String destination(Dissection d, Style s) { return destination(d, s, NameResolver.NONE); }

    /** The Source column with names as the resolver gives them (host names for IP, vendors for PAUSE/PFC's MACs). */
    public static String source(Dissection d, Style s, NameResolver names) {
        int ip = d.offsetOf(Ip.HEADER);
        if (ip >= 0) return names.ipv4(Ip.src(d.data(), ip));
        int ip6 = d.offsetOf(Ipv6.HEADER);
        if (ip6 >= 0) return names.ipv6(Ipv6.src(d.data(), ip6));
        int grh = d.offsetOf(Grh.HEADER);
        if (grh >= 0) return "GID: " + Addresses.ipv6(Grh.sgid(d.data(), grh));   // RoCEv1, as tshark
        int lrh = d.offsetOf(Lrh.HEADER);
        if (lrh >= 0) return "LID: " + Lrh.slid(d.data(), lrh);                    // native InfiniBand, as tshark
        int eth = d.offsetOf(Eth.HEADER);
        if (eth >= 0 && d.hasLayer(Macc.HEADER)) return names.mac(Eth.src(d.data(), eth));   // PAUSE/PFC: no IP
        return s.noAddress;
    }

    public static String destination(Dissection d, Style s, NameResolver names) {
        int ip = d.offsetOf(Ip.HEADER);
        if (ip >= 0) return names.ipv4(Ip.dst(d.data(), ip));
        int ip6 = d.offsetOf(Ipv6.HEADER);
        if (ip6 >= 0) return names.ipv6(Ipv6.dst(d.data(), ip6));
        int grh = d.offsetOf(Grh.HEADER);
        if (grh >= 0) return "GID: " + Addresses.ipv6(Grh.dgid(d.data(), grh));
        int lrh = d.offsetOf(Lrh.HEADER);
        if (lrh >= 0) return "LID: " + Lrh.dlid(d.data(), lrh);
        int eth = d.offsetOf(Eth.HEADER);
        if (eth >= 0 && d.hasLayer(Macc.HEADER)) return names.mac(Eth.dst(d.data(), eth));
        return s.noAddress;
    }

    public static String protocol(Dissection d, Style s) {
        if (d.hasLayer(Lrh.HEADER)) return "InfiniBand";
        if (d.isRoce()) return d.isRoceV1() ? "RoCEv1" : d.tver() == 1 && !d.metaRoceOff() ? "MetaRoCE" : "RoCEv2";
        if (d.hasLayer(Udp.HEADER)) return "UDP";
        if (d.hasLayer(Ip.HEADER)) return "IPv4";
        if (d.hasLayer(Ipv6.HEADER)) return "IPv6";
        if (d.hasLayer(Macc.HEADER)) return "MAC CTRL";                           // tshark's short name
        return d.layerCount() > 0 ? d.layer(d.layerCount() - 1).id().toUpperCase() : s.noAddress;
    }

    /** The Info column without analysis verdicts. */
    public static String info(Dissection d, Style s) { return info(d, s, b -> { }); }

    /**
     * The Info column; verdicts appends what later stages know about the frame (the GUI's analysis verdicts)
     * after the protocol part and before the ICRC, truncation and expert flags.
     */
    public static String info(Dissection d, Style s, Consumer<StringBuilder> verdicts) {
        StringBuilder b = new StringBuilder(80);
        if (!d.isRoce()) {
            int udp = d.offsetOf(Udp.HEADER);
            if (udp >= 0) b.append(Udp.srcport(d.data(), udp)).append(" \u2192 ").append(Udp.dstport(d.data(), udp))
                    .append(" Len=").append(Udp.length(d.data(), udp) - Udp.SIZE);
            else macControl(b, d);
        } else roce(b, d, s);
        verdicts.accept(b);
        if (d.icrcStatus() == IcrcStatus.BAD) b.append(' ').append(s.badIcrc);
        if (d.truncated()) b.append(' ').append(s.truncated);
        if (!d.expert().isEmpty() && d.icrcStatus() != IcrcStatus.BAD) {
            b.append(" [").append(d.expert().getFirst().message());
            if (s.expertCount && d.expert().size() > 1) b.append(" +").append(d.expert().size() - 1);
            b.append(']');
        }
        return b.toString();
    }

    private static void roce(StringBuilder b, Dissection d, Style s) {
        b.append(d.opcode() != null ? d.opcode().label() : d.metaRoceOff() ? "MetaRoCE off, opcode 0x" + Integer.toHexString(d.opcodeValue())
                : "Unknown opcode 0x" + Integer.toHexString(d.opcodeValue()));
        if (s.qpPsnInInfo) b.append(" QP=0x").append(String.format("%06x", d.destQp())).append(" PSN=").append(d.psn());
        int aeth = d.offsetOf(Aeth.HEADER);
        if (aeth >= 0) {
            int kind = Aeth.syndromeKind(d.data(), aeth);
            int code = Aeth.syndromeCode(d.data(), aeth);
            if (kind == 3) {
                EnumValueDef e = Spec.ENUM_NAK_CODE.of(code);
                String name = e == null ? "code " + code : s.shortNames ? nakShort(e.id()) : e.label();
                b.append(s.shortNames ? " [NAK " + name + "]" : " NAK [" + name + "]");
            } else if (kind == 1) {
                String timer = Spec.ENUM_RNR_TIMER.label(code);
                b.append(s.shortNames ? " [RNR NAK " + timer + "]" : " RNR NAK [" + timer + "]");
            }
            b.append(" MSN=").append(Aeth.msn(d.data(), aeth));
        }
        int mrth = d.mrthOffset();
        if (mrth >= 0) {
            b.append(" path=").append(Mrth.pathId(d.data(), mrth));
            if (Mrth.rtx(d.data(), mrth)) b.append(" rtx");
        }
        int sack = d.offsetOf(Sacketh.HEADER);
        if (sack >= 0) {
            b.append(" cum=").append(Sacketh.cumPsn(d.data(), sack));
            if (!s.shortNames) b.append(" base=").append(Sacketh.basePsn(d.data(), sack));
            b.append(" bitmap=0x").append(Long.toHexString(Sacketh.bitmap(d.data(), sack)));
        }
        int nack = d.offsetOf(Nacketh.HEADER);
        if (nack >= 0) {
            if (s.shortNames) {
                int reason = Nacketh.reason(d.data(), nack);
                EnumValueDef r = Spec.ENUM_NACK_REASON.of(reason);
                b.append(" [NACK ").append(r == null ? "reason " + reason : r.id().replace('_', ' ')).append(']');
            }
            b.append(" first=").append(Nacketh.firstPsn(d.data(), nack)).append(" count=").append(Nacketh.count(d.data(), nack));
        }
        if (d.hasLayer(CmReq.HEADER)) b.append(" CM ConnectRequest");
        else if (d.hasLayer(CmRep.HEADER)) b.append(" CM ConnectReply");
        else if (d.hasLayer(CmRtu.HEADER)) b.append(" CM ReadyToUse");
        else if (d.hasLayer(CmDreq.HEADER)) b.append(" CM DisconnectRequest");
        else if (d.hasLayer(CmDrep.HEADER)) b.append(" CM DisconnectReply");
        else if (d.hasLayer(CmRej.HEADER)) b.append(" CM ConnectReject");
        if (d.ecn() == 3) b.append(" [ECN CE]");
    }

    /** tshark's Info of a MAC Control frame: "Pause: pause_time: N quanta", the PFC opcode's name, or "Unknown". */
    private static void macControl(StringBuilder b, Dissection d) {
        int macc = d.offsetOf(Macc.HEADER);
        if (macc < 0) return;
        int pause = d.offsetOf(MaccPause.HEADER);
        EnumValueDef op = Spec.ENUM_MACC_OPCODE.of(Macc.opcode(d.data(), macc));
        if (pause >= 0) b.append("Pause: pause_time: ").append(MaccPause.pauseTime(d.data(), pause)).append(" quanta");
        else b.append(op == null ? "Unknown" : op.label());
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
}
