package io.metaroce.filter;

/**
 * Value type of a {@link FilterField}. It decides which literals the field accepts, which
 * operators apply to it and which {@link FieldAccessor} method delivers its values.
 */
public enum FieldType {
    /** 0 or 1 through {@link FieldAccessor#asLong}; literals {@code true}, {@code false}, numbers (non-zero is true). */
    BOOLEAN("boolean"),
    /** Up to 64 bits through {@link FieldAccessor#asLong}, compared as unsigned. */
    UNSIGNED("unsigned integer"),
    /** Up to 64 bits through {@link FieldAccessor#asLong}, compared as signed. */
    SIGNED("signed integer"),
    /** 32-bit address in the low bits of {@link FieldAccessor#asLong} (10.0.0.1 is 0x0a000001). */
    IPV4("IPv4 address"),
    /** 16 bytes through {@link FieldAccessor#asBytes}. */
    IPV6("IPv6 address"),
    /** 48-bit MAC address in the low bits of {@link FieldAccessor#asLong} (02:00:00:00:00:0a is 0x02000000000a). */
    ETHER("Ethernet address"),
    /** Text through {@link FieldAccessor#asString}. */
    STRING("string"),
    /** Raw bytes through {@link FieldAccessor#asBytes}. */
    BYTES("byte string"),
    /**
     * A time (frame.time_relative) as signed nanoseconds through {@link FieldAccessor#asLong}; literals are seconds
     * with up to 9 decimals ({@code 1.5}), as Wireshark writes relative times.
     */
    TIME("time offset"),
    /** A protocol (e.g. {@code mrth}): can only be tested for presence. */
    PROTOCOL("protocol");

    private final String description;

    FieldType(String description) {
        this.description = description;
    }

    /** Human-readable name used in error messages, e.g. "IPv4 address". */
    public String description() {
        return description;
    }

    /** True for the types whose values are read with {@link FieldAccessor#asLong}. */
    public boolean isLongValued() {
        return this == BOOLEAN || this == UNSIGNED || this == SIGNED || this == IPV4 || this == ETHER || this == TIME;
    }
}
