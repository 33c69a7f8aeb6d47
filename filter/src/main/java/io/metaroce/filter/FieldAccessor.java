package io.metaroce.filter;

/**
 * The values of one decoded frame. A field may occur 0..n times (two VLAN tags, repeated headers);
 * occurrences are indexed 0..count-1. Only the method matching the field's {@link FieldType} is called.
 */
public interface FieldAccessor {
    /** Number of occurrences of the field in this frame; 0 when absent. */
    int count(FilterField f);

    /**
     * BOOLEAN (0/1; any non-zero value counts as true), UNSIGNED, SIGNED, IPV4 (32-bit, 10.0.0.1 is 0x0a000001),
     * ETHER (48-bit MAC). For IPV4 and ETHER only the low 32 / 48 bits are used, so sign extension is harmless.
     */
    long asLong(FilterField f, int i);

    /**
     * IPV6 (16 bytes), BYTES; for a PROTOCOL, its bytes in the frame (what {@code frame contains ...},
     * {@code bth[0]} and {@code len(udp)} read).
     */
    byte[] asBytes(FilterField f, int i);

    /** STRING. */
    String asString(FilterField f, int i);
}
