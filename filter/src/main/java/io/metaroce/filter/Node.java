package io.metaroce.filter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A compiled predicate. Built once per filter; {@link #test} runs per frame and does not allocate
 * for numeric tests. Leaves carry their normalized text; inner nodes print with minimal parentheses.
 * All implementations are immutable and therefore safe to share between threads.
 */
abstract class Node {
    static final int PREC_OR = 1;
    static final int PREC_XOR = 2;
    static final int PREC_AND = 3;
    static final int PREC_NOT = 4;
    static final int PREC_ATOM = 5;

    // Comparison operators; a relation applies one to the result of compare(value, constant).
    static final int EQ = 0;
    static final int NE = 1;
    static final int LT = 2;
    static final int LE = 3;
    static final int GT = 4;
    static final int GE = 5;

    abstract boolean test(FieldAccessor a);

    abstract int precedence();

    abstract void print(StringBuilder sb);

    static boolean apply(int op, int c) {
        switch (op) {
            case EQ: return c == 0;
            case NE: return c != 0;
            case LT: return c < 0;
            case LE: return c <= 0;
            case GT: return c > 0;
            default: return c >= 0;
        }
    }

    static int flip(int op) {
        switch (op) {
            case LT: return GT;
            case LE: return GE;
            case GT: return LT;
            case GE: return LE;
            default: return op;
        }
    }

    /** How integer-like values are compared. */
    static final int KIND_UNSIGNED = 0;
    static final int KIND_SIGNED = 1;
    static final int KIND_BOOLEAN = 2;

    static int kindOf(FieldType t) {
        return t == FieldType.SIGNED || t == FieldType.TIME ? KIND_SIGNED : t == FieldType.BOOLEAN ? KIND_BOOLEAN : KIND_UNSIGNED;
    }

    /** Reads occurrence i of a long-valued field, applying the mask and boolean normalisation. */
    static long read(FieldAccessor a, FilterField f, int i, long mask, int kind) {
        long v = a.asLong(f, i) & mask;
        return kind == KIND_BOOLEAN ? (v != 0 ? 1 : 0) : v;
    }

    static int compareKind(long a, long b, int kind) {
        return kind == KIND_SIGNED ? Long.compare(a, b) : Long.compareUnsigned(a, b);
    }

    /** Compares values of possibly different signedness exactly (a negative signed value is below every unsigned). */
    static int compareMixed(long a, int kindA, long b, int kindB) {
        boolean sa = kindA == KIND_SIGNED;
        boolean sb = kindB == KIND_SIGNED;
        if (sa == sb) {
            return sa ? Long.compare(a, b) : Long.compareUnsigned(a, b);
        }
        if (sa && a < 0) {
            return -1;
        }
        if (sb && b < 0) {
            return 1;
        }
        return Long.compareUnsigned(a, b);
    }

    static byte[] bytes(FieldAccessor a, FilterField f, int i) {
        byte[] b = a.asBytes(f, i);
        return b == null ? EMPTY : b;
    }

    static String string(FieldAccessor a, FilterField f, int i) {
        String s = a.asString(f, i);
        return s == null ? "" : s;
    }

    static final byte[] EMPTY = new byte[0];

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0, last = hay.length - needle.length; i <= last; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    // ================================================================== logic

    static Node and(List<Node> parts) {
        List<Node> flat = new ArrayList<>();
        for (Node n : parts) {
            if (n instanceof And and) {
                flat.addAll(Arrays.asList(and.children));
            } else {
                flat.add(n);
            }
        }
        return flat.size() == 1 ? flat.get(0) : new And(flat.toArray(Node[]::new));
    }

    static Node or(List<Node> parts) {
        List<Node> flat = new ArrayList<>();
        for (Node n : parts) {
            if (n instanceof Or or) {
                flat.addAll(Arrays.asList(or.children));
            } else {
                flat.add(n);
            }
        }
        return flat.size() == 1 ? flat.get(0) : new Or(flat.toArray(Node[]::new));
    }

    static Node xor(List<Node> parts) {
        List<Node> flat = new ArrayList<>();
        for (Node n : parts) {
            if (n instanceof Xor xor) {
                flat.addAll(Arrays.asList(xor.children));
            } else {
                flat.add(n);
            }
        }
        return flat.size() == 1 ? flat.get(0) : new Xor(flat.toArray(Node[]::new));
    }

    private abstract static class Nary extends Node {
        final Node[] children;
        private final String sep;

        Nary(Node[] children, String sep) {
            this.children = children;
            this.sep = sep;
        }

        @Override
        final void print(StringBuilder sb) {
            for (int i = 0; i < children.length; i++) {
                if (i > 0) {
                    sb.append(sep);
                }
                printChild(sb, children[i], precedence());
            }
        }
    }

    static void printChild(StringBuilder sb, Node child, int parentPrecedence) {
        if (child.precedence() < parentPrecedence) {
            sb.append('(');
            child.print(sb);
            sb.append(')');
        } else {
            child.print(sb);
        }
    }

    static final class And extends Nary {
        And(Node[] children) {
            super(children, " and ");
        }

        @Override
        boolean test(FieldAccessor a) {
            for (Node n : children) {
                if (!n.test(a)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        int precedence() {
            return PREC_AND;
        }
    }

    static final class Or extends Nary {
        Or(Node[] children) {
            super(children, " or ");
        }

        @Override
        boolean test(FieldAccessor a) {
            for (Node n : children) {
                if (n.test(a)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        int precedence() {
            return PREC_OR;
        }
    }

    static final class Xor extends Nary {
        Xor(Node[] children) {
            super(children, " xor ");
        }

        @Override
        boolean test(FieldAccessor a) {
            boolean r = false;
            for (Node n : children) {
                r ^= n.test(a);
            }
            return r;
        }

        @Override
        int precedence() {
            return PREC_XOR;
        }
    }

    static final class Not extends Node {
        final Node child;

        Not(Node child) {
            this.child = child;
        }

        @Override
        boolean test(FieldAccessor a) {
            return !child.test(a);
        }

        @Override
        int precedence() {
            return PREC_NOT;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append("not ");
            printChild(sb, child, PREC_NOT);
        }
    }

    /** Runs the filter with the derived fields (slices, len()) computed from the frame's. */
    static final class WithDerived extends Node {
        final Node child;
        final Derived[] derived;

        WithDerived(Node child, Derived[] derived) {
            this.child = child;
            this.derived = derived;
        }

        @Override
        boolean test(FieldAccessor a) {
            return child.test(new Derived.Accessor(a, derived));
        }

        @Override
        int precedence() {
            return child.precedence();
        }

        @Override
        void print(StringBuilder sb) {
            child.print(sb);
        }
    }

    /** The empty filter: matches every frame. */
    static final class True extends Node {
        @Override
        boolean test(FieldAccessor a) {
            return true;
        }

        @Override
        int precedence() {
            return PREC_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
        }
    }

    // ================================================================== leaves

    /** A test on field values; {@code all} = every occurrence must pass (and there is at least one). */
    abstract static class Leaf extends Node {
        final String text;

        Leaf(String text) {
            this.text = text;
        }

        @Override
        final int precedence() {
            return PREC_ATOM;
        }

        @Override
        final void print(StringBuilder sb) {
            sb.append(text);
        }
    }

    static final class Present extends Leaf {
        final FilterField f;

        Present(String text, FilterField f) {
            super(text);
            this.f = f;
        }

        @Override
        boolean test(FieldAccessor a) {
            return a.count(f) > 0;
        }
    }

    /** {@code f & mask}: some occurrence has a bit of the mask set. */
    static final class BitTest extends Leaf {
        final FilterField f;
        final long mask;

        BitTest(String text, FilterField f, long mask) {
            super(text);
            this.f = f;
            this.mask = mask;
        }

        @Override
        boolean test(FieldAccessor a) {
            for (int i = 0, n = a.count(f); i < n; i++) {
                if ((a.asLong(f, i) & mask) != 0) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Long-valued field (optionally masked) against a constant. */
    static final class LongCompare extends Leaf {
        final FilterField f;
        final long mask;
        final int kind;
        final int op;
        final boolean all;
        final long k;

        LongCompare(String text, FilterField f, long mask, int kind, int op, boolean all, long k) {
            super(text);
            this.f = f;
            this.mask = mask;
            this.kind = kind;
            this.op = op;
            this.all = all;
            this.k = k;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            if (n == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                boolean r = apply(op, compareKind(read(a, f, i, mask, kind), k, kind));
                if (r != all) {
                    return r;
                }
            }
            return all;
        }
    }

    /**
     * The most common relations, {@code f == k} (some occurrence equals) and {@code f != k} (no occurrence
     * equals), for non-boolean long-valued fields: one masked compare per occurrence.
     */
    static final class LongEquals extends Leaf {
        final FilterField f;
        final long mask;
        final long k;
        final boolean negated;

        LongEquals(String text, FilterField f, long mask, long k, boolean negated) {
            super(text);
            this.f = f;
            this.mask = mask;
            this.k = k;
            this.negated = negated;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            for (int i = 0; i < n; i++) {
                if ((a.asLong(f, i) & mask) == k) {
                    return !negated;
                }
            }
            return negated && n > 0;
        }
    }

    /** IPv4 field against a CIDR network: EQ = inside, NE = outside. */
    static final class LongNetwork extends Leaf {
        final FilterField f;
        final long mask;
        final long netmask;
        final long net;
        final boolean inside;
        final boolean all;

        LongNetwork(String text, FilterField f, long mask, long netmask, long net, boolean inside, boolean all) {
            super(text);
            this.f = f;
            this.mask = mask;
            this.netmask = netmask;
            this.net = net;
            this.inside = inside;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            if (n == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                boolean r = ((a.asLong(f, i) & mask & netmask) == net) == inside;
                if (r != all) {
                    return r;
                }
            }
            return all;
        }
    }

    /**
     * Long-valued field against a set of points and closed ranges. Values are turned into keys whose
     * signed order is the field's order (unsigned values get their sign bit flipped).
     */
    static final class LongInSet extends Leaf {
        final FilterField f;
        final long mask;
        final int kind;
        final long[] points;   // sorted keys
        final long[] lo;       // range keys
        final long[] hi;
        final boolean negated;
        final boolean all;

        LongInSet(String text, FilterField f, long mask, int kind, long[] points, long[] lo, long[] hi,
                  boolean negated, boolean all) {
            super(text);
            this.f = f;
            this.mask = mask;
            this.kind = kind;
            this.points = points;
            this.lo = lo;
            this.hi = hi;
            this.negated = negated;
            this.all = all;
        }

        static long key(long v, int kind) {
            return kind == KIND_SIGNED ? v : v ^ Long.MIN_VALUE;
        }

        private boolean contains(long key) {
            if (points.length <= 8) {
                for (long p : points) {
                    if (p == key) {
                        return true;
                    }
                }
            } else if (Arrays.binarySearch(points, key) >= 0) {
                return true;
            }
            for (int i = 0; i < lo.length; i++) {
                if (key >= lo[i] && key <= hi[i]) {
                    return true;
                }
            }
            return false;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            if (n == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                boolean r = contains(key(read(a, f, i, mask, kind), kind)) != negated;
                if (r != all) {
                    return r;
                }
            }
            return all;
        }
    }

    /** Two long-valued fields (each optionally masked): every pair (any) or all pairs (all). */
    static final class LongFieldCompare extends Leaf {
        final FilterField f;
        final long maskF;
        final int kindF;
        final FilterField g;
        final long maskG;
        final int kindG;
        final int op;
        final boolean all;

        LongFieldCompare(String text, FilterField f, long maskF, int kindF, FilterField g, long maskG, int kindG,
                         int op, boolean all) {
            super(text);
            this.f = f;
            this.maskF = maskF;
            this.kindF = kindF;
            this.g = g;
            this.maskG = maskG;
            this.kindG = kindG;
            this.op = op;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            int m = a.count(g);
            if (n == 0 || m == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                long x = read(a, f, i, maskF, kindF);
                for (int j = 0; j < m; j++) {
                    boolean r = apply(op, compareMixed(x, kindF, read(a, g, j, maskG, kindG), kindG));
                    if (r != all) {
                        return r;
                    }
                }
            }
            return all;
        }
    }

    // ---------------------------------------------------------------- bytes (IPv6, BYTES)

    static final class BytesCompare extends Leaf {
        final FilterField f;
        final byte[] k;
        final int op;
        final boolean all;

        BytesCompare(String text, FilterField f, byte[] k, int op, boolean all) {
            super(text);
            this.f = f;
            this.k = k;
            this.op = op;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            if (n == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                byte[] v = bytes(a, f, i);
                boolean r = op == EQ ? Arrays.equals(v, k)
                        : op == NE ? !Arrays.equals(v, k)
                        : apply(op, Arrays.compareUnsigned(v, k));
                if (r != all) {
                    return r;
                }
            }
            return all;
        }
    }

    /** IPv6 field against a network prefix: inside (EQ) or outside (NE). */
    static final class BytesNetwork extends Leaf {
        final FilterField f;
        final byte[] net;
        final int bits;
        final boolean inside;
        final boolean all;

        BytesNetwork(String text, FilterField f, byte[] net, int bits, boolean inside, boolean all) {
            super(text);
            this.f = f;
            this.net = net;
            this.bits = bits;
            this.inside = inside;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            if (n == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                boolean r = Literals.prefixMatches(a.asBytes(f, i), net, bits) == inside;
                if (r != all) {
                    return r;
                }
            }
            return all;
        }
    }

    /** One element of a set of byte values: exact value, closed range, or prefix (bits >= 0). */
    record BytesElement(byte[] lo, byte[] hi, int bits) {
        boolean contains(byte[] v) {
            if (bits >= 0) {
                return Literals.prefixMatches(v, lo, bits);
            }
            if (hi == null) {
                return Arrays.equals(v, lo);
            }
            return Arrays.compareUnsigned(v, lo) >= 0 && Arrays.compareUnsigned(v, hi) <= 0;
        }
    }

    static final class BytesInSet extends Leaf {
        final FilterField f;
        final BytesElement[] elements;
        final boolean negated;
        final boolean all;

        BytesInSet(String text, FilterField f, BytesElement[] elements, boolean negated, boolean all) {
            super(text);
            this.f = f;
            this.elements = elements;
            this.negated = negated;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            if (n == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                byte[] v = bytes(a, f, i);
                boolean in = false;
                for (BytesElement e : elements) {
                    if (e.contains(v)) {
                        in = true;
                        break;
                    }
                }
                boolean r = in != negated;
                if (r != all) {
                    return r;
                }
            }
            return all;
        }
    }

    static final class BytesFieldCompare extends Leaf {
        final FilterField f;
        final FilterField g;
        final int op;
        final boolean all;

        BytesFieldCompare(String text, FilterField f, FilterField g, int op, boolean all) {
            super(text);
            this.f = f;
            this.g = g;
            this.op = op;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            int m = a.count(g);
            if (n == 0 || m == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                byte[] x = bytes(a, f, i);
                for (int j = 0; j < m; j++) {
                    boolean r = apply(op, Arrays.compareUnsigned(x, bytes(a, g, j)));
                    if (r != all) {
                        return r;
                    }
                }
            }
            return all;
        }
    }

    /** BYTES field contains a constant byte sequence, or (g != null) the value of another BYTES field. */
    static final class BytesContains extends Leaf {
        final FilterField f;
        final byte[] k;
        final FilterField g;
        final boolean all;

        BytesContains(String text, FilterField f, byte[] k, FilterField g, boolean all) {
            super(text);
            this.f = f;
            this.k = k;
            this.g = g;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            int m = g == null ? 1 : a.count(g);
            if (n == 0 || m == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                byte[] v = bytes(a, f, i);
                for (int j = 0; j < m; j++) {
                    boolean r = indexOf(v, g == null ? k : bytes(a, g, j)) >= 0;
                    if (r != all) {
                        return r;
                    }
                }
            }
            return all;
        }
    }

    // ---------------------------------------------------------------- strings

    static final class StringCompare extends Leaf {
        final FilterField f;
        final String k;
        final int op;
        final boolean all;

        StringCompare(String text, FilterField f, String k, int op, boolean all) {
            super(text);
            this.f = f;
            this.k = k;
            this.op = op;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            if (n == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                String v = string(a, f, i);
                boolean r = op == EQ ? v.equals(k) : op == NE ? !v.equals(k) : apply(op, v.compareTo(k));
                if (r != all) {
                    return r;
                }
            }
            return all;
        }
    }

    static final class StringInSet extends Leaf {
        final FilterField f;
        final Set<String> points;
        final String[] lo;
        final String[] hi;
        final boolean negated;
        final boolean all;

        StringInSet(String text, FilterField f, Set<String> points, String[] lo, String[] hi, boolean negated,
                    boolean all) {
            super(text);
            this.f = f;
            this.points = points;
            this.lo = lo;
            this.hi = hi;
            this.negated = negated;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            if (n == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                String v = string(a, f, i);
                boolean in = points.contains(v);
                for (int e = 0; !in && e < lo.length; e++) {
                    in = v.compareTo(lo[e]) >= 0 && v.compareTo(hi[e]) <= 0;
                }
                boolean r = in != negated;
                if (r != all) {
                    return r;
                }
            }
            return all;
        }
    }

    static final class StringFieldCompare extends Leaf {
        final FilterField f;
        final FilterField g;
        final int op;
        final boolean all;

        StringFieldCompare(String text, FilterField f, FilterField g, int op, boolean all) {
            super(text);
            this.f = f;
            this.g = g;
            this.op = op;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            int m = a.count(g);
            if (n == 0 || m == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                String x = string(a, f, i);
                for (int j = 0; j < m; j++) {
                    boolean r = apply(op, x.compareTo(string(a, g, j)));
                    if (r != all) {
                        return r;
                    }
                }
            }
            return all;
        }
    }

    /** STRING field contains a constant substring, or (g != null) the value of another STRING field. */
    static final class StringContains extends Leaf {
        final FilterField f;
        final String k;
        final FilterField g;
        final boolean all;

        StringContains(String text, FilterField f, String k, FilterField g, boolean all) {
            super(text);
            this.f = f;
            this.k = k;
            this.g = g;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            int m = g == null ? 1 : a.count(g);
            if (n == 0 || m == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                String v = string(a, f, i);
                for (int j = 0; j < m; j++) {
                    boolean r = v.contains(g == null ? k : string(a, g, j));
                    if (r != all) {
                        return r;
                    }
                }
            }
            return all;
        }
    }

    /** STRING field matches a regular expression (unanchored search). */
    static final class StringMatches extends Leaf {
        final FilterField f;
        final Pattern pattern;
        final boolean all;

        StringMatches(String text, FilterField f, Pattern pattern, boolean all) {
            super(text);
            this.f = f;
            this.pattern = pattern;
            this.all = all;
        }

        @Override
        boolean test(FieldAccessor a) {
            int n = a.count(f);
            if (n == 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                boolean r = pattern.matcher(string(a, f, i)).find();
                if (r != all) {
                    return r;
                }
            }
            return all;
        }
    }
}
