package io.metaroce.filter;

import java.nio.charset.StandardCharsets;

/**
 * A value a filter computes from a field, as Wireshark does: a byte slice ({@code eth.src[0:3]}, {@code frame[-4:]},
 * {@code bth[0]}), the field's bytes ({@code frame contains ...}, {@code eth.src contains ...}) or its length in bytes
 * ({@code len(eth.src)}). It is a {@link FilterField} of its own (the synthetic {@link #field}), so every operator works
 * on it unchanged; {@link Accessor} computes its values from the base field's.
 */
final class Derived {
    enum Kind { SLICE, LEN }

    /** Synthetic ids start here, far from field ids (>= 0) and protocol ids (small negatives). */
    static final int FIRST_ID = Integer.MIN_VALUE;

    final FilterField base;
    final Kind kind;
    /** Slice ranges: start (negative: from the end) and length (-1: to the end). Empty for LEN. */
    final int[] starts;
    final int[] lengths;
    final FilterField field;

    Derived(int index, String name, FilterField base, Kind kind, int[] starts, int[] lengths) {
        this.base = base;
        this.kind = kind;
        this.starts = starts;
        this.lengths = lengths;
        this.field = new FilterField(name, kind == Kind.LEN ? FieldType.UNSIGNED : FieldType.BYTES, FIRST_ID + index);
    }

    /** True when the base type has bytes to slice or measure (integers do not, as in Wireshark). */
    static boolean hasBytes(FieldType t) {
        return switch (t) {
            case BYTES, STRING, IPV4, IPV6, ETHER, PROTOCOL -> true;
            default -> false;
        };
    }

    /** Occurrence i of the base field as bytes. */
    static byte[] bytesOf(FieldAccessor a, FilterField f, int i) {
        return switch (f.type()) {
            case IPV4 -> be(a.asLong(f, i), 4);
            case ETHER -> be(a.asLong(f, i), 6);
            case STRING -> Node.string(a, f, i).getBytes(StandardCharsets.UTF_8);
            default -> Node.bytes(a, f, i);
        };
    }

    private static byte[] be(long v, int n) {
        byte[] b = new byte[n];
        for (int k = n - 1; k >= 0; k--, v >>>= 8) {
            b[k] = (byte) v;
        }
        return b;
    }

    /** The slice of b, or null when a range falls outside it (Wireshark then has no value for this occurrence). */
    byte[] slice(byte[] b) {
        int total = 0;
        int[] from = new int[starts.length];
        int[] len = new int[starts.length];
        for (int r = 0; r < starts.length; r++) {
            int s = starts[r] < 0 ? b.length + starts[r] : starts[r];
            int l = lengths[r] < 0 ? b.length - s : lengths[r];
            if (s < 0 || l < 0 || s + l > b.length) {
                return null;
            }
            from[r] = s;
            len[r] = l;
            total += l;
        }
        byte[] out = new byte[total];
        for (int r = 0, at = 0; r < starts.length; at += len[r], r++) {
            System.arraycopy(b, from[r], out, at, len[r]);
        }
        return out;
    }

    /**
     * Answers for the derived fields, and passes every other field through to the frame. Made per test call
     * (filters with slices are rare, and this keeps compiled filters immutable and thread-safe).
     */
    static final class Accessor implements FieldAccessor {
        private final FieldAccessor frame;
        private final Derived[] derived;

        Accessor(FieldAccessor frame, Derived[] derived) {
            this.frame = frame;
            this.derived = derived;
        }

        private Derived of(FilterField f) {
            int k = f.id() - FIRST_ID;
            return k >= 0 && k < derived.length && derived[k].field == f ? derived[k] : null;
        }

        /** The value of occurrence i of the base, sliced; null when out of range. */
        private byte[] value(Derived d, int i) {
            byte[] b = bytesOf(this, d.base, i);
            return d.starts.length == 0 ? b : d.slice(b);
        }

        /** Index of the n-th base occurrence whose slice exists, or -1. */
        private int occurrence(Derived d, int n) {
            for (int i = 0, c = count(d.base); i < c; i++) {
                if (value(d, i) != null && n-- == 0) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public int count(FilterField f) {
            Derived d = of(f);
            if (d == null) {
                return frame.count(f);
            }
            int n = 0;
            for (int i = 0, c = count(d.base); i < c; i++) {
                if (d.kind == Kind.LEN || value(d, i) != null) {
                    n++;
                }
            }
            return n;
        }

        @Override
        public long asLong(FilterField f, int i) {
            Derived d = of(f);
            if (d == null) {
                return frame.asLong(f, i);
            }
            return value(d, i).length;   // LEN: every occurrence counts
        }

        @Override
        public byte[] asBytes(FilterField f, int i) {
            Derived d = of(f);
            return d == null ? frame.asBytes(f, i) : value(d, occurrence(d, i));
        }

        @Override
        public String asString(FilterField f, int i) {
            return frame.asString(f, i);
        }
    }
}
