package io.metaroce.dissector;

import io.metaroce.protocol.Expert;
import io.metaroce.protocol.ExpertDef;
import io.metaroce.protocol.Severity;

/**
 * Something wrong or notable about a frame (Wireshark's expert info): its kind ({@link ExpertDef}, with a stable
 * {@link #id()} from the spec's expert table, the group and the severity), a message a person can act on, and
 * where in the frame it is (the anchor a tree view highlights):
 * <ul>
 *   <li>{@code layer}: index of the layer in the {@link Dissection}, or -1 when the item is about the frame;</li>
 *   <li>{@code field}: id of the field in {@code Spec.FIELDS} the item is about, or -1;</li>
 *   <li>{@code offset}, {@code length}: the byte range in the frame, or -1 / 0 when the item has none of its own
 *       (then the field's or the layer's bytes are meant).</li>
 * </ul>
 */
public record ExpertItem(ExpertDef def, String message, int layer, int field, int offset, int length) {

    /** Wireshark's expert groups, reduced to what a RoCE dissector meets. */
    public enum Group { MALFORMED, CHECKSUM, PROTOCOL, UNDECODED, SEQUENCE, CAPTURE }

    /** An item about the whole frame (no layer, field or byte range). */
    public ExpertItem(ExpertDef def, String message) { this(def, message, -1, -1, -1, 0); }

    /** The stable id ({@code icrc.bad}), as in the spec's expert table and {@link Expert}. */
    public String id() { return def.id(); }

    public Severity severity() { return def.severity(); }

    public Group group() { return def.group(); }

    /** The §11 rule this item is evidence for, or null. */
    public String rule() { return def.rule(); }

    public boolean hasRange() { return offset >= 0; }
}
