package io.metaroce.dissector;

import java.util.List;
import java.util.Set;

/**
 * dissect -V: the full field tree of every frame ({@link FrameTree}), one header per block, like tshark -V. -O
 * PROTO,...: the fields of the named protocols only, every other block as its one top line (as tshark -O). Here, not
 * in the cli, so that the GUI's File > Export Packet Dissections > As Plain Text writes the same text (its "all
 * collapsed" is -O with no protocol, "as displayed" -O with the protocols expanded in the field tree).
 */
public final class TreeText {
    /** The headers below RoCE: every other one is tshark's "infiniband" protocol (BTH, extension headers, CM). */
    private static final Set<String> BELOW_ROCE = Set.of("eth", "sll", "sll2", "vlan", "ip", "ipv6", "udp");
    private final ByteOut out;
    /** -O: the protocols whose fields are shown; null: all (-V). */
    private final Set<String> only;
    /** -N/-H: addresses shown with their names ("gpu-node-01 (10.0.0.1)"), as tshark's tree. */
    private NameResolver names = NameResolver.NONE;

    public TreeText(ByteOut out) { this(out, null); }

    /** Shows the address fields with the names this resolver gives them. */
    public TreeText names(NameResolver r) {
        names = r;
        return this;
    }

    /** only: the protocols whose fields are shown (-O); null: all (-V); empty: none (every block as its top line). */
    public TreeText(ByteOut out, Set<String> only) {
        this.out = out;
        this.only = only;
    }

    /** The names -O takes: every header id, and tshark's frame, infiniband and our analysis. */
    public static Set<String> protocols() {
        Set<String> names = new java.util.TreeSet<>(List.of("frame", "infiniband", "analysis"));
        for (var h : io.metaroce.protocol.Spec.HEADERS) names.add(h.id());
        return names;
    }

    private boolean shows(String protocol) {
        return only == null || only.contains(protocol);
    }

    private boolean shows(FieldNode layer) {
        if (only == null) return true;
        String id = layer.header() == null ? null : layer.header().id();
        return id != null && (only.contains(id) || (!BELOW_ROCE.contains(id) && only.contains("infiniband")));
    }

    public void frame(Dissection d, FrameFields ff) {
        FrameTree t = FrameTree.of(d, ff);
        out.ascii("Frame ").num(t.number()).ascii(": ").num(t.originalLength()).ascii(" bytes on wire, ")
                .num(t.capturedLength()).ascii(" bytes captured\n");
        if (shows("frame")) {
            out.ascii("    Arrival time (ns since epoch): ").num(t.timeNanos()).ch('\n');
            out.ascii("    Protocols in frame: ").str(t.protocols()).ch('\n');
            if (t.comment() != null) out.ascii("    Comment: ").str(printable(t.comment())).ch('\n');
        }
        // Layers one block each, in dissection order (also those the tree nests in a field or the payload).
        for (FieldNode layer : t.layers()) {
            out.str(layer.label()).ch('\n');
            if (!shows(layer)) continue;
            for (FieldNode f : layer.children()) {
                if (f.kind() != FieldNode.Kind.FIELD) continue;
                field(f, "    ");
                for (FieldNode s : f.children()) if (s.kind() == FieldNode.Kind.FIELD) field(s, "        ");
            }
        }
        if (t.payload() != null) out.ascii("Payload: ").str(t.payload().value()).ch('\n');
        if (t.icrc() != null) out.ascii("Invariant CRC: ").str(t.icrc().value()).ch('\n');
        if (t.fcs() != null && t.fcs().value() != null) out.ascii("Ethernet FCS: ").str(t.fcs().value()).ch('\n');
        if (t.analysis() != null) {
            out.ascii("Analysis\n");
            if (shows("analysis")) for (FieldNode f : t.analysis().children()) field(f, "    ");
        }
        for (ExpertItem e : t.expert()) {
            out.ascii("Expert (").ascii(e.severity().label()).ch('/').ascii(e.group().name().toLowerCase()).ascii("): ")
                    .str(printable(e.message())).ch('\n');
        }
        out.ch('\n');
    }

    private void field(FieldNode f, String indent) {
        String v = printable(f.value());
        if (names != NameResolver.NONE) v = names.labelled(f.field().name(), v);
        out.ascii(indent).str(f.label()).ascii(": ").str(v).ascii("  [").ascii(f.field().name()).ascii("]\n");
    }

    /**
     * The text with its control characters escaped as C does ({@code \n}, {@code \033}): a comment or a string
     * field is the capture's, and raw it could move the cursor or forge a line of the tree. The same rule as the
     * cli's FrontDoor.printable, which keeps its own copy (it is the class every run loads first, and an error line
     * must read no other class from the jar: the AOT cache).
     */
    public static String printable(String s) {
        if (s == null) return null;
        int i = 0;
        while (i < s.length() && !control(s.charAt(i))) i++;
        if (i == s.length()) return s;
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!control(c)) {
                b.append(c);
                continue;
            }
            switch (c) {
                case 7 -> b.append("\\a");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case 11 -> b.append("\\v");
                default -> b.append('\\').append((char) ('0' + (c >> 6 & 7))).append((char) ('0' + (c >> 3 & 7)))
                        .append((char) ('0' + (c & 7)));
            }
        }
        return b.toString();
    }

    /** C0 and C1 control characters and DEL. */
    private static boolean control(char c) {
        return c < 0x20 || c >= 0x7F && c <= 0x9F;
    }
}
