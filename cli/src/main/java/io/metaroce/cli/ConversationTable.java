package io.metaroce.cli;

import io.metaroce.dissector.Addresses;
import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameFields;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Udp;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * dissect -z conv,TYPE and -z endpoints,TYPE: tshark's conversation and endpoint tables (Ethernet, IPv4, IPv6, UDP),
 * in tshark 4's layout and order: most frames first, ties in the order first seen. Every header of the type in a frame
 * counts (tshark's tap fires once per header), with the frame's length on the wire. Memory grows with the
 * conversations or endpoints, not with the frames. Addresses and ports are printed as numbers (as tshark -n).
 */
final class ConversationTable implements ZStats.Tally {
    enum Type {
        ETH("eth", "Ethernet", Eth.HEADER), IP("ip", "IPv4", Ip.HEADER), IPV6("ipv6", "IPv6", Ipv6.HEADER), UDP("udp", "UDP", Udp.HEADER);

        final String id, title;
        final int header;

        Type(String id, String title, int header) {
            this.id = id;
            this.title = title;
            this.header = header;
        }

        static Type of(String id) {
            for (Type t : values()) if (t.id.equals(id)) return t;
            return null;
        }
    }

    /** An address (a MAC or an IPv4 address in lo; an IPv6 address in hi and lo; for UDP v6 marks IPv6) and a port (-1: none). */
    record End(long hi, long lo, int port, boolean v6) {
        String address(Type t) {
            return switch (t) {
                case ETH -> Addresses.mac(lo);
                case IP -> Addresses.ipv4((int) lo);
                case IPV6 -> ipv6(hi, lo);
                case UDP -> v6 ? ipv6(hi, lo) : Addresses.ipv4((int) lo);
            };
        }

        private static String ipv6(long hi, long lo) {
            byte[] a = new byte[16];
            for (int i = 0; i < 8; i++) {
                a[i] = (byte) (hi >>> (56 - 8 * i));
                a[8 + i] = (byte) (lo >>> (56 - 8 * i));
            }
            return Addresses.ipv6(a);
        }
    }

    /** A conversation: a is the source of its first frame; tx counts a to b, rx b to a (tshark's -> and <- columns). */
    static final class Conv {
        final End a, b;
        final long order;
        long txFrames, txBytes, rxFrames, rxBytes, startNs, stopNs;

        Conv(End a, End b, long order, long relNs) {
            this.a = a;
            this.b = b;
            this.order = order;
            this.startNs = this.stopNs = relNs;
        }
    }

    /** An endpoint: frames and bytes it sent (tx) and received (rx). */
    static final class Point {
        final End end;
        final long order;
        long txFrames, txBytes, rxFrames, rxBytes;

        Point(End end, long order) {
            this.end = end;
            this.order = order;
        }
    }

    private final Type type;
    private final boolean endpoints;
    private final DisplayFilter filter;
    private final String filterText;
    /** Conversations under both orders of their ends (the same object twice). */
    final Map<List<End>, Conv> convs = new HashMap<>();
    final Map<End, Point> points = new HashMap<>();

    ConversationTable(Type type, boolean endpoints, DisplayFilter filter, String filterText) {
        this.type = type;
        this.endpoints = endpoints;
        this.filter = filter;
        this.filterText = filterText;
    }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        if (filter != null && !filter.matches(ff)) return;
        for (int i = 0; i < d.layerCount(); i++) {
            int h = d.layerHeader(i);
            if (h != type.header) continue;
            // Order of first appearance, kept across workers: the frame, then the header in it, then source before
            // destination (tshark adds the source endpoint first).
            long order = d.number() * 256 + i * 2L;
            End src, dst;
            byte[] b = d.head();
            int o = d.layerOffset(i);
            switch (type) {
                case ETH -> {
                    src = new End(0, Eth.src(b, o), -1, false);
                    dst = new End(0, Eth.dst(b, o), -1, false);
                }
                case IP -> {
                    src = new End(0, Ip.src(b, o) & 0xFFFFFFFFL, -1, false);
                    dst = new End(0, Ip.dst(b, o) & 0xFFFFFFFFL, -1, false);
                }
                case IPV6 -> {
                    src = new End(longAt(b, o + 8), longAt(b, o + 16), -1, true);
                    dst = new End(longAt(b, o + 24), longAt(b, o + 32), -1, true);
                }
                default -> {
                    // UDP: the addresses of the IP header before it.
                    int ip = i - 1;
                    while (ip >= 0 && d.layerHeader(ip) != Ip.HEADER && d.layerHeader(ip) != Ipv6.HEADER) ip--;
                    if (ip < 0) continue;
                    int io = d.layerOffset(ip);
                    boolean v6 = d.layerHeader(ip) == Ipv6.HEADER;
                    int sp = Udp.srcport(b, o), dp = Udp.dstport(b, o);
                    src = v6 ? new End(longAt(b, io + 8), longAt(b, io + 16), sp, true) : new End(0, Ip.src(b, io) & 0xFFFFFFFFL, sp, false);
                    dst = v6 ? new End(longAt(b, io + 24), longAt(b, io + 32), dp, true) : new End(0, Ip.dst(b, io) & 0xFFFFFFFFL, dp, false);
                }
            }
            long len = d.originalLength();
            if (endpoints) {
                Point s = points.computeIfAbsent(src, e -> new Point(e, order));
                s.txFrames++;
                s.txBytes += len;
                Point r = points.computeIfAbsent(dst, e -> new Point(e, order + 1));
                r.rxFrames++;
                r.rxBytes += len;
            } else {
                long rel = d.timeNanos() - d.firstTimeNanos();
                Conv c = convs.get(List.of(src, dst));
                if (c == null) {
                    c = new Conv(src, dst, order, rel);
                    convs.put(List.of(src, dst), c);
                    convs.put(List.of(dst, src), c);
                }
                add(c, src.equals(c.a) && dst.equals(c.b), 1, len, rel, rel);
            }
        }
    }

    private static void add(Conv c, boolean tx, long frames, long bytes, long start, long stop) {
        if (tx) {
            c.txFrames += frames;
            c.txBytes += bytes;
        } else {
            c.rxFrames += frames;
            c.rxBytes += bytes;
        }
        c.startNs = Math.min(c.startNs, start);
        c.stopNs = Math.max(c.stopNs, stop);
    }

    private static long longAt(byte[] b, int o) {
        long v = 0;
        for (int i = 0; i < 8; i++) v = (v << 8) | (b[o + i] & 0xFF);
        return v;
    }

    /** Adds another worker's counts (workers see disjoint frames): the earlier first appearance names the ends. */
    @Override
    public void merge(ZStats.Tally other) {
        ConversationTable o = (ConversationTable) other;
        for (Point p : o.points.values()) {
            Point mine = points.get(p.end);
            if (mine == null || p.order < mine.order) {
                Point q = new Point(p.end, p.order);
                if (mine != null) addPoint(q, mine);
                addPoint(q, p);
                points.put(p.end, q);
            } else {
                addPoint(mine, p);
            }
        }
        for (Conv c : distinct(o.convs)) {
            Conv mine = convs.get(List.of(c.a, c.b));
            if (mine == null || c.order < mine.order) {
                Conv n = new Conv(c.a, c.b, c.order, c.startNs);
                if (mine != null) addConv(n, mine);
                addConv(n, c);
                convs.put(List.of(n.a, n.b), n);
                convs.put(List.of(n.b, n.a), n);
            } else {
                addConv(mine, c);
            }
        }
    }

    private static void addPoint(Point to, Point from) {
        to.txFrames += from.txFrames;
        to.txBytes += from.txBytes;
        to.rxFrames += from.rxFrames;
        to.rxBytes += from.rxBytes;
    }

    private static void addConv(Conv to, Conv from) {
        boolean same = to.a.equals(from.a);
        add(to, same, from.txFrames, from.txBytes, from.startNs, from.stopNs);
        add(to, !same, from.rxFrames, from.rxBytes, from.startNs, from.stopNs);
    }

    private static List<Conv> distinct(Map<List<End>, Conv> convs) {
        List<Conv> all = new ArrayList<>();
        // Each conversation is there under both orders of its ends: taken once, under its own order (equals, not
        // identity: a merge replaces the value under a key whose objects came from another worker).
        for (var e : convs.entrySet()) if (e.getKey().get(0).equals(e.getValue().a)) all.add(e.getValue());
        return all;
    }

    @Override
    public void print(ByteOut out) {
        String bar = "================================================================================\n";
        out.ascii(bar).ascii(type.title).ascii(endpoints ? " Endpoints\n" : " Conversations\n");
        out.ascii("Filter:").str(filterText == null ? "<No Filter>" : filterText).ch('\n');
        boolean ports = type == Type.UDP;
        if (endpoints) {
            out.ascii("                       |  ").ascii(ports ? "Port  ||  " : "")
                    .ascii("Packets  | |  Bytes  | | Tx Packets | | Tx Bytes | | Rx Packets | | Rx Bytes |\n");
            List<Point> rows = new ArrayList<>(points.values());
            // tshark: the most frames first; equal counts in the order first seen.
            rows.sort(Comparator.comparingLong((Point p) -> -(p.txFrames + p.rxFrames)).thenComparingLong(p -> p.order));
            for (Point p : rows) {
                StringBuilder s = new StringBuilder();
                s.append(pad(p.end.address(type), 20)).append("      ");
                if (ports) s.append(left(Integer.toString(p.end.port()), 5)).append("     ");
                s.append(left(p.txFrames + p.rxFrames, 6)).append("     ").append(left(p.txBytes + p.rxBytes, 9))
                        .append("     ").append(left(p.txFrames, 6)).append("       ").append(left(p.txBytes, 9))
                        .append("      ").append(left(p.rxFrames, 6)).append("       ").append(left(p.rxBytes, 9)).append("   \n");
                out.str(s.toString());
            }
        } else {
            String indent = ports ? "            " : "";
            out.ascii(indent).ascii("                                               |       <-      | |       ->      | |     Total     |    Relative    |   Duration   |\n");
            out.ascii(indent).ascii("                                               | Frames  Bytes | | Frames  Bytes | | Frames  Bytes |      Start     |              |\n");
            List<Conv> rows = distinct(convs);
            rows.sort(Comparator.comparingLong((Conv c) -> -(c.txFrames + c.rxFrames)).thenComparingLong(c -> c.order));
            for (Conv c : rows) {
                StringBuilder s = new StringBuilder();
                int w = ports ? 26 : 20;
                s.append(pad(name(c.a), w)).append(" <-> ").append(pad(name(c.b), w));
                s.append("  ").append(left(c.rxFrames, 6)).append(' ').append(pad(size(c.rxBytes), 9));
                s.append("  ").append(left(c.txFrames, 6)).append(' ').append(pad(size(c.txBytes), 9));
                s.append("  ").append(left(c.txFrames + c.rxFrames, 6)).append(' ').append(pad(size(c.txBytes + c.rxBytes), 9)).append("  ");
                double start = seconds(c.startNs);
                s.append(left(fixed(start, 9), 14)).append("   ").append(left(fixed(seconds(c.stopNs) - start, 4), 12)).append('\n');
                out.str(s.toString());
            }
        }
        out.ascii(bar);
    }

    private String name(End e) {
        return type == Type.UDP ? e.address(type) + ":" + e.port() : e.address(type);
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
