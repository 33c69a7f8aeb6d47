package io.metaroce.dissector;

import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One node of a {@link FrameTree}: a layer (header), a field of it, or a region of the frame that is not a header
 * (options, payload, pad, ICRC, FCS, undecoded bytes), with what a tree view shows (label and display value) and
 * the bytes it covers, for highlighting in a hex view.
 *
 * <p>{@link #offset()} is relative to the frame start; -1 when the node has no bytes of its own (analysis fields,
 * an ICRC the snap length cut). {@link #bitMask()} marks the bits of a field that does not fill its bytes (as
 * Wireshark's bitmask fields: relative to the {@link #length()} bytes, most significant bit first), 0 when every
 * bit of the range belongs to the field.
 */
public final class FieldNode {

    /** What a node stands for. */
    public enum Kind {
        /** A header (one layer of the dissection); {@link #header()} says which. */
        LAYER,
        /** A field or subfield; {@link #field()} says which. */
        FIELD,
        /** IPv4 options or IPv6 extension headers: bytes of the IP layer after its fixed header. */
        OPTIONS,
        /** The transport payload (RoCE); CM MADs inside it are its children. */
        PAYLOAD,
        /** Pad bytes between the payload and the ICRC. */
        PADDING,
        /** The invariant CRC. */
        ICRC,
        /** The Ethernet frame check sequence. */
        FCS,
        /** Captured bytes no header accounts for (Ethernet padding, undecoded payload). */
        DATA,
        /** The analysis.* values attached to the frame (no bytes of their own). */
        ANALYSIS
    }

    private final Kind kind;
    private final String label;
    private final String value;
    private final FieldDef field;
    private final HeaderDef header;
    private final int layer;
    private final int occurrence;
    private final int offset;
    private final int length;
    private final long bitMask;
    final List<FieldNode> children = new ArrayList<>(0);
    final List<ExpertItem> expert = new ArrayList<>(0);

    FieldNode(Kind kind, String label, String value, FieldDef field, HeaderDef header, int layer, int occurrence,
              int offset, int length, long bitMask) {
        this.kind = kind;
        this.label = label;
        this.value = value;
        this.field = field;
        this.header = header;
        this.layer = layer;
        this.occurrence = occurrence;
        this.offset = offset;
        this.length = length;
        this.bitMask = bitMask;
    }

    public Kind kind() { return kind; }

    /** What a tree view shows before the value: the field's label, the header's title. */
    public String label() { return label; }

    /**
     * The value as {@code dissect -V} shows it (an enum as "name (0x..)", booleans as True/False), or null for
     * layers and other containers.
     */
    public String value() { return value; }

    /** The catalogue field of a FIELD node, else null. */
    public FieldDef field() { return field; }

    /** The header of a LAYER node and of its fields, else null. */
    public HeaderDef header() { return header; }

    /** Index of the layer in the {@link Dissection} (LAYER nodes and their fields), else -1. */
    public int layer() { return layer; }

    /** Which occurrence of its header this is (0 for the first; QinQ tags have 0 and 1). */
    public int occurrence() { return occurrence; }

    /** First byte, relative to the frame start, or -1 when the node has no bytes. */
    public int offset() { return offset; }

    /** Bytes covered, 0 when none. */
    public int length() { return length; }

    /** Frame-relative byte after the node (offset + length). */
    public int end() { return offset + length; }

    public boolean hasBytes() { return offset >= 0; }

    /** Bits of the field within its bytes, 0 when it fills them. */
    public long bitMask() { return bitMask; }

    /** Subfields of a field, fields of a layer, headers carried inside a field or the payload. */
    public List<FieldNode> children() { return Collections.unmodifiableList(children); }

    /** The expert items about this node (Wireshark puts them on tree items). */
    public List<ExpertItem> expert() { return Collections.unmodifiableList(expert); }

    @Override
    public String toString() {
        return kind + " " + label + (value != null ? ": " + value : "") + (offset >= 0 ? " [" + offset + ", " + end() + ")" : "");
    }
}
