package io.metaroce.index;

import java.net.InetAddress;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A parsed flow query ({@link FlowQueryParser}): a typed tree every backend translates, so hex QPs, CIDR
 * blocks and human times are resolved once, here, into numbers and address ranges. Range bounds are always
 * inclusive (an exclusive bound is moved by one unit when parsed); open ends are the type's extremes.
 * {@link #toString()} renders the canonical query text, which parses back to an equal tree.
 */
public sealed interface FlowQuery {

    /** Every flow. */
    record MatchAll() implements FlowQuery {
        @Override public String toString() { return "*:*"; }
    }

    /** Every part must match. */
    record And(List<FlowQuery> parts) implements FlowQuery {
        public And { parts = List.copyOf(parts); }
        @Override public String toString() { return "(" + parts.stream().map(Object::toString).collect(Collectors.joining(" AND ")) + ")"; }
    }

    /** At least one part must match. */
    record Or(List<FlowQuery> parts) implements FlowQuery {
        public Or { parts = List.copyOf(parts); }
        @Override public String toString() { return "(" + parts.stream().map(Object::toString).collect(Collectors.joining(" OR ")) + ")"; }
    }

    /** Flows the inner query does not match. */
    record Not(FlowQuery query) implements FlowQuery {
        @Override public String toString() { return "(NOT " + query + ")"; }
    }

    /** Flows with any value in the field ({@code field:*}). */
    record Exists(FieldDef field) implements FlowQuery {
        @Override public String toString() { return field.name() + ":*"; }
    }

    /** A keyword field equal to a value. */
    record Term(FieldDef field, String value) implements FlowQuery {
        @Override public String toString() { return field.name() + ":" + FlowQueryParser.quote(value); }
    }

    /**
     * A keyword field matching a pattern: {@code *} any run of characters, {@code ?} one character, every other
     * character literal (a backslash in {@link #pattern} escapes the next one).
     */
    record Wildcard(FieldDef field, String pattern) implements FlowQuery {
        @Override public String toString() { return field.name() + ":" + pattern; }
    }

    /** A LONG or TIME field within [lo, hi] (an exact value is lo == hi). */
    record LongRange(FieldDef field, long lo, long hi) implements FlowQuery {
        @Override public String toString() {
            return field.name() + ":[" + (lo == Long.MIN_VALUE ? "*" : Long.toString(lo)) + " TO "
                    + (hi == Long.MAX_VALUE ? "*" : Long.toString(hi)) + "]";
        }
    }

    /** A DOUBLE field within [lo, hi]. */
    record DoubleRange(FieldDef field, double lo, double hi) implements FlowQuery {
        @Override public String toString() {
            return field.name() + ":[" + (lo == Double.NEGATIVE_INFINITY ? "*" : Double.toString(lo)) + " TO "
                    + (hi == Double.POSITIVE_INFINITY ? "*" : Double.toString(hi)) + "]";
        }
    }

    /**
     * An IP field within [lo, hi] (a single address, a CIDR block or a range). Both bounds have the same family;
     * {@link IpAddresses#to16} compares the two families in one order.
     */
    record IpRange(FieldDef field, InetAddress lo, InetAddress hi) implements FlowQuery {
        @Override public String toString() {
            return field.name() + ":[" + IpAddresses.text(lo) + " TO " + IpAddresses.text(hi) + "]";
        }
    }
}
