package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.stats.ConversationType;
import io.metaroce.dissector.stats.Conversations;
import io.metaroce.dissector.stats.Endpoints;
import io.metaroce.filter.DisplayFilter;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * dissect -z conv,TYPE and -z endpoints,TYPE: tshark's conversation and endpoint tables (Ethernet, IPv4, IPv6, UDP),
 * in tshark 4's layout. The counting and the order (most frames first, ties in the order first seen) are the
 * dissector's {@link Conversations} and {@link Endpoints}, which the GUI's windows show too; this class keeps the
 * filter and tshark's text. Addresses and ports are printed as numbers (as tshark -n).
 */
final class ConversationTable implements ZStats.Tally {
    private final ConversationType type;
    private final boolean endpoints;
    private final DisplayFilter filter;
    private final String filterText;
    private final Conversations convs;
    private final Endpoints points;

    ConversationTable(ConversationType type, boolean endpoints, DisplayFilter filter, String filterText) {
        this.type = type;
        this.endpoints = endpoints;
        this.filter = filter;
        this.filterText = filterText;
        this.convs = endpoints ? null : new Conversations(type);
        this.points = endpoints ? new Endpoints(type) : null;
    }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        if (filter != null && !filter.matches(ff)) return;
        if (endpoints) points.add(d);
        else convs.add(d);
    }

    /** Adds another worker's counts (workers see disjoint frames). */
    @Override
    public void merge(ZStats.Tally other) {
        ConversationTable o = (ConversationTable) other;
        if (endpoints) points.merge(o.points);
        else convs.merge(o.convs);
    }

    @Override
    public void print(ByteOut out) {
        String bar = "================================================================================\n";
        out.ascii(bar).ascii(type.title()).ascii(endpoints ? " Endpoints\n" : " Conversations\n");
        out.ascii("Filter:").str(filterText == null ? "<No Filter>" : filterText).ch('\n');
        boolean ports = type == ConversationType.UDP;
        if (endpoints) {
            out.ascii("                       |  ").ascii(ports ? "Port  ||  " : "")
                    .ascii("Packets  | |  Bytes  | | Tx Packets | | Tx Bytes | | Rx Packets | | Rx Bytes |\n");
            for (Endpoints.Endpoint p : points.rows()) {
                StringBuilder s = new StringBuilder();
                s.append(pad(p.address(), 20)).append("      ");
                if (ports) s.append(left(Integer.toString(p.port()), 5)).append("     ");
                s.append(left(p.frames(), 6)).append("     ").append(left(p.bytes(), 9))
                        .append("     ").append(left(p.txFrames(), 6)).append("       ").append(left(p.txBytes(), 9))
                        .append("      ").append(left(p.rxFrames(), 6)).append("       ").append(left(p.rxBytes(), 9)).append("   \n");
                out.str(s.toString());
            }
        } else {
            String indent = ports ? "            " : "";
            out.ascii(indent).ascii("                                               |       <-      | |       ->      | |     Total     |    Relative    |   Duration   |\n");
            out.ascii(indent).ascii("                                               | Frames  Bytes | | Frames  Bytes | | Frames  Bytes |      Start     |              |\n");
            // A is the source of the conversation's first frame: <- counts B to A, -> A to B.
            for (Conversations.Conversation c : convs.rows()) {
                StringBuilder s = new StringBuilder();
                int w = ports ? 26 : 20;
                s.append(pad(name(c.addressA(), c.portA()), w)).append(" <-> ").append(pad(name(c.addressB(), c.portB()), w));
                s.append("  ").append(left(c.baFrames(), 6)).append(' ').append(pad(size(c.baBytes()), 9));
                s.append("  ").append(left(c.abFrames(), 6)).append(' ').append(pad(size(c.abBytes()), 9));
                s.append("  ").append(left(c.frames(), 6)).append(' ').append(pad(size(c.bytes()), 9)).append("  ");
                double start = seconds(c.startNs());
                s.append(left(fixed(start, 9), 14)).append("   ").append(left(fixed(seconds(c.stopNs()) - start, 4), 12)).append('\n');
                out.str(s.toString());
            }
        }
        out.ascii(bar);
    }

    private String name(String address, int port) {
        return type == ConversationType.UDP ? address + ":" + port : address;
    }

    /** tshark's format_size: bytes below 10 kB, then whole kB, MB, GB, TB (powers of 1000, rounded down). */
    static String size(long bytes) {
        long p = 1000;
        if (bytes / p / p / p / p >= 10) return bytes / p / p / p / p + " TB";
        if (bytes / p / p / p >= 10) return bytes / p / p / p + " GB";
        if (bytes / p / p >= 10) return bytes / p / p + " MB";
        if (bytes / p >= 10) return bytes / p + " kB";
        return bytes + " bytes";
    }

    /** nstime_to_sec: whole seconds plus the nanoseconds, as a double. */
    static double seconds(long ns) {
        return Math.floorDiv(ns, 1_000_000_000L) + Math.floorMod(ns, 1_000_000_000L) / 1e9;
    }

    /** C's %.Nf: the double's exact value rounded half to even (Java's %f rounds its shortest decimal form). */
    static String fixed(double v, int decimals) {
        String s = new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        // C keeps the sign of a negative value that rounds to zero (a frame stamped before the first: -0.000000000).
        return v < 0 && s.charAt(0) != '-' ? "-" + s : s;
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    private static String left(Object v, int width) {
        String s = String.valueOf(v);
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
