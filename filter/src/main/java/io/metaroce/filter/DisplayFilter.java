package io.metaroce.filter;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * A compiled Wireshark display filter ({@code -Y}). Compile once with {@link #compile}, then call
 * {@link #matches} for each decoded frame. Instances are immutable and may be shared between threads.
 *
 * <p>Supported syntax (Wireshark 4 semantics):
 * <ul>
 * <li>presence: {@code mrth}, {@code aeth.syndrome}</li>
 * <li>comparisons {@code == != === !== ~= < <= > >=} and {@code eq ne any_eq all_ne all_eq any_ne lt le gt ge};
 *     {@code ==} is true when any occurrence equals, {@code !=} when none does, {@code ===} when all do,
 *     {@code !==} when some occurrence differs; {@code all}/{@code any} prefixes change the quantifier of any
 *     comparison. Every comparison is false when the field is absent (Wireshark's implicit "exists").</li>
 * <li>{@code f in {1 2 10..20}}, {@code f in {1, 2}}, {@code f not in {...}}, {@code not f in {...}}</li>
 * <li>{@code contains} (string, byte string), {@code matches} / {@code ~} (string, Java regex,
 *     case-insensitive unless the pattern has {@code (?-i)}, as in Wireshark)</li>
 * <li>bitwise and {@code f & 0x80} (true when some masked occurrence is non-zero) and
 *     {@code f & 0x60 == 0x60}; also {@code bitand}, {@code bitwise_and}</li>
 * <li>{@code not ! and && xor ^^ or ||} with precedence not &gt; and &gt; xor &gt; or, and parentheses</li>
 * <li>literals: integers (decimal, {@code 0x1f}, {@code 017}, {@code 0b101}, {@code 'a'}), {@code true}/{@code false},
 *     IPv4 and IPv4 CIDR, IPv6 and IPv6 prefixes, MAC addresses ({@code :} {@code -} {@code .} separated),
 *     byte strings {@code de:ad:be:ef}, strings {@code "..."} with C escapes and raw strings {@code r"..."},
 *     symbolic value names (bare or quoted)</li>
 * <li>field-to-field comparison {@code bth.psn == aeth.msn}; a constant may also be on the left</li>
 * </ul>
 */
public final class DisplayFilter {
    private final String text;
    private final Node root;
    private final Set<FilterField> fields;
    private final String normalized;

    private DisplayFilter(String text, Node root, Set<FilterField> fields) {
        this.text = text;
        this.root = root;
        this.fields = Collections.unmodifiableSet(new LinkedHashSet<>(fields));
        StringBuilder sb = new StringBuilder();
        root.print(sb);
        this.normalized = sb.toString();
    }

    /**
     * Compiles a filter. An empty (or blank) filter matches every frame.
     *
     * @throws FilterException with the 1-based column of the problem for syntax errors, unknown fields,
     *                         literals that do not fit the field type and operators the field does not support
     */
    public static DisplayFilter compile(String text, FieldResolver resolver) throws FilterException {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(resolver, "resolver");
        FilterCompiler compiler = new FilterCompiler(text, resolver);
        Node root;
        try {
            root = compiler.compile();
        } catch (StackOverflowError e) {
            throw new FilterException("The filter is too complex", text, 1, Math.max(1, text.length()));
        }
        return new DisplayFilter(text, root, compiler.fields());
    }

    /** True when the frame passes the filter. Does not allocate for numeric tests. */
    public boolean matches(FieldAccessor frame) {
        return root.test(frame);
    }

    /** Every field and protocol the filter reads, in order of first appearance. */
    public Set<FilterField> referencedFields() {
        return fields;
    }

    /** True for the empty filter, which matches everything. */
    public boolean matchesAll() {
        return root instanceof Node.True;
    }

    /** The filter text as given to {@link #compile}. */
    public String text() {
        return text;
    }

    /**
     * Normalized form: canonical field names (aliases resolved), {@code and}/{@code or}/{@code xor}/{@code not},
     * minimal parentheses, canonical literals. Compiling it again gives an equivalent filter with the same
     * normalized form.
     */
    @Override
    public String toString() {
        return normalized;
    }
}
