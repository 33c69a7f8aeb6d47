package io.metaroce.gui;

import io.metaroce.analysis.FrameVerdict;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameSummary;
import io.metaroce.dissector.FrameSummary.Style;
import io.metaroce.dissector.NameResolver;

/**
 * The packet list's text of one decoded frame: the dissector's {@link FrameSummary} in its list style (the same
 * builder as {@code metaroce dissect}'s lines), the QP and PSN columns, and the analysis verdicts in the Info
 * column in brackets ({@code [Retransmission (nak)]}, {@code [Spurious]}), as Wireshark's TCP analysis flags read.
 */
final class PacketSummary {
    private PacketSummary() { }

    /** Source, with View > Name Resolution's names (the window's {@code GuiContext.namesProperty()}, read on the
     *  JavaFX thread when the pass that needs it starts; {@code NameResolver.NONE} for addresses only). */
    static String source(Dissection d, NameResolver names) { return FrameSummary.source(d, Style.LIST, names); }

    static String destination(Dissection d, NameResolver names) { return FrameSummary.destination(d, Style.LIST, names); }

    static String protocol(Dissection d) { return FrameSummary.protocol(d, Style.LIST); }

    static String qp(Dissection d) { return d.isRoce() ? String.format("0x%06x", d.destQp()) : ""; }

    static String psn(Dissection d) { return d.isRoce() ? Integer.toString(d.psn()) : ""; }

    /** The Info column; v is the frame's analysis verdict or null while the analysis runs. */
    static String info(Dissection d, FrameVerdict v) {
        return FrameSummary.info(d, Style.LIST, b -> { if (v != null) verdicts(b, v); });
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
