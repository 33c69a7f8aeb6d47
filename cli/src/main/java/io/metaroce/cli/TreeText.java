package io.metaroce.cli;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FrameFields;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;

/** -V: the full field tree of every frame, one header per block, like tshark -V. */
final class TreeText implements DissectCommand.FrameSink {
    private final ByteOut out;

    TreeText(ByteOut out) { this.out = out; }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        out.ascii("Frame ").num(d.number()).ascii(": ").num(d.originalLength()).ascii(" bytes on wire, ")
                .num(d.capturedLength()).ascii(" bytes captured\n");
        out.ascii("    Arrival time (ns since epoch): ").num(d.timeNanos()).ch('\n');
        out.ascii("    Protocols in frame: ").str(d.protocols()).ch('\n');
        if (d.comment() != null) out.ascii("    Comment: ").str(d.comment()).ch('\n');
        int[] seen = new int[Spec.HEADERS.size()];
        for (int i = 0; i < d.layerCount(); i++) {
            HeaderDef h = d.layer(i);
            int occurrence = seen[h.index()]++;
            out.str(h.title());
            if (h.origId() != null && !h.title().contains(h.origId())) out.ascii(" (").str(h.origId()).ch(')');
            out.ch('\n');
            for (int k = h.firstField(); k < h.firstField() + h.fieldCount(); k++) {
                FieldDef f = Spec.FIELDS.get(k);
                out.ascii(f.isSubfield() ? "        " : "    ").str(f.label()).ascii(": ")
                        .str(FieldFormat.display(ff, f, occurrence)).ascii("  [").ascii(f.name()).ascii("]\n");
            }
        }
        if (d.payloadOffset() >= 0) {
            out.ascii("Payload: ").num(d.payloadLength()).ascii(" bytes");
            if (d.padCount() > 0) out.ascii(" + ").num(d.padCount()).ascii(" pad");
            out.ch('\n');
        }
        switch (d.icrcStatus()) {
            case GOOD -> out.ascii("Invariant CRC: 0x").hex(d.icrcValue(), 8).ascii(" [good]\n");
            case BAD -> out.ascii("Invariant CRC: 0x").hex(d.icrcValue(), 8).ascii(" [bad, computed 0x").hex(d.icrcComputed(), 8).ascii("]\n");
            case UNCHECKED -> out.ascii("Invariant CRC: [unchecked]\n");
            case NONE -> { }
        }
        if (d.fcsStatus() != null) out.ascii("Ethernet FCS: [").ascii(d.fcsStatus()).ascii("]\n");
        for (int i = 0; i < d.extra().size(); i++) {
            if (i == 0) out.ascii("Analysis\n");
            FieldDef f = d.extra().field(i);
            out.ascii("    ").str(f.label()).ascii(": ").str(FieldFormat.display(ff, f, 0)).ascii("  [").ascii(f.name()).ascii("]\n");
        }
        for (ExpertItem e : d.expert()) {
            out.ascii("Expert (").ascii(e.severity().label()).ch('/').ascii(e.group().name().toLowerCase()).ascii("): ")
                    .str(e.message()).ch('\n');
        }
        out.ch('\n');
    }
}
