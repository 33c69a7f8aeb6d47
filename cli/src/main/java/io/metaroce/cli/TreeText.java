package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FieldNode;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameTree;

/** -V: the full field tree of every frame ({@link FrameTree}), one header per block, like tshark -V. */
final class TreeText implements DissectCommand.FrameSink {
    private final ByteOut out;

    TreeText(ByteOut out) { this.out = out; }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        FrameTree t = FrameTree.of(d, ff);
        out.ascii("Frame ").num(t.number()).ascii(": ").num(t.originalLength()).ascii(" bytes on wire, ")
                .num(t.capturedLength()).ascii(" bytes captured\n");
        out.ascii("    Arrival time (ns since epoch): ").num(t.timeNanos()).ch('\n');
        out.ascii("    Protocols in frame: ").str(t.protocols()).ch('\n');
        if (t.comment() != null) out.ascii("    Comment: ").str(t.comment()).ch('\n');
        // Layers one block each, in dissection order (also those the tree nests in a field or the payload).
        for (FieldNode layer : t.layers()) {
            out.str(layer.label()).ch('\n');
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
            for (FieldNode f : t.analysis().children()) field(f, "    ");
        }
        for (ExpertItem e : t.expert()) {
            out.ascii("Expert (").ascii(e.severity().label()).ch('/').ascii(e.group().name().toLowerCase()).ascii("): ")
                    .str(e.message()).ch('\n');
        }
        out.ch('\n');
    }

    private void field(FieldNode f, String indent) {
        out.ascii(indent).str(f.label()).ascii(": ").str(f.value()).ascii("  [").ascii(f.field().name()).ascii("]\n");
    }
}
