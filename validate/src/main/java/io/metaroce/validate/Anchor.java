package io.metaroce.validate;

import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;

/**
 * Where in its frame a finding points, as an {@link io.metaroce.dissector.ExpertItem} does: the header, the
 * field of it when the rule concerns one, and the bytes (offset from the frame's first captured byte, length),
 * so that a SARIF region or a byte view can highlight them.
 *
 * @param header the header's id in the spec ({@code bth}, {@code icrc}, {@code payload})
 * @param field the field's name ({@code bth.opcode}), or null when the finding concerns the whole header
 */
public record Anchor(String header, String field, int offset, int length) {

    /** The bytes of a catalogue field of the header that starts at headerOffset. */
    static Anchor field(int fieldId, int headerOffset) {
        FieldDef fd = Spec.FIELDS.get(fieldId);
        int first = headerOffset + fd.bitOffset() / 8, last = headerOffset + (fd.bitOffset() + fd.bitWidth() - 1) / 8;
        return new Anchor(Spec.HEADERS.get(fd.header()).id(), fd.name(), first, last - first + 1);
    }

    /** A whole header (its size in the catalogue) that starts at offset. */
    static Anchor header(int headerIndex, int offset) {
        HeaderDef h = Spec.HEADERS.get(headerIndex);
        return new Anchor(h.id(), null, offset, h.size());
    }
}
