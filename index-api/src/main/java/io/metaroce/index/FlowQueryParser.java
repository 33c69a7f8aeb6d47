package io.metaroce.index;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses the flow query language: Lucene's classic syntax where it has one, plus what an operator types.
 *
 * <pre>
 * naks:[5 TO *]                 numeric range ([ ] inclusive, { } exclusive, * open)   naks:&gt;=5  naks:&lt;3
 * dest_qp:0x000201              hex or decimal integers
 * src:10.0.0.0/24               an IP, a CIDR block or an IP range      src:[10.0.0.1 TO 10.0.0.9]
 * first:[2026-11-30T02:00 TO 2026-11-30T02:10]   UTC unless the time says Z or +01:00; a partial time is
 *                               its whole span (an inclusive upper bound reaches its end, as in Elasticsearch)
 * rule:MR-RTX-*                 keyword, * and ? wildcards; "quoted" for an exact value with spaces
 * a AND b, a OR b, NOT a, a &amp;&amp; b, a || b, !a, -a, +a, ( ), field:(a OR b), field:*, *:*
 * 10.0.0.1                      no field: any of the default fields (flow, src, dst, rules, events)
 * </pre>
 *
 * Adjacent clauses without an operator must all match (AND, as Solr's {@code q.op=AND}); AND binds tighter
 * than OR. Operators are also accepted in lower case. Hand-written rather than generated (ANTLR, as the filter
 * module uses) because each error names its column and says what was expected in the operator's terms.
 */
public final class FlowQueryParser {
    /** The fields a value without a field name is looked up in. */
    public static final List<String> DEFAULT_FIELDS = List.of(FlowSchema.FLOW, FlowSchema.SRC, FlowSchema.DST,
            FlowSchema.RULES, FlowSchema.EVENTS);
    /** Deepest tree of NOT, AND and OR nodes a query may make. */
    private static final int MAX_DEPTH = 64;
    /**
     * Deepest recursion of the parser, which guards the stack. Larger than {@link #MAX_DEPTH} because the canonical
     * text of a tree takes up to two levels per node ("(NOT (NOT x))"): any tree accepted here prints as text that is
     * accepted too (the fuzzer found 32 NOTs that parsed and whose canonical form did not).
     */
    private static final int MAX_RECURSION = 2 * MAX_DEPTH + 2;

    private final String s;
    private int pos, depth;

    private FlowQueryParser(String s) { this.s = s; }

    /**
     * The tree of a query.
     *
     * @throws QuerySyntaxException naming the column of the first problem
     */
    public static FlowQuery parse(String text) {
        FlowQueryParser p = new FlowQueryParser(text);
        p.skipWs();
        if (p.pos == text.length()) throw new QuerySyntaxException("empty query (*:* matches every flow)", 1);
        FlowQuery q = p.or(null);
        p.skipWs();
        if (p.pos < text.length()) {
            throw p.error(text.charAt(p.pos) == ')' ? "')' without a matching '('" : "unexpected '" + text.charAt(p.pos) + "'", p.pos);
        }
        return q;
    }

    // ------------------------------------------------------------------ boolean structure

    private FlowQuery or(FieldDef field) {
        skipWs();
        int at = pos;
        List<FlowQuery> parts = new ArrayList<>();
        parts.add(and(field));
        while (op("OR") || sym("||")) parts.add(and(field));
        return parts.size() == 1 ? parts.get(0) : nested(new FlowQuery.Or(parts), at);
    }

    private FlowQuery and(FieldDef field) {
        skipWs();
        int at = pos;
        List<FlowQuery> parts = new ArrayList<>();
        parts.add(unary(field));
        while (true) {
            skipWs();
            if (pos == s.length() || s.charAt(pos) == ')' || peekOp("OR") || s.startsWith("||", pos)) break;
            if (!op("AND")) sym("&&");
            parts.add(unary(field));
        }
        return parts.size() == 1 ? parts.get(0) : nested(new FlowQuery.And(parts), at);
    }

    private FlowQuery unary(FieldDef field) {
        skipWs();
        if (++depth > MAX_RECURSION) throw error("query nested deeper than " + MAX_DEPTH + " levels", pos);
        try {
            int at = pos;
            if (op("NOT") || sym("!")) return nested(new FlowQuery.Not(unary(field)), at);
            if (pos + 1 < s.length() && (s.charAt(pos) == '-' || s.charAt(pos) == '+') && !Character.isWhitespace(s.charAt(pos + 1))) {
                boolean not = s.charAt(pos++) == '-';
                FlowQuery q = unary(field);
                return not ? nested(new FlowQuery.Not(q), at) : q;
            }
            return primary(field);
        } finally {
            depth--;
        }
    }

    private FlowQuery primary(FieldDef field) {
        skipWs();
        if (pos == s.length()) throw error("the query ends where a term was expected", pos);
        char c = s.charAt(pos);
        if (c == '(') return group(field);
        if (c == ')') throw error("')' where a term was expected", pos);
        if (peekOp("AND") || peekOp("OR") || s.startsWith("&&", pos) || s.startsWith("||", pos))
            throw error("an operator where a term was expected", pos);
        if (s.startsWith("*:*", pos)) {
            pos += 3;
            return new FlowQuery.MatchAll();
        }
        int start = pos;
        int end = fieldNameEnd();
        if (end > 0) {
            String name = s.substring(start, end);
            FieldDef f = FlowSchema.field(name);
            if (f != null && FlowSchema.pathIdBeyond16Bits(name)) {
                String id = name.substring(6, name.indexOf('.', 6));
                throw error("path id " + id + " in '" + name + "' is beyond " + FlowSchema.MAX_PATH_ID + " (a MetaRoCE path id is 16 bits)", start);
            }
            if (f == null) {
                List<String> near = FlowSchema.closest(name);
                throw error("unknown field '" + name + "'" + (near.isEmpty() ? "" : " (did you mean " + String.join(", ", near) + "?)"), start);
            }
            if (f.type() == FieldType.STORED) throw error("field '" + name + "' is stored only, not searchable", start);
            pos = end + 1;
            return fieldValue(f);
        }
        // A bare "<5" or ">=x" reads as a comparison, as after "field:", so that a value never starts with one and
        // every wildcard prints back as text that parses to itself (the fuzzer found "field:<x*" turning into one).
        if (c == '<' || c == '>') {
            if (field == null) throw error("a comparison needs a field, e.g. naks:>5", start);
            return comparison(field);
        }
        return value(field, start);
    }

    private FlowQuery group(FieldDef field) {
        int open = pos++;
        FlowQuery q = or(field);
        skipWs();
        if (pos == s.length() || s.charAt(pos) != ')') throw error("'(' at column " + (open + 1) + " is never closed", open);
        pos++;
        return q;
    }

    /** The end of a field name followed by ':' at pos, or -1 when the text there is a value. */
    private int fieldNameEnd() {
        int i = pos;
        if (i >= s.length() || !(Character.isLetter(s.charAt(i)) || s.charAt(i) == '_')) return -1;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '.')) i++;
        if (i >= s.length() || s.charAt(i) != ':') return -1;
        // "fe80::1" is an IPv6 address, not the field fe80
        if (i + 1 < s.length() && s.charAt(i + 1) == ':' && FlowSchema.field(s.substring(pos, i)) == null) return -1;
        return i;
    }

    /** The node, unless it makes the tree deeper than {@link #MAX_DEPTH}: then an error at its first column. */
    private FlowQuery nested(FlowQuery node, int at) {
        if (treeDepth(node) > MAX_DEPTH) throw error("query nested deeper than " + MAX_DEPTH + " levels", at);
        return node;
    }

    private static int treeDepth(FlowQuery q) {
        return switch (q) {
            case FlowQuery.Not n -> 1 + treeDepth(n.query());
            case FlowQuery.And a -> 1 + a.parts().stream().mapToInt(FlowQueryParser::treeDepth).max().orElse(0);
            case FlowQuery.Or o -> 1 + o.parts().stream().mapToInt(FlowQueryParser::treeDepth).max().orElse(0);
            default -> 0;
        };
    }

    // ------------------------------------------------------------------ field clauses

    private FlowQuery fieldValue(FieldDef f) {
        if (pos == s.length() || Character.isWhitespace(s.charAt(pos))) throw error("a value for '" + f.name() + "' is missing after ':'", pos);
        char c = s.charAt(pos);
        if (c == '(') return group(f);
        if (c == '[' || c == '{') return range(f);
        if (c == '>' || c == '<') return comparison(f);
        if (c == '*' && (pos + 1 == s.length() || delimiter(s.charAt(pos + 1)))) {
            pos++;
            return new FlowQuery.Exists(f);
        }
        return value(f, pos);
    }

    /** A value for one field, or for each default field it fits when {@code f} is null. */
    private FlowQuery value(FieldDef f, int at) {
        boolean quoted = at < s.length() && s.charAt(at) == '"';
        String raw = quoted ? quoted() : word();
        if (raw.isEmpty()) throw error("a value was expected", at);
        if (f != null) return single(f, raw, quoted, at);
        // ":5" is a field clause without its field (Lucene: "Cannot parse"), not the keyword ":5" in the default
        // fields, which matched nothing in silence; "::1" stays an IPv6 address.
        if (!quoted && raw.startsWith(":") && IpAddresses.parse(unescape(raw)) == null)
            throw error("a field name is missing before ':' (e.g. naks:5)", at);
        List<FlowQuery> fits = new ArrayList<>();
        for (String name : DEFAULT_FIELDS) {
            try {
                fits.add(single(FlowSchema.field(name), raw, quoted, at));
            } catch (QuerySyntaxException notThisField) {
                // the value does not fit this field's type: the others are tried
            }
        }
        // An address or CIDR block means the endpoints, not a flow id or rule that happens to read the same.
        if (fits.stream().anyMatch(q -> q instanceof FlowQuery.IpRange))
            fits.removeIf(q -> !(q instanceof FlowQuery.IpRange));
        if (fits.isEmpty()) throw error("'" + raw + "' fits none of the default fields " + DEFAULT_FIELDS + ": name a field, e.g. naks:5", at);
        return fits.size() == 1 ? fits.get(0) : new FlowQuery.Or(fits);
    }

    private FlowQuery single(FieldDef f, String raw, boolean quoted, int at) {
        switch (f.type()) {
            case KEYWORD -> {
                // A lone * is "any value", the same query as field:*, so both have one canonical form
                if (!quoted && raw.equals("*")) return new FlowQuery.Exists(f);
                if (!quoted && hasWildcard(raw)) return new FlowQuery.Wildcard(f, raw);
                return new FlowQuery.Term(f, quoted ? raw : unescape(raw));
            }
            case IP -> {
                String v = quoted ? raw : unescape(raw);
                int slash = v.indexOf('/');
                if (slash < 0) {
                    InetAddress a = ip(f, v, at);
                    return new FlowQuery.IpRange(f, a, a);
                }
                return cidr(f, ip(f, v.substring(0, slash), at), v.substring(slash + 1), at);
            }
            case DOUBLE -> {
                double d = inRange(f, raw, dbl(f, raw, at), at);
                return new FlowQuery.DoubleRange(f, d, d);
            }
            default -> {
                String v = quoted ? raw : unescape(raw);
                long[] span = inRange(f, v, span(f, v, at), at);
                return new FlowQuery.LongRange(f, span[0], span[1]);
            }
        }
    }

    private FlowQuery range(FieldDef f) {
        int at = pos;
        boolean loIncl = s.charAt(pos++) == '[';
        skipWs();
        int loAt = pos;
        String lo = bound();
        skipWs();
        if (!(s.startsWith("TO", pos) || s.startsWith("to", pos)) || pos + 2 < s.length() && !Character.isWhitespace(s.charAt(pos + 2)))
            throw error("'TO' expected in the range", pos);
        pos += 2;
        skipWs();
        int hiAt = pos;
        String hi = bound();
        skipWs();
        if (pos == s.length() || (s.charAt(pos) != ']' && s.charAt(pos) != '}')) throw error("']' or '}' expected to close the range opened at column " + (at + 1), pos);
        boolean hiIncl = s.charAt(pos++) == ']';
        return bounds(f, lo, loIncl, loAt, hi, hiIncl, hiAt, at);
    }

    private FlowQuery comparison(FieldDef f) {
        int at = pos;
        boolean greater = s.charAt(pos++) == '>';
        boolean orEqual = pos < s.length() && s.charAt(pos) == '=';
        if (orEqual) pos++;
        int vAt = pos;
        String v = word();
        if (v.isEmpty()) throw error("a value was expected after the comparison", vAt);
        return greater ? bounds(f, v, orEqual, vAt, "*", true, vAt, at) : bounds(f, "*", true, vAt, v, orEqual, vAt, at);
    }

    private FlowQuery bounds(FieldDef f, String lo, boolean loIncl, int loAt, String hi, boolean hiIncl, int hiAt, int at) {
        switch (f.type()) {
            case KEYWORD -> throw error("'" + f.name() + "' is a keyword field: ranges need a number, time or IP field", at);
            case DOUBLE -> {
                double l = lo.equals("*") ? Double.NEGATIVE_INFINITY : inRange(f, lo, dbl(f, lo, loAt), loAt);
                double h = hi.equals("*") ? Double.POSITIVE_INFINITY : inRange(f, hi, dbl(f, hi, hiAt), hiAt);
                l = loIncl || lo.equals("*") ? l : Math.nextUp(l);
                h = hiIncl || hi.equals("*") ? h : Math.nextDown(h);
                double[] r = FlowSchema.doubleRange(f);
                if (l > h) throw emptyRange(at);
                if (l > r[1] || h < r[0]) throw matchesNothing(f, at);
                return new FlowQuery.DoubleRange(f, l, h);
            }
            case IP -> {
                if (!loIncl || !hiIncl) throw error("IP ranges take inclusive bounds: [a TO b]", at);
                InetAddress l = lo.equals("*") ? null : ip(f, lo, loAt), h = hi.equals("*") ? null : ip(f, hi, hiAt);
                if (l == null && h == null) return new FlowQuery.Exists(f);
                boolean v6 = (l != null ? l : h).getAddress().length == 16;
                if (l == null) l = v6 ? ip(f, "::", loAt) : ip(f, "0.0.0.0", loAt);
                if (h == null) h = v6 ? ip(f, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", hiAt) : ip(f, "255.255.255.255", hiAt);
                // One family per range (FlowQuery.IpRange): [10.0.0.1 TO ::1] spans no address of either family as
                // typed, and in the 16-byte order it would be empty; [::1 TO 10.0.0.1] would take IPv4 below it.
                if (l.getAddress().length != h.getAddress().length)
                    throw error("an IP range's bounds must both be IPv4 or both IPv6", at);
                if (java.util.Arrays.compareUnsigned(l.getAddress(), h.getAddress()) > 0) throw emptyRange(at);
                return new FlowQuery.IpRange(f, l, h);
            }
            default -> {
                // A bound names a span (one unit, or a minute of a time): [ starts at its start, ] ends at its end.
                long l = Long.MIN_VALUE, h = Long.MAX_VALUE;
                long[] r = FlowSchema.longRange(f);
                if (!lo.equals("*")) {
                    long[] sp = inRange(f, lo, span(f, lo, loAt), loAt);
                    // Nothing is above the largest value: {MAX TO *] matches nothing, like a bound past the range.
                    if (!loIncl && sp[1] == Long.MAX_VALUE) throw matchesNothing(f, at);
                    l = loIncl ? sp[0] : sp[1] + 1;
                }
                if (!hi.equals("*")) {
                    long[] sp = inRange(f, hi, span(f, hi, hiAt), hiAt);
                    if (!hiIncl && sp[0] == Long.MIN_VALUE) throw matchesNothing(f, at);
                    h = hiIncl ? sp[1] : sp[0] - 1;
                }
                // An inverted range, or one outside the field's values (naks:<0), would silently match no flow: an
                // error, so that "0 flows match" always means that no flow has such a value.
                if (l > h) throw emptyRange(at);
                if (l > r[1] || h < r[0]) throw matchesNothing(f, at);
                return new FlowQuery.LongRange(f, l, h);
            }
        }
    }

    private FlowQuery cidr(FieldDef f, InetAddress base, String bits, int at) {
        byte[] b = base.getAddress();
        int n;
        try {
            n = Integer.parseInt(bits);
        } catch (NumberFormatException e) {
            throw error("'/" + bits + "' is not a prefix length", at);
        }
        if (n < 0 || n > b.length * 8) throw error("prefix length /" + n + " is beyond " + b.length * 8 + " bits", at);
        byte[] lo = b.clone(), hi = b.clone();
        for (int i = 0; i < b.length * 8; i++) {
            if (i < n) continue;
            lo[i / 8] &= (byte) ~(0x80 >>> (i % 8));
            hi[i / 8] |= (byte) (0x80 >>> (i % 8));
        }
        try {
            return new FlowQuery.IpRange(f, InetAddress.getByAddress(lo), InetAddress.getByAddress(hi));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e); // a 4- or 16-byte array is always an address
        }
    }

    // ------------------------------------------------------------------ values

    /** The first and last value (inclusive) a bound or value names: one integer, or a time's whole span. */
    private long[] span(FieldDef f, String v, int at) {
        if (f.type() == FieldType.TIME && !v.matches("-?\\d{1,19}")) {
            try {
                long[] sp = QueryTimes.span(v);
                return new long[] {sp[0], sp[1] - 1};
            } catch (IllegalArgumentException e) {
                throw error(f.name() + ": " + e.getMessage(), at);
            }
        }
        try {
            long x = v.startsWith("0x") || v.startsWith("0X") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
            if (x < 0 && (v.startsWith("0x") || v.startsWith("0X"))) throw new NumberFormatException();
            return new long[] {x, x};
        } catch (NumberFormatException e) {
            throw error("'" + v + "' is not an integer for '" + f.name() + "' (decimal, or hex as 0x000201)", at);
        }
    }

    /** The span of a value, unless it lies outside the field's values ({@link FlowSchema#longRange}): then an error. */
    private long[] inRange(FieldDef f, String v, long[] span, int at) {
        long[] r = FlowSchema.longRange(f);
        if (span[0] < r[0] || span[1] > r[1]) throw outOfRange(f, v, at);
        return span;
    }

    private double inRange(FieldDef f, String v, double d, int at) {
        double[] r = FlowSchema.doubleRange(f);
        if (d < r[0] || d > r[1]) throw outOfRange(f, v, at);
        return d;
    }

    private QuerySyntaxException outOfRange(FieldDef f, String v, int at) {
        return error("'" + v + "' is out of range for '" + f.name() + "' (" + FlowSchema.rangeText(f) + ")", at);
    }

    private QuerySyntaxException emptyRange(int at) {
        return error("the range is empty: no value lies between its bounds", at);
    }

    private QuerySyntaxException matchesNothing(FieldDef f, int at) {
        return error("the range matches nothing: '" + f.name() + "' is " + FlowSchema.rangeText(f), at);
    }

    private double dbl(FieldDef f, String v, int at) {
        try {
            double d = Double.parseDouble(v);
            if (Double.isNaN(d) || !v.matches("[-+0-9.eE]+|[-+]?Infinity")) throw new NumberFormatException();
            return d;
        } catch (NumberFormatException e) {
            throw error("'" + v + "' is not a number for '" + f.name() + "'", at);
        }
    }

    private InetAddress ip(FieldDef f, String v, int at) {
        InetAddress a = IpAddresses.parse(v);
        if (a == null) throw error("'" + v + "' is not an IP address for '" + f.name() + "' (a.b.c.d, IPv6, or a CIDR block a.b.c.d/24)", at);
        return a;
    }

    // ------------------------------------------------------------------ lexing

    private String bound() {
        if (pos < s.length() && s.charAt(pos) == '"') return quoted();
        int at = pos;
        String w = word();
        if (w.isEmpty()) throw error("a range bound was expected", at);
        return w;
    }

    /** A run of non-delimiters; a backslash keeps the next character (kept in the result, see {@link #unescape}). */
    private String word() {
        int start = pos;
        while (pos < s.length() && !delimiter(s.charAt(pos))) {
            if (s.charAt(pos) == '\\') {
                if (pos + 1 == s.length()) throw error("a '\\' at the end of the query escapes nothing", pos);
                pos++;
            }
            pos++;
        }
        return s.substring(start, pos);
    }

    private String quoted() {
        int open = pos++;
        StringBuilder b = new StringBuilder();
        while (pos < s.length() && s.charAt(pos) != '"') {
            if (s.charAt(pos) == '\\' && pos + 1 < s.length()) pos++;
            b.append(s.charAt(pos++));
        }
        if (pos == s.length()) throw error("the quote at column " + (open + 1) + " is never closed", open);
        pos++;
        return b.toString();
    }

    private static boolean delimiter(char c) {
        return Character.isWhitespace(c) || c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == '"';
    }

    private static boolean hasWildcard(String raw) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '\\') i++;
            else if (c == '*' || c == '?') return true;
        }
        return false;
    }

    static String unescape(String raw) {
        if (raw.indexOf('\\') < 0) return raw;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '\\' && i + 1 < raw.length()) c = raw.charAt(++i);
            b.append(c);
        }
        return b.toString();
    }

    /** A keyword value as query text: bare when it reads back unchanged, else quoted with escapes. */
    static String quote(String v) {
        boolean bare = !v.isEmpty() && !v.startsWith("-") && !v.startsWith("+") && !v.startsWith("!")
                && !List.of("AND", "OR", "NOT", "TO").contains(v.toUpperCase()) && !v.equals("*");
        for (int i = 0; bare && i < v.length(); i++) {
            char c = v.charAt(i);
            if (delimiter(c) || c == '\\' || c == '*' || c == '?' || c == '>' && i == 0 || c == '<' && i == 0
                    || c == '&' || c == '|') bare = false;
        }
        if (bare) return v;
        return "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private void skipWs() {
        while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) pos++;
    }

    /** Consumes an operator word (any case) followed by a space, '(' or the end. */
    private boolean op(String word) {
        skipWs();
        if (!peekOp(word)) return false;
        pos += word.length();
        return true;
    }

    private boolean peekOp(String word) {
        int end = pos + word.length();
        if (!s.regionMatches(true, pos, word, 0, word.length())) return false;
        return end == s.length() || Character.isWhitespace(s.charAt(end)) || s.charAt(end) == '(';
    }

    private boolean sym(String symbol) {
        skipWs();
        if (!s.startsWith(symbol, pos)) return false;
        pos += symbol.length();
        return true;
    }

    private QuerySyntaxException error(String reason, int at) { return new QuerySyntaxException(reason, at + 1); }
}
