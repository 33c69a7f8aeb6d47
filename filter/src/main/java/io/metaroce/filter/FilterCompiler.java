package io.metaroce.filter;

import io.metaroce.filter.DisplayFilterParser.AndExprContext;
import io.metaroce.filter.DisplayFilterParser.CompareTestContext;
import io.metaroce.filter.DisplayFilterParser.ContainsTestContext;
import io.metaroce.filter.DisplayFilterParser.ExprContext;
import io.metaroce.filter.DisplayFilterParser.FilterContext;
import io.metaroce.filter.DisplayFilterParser.InTestContext;
import io.metaroce.filter.DisplayFilterParser.MatchesTestContext;
import io.metaroce.filter.DisplayFilterParser.NotExprContext;
import io.metaroce.filter.DisplayFilterParser.OperandContext;
import io.metaroce.filter.DisplayFilterParser.OrExprContext;
import io.metaroce.filter.DisplayFilterParser.ParenExprContext;
import io.metaroce.filter.DisplayFilterParser.PresenceTestContext;
import io.metaroce.filter.DisplayFilterParser.QuantifierContext;
import io.metaroce.filter.DisplayFilterParser.SetElementContext;
import io.metaroce.filter.DisplayFilterParser.TestContext;
import io.metaroce.filter.DisplayFilterParser.TestExprContext;
import io.metaroce.filter.DisplayFilterParser.XorExprContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/** Turns filter text into a {@link Node} tree: ANTLR parse, then name resolution and type checking. */
final class FilterCompiler {
    /** Deeper nesting of parentheses and "not" is refused before parsing (the parser is recursive). */
    static final int MAX_NESTING = 1000;

    private static final int T_EOF = Token.EOF;

    private final String text;
    private final FieldResolver resolver;
    private final Set<FilterField> fields = new LinkedHashSet<>();
    private final boolean astral;
    private List<Token> tokens = List.of();

    FilterCompiler(String text, FieldResolver resolver) {
        this.text = text;
        this.resolver = resolver;
        this.astral = text.codePointCount(0, text.length()) != text.length();
    }

    /**
     * ANTLR indexes code points; columns are Java string (UTF-16) indexes + 1, so that
     * {@code text.charAt(column - 1)} is the offending character.
     */
    private int charIndex(int codePointIndex) {
        if (!astral) {
            return codePointIndex;
        }
        int total = text.codePointCount(0, text.length());
        if (codePointIndex >= total) {
            return text.length() + (codePointIndex - total);
        }
        return text.offsetByCodePoints(0, Math.max(0, codePointIndex));
    }

    Set<FilterField> fields() {
        return fields;
    }

    Node compile() throws FilterException {
        DisplayFilterLexer lexer = new DisplayFilterLexer(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        lexer.addErrorListener(THROWER);
        CommonTokenStream stream = new CommonTokenStream(lexer);
        DisplayFilterParser parser = new DisplayFilterParser(stream);
        parser.removeErrorListeners();
        parser.addErrorListener(THROWER);
        FilterContext tree;
        try {
            stream.fill();
            tokens = stream.getTokens();
            checkNesting();
            tree = parser.filter();
        } catch (SyntaxSignal s) {
            if (s.token == null) {
                throw new FilterException("Invalid character", text, charIndex(s.charIndex) + 1, 1);
            }
            throw syntaxError(s.token);
        }
        if (tree.expr() == null) {
            return new Node.True();
        }
        return withDerived(expr(tree.expr()));
    }

    // ================================================================== syntax errors

    /** Thrown out of ANTLR by the error listener at the first problem; no recovery, nothing printed. */
    private static final class SyntaxSignal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Token token;
        final int charIndex;

        SyntaxSignal(Token token, int charIndex) {
            super(null, null, false, false);
            this.token = token;
            this.charIndex = charIndex;
        }
    }

