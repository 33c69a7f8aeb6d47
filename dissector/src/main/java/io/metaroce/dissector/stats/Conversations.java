package io.metaroce.dissector.stats;

import io.metaroce.dissector.Dissection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The conversations of one {@link ConversationType}, counted frame by frame: what {@code dissect -z conv,TYPE} prints
 * and the GUI's Conversations window shows. Every header of the type in a frame counts (tshark's tap fires once per
 * header), with the frame's length on the wire; a conversation's first end (A) is the source of its first frame.
 * Memory grows with the conversations, not with the frames. Not thread safe: one per worker, {@link #merge}d.
 */
public final class Conversations {
    /**
     * A conversation as shown: its ends (port -1 when the type has none), the frames and bytes A sent to B and B to
     * A, and the times of its first and last frames relative to the capture's first frame.
     */
    public record Conversation(ConversationType type, String addressA, int portA, String addressB, int portB, long abFrames,
                               long abBytes, long baFrames, long baBytes, long startNs, long stopNs) {
        public long frames() { return abFrames + baFrames; }

        public long bytes() { return abBytes + baBytes; }

        public long durationNs() { return stopNs - startNs; }

        /** The conversation's frames either way, as Wireshark's "Apply as Filter > A <-> B" writes it. */
        public String filter() {
            String f = type.addressField(addressA);
            if (type != ConversationType.UDP) return f + ".addr==" + addressA + " && " + f + ".addr==" + addressB;
            return f + ".addr==" + addressA + " && udp.port==" + portA + " && " + f + ".addr==" + addressB + " && udp.port==" + portB;
        }

        /** The frames from A to B (Wireshark's "A -> B"). */
        public String filterAtoB() { return directed(addressA, portA, addressB, portB); }

        /** The frames from B to A (Wireshark's "A <- B"). */
        public String filterBtoA() { return directed(addressB, portB, addressA, portA); }

        /**
         * Exactly this conversation's frames: {@link #filter()}, or, where its twin with the ports the other way round
         * (10.0.0.1:49952 to 10.0.0.2:4791 and 10.0.0.2:49952 to 10.0.0.1:4791, as RoCE's two directions of a QP pair
         * often are) would match it too, the two directions spelt out.
         */
        public String exactFilter(boolean twin) {
            return twin ? "(" + filterAtoB() + ") || (" + filterBtoA() + ")" : filter();
        }

        /** Whether o has this UDP conversation's addresses and ports, each port at the other address. */
        public boolean twinOf(Conversation o) {
            return type == ConversationType.UDP && o.type == type && portA != portB && o != this
                    && ((o.addressA.equals(addressA) && o.addressB.equals(addressB) && o.portA == portB && o.portB == portA)
                    || (o.addressA.equals(addressB) && o.addressB.equals(addressA) && o.portA == portA && o.portB == portB));
        }

        private String directed(String from, int fromPort, String to, int toPort) {
            String f = type.addressField(from);
            if (type != ConversationType.UDP) return f + ".src==" + from + " && " + f + ".dst==" + to;
            return f + ".src==" + from + " && udp.srcport==" + fromPort + " && " + f + ".dst==" + to + " && udp.dstport==" + toPort;
        }
    }

    /** A conversation being counted: a is the source of its first frame; tx counts a to b, rx b to a. */
    private static final class Conv {
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

    private final ConversationType type;
    /** Conversations under both orders of their ends (the same object twice). */
    private final Map<List<End>, Conv> convs = new HashMap<>();

    public Conversations(ConversationType type) { this.type = type; }

    public ConversationType type() { return type; }

    /** Counts a frame: once per header of the type in it. */
    public void add(Dissection d) {
        for (int i = 0; i < d.layerCount(); i++) {
            if (d.layerHeader(i) != type.header()) continue;
            End src = End.of(type, d, i, true);
            if (src == null) continue;
            End dst = End.of(type, d, i, false);
            // Order of first appearance, kept across workers: the frame, then the header in it.
            long order = d.number() * 256 + i * 2L;
            long len = d.originalLength();
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

    /** Adds another worker's counts (workers see disjoint frames): the earlier first appearance names the ends. */
    public void merge(Conversations o) {
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

    /** The conversations in tshark's order: the most frames first, equal counts in the order first seen. */
    public List<Conversation> rows() {
        List<Conv> sorted = distinct(convs);
        sorted.sort(Comparator.comparingLong((Conv c) -> -(c.txFrames + c.rxFrames)).thenComparingLong(c -> c.order));
        List<Conversation> rows = new ArrayList<>(sorted.size());
        for (Conv c : sorted) {
            rows.add(new Conversation(type, c.a.address(type), c.a.port(), c.b.address(type), c.b.port(), c.txFrames, c.txBytes,
                    c.rxFrames, c.rxBytes, c.startNs, c.stopNs));
        }
        return rows;
    }
}
