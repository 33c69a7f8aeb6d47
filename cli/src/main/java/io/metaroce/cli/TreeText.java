package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FieldNode;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameTree;
import java.util.List;
import java.util.Set;

/**
 * -V: the full field tree of every frame ({@link FrameTree}), one header per block, like tshark -V. -O PROTO,...: the
 * fields of the named protocols only, every other block as its one top line (as tshark -O).
 */
final class TreeText implements DissectCommand.FrameSink {
    /** The headers below RoCE: every other one is tshark's "infiniband" protocol (BTH, extension headers, CM). */
    private static final Set<String> BELOW_ROCE = Set.of("eth", "sll", "sll2", "vlan", "ip", "ipv6", "udp");
    private final ByteOut out;
    /** -O: the protocols whose fields are shown; null: all (-V). */
    private final Set<String> only;

    TreeText(ByteOut out) { this(out, null); }

    TreeText(ByteOut out, Set<String> only) {
        this.out = out;
        this.only = only;
    }

    /** The names -O takes: every header id, and tshark's frame, infiniband and our analysis. */
    static Set<String> protocols() {
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

    @Override
    public void frame(Dissection d, FrameFields ff) {
        FrameTree t = FrameTree.of(d, ff);
        out.ascii("Frame ").num(t.number()).ascii(": ").num(t.originalLength()).ascii(" bytes on wire, ")
                .num(t.capturedLength()).ascii(" bytes captured\n");
        if (shows("frame")) {
            out.ascii("    Arrival time (ns since epoch): ").num(t.timeNanos()).ch('\n');
            out.ascii("    Protocols in frame: ").str(t.protocols()).ch('\n');
            if (t.comment() != null) out.ascii("    Comment: ").str(FrontDoor.printable(t.comment())).ch('\n');
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
                    .str(FrontDoor.printable(e.message())).ch('\n');
        }
        out.ch('\n');
    }

    private void field(FieldNode f, String indent) {
        out.ascii(indent).str(f.label()).ascii(": ").str(FrontDoor.printable(f.value())).ascii("  [").ascii(f.field().name()).ascii("]\n");
    }
}
