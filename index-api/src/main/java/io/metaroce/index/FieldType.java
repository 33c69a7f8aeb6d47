package io.metaroce.index;

/**
 * How a flow-document field is indexed, the same for every backend. Values in a {@link FlowDocument}: LONG and
 * TIME as {@link Long} (TIME: nanoseconds since the epoch, UTC), DOUBLE as {@link Double}, KEYWORD and IP as
 * {@link String} (IP in its canonical literal form), STORED as {@code byte[]}.
 */
public enum FieldType {
    /** An exact string: term, wildcard and existence queries, facet groups. */
    KEYWORD,
    /** A 64-bit integer: exact, range, sort, facet groups and sums. */
    LONG,
    /** A double: range and sort. */
    DOUBLE,
    /** An IPv4 or IPv6 address: exact, CIDR and range queries, facet groups. */
    IP,
    /** A time in nanoseconds since the epoch: range (human forms in queries) and sort. */
    TIME,
    /** Bytes kept with the document and never indexed (packet offsets). */
    STORED;

    /** Whether values of this type are ordered numbers (range, sort, sums). */
    public boolean numeric() { return this == LONG || this == DOUBLE || this == TIME; }
}
