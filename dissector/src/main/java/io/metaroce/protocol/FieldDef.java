package io.metaroce.protocol;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One row of the field catalogue (Wireshark's hf_register_info): filter name, label, type, layout, doc.
 * A subfield (mask != 0) is a masked part of its parent field, like Wireshark's bitmask fields.
 * icrcVariant: the ICRC covers this field as all ones (§8).
 */
public record FieldDef(int id, String name, int header, String label, String doc, ValueType type, Display display,
                       int bitOffset, int bitWidth, long mask, int parent, EnumDef enumDef, List<String> aliases,
                       boolean reserved, boolean icrcVariant) {

    public boolean isSubfield() { return mask != 0; }

    /** Reads a numeric field (UINT, BOOL, IPV4, ETHER) of the header that starts at headerOffset. */
    public long readLong(MemorySegment s, long headerOffset) {
        long v = Bits.readBits(s, headerOffset, bitOffset, bitWidth);
        return mask == 0 ? v : (v & mask) >>> Long.numberOfTrailingZeros(mask);
    }

    /** Slice of a byte field (IPV6, BYTES). */
    public MemorySegment slice(MemorySegment s, long headerOffset) {
        return s.asSlice(headerOffset + bitOffset / 8, bitWidth / 8);
    }

    /** Writes a numeric field; used by encoders built from the catalogue. */
    public void writeLong(MemorySegment s, long headerOffset, long value) {
        if (mask == 0) {
            Bits.writeBits(s, headerOffset, bitOffset, bitWidth, value);
        } else {
            long whole = Bits.readBits(s, headerOffset, bitOffset, bitWidth);
            int shift = Long.numberOfTrailingZeros(mask);
            Bits.writeBits(s, headerOffset, bitOffset, bitWidth, (whole & ~mask) | ((value << shift) & mask));
        }
    }

    /** The short name after the header prefix ("psn" for "bth.psn"). */
    public String shortName() { return name.substring(name.indexOf('.') + 1); }
}