    private static final BaseErrorListener THROWER = new BaseErrorListener() {
        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int charPositionInLine,
                                String msg, RecognitionException e) {
            if (offendingSymbol instanceof Token t) {
                throw new SyntaxSignal(t, t.getStartIndex());
            }
            int index = recognizer instanceof Lexer lx ? lx._tokenStartCharIndex : charPositionInLine;
            throw new SyntaxSignal(null, index);
        }
    };

    private void checkNesting() throws FilterException {
        int depth = 0;
        int pendingNots = 0;
        Deque<Integer> opened = new ArrayDeque<>();
        for (Token t : tokens) {
            switch (t.getType()) {
                case DisplayFilterParser.NOT -> pendingNots++;
                case DisplayFilterParser.LPAREN -> {
                    opened.push(pendingNots + 1);
                    depth += pendingNots + 1;
                    pendingNots = 0;
                }
                case DisplayFilterParser.RPAREN -> {
                    if (!opened.isEmpty()) {
                        depth -= opened.pop();
                    }
                    pendingNots = 0;
                }
                default -> pendingNots = 0;
            }
            if (depth + pendingNots > MAX_NESTING) {
                throw error(t, "The filter is nested too deeply (more than " + MAX_NESTING
                        + " levels of parentheses and \"not\")");
            }
        }
    }

    private FilterException syntaxError(Token t) {
        int idx = t.getTokenIndex();
        Token prev = idx > 0 && idx - 1 < tokens.size() ? tokens.get(idx - 1) : null;
        int type = t.getType();
        String shown = type == T_EOF ? "end of filter" : show(t.getText());

        if (type == DisplayFilterLexer.ERROR_CHAR) {
            String c = t.getText();
            return switch (c) {
                case "\"" -> new FilterException("The final quote was missing from a quoted string", text,
                        charIndex(t.getStartIndex()) + 1, text.length() - charIndex(t.getStartIndex()));
                case "'" -> new FilterException("The final quote was missing from a character constant", text,
                        charIndex(t.getStartIndex()) + 1, text.length() - charIndex(t.getStartIndex()));
                case "=" -> error(t, "\"=\" is not a valid operator; use \"==\" to test for equality");
                case "|" -> error(t, "\"|\" is not a valid operator; use \"||\" or \"or\"");
                case "^" -> error(t, "\"^\" is not a valid operator; use \"^^\" or \"xor\"");
                default -> error(t, "Invalid character " + describeChar(c));
            };
        }
        if (type == DisplayFilterParser.RPAREN || type == DisplayFilterParser.RBRACE || type == DisplayFilterParser.RBRACKET) {
            String closer = t.getText();
            String opener = type == DisplayFilterParser.RPAREN ? "(" : type == DisplayFilterParser.RBRACE ? "{" : "[";
            Token open = innermostOpen(idx);
            if (open == null) {
                return error(t, show(closer) + " has no matching " + show(opener));
            }
            if (!open.getText().equals(opener)) {
                return error(t, show(closer) + " was unexpected; the " + show(open.getText()) + " at column "
                        + (charIndex(open.getStartIndex()) + 1) + " is not closed");
            }
        }
        if (prev != null) {
            int p = prev.getType();
            String after = show(prev.getText());
            if (expectsValue(p)) {
                return type == T_EOF ? error(t, "Missing value after " + after)
                        : error(t, shown + " was unexpected after " + after + "; a value was expected");
            }
            if (p == DisplayFilterParser.IN) {
                return type == T_EOF ? error(t, "Missing set after \"in\", e.g. {1 2 10..20}")
                        : error(t, shown + " was unexpected after \"in\"; a set such as {1 2 10..20} was expected");
            }
            if (p == DisplayFilterParser.ANY || p == DisplayFilterParser.ALL) {
                return type == T_EOF ? error(t, "Missing field after " + after)
                        : error(t, shown + " was unexpected after " + after + "; a field was expected");
            }
            Token quantifier = idx >= 2 ? tokens.get(idx - 2) : null;
            if (p == DisplayFilterParser.WORD && quantifier != null
                    && (quantifier.getType() == DisplayFilterParser.ANY || quantifier.getType() == DisplayFilterParser.ALL)) {
                return error(quantifier, show(quantifier.getText()) + " must be followed by a comparison, e.g. "
                        + quantifier.getText() + " " + prev.getText() + " > 1");
            }
            if (p == DisplayFilterParser.LBRACE && type == DisplayFilterParser.RBRACE) {
                return error(prev, "A set must contain at least one value");
            }
            if (p == DisplayFilterParser.AND || p == DisplayFilterParser.OR || p == DisplayFilterParser.XOR
                    || p == DisplayFilterParser.NOT || p == DisplayFilterParser.LPAREN) {
                return type == T_EOF ? error(t, "Missing expression after " + after)
                        : error(t, shown + " was unexpected after " + after + "; a field or protocol was expected");
            }
        } else if (type != T_EOF) {
            return error(t, shown + " was unexpected at the start of the filter; a field or protocol was expected");
        }
        if (type == T_EOF) {
            Token open = innermostOpen(idx);
            if (open != null) {
                return error(open, show(open.getText()) + " has no matching " + show(switch (open.getType()) {
                    case DisplayFilterParser.LPAREN -> ")";
                    case DisplayFilterParser.LBRACE -> "}";
                    default -> "]";
                }));
            }
            return error(t, "Unexpected end of filter expression");
        }
        Token bracket = innermostOpen(idx);
        if (bracket != null && bracket.getType() == DisplayFilterParser.LBRACKET) {
            return error(t, shown + " was unexpected; the \"[\" at column " + (charIndex(bracket.getStartIndex()) + 1)
                    + " is not closed (a slice is [i:length], [i-j] or [i])");
        }
        return error(t, shown + " was unexpected in this context");
    }

    /** The innermost "(" or "{" still open before token index {@code limit}, or null. */
    private Token innermostOpen(int limit) {
        Deque<Token> stack = new ArrayDeque<>();
        for (int i = 0; i < limit && i < tokens.size(); i++) {
            Token t = tokens.get(i);
            switch (t.getType()) {
                case DisplayFilterParser.LPAREN, DisplayFilterParser.LBRACE, DisplayFilterParser.LBRACKET -> stack.push(t);
                case DisplayFilterParser.RPAREN, DisplayFilterParser.RBRACE, DisplayFilterParser.RBRACKET -> {
                    if (!stack.isEmpty()) {
                        stack.pop();
                    }
                }
                default -> {
                }
            }
        }
        return stack.peek();
    }

    private static boolean expectsValue(int type) {
        return switch (type) {
            case DisplayFilterParser.EQ, DisplayFilterParser.NE, DisplayFilterParser.ALL_EQ, DisplayFilterParser.ANY_NE,
                 DisplayFilterParser.LT, DisplayFilterParser.LE, DisplayFilterParser.GT, DisplayFilterParser.GE,
                 DisplayFilterParser.CONTAINS, DisplayFilterParser.MATCHES, DisplayFilterParser.BITAND,
                 DisplayFilterParser.DOTDOT, DisplayFilterParser.COMMA -> true;
            default -> false;
        };
    }

    private static String show(String s) {
        String t = s.length() > 40 ? s.substring(0, 37) + "..." : s;
        return "\"" + t + "\"";
    }

    private static String describeChar(String c) {
        int cp = c.codePointAt(0);
        if (cp < 0x20 || cp == 0x7f || Character.isWhitespace(cp) || Character.isISOControl(cp)
                || Character.getType(cp) == Character.FORMAT || Character.isSurrogate(c.charAt(0))) {
            return String.format("U+%04X", cp);
        }
        return "\"" + c + "\"";
    }

    private FilterException error(Token t, String message) {
        int start = charIndex(t.getStartIndex());
        int end = t.getType() == T_EOF || t.getStopIndex() < t.getStartIndex() ? start + 1 : charIndex(t.getStopIndex() + 1);
        return new FilterException(message, text, start + 1, end - start);
    }

    private FilterException error(ParserRuleContext ctx, String message) {
        int start = charIndex(ctx.getStart().getStartIndex());
        Token stop = ctx.getStop();
        int end = stop == null ? start + 1 : Math.max(start + 1, charIndex(stop.getStopIndex() + 1));
        return new FilterException(message, text, start + 1, end - start);
    }

    // ================================================================== expressions

    private Node expr(ExprContext ctx) throws FilterException {
        if (ctx instanceof ParenExprContext p) {
            return expr(p.expr());
        }
        if (ctx instanceof NotExprContext n) {
            return new Node.Not(expr(n.expr()));
        }
        if (ctx instanceof TestExprContext t) {
            return test(t.test());
        }
        // Binary chains are left-deep trees; walk the left spine iteratively so long chains cannot
        // overflow the stack, and flatten them into one n-ary node.
        Class<?> kind = ctx.getClass();
        Deque<ExprContext> rights = new ArrayDeque<>();
        ExprContext cur = ctx;
        while (cur.getClass() == kind) {
            rights.push(side(cur, 1));
            cur = side(cur, 0);
        }
        List<Node> parts = new ArrayList<>();
        parts.add(expr(cur));
        while (!rights.isEmpty()) {
            parts.add(expr(rights.pop()));
        }
        if (ctx instanceof AndExprContext) {
            return Node.and(parts);
        }
        if (ctx instanceof OrExprContext) {
            return Node.or(parts);
        }
        return Node.xor(parts);
    }

    private static ExprContext side(ExprContext c, int i) {
        if (c instanceof AndExprContext a) {
            return a.expr(i);
        }
        if (c instanceof OrExprContext o) {
            return o.expr(i);
        }
        if (c instanceof XorExprContext x) {
            return x.expr(i);
        }
        throw new IllegalStateException("not a binary expression: " + c.getClass().getSimpleName());
    }

    private Node test(TestContext ctx) throws FilterException {
        if (ctx instanceof PresenceTestContext p) {
            return presence(p.operand());
        }
        if (ctx instanceof CompareTestContext c) {
            return compare(c.quantifier(), c.operand(0), c.relop().getStart(), c.operand(1));
        }
        if (ctx instanceof InTestContext i) {
            return membership(i.quantifier(), i.operand(), i.NOT() != null, i.set().setElement());
        }
        if (ctx instanceof ContainsTestContext c) {
            return contains(c.quantifier(), c.operand(0), c.operand(1));
        }
        if (ctx instanceof MatchesTestContext m) {
            return matches(m.quantifier(), m.operand(0), m.operand(1));
        }
        throw new IllegalStateException("unknown test: " + ctx.getClass().getSimpleName());
    }

    // ================================================================== operands

    /** A side of a test: a field (optionally masked with "&") or an unresolved literal token. */
    private record Operand(OperandContext ctx, Token token, FilterField field, long mask, String maskText) {
        boolean isField() {
            return field != null;
        }

        boolean masked() {
            return maskText != null;
        }

        String text() {
            return masked() ? field.name() + " & " + maskText : field.name();
        }

        /** The "&" mask, narrowed to the field's width so a sign-extended IPv4 or MAC value still compares right. */
        long effectiveMask() {
            long natural = switch (field.type()) {
                case IPV4 -> 0xffffffffL;
                case ETHER -> 0xffffffffffffL;
                default -> -1L;
            };
            return (masked() ? mask : -1L) & natural;
        }
    }

    /**
     * Resolves an operand. A bare word is a field when the resolver knows it, unless it is a value name
     * of the field on the other side (so "bth.opcode == nak" means the symbolic value).
     */
    private Operand operand(OperandContext oc, FilterField other) throws FilterException {
        Token tok = oc.value(0).getStart();
        FilterField f = null;
        DisplayFilterParser.ValueContext vc = oc.value(0);
        if (vc.LPAREN() != null || (vc.fieldRef() != null && vc.fieldRef().slice() != null)) {
            f = derivedValue(vc);
        } else if (tok.getType() == DisplayFilterParser.WORD && (other == null || valueName(other, tok.getText()) == null)) {
            f = resolver.resolve(tok.getText());
            if (f != null) {
                fields.add(f);
            }
        }
        if (oc.BITAND() == null) {
            return new Operand(oc, tok, f, -1L, null);
        }
        if (f == null) {
            throw notAField(tok);
        }
        if (!f.type().isLongValued()) {
            throw error(oc.BITAND().getSymbol(), "Bitwise and needs an integer field, but " + f.name() + " is "
                    + article(f.type()));
        }
        Token mt = oc.value(1).getStart();
        long mask;
        Long plain = mt.getType() == DisplayFilterParser.WORD
                ? (f.type() == FieldType.SIGNED ? Literals.parseSigned(mt.getText()) : Literals.parseUnsigned(mt.getText()))
                : null;
        if (plain != null) {
            mask = plain;
        } else {
            Value v = literal(mt, f);
            if (!(v instanceof LongV lv)) {
                throw error(mt, "A bit mask must be a single value, not a network");
            }
            mask = lv.v();
        }
        return new Operand(oc, tok, f, mask, maskText(mask, f.type()));
    }

    private static String maskText(long m, FieldType t) {
        return switch (t) {
            case IPV4 -> Literals.formatIPv4(m & 0xffffffffL);
            case ETHER -> Literals.formatMac(m & 0xffffffffffffL);
            case BOOLEAN -> Long.toUnsignedString(m);
            case SIGNED -> m >= 0 ? "0x" + Long.toHexString(m) : Long.toString(m);
            default -> "0x" + Long.toHexString(m);
        };
    }

    private FilterException notAField(Token tok) {
        if (tok.getType() == DisplayFilterParser.WORD) {
            return error(tok, show(tok.getText()) + " is not a valid protocol or protocol field");
        }
        return error(tok, "Expected a field or protocol, not the constant " + tok.getText());
    }

    private Operand fieldOperand(OperandContext oc, String operator) throws FilterException {
        Operand o = operand(oc, null);
        if (!o.isField()) {
            throw notAField(o.token());
        }
        noProtocol(o, operator);
        return o;
    }

    private void noProtocol(Operand o, String operator) throws FilterException {
        if (o.field().type() == FieldType.PROTOCOL) {
            throw error(o.token(), show(o.field().name()) + " is a protocol; it can only be tested for presence, not used with "
                    + show(operator));
        }
    }

    private static String article(FieldType t) {
        String d = t.description();
        return ("aeiouAEIOU".indexOf(d.charAt(0)) >= 0 ? "an " : "a ") + d;
    }

    // ================================================================== slices and functions

    private final List<Derived> derived = new ArrayList<>();

    /** The field a function call or a slice stands for (a {@link Derived} field). */
    private FilterField derivedValue(DisplayFilterParser.ValueContext vc) throws FilterException {
        if (vc.LPAREN() == null) {
            return sliced(vc.fieldRef());
        }
        Token fn = vc.WORD().getSymbol();
        if (!fn.getText().equals("len")) {
            throw error(fn, show(fn.getText()) + " is not a function; the function is len(FIELD)");
        }
        FilterField inner = sliced(vc.fieldRef());
        if (!Derived.hasBytes(inner.type())) {
            throw error(vc.fieldRef(), "len() needs a byte string, string, address or protocol, but " + inner.name()
                    + " is " + article(inner.type()));
        }
        return derive("len(" + inner.name() + ")", inner, Derived.Kind.LEN, new int[0], new int[0]);
    }

    /** A field, sliced when the reference has [ranges]. */
    private FilterField sliced(DisplayFilterParser.FieldRefContext ref) throws FilterException {
        Token tok = ref.WORD().getSymbol();
        FilterField f = resolver.resolve(tok.getText());
        if (f == null) {
            throw notAField(tok);
        }
        fields.add(f);
        if (ref.slice() == null) {
            return f;
        }
        if (!Derived.hasBytes(f.type())) {
            throw error(ref.slice(), f.name() + " (" + f.type().description() + ") cannot be sliced; slices need a byte string, "
                    + "string, address or protocol");
        }
        List<org.antlr.v4.runtime.tree.TerminalNode> ranges = ref.slice().WORD();
        int[] starts = new int[ranges.size()];
        int[] lengths = new int[ranges.size()];
        StringBuilder name = new StringBuilder(f.name()).append('[');
        for (int r = 0; r < ranges.size(); r++) {
            Token rt = ranges.get(r).getSymbol();
            long[] range = sliceRange(rt.getText());
            if (range == null) {
                throw error(rt, show(rt.getText()) + " is not a slice range; use [i], [i:length], [i-j], [i:] or [:length]"
                        + " (i may be negative: from the end)");
            }
            starts[r] = (int) range[0];
            lengths[r] = (int) range[1];
            name.append(r > 0 ? "," : "").append(rt.getText());
        }
        return derive(name.append(']').toString(), f, Derived.Kind.SLICE, starts, lengths);
    }

    /** Wireshark's ranges: "i" (1 byte), "i:n" (n bytes), "i-j" (i to j inclusive), "i:" (to the end), ":n". */
    private static long[] sliceRange(String s) {
        java.util.regex.Matcher m = RANGE.matcher(s);
        if (!m.matches()) {
            return null;
        }
        try {
            long start = m.group(1) == null || m.group(1).isEmpty() ? 0 : Long.parseLong(m.group(1));
            String sep = m.group(2);
            String end = m.group(3);
            if (Math.abs(start) > 1 << 20) {
                return null;
            }
            if (sep == null) {
                return new long[] {start, 1};
            }
            if (sep.equals(":")) {
                if (end.isEmpty()) {
                    return new long[] {start, -1};
                }
                long n = Long.parseLong(end);
                return n > 0 && n <= 1 << 20 ? new long[] {start, n} : null;
            }
            long last = Long.parseLong(end);    // "i-j": both non-negative, j >= i
            return start >= 0 && last >= start && last <= 1 << 20 ? new long[] {start, last - start + 1} : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static final Pattern RANGE = Pattern.compile("(-?\\d*)(?:([:-])(\\d*))?");

    private FilterField derive(String name, FilterField base, Derived.Kind kind, int[] starts, int[] lengths) {
        Derived d = new Derived(derived.size(), name, base, kind, starts, lengths);
        derived.add(d);
        return d.field;
    }

    /** The filter tree, with the derived fields computed when it runs. */
    private Node withDerived(Node root) {
        return derived.isEmpty() ? root : new Node.WithDerived(root, derived.toArray(Derived[]::new));
    }

    // ================================================================== literals

    private sealed interface Value permits LongV, NetV4, BytesV, NetV6, StrV {
        String text();
    }

    private record LongV(long v, String text) implements Value {
    }

    private record NetV4(long net, long netmask, String text) implements Value {
    }

    private record BytesV(byte[] b, String text) implements Value {
    }

    private record NetV6(byte[] net, int bits, String text) implements Value {
    }

    private record StrV(String s, String text) implements Value {
    }

    /** The key of {@code f.valueNames()} equal to {@code name} (exactly, else ignoring case), or null. */
    private static String valueName(FilterField f, String name) {
        Map<String, Long> names = f.valueNames();
        if (names.isEmpty() || !f.type().isLongValued()) {
            return null;
        }
        if (names.containsKey(name)) {
            return name;
        }
        for (String k : names.keySet()) {
            if (k.equalsIgnoreCase(name)) {
                return k;
            }
        }
        return null;
    }

    private static final Pattern BARE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> KEYWORDS = Set.of("eq", "any_eq", "ne", "all_ne", "all_eq", "any_ne", "lt", "le",
            "gt", "ge", "and", "or", "xor", "not", "in", "contains", "matches", "bitand", "bitwise_and", "any", "all");

    private static LongV named(FilterField f, String key) {
        String text = BARE_NAME.matcher(key).matches() && !KEYWORDS.contains(key) ? key : Literals.quote(key);
        return new LongV(f.valueNames().get(key), text);
    }

    private String decodeQuoted(Token tok) throws FilterException {
        return new String(decodeQuotedBytes(tok), StandardCharsets.UTF_8);
    }

    private byte[] decodeQuotedBytes(Token tok) throws FilterException {
        String s = tok.getText();
        boolean raw = tok.getType() == DisplayFilterParser.RAWSTRING;
        int bodyStart = raw ? 2 : 1;
        String body = s.substring(bodyStart, s.length() - 1);
        try {
            return Literals.decodeString(body, raw);
        } catch (Literals.BadEscape e) {
            int col = charIndex(tok.getStartIndex()) + bodyStart + e.offset + 1;
            throw new FilterException(e.getMessage(), text, col, e.length);
        }
    }

    private long decodeChar(Token tok) throws FilterException {
        String s = tok.getText();
        String body = s.substring(1, s.length() - 1);
        byte[] b;
        try {
            b = Literals.decodeString(body, false);
        } catch (Literals.BadEscape e) {
            throw new FilterException(e.getMessage(), text, charIndex(tok.getStartIndex()) + 2 + e.offset, e.length);
        }
        if (body.startsWith("\\") && b.length == 1) {
            return b[0] & 0xff;
        }
        String decoded = new String(b, StandardCharsets.UTF_8);
        if (!decoded.isEmpty() && decoded.codePointCount(0, decoded.length()) == 1) {
            return decoded.codePointAt(0);
        }
        throw error(tok, tok.getText() + " is not a valid character constant (one character or escape expected)");
    }

    /** Converts a literal token to a value of the field's type, or fails with a message at the token. */
    private Value literal(Token tok, FilterField f) throws FilterException {
        FieldType t = f.type();
        int tt = tok.getType();
        if (tt == DisplayFilterParser.CHAR) {
            long c = decodeChar(tok);
            switch (t) {
                case UNSIGNED, SIGNED:
                    return new LongV(c, Long.toString(c));
                case BOOLEAN:
                    return new LongV(c != 0 ? 1 : 0, c != 0 ? "1" : "0");
                case BYTES:
                    if (c <= 0xff) {
                        return new BytesV(new byte[] {(byte) c}, Literals.formatBytes(new byte[] {(byte) c}));
                    }
                    break;
                default:
                    break;
            }
            throw error(tok, "A character constant cannot be compared with " + f.name() + ", which is "
                    + article(t));
        }
        boolean quoted = tt == DisplayFilterParser.STRING || tt == DisplayFilterParser.RAWSTRING;
        String s;
        byte[] bytes = null;
        if (quoted) {
            bytes = decodeQuotedBytes(tok);
            s = new String(bytes, StandardCharsets.UTF_8);
        } else {
            s = tok.getText();
        }
        String key = valueName(f, s);
        if (key != null) {
            return named(f, key);
        }
        if (quoted && t == FieldType.STRING) {
            return new StrV(s, Literals.quote(s));
        }
        if (quoted && t == FieldType.BYTES) {
            return new BytesV(bytes, Literals.formatBytes(bytes));
        }
        Value v = parseTyped(s, t);
        if (v != null) {
            return v;
        }
        if (!quoted && looksLikeField(s)) {
            throw error(tok, show(s) + " is not a valid protocol or protocol field");
        }
        String what = article(t);
        if (!f.valueNames().isEmpty() && t.isLongValued()) {
            what += " or a value name of " + f.name();
        }
        throw error(tok, show(s) + " is not " + what);
    }

    private static boolean looksLikeField(String s) {
        if (s.isEmpty() || !Character.isLetter(s.charAt(0)) || s.indexOf('.') < 0) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    private static Value parseTyped(String s, FieldType t) {
        switch (t) {
            case UNSIGNED: {
                Long v = Literals.parseUnsigned(s);
                return v == null ? null : new LongV(v, Long.toUnsignedString(v));
            }
            case TIME: {
                Long v = Literals.parseSeconds(s);
                return v == null ? null : new LongV(v, Literals.formatSeconds(v));
            }
            case SIGNED: {
                Long v = Literals.parseSigned(s);
                return v == null ? null : new LongV(v, Long.toString(v));
            }
            case BOOLEAN: {
                Long v = Literals.parseBoolean(s);
                return v == null ? null : new LongV(v, Long.toString(v));
            }
            case IPV4: {
                int slash = s.indexOf('/');
                Long a = Literals.parseIPv4(slash < 0 ? s : s.substring(0, slash));
                if (a == null) {
                    return null;
                }
                if (slash < 0) {
                    return new LongV(a, Literals.formatIPv4(a));
                }
                int bits = Literals.parsePrefix(s.substring(slash + 1), 32);
                if (bits < 0) {
                    return null;
                }
                long netmask = bits == 0 ? 0 : (0xffffffffL << (32 - bits)) & 0xffffffffL;
                long net = a & netmask;
                return new NetV4(net, netmask, Literals.formatIPv4(net) + "/" + bits);
            }
            case IPV6: {
                int slash = s.indexOf('/');
                byte[] a = Literals.parseIPv6(slash < 0 ? s : s.substring(0, slash));
                if (a == null) {
                    return null;
                }
                if (slash < 0) {
                    return new BytesV(a, Literals.formatIPv6(a));
                }
                int bits = Literals.parsePrefix(s.substring(slash + 1), 128);
                if (bits < 0) {
                    return null;
                }
                byte[] net = Literals.maskPrefix(a, bits);
                return new NetV6(net, bits, Literals.formatIPv6(net) + "/" + bits);
            }
            case ETHER: {
                Long v = Literals.parseMac(s);
                return v == null ? null : new LongV(v, Literals.formatMac(v));
            }
            case BYTES: {
                byte[] b = Literals.parseBytes(s);
                return b == null ? null : new BytesV(b, Literals.formatBytes(b));
            }
            case STRING:
                return new StrV(s, Literals.quote(s));   // unquoted string (deprecated in Wireshark, accepted)
            default:
                return null;
        }
    }

    // ================================================================== tests

    private Node presence(OperandContext oc) throws FilterException {
        Operand o = operand(oc, null);
        if (!o.isField()) {
            throw notAField(o.token());
        }
        if (o.masked()) {
            return new Node.BitTest(o.text(), o.field(), o.effectiveMask());
        }
        return new Node.Present(o.field().name(), o.field());
    }

    private static boolean all(QuantifierContext q, boolean dflt) {
        return q == null ? dflt : q.ALL() != null;
    }

    private static String quantifierText(boolean all, boolean dflt) {
        return all == dflt ? "" : all ? "all " : "any ";
    }

    private static String opText(int op, boolean all) {
        return switch (op) {
            case Node.EQ -> all ? "===" : "==";
            case Node.NE -> all ? "!=" : "!==";
            case Node.LT -> "<";
            case Node.LE -> "<=";
            case Node.GT -> ">";
            default -> ">=";
        };
    }

    private enum Group { NUMBER, TIME, IPV4, ETHER, IPV6, STRING, BYTES, PROTOCOL }

    private static Group group(FieldType t) {
        return switch (t) {
            case BOOLEAN, UNSIGNED, SIGNED -> Group.NUMBER;
            case TIME -> Group.TIME;
            case IPV4 -> Group.IPV4;
            case ETHER -> Group.ETHER;
            case IPV6 -> Group.IPV6;
            case STRING -> Group.STRING;
            case BYTES -> Group.BYTES;
            case PROTOCOL -> Group.PROTOCOL;
        };
    }

    private Node compare(QuantifierContext q, OperandContext lc, Token opTok, OperandContext rc) throws FilterException {
        int op;
        boolean dflt;
        switch (opTok.getType()) {
            case DisplayFilterParser.EQ -> { op = Node.EQ; dflt = false; }
            case DisplayFilterParser.NE -> { op = Node.NE; dflt = true; }
            case DisplayFilterParser.ALL_EQ -> { op = Node.EQ; dflt = true; }
            case DisplayFilterParser.ANY_NE -> { op = Node.NE; dflt = false; }
            case DisplayFilterParser.LT -> { op = Node.LT; dflt = false; }
            case DisplayFilterParser.LE -> { op = Node.LE; dflt = false; }
            case DisplayFilterParser.GT -> { op = Node.GT; dflt = false; }
            default -> { op = Node.GE; dflt = false; }
        }
        boolean all = all(q, dflt);

        Operand l = operand(lc, null);
        Operand r = operand(rc, l.isField() ? l.field() : null);
        if (!l.isField()) {
            if (!r.isField()) {
                throw notAField(l.token());
            }
            Operand tmp = l;   // constant on the left: compare the other way round
            l = r;
            r = tmp;
            op = Node.flip(op);
        }
        noProtocol(l, opTok.getText());
        FilterField f = l.field();
        // "===" and "!==" already say all/any; ordering operators say it with a prefix.
        String prefix = op != Node.EQ && op != Node.NE && all ? "all " : "";
        String opText = opText(op, all);

        if (r.isField()) {
            noProtocol(r, opTok.getText());
            FilterField g = r.field();
            if (group(f.type()) != group(g.type())) {
                throw error(r.ctx(), f.name() + " (" + f.type().description() + ") and " + g.name() + " ("
                        + g.type().description() + ") cannot be compared");
            }
            String t = prefix + l.text() + " " + opText + " " + r.text();
            return switch (group(f.type())) {
                case NUMBER, TIME, IPV4, ETHER -> new Node.LongFieldCompare(t, f, l.effectiveMask(), Node.kindOf(f.type()),
                        g, r.effectiveMask(), Node.kindOf(g.type()), op, all);
                case IPV6, BYTES -> new Node.BytesFieldCompare(t, f, g, op, all);
                case STRING -> new Node.StringFieldCompare(t, f, g, op, all);
                case PROTOCOL -> throw new IllegalStateException();
            };
        }

        Value v = literal(r.token(), f);
        String t = prefix + l.text() + " " + opText + " " + v.text();
        if (v instanceof NetV4 || v instanceof NetV6) {
            if (op != Node.EQ && op != Node.NE) {
                throw error(r.token(), "A network (" + v.text() + ") can only be used with ==, !=, ===, !== and in");
            }
        }
        return switch (v) {
            case LongV lv -> f.type() != FieldType.BOOLEAN && ((op == Node.EQ && !all) || (op == Node.NE && all))
                    ? new Node.LongEquals(t, f, l.effectiveMask(), lv.v(), op == Node.NE)
                    : new Node.LongCompare(t, f, l.effectiveMask(), Node.kindOf(f.type()), op, all, lv.v());
            case NetV4 n -> new Node.LongNetwork(t, f, l.effectiveMask(), n.netmask(), n.net(), op == Node.EQ, all);
            case BytesV b -> new Node.BytesCompare(t, f, b.b(), op, all);
            case NetV6 n -> new Node.BytesNetwork(t, f, n.net(), n.bits(), op == Node.EQ, all);
            case StrV s -> new Node.StringCompare(t, f, s.s(), op, all);
        };
    }

    private Node membership(QuantifierContext q, OperandContext lc, boolean negated, List<SetElementContext> elements)
            throws FilterException {
        Operand l = fieldOperand(lc, negated ? "not in" : "in");
        FilterField f = l.field();
        boolean all = all(q, negated);
        StringBuilder t = new StringBuilder();
        t.append(quantifierText(all, negated)).append(l.text()).append(negated ? " not in {" : " in {");

        Group g = group(f.type());
        int kind = Node.kindOf(f.type());
        List<Long> points = new ArrayList<>();
        List<long[]> ranges = new ArrayList<>();
        List<Node.BytesElement> byteElements = new ArrayList<>();
        Set<String> strings = new HashSet<>();
        List<String[]> stringRanges = new ArrayList<>();

        boolean first = true;
        for (SetElementContext e : elements) {
            if (!first) {
                t.append(", ");
            }
            first = false;
            Token at = e.value(0).getStart();
            Value a = setValue(at, f);
            t.append(a.text());
            if (e.DOTDOT() == null) {
                switch (a) {
                    case LongV lv -> points.add(Node.LongInSet.key(lv.v(), kind));
                    case NetV4 n -> ranges.add(new long[] {Node.LongInSet.key(n.net(), kind),
                            Node.LongInSet.key(n.net() | (~n.netmask() & 0xffffffffL), kind)});
                    case BytesV b -> byteElements.add(new Node.BytesElement(b.b(), null, -1));
                    case NetV6 n -> byteElements.add(new Node.BytesElement(n.net(), null, n.bits()));
                    case StrV s -> strings.add(s.s());
                }
                continue;
            }
            Token bt = e.value(1).getStart();
            Value b = setValue(bt, f);
            t.append("..").append(b.text());
            if (a instanceof NetV4 || a instanceof NetV6 || b instanceof NetV4 || b instanceof NetV6) {
                throw error(e, "A network cannot be the bound of a range");
            }
            switch (a) {
                case LongV lo -> {
                    long klo = Node.LongInSet.key(lo.v(), kind);
                    long khi = Node.LongInSet.key(((LongV) b).v(), kind);
                    if (klo > khi) {
                        throw error(e, "The range " + a.text() + ".." + b.text() + " is empty (lower bound above upper bound)");
                    }
                    ranges.add(new long[] {klo, khi});
                }
                case BytesV lo -> {
                    byte[] hi = ((BytesV) b).b();
                    if (Arrays.compareUnsigned(lo.b(), hi) > 0) {
                        throw error(e, "The range " + a.text() + ".." + b.text() + " is empty (lower bound above upper bound)");
                    }
                    byteElements.add(new Node.BytesElement(lo.b(), hi, -1));
                }
                case StrV lo -> {
                    String hi = ((StrV) b).s();
                    if (lo.s().compareTo(hi) > 0) {
                        throw error(e, "The range " + a.text() + ".." + b.text() + " is empty (lower bound above upper bound)");
                    }
                    stringRanges.add(new String[] {lo.s(), hi});
                }
                default -> throw new IllegalStateException();
            }
        }
        t.append('}');
        String text = t.toString();
        return switch (g) {
            case NUMBER, TIME, IPV4, ETHER -> {
                long[] p = points.stream().mapToLong(Long::longValue).sorted().distinct().toArray();
                long[] lo = ranges.stream().mapToLong(r -> r[0]).toArray();
                long[] hi = ranges.stream().mapToLong(r -> r[1]).toArray();
                yield new Node.LongInSet(text, f, l.effectiveMask(), kind, p, lo, hi, negated, all);
            }
            case IPV6, BYTES -> new Node.BytesInSet(text, f, byteElements.toArray(Node.BytesElement[]::new), negated, all);
            case STRING -> new Node.StringInSet(text, f, Set.copyOf(strings),
                    stringRanges.stream().map(r -> r[0]).toArray(String[]::new),
                    stringRanges.stream().map(r -> r[1]).toArray(String[]::new), negated, all);
            case PROTOCOL -> throw new IllegalStateException();
        };
    }

    /** A set element must be a constant; a field name gets a precise message. */
    private Value setValue(Token tok, FilterField f) throws FilterException {
        try {
            return literal(tok, f);
        } catch (FilterException e) {
            if (tok.getType() == DisplayFilterParser.WORD && resolver.resolve(tok.getText()) != null) {
                throw error(tok, "Set elements must be constants; " + show(tok.getText()) + " is a field");
            }
            throw e;
        }
    }

    private Node contains(QuantifierContext q, OperandContext lc, OperandContext rc) throws FilterException {
        Operand l = operand(lc, null);
        if (!l.isField()) {
            throw notAField(l.token());
        }
        FilterField f = l.field();
        if (!l.masked() && f.type() != FieldType.STRING && Derived.hasBytes(f.type())) {
            // "frame contains 00:00", "eth.src contains 02:00": a protocol or address as its bytes, as in Wireshark.
            f = derive(f.name(), f, Derived.Kind.SLICE, new int[] {0}, new int[] {-1});
        }
        if (l.masked() || (f.type() != FieldType.STRING && f.type() != FieldType.BYTES)) {
            throw error(l.masked() ? lc : l.ctx(), f.name() + " (" + (l.masked() ? "masked " : "")
                    + f.type().description() + ") cannot be used with \"contains\"; it needs a string or byte string field");
        }
        boolean all = all(q, false);
        String prefix = quantifierText(all, false);
        Operand r = operand(rc, f);
        if (r.isField()) {
            FilterField g = r.field();
            if (r.masked() || g.type() != f.type()) {
                throw error(r.ctx(), f.name() + " (" + f.type().description() + ") cannot contain " + g.name() + " ("
                        + g.type().description() + ")");
            }
            String t = prefix + f.name() + " contains " + g.name();
            return f.type() == FieldType.STRING ? new Node.StringContains(t, f, null, g, all)
                    : new Node.BytesContains(t, f, null, g, all);
        }
        Value v = literal(r.token(), f);
        String t = prefix + f.name() + " contains " + v.text();
        return switch (v) {
            case StrV s -> new Node.StringContains(t, f, s.s(), null, all);
            case BytesV b -> new Node.BytesContains(t, f, b.b(), null, all);
            default -> throw new IllegalStateException();
        };
    }

    private Node matches(QuantifierContext q, OperandContext lc, OperandContext rc) throws FilterException {
        Operand l = fieldOperand(lc, "matches");
        FilterField f = l.field();
        if (l.masked() || f.type() != FieldType.STRING) {
            throw error(l.masked() ? lc : l.ctx(), f.name() + " (" + (l.masked() ? "masked " : "")
                    + f.type().description() + ") cannot be used with \"matches\"; it needs a string field");
        }
        Token rt = rc.value(0).getStart();
        if (rc.BITAND() != null
                || (rt.getType() != DisplayFilterParser.STRING && rt.getType() != DisplayFilterParser.RAWSTRING)) {
            throw error(rc, "The regular expression after \"matches\" must be a double-quoted string");
        }
        String regex = decodeQuoted(rt);
        Pattern p;
        try {
            // Wireshark: PCRE2, case-insensitive unless the pattern says (?-i).
            p = Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        } catch (IllegalArgumentException e) {
            String why = e instanceof PatternSyntaxException pse ? pse.getDescription()
                    + (pse.getIndex() >= 0 ? " near index " + pse.getIndex() : "") : e.getMessage();
            throw error(rt, "Invalid regular expression: " + why);
        } catch (StackOverflowError e) {
            throw error(rt, "Invalid regular expression: too complex");
        }
        boolean all = all(q, false);
        return new Node.StringMatches(quantifierText(all, false) + f.name() + " matches " + Literals.quote(regex), f, p, all);
    }
}
